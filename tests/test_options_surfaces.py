"""Every table option reaches every surface from its metadata alone (rum500.rules.options.
OPTION_SPECS): the CLI flags of play/host/sim and options_from_args, the lobby's host and solo
forms, the help screen, rum500 sim, the TXT record and `rum500 list`, welcome's `changed`,
hello's `options`, and the bots' SeatView. These tests iterate the metadata: an option added
with its metadata (as §12.5's ten_cards was, with no code of its own in any of these places) is
checked on every surface by the same lines. Then ten_cards through the game log and export."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rum500.bots.seat import read_view
from rum500.cli import build_parser, command_config, main
from rum500.client import RumClient
from rum500.host import HostConfig, start_host
from rum500.i18n import _, set_language
from rum500.narrate import options_text
from rum500.rules import Game, Options
from rum500.rules.options import GROUP_TITLES, OPTION_NAMES, OPTION_SPECS, OptionSpec
from rum500.runners import options_from_args
from rum500.sim import house_rules, simulate
from rum500.tui.helptext import house_rules_text
from rum500.tui.lobby import host_form, options_of_form, solo_form

IDS = [s.name for s in OPTION_SPECS]


def other_value(s: OptionSpec) -> Any:
    """A value of the option other than its default."""
    if s.kind == "bool":
        return True
    if s.kind == "int":
        return s.low if s.low != s.default else s.high
    return next(v for v in s.flag_choices() if v != s.default)


def changes(s: OptionSpec) -> dict[str, Any]:
    """The option at :func:`other_value`, with the option it is only played with on
    (``needs``: §12.4's joker_as_card needs jokers)."""
    return {**({s.needs: True} if s.needs else {}), s.name: other_value(s)}


def players_for(options: Options) -> int:
    """The fewest players these options are meant for (each option changes something)."""
    for n in range(2, 9):
        try:
            options.validate(n)
        except ValueError:
            continue
        return n
    raise AssertionError(f"no table plays {options}")


def argv(s: OptionSpec, value: Any) -> list[str]:
    return [s.flag] if s.kind == "bool" else [s.flag, str(value)]


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


# ---------------------------------------------------------------------- the command line


@pytest.mark.parametrize("command", ["play", "host", "sim"])
def test_every_option_has_its_flag_in_its_group(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    flags = {o: a for a in sub._actions for o in a.option_strings}
    titles = {
        o: g.title for g in sub._action_groups for a in g._group_actions for o in a.option_strings
    }
    for s in OPTION_SPECS:
        assert s.flag in flags, (command, s.name)
        assert flags[s.flag].dest == s.name and flags[s.flag].default == s.default
        if not (command == "sim" and s.name == "target"):  # sim's --target is its own
            assert flags[s.flag].help == _(s.help)
            assert titles[s.flag] == _(GROUP_TITLES[s.group])


@pytest.mark.parametrize("s", OPTION_SPECS, ids=IDS)
@pytest.mark.parametrize("command", ["play", "host"])
def test_each_flag_sets_its_option(command: str, s: OptionSpec) -> None:
    value = other_value(s)
    args = build_parser().parse_args([command, *argv(s, value)])
    assert options_from_args(args) == Options(**{s.name: value})
    assert options_from_args(build_parser().parse_args([command])) == Options()


@pytest.mark.parametrize("s", [s for s in OPTION_SPECS if s.name != "target"], ids=IDS[1:])
def test_sim_takes_each_option(s: OptionSpec) -> None:
    value = other_value(s)
    sim, plain = (
        command_config(build_parser().parse_args(a)) for a in (["sim", *argv(s, value)], ["sim"])
    )
    assert house_rules(sim) == {s.name: value}  # type: ignore[arg-type]
    assert house_rules(plain) == {}  # type: ignore[arg-type]


def test_sim_plays_ten_cards_with_every_level() -> None:
    report = simulate(
        2, 2, ["expert", "hard", "medium", "easy", "random"], hands=1, seed=3, jobs=1,
        options={"ten_cards": True},
    )  # fmt: skip
    assert report["options"] == {"ten_cards": True}
    assert sum(s["hands"] for s in report["levels"].values()) == 2 * 2


# ---------------------------------------------------------------------- the lobby


@pytest.mark.parametrize("form", [host_form, solo_form])
def test_the_lobby_forms_have_a_line_per_option_and_read_back(form: Any) -> None:
    fields = {f.key: f for f in form("Ann")}
    assert options_of_form({k: f.value for k, f in fields.items()}) == (Options(), 3.0)
    for s in OPTION_SPECS:
        f = fields[s.name]
        assert f.label == _(s.label)
        default = f.value
        f.step(1)  # the next value of the line
        options, _window = options_of_form({k: f.value for k, f in fields.items()})
        assert getattr(options, s.name) != s.default, s.name
        assert options.changed() == {s.name: getattr(options, s.name)}
        f.value = default


def test_the_lobby_shows_each_value_by_its_label() -> None:
    fields = {f.key: f for f in host_form("Ann")}
    for s in OPTION_SPECS:
        if s.kind != "int" and s.name != "rummy_calls":  # calls: the window's seconds
            assert fields[s.name].shown() == _(s.value_label(s.default))


# ---------------------------------------------------------------------- the help screen


@pytest.mark.parametrize("s", [s for s in OPTION_SPECS if s.explain], ids=lambda s: s.name)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_help_screen_explains_each_house_rule_and_variant(s: OptionSpec, lang: str) -> None:
    set_language(lang)
    value = other_value(s)
    text = house_rules_text({s.name: value})
    assert text.startswith(_("HOUSE RULES AT THIS TABLE"))
    first = _(s.explain).splitlines()[0].format(n=value)
    assert first in text
    assert house_rules_text(Options().to_dict()) == ""


# ---------------------------------------------------------------------- the wire


@pytest.mark.parametrize("s", OPTION_SPECS, ids=IDS)
async def test_txt_record_list_welcome_and_hello_carry_each_option(s: OptionSpec) -> None:
    value = other_value(s)
    options = Options(**changes(s))
    players = players_for(options)
    host = await start_host(HostConfig(bind="127.0.0.1", players=players, seed=1, options=options))
    try:
        txt = json.loads(host.txt()["options"])
        assert txt == changes(s)
        assert f"{s.name}={value}" in options_text(txt).split()  # as `rum500 list` says
        assert list(RumClient.options) == list(OPTION_NAMES)  # hello names every option
        client = await RumClient.connect(host.address, host.port, name="Ann")
        try:
            assert client.table_info["changed"] == changes(s)
        finally:
            await client.close()
    finally:
        await host.close()


@pytest.mark.parametrize("s", OPTION_SPECS, ids=IDS)
def test_the_bots_view_carries_each_option(s: OptionSpec) -> None:
    options = Options(**changes(s))
    game = Game(players_for(options), seed=2, options=options)
    seat = game.to_move
    assert seat is not None
    view = read_view(game.view(seat))
    assert view.options == options
    plain = Game(2, seed=2)
    assert read_view(plain.view(game_seat(plain))).options == Options()


def game_seat(game: Game) -> int:
    assert game.to_move is not None
    return game.to_move


# ---------------------------------------------------------------------- ten_cards on disk


def test_ten_cards_through_the_game_log_export_and_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rum500.store import Journal, open_db
    from rum500.store.log import load_for_resume, load_match

    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "home"))
    options = Options(ten_cards=True, target=150)
    game = Game(2, 21, options)
    rng = random.Random(21)
    names = ["Ann", "Bob"]
    with Journal() as journal:
        journal.start_match(
            {
                "players": 2,
                "seed": game.seed,
                "options": options.to_dict(),
                "deck": game.first_deck,
                "table": "Kitchen",
                "seats": [
                    {"name": n, "token": f"t{k}", "bot": "random" if k else None}
                    for k, n in enumerate(names)
                ],
            }
        )
        while game.to_move is not None and len(game.actions) < 120:
            seat = game.to_move
            game.apply(rng.choice(game.legal_actions()), seat)
            journal.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
    resumed, _seats, info = load_for_resume("latest")
    assert info["options"] == options.to_dict() and resumed.to_dict() == game.to_dict()
    assert resumed.hand_size == 10
    conn = open_db()
    mid = conn.execute("SELECT max(id) FROM matches").fetchone()[0]
    conn.close()
    file = tmp_path / "ten.rum500.json"
    assert main(["export", str(mid), str(file)]) == 0, capsys.readouterr().err
    assert json.loads(file.read_text())["match"]["options"]["ten_cards"] is True
    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "friend"))
    assert main(["import", str(file)]) == 0, capsys.readouterr().err
    conn = open_db()
    mine = load_match(conn, 1)
    conn.close()
    assert mine["options"] == options.to_dict()
    assert [a["action"] for a in mine["actions"]] == game.actions
