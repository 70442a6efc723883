"""The table screen with the house rules on (RULES.md §11): jokers drawn and named, the
"Rummy!" window (its countdown, r and x, the banner), team letters, the help, 80×24."""

from __future__ import annotations

import asyncio

import pytest

from rum500.i18n import set_language
from rum500.rules import Game, Options
from rum500.tui import describe, render
from rum500.tui.keys import key_bar
from rum500.tui.layout import Plan
from rum500.tui.model import TableModel, Zone
from tests.rules.positions import position

JOKERS = Options(jokers=True)
CALLS = Options(rummy_calls=True)


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def text(fragments: list) -> str:
    return "".join(f[1] for f in fragments)


def lines_text(lines: list) -> str:
    return "\n".join(text(line) for line in lines)


def seated_at(game: Game, seat: int = 0, ascii: bool = False, **extra: object) -> TableModel:
    """A model showing ``seat``'s view of ``game`` (plus ``extra`` view keys); what it sends
    is kept in ``model.sent``."""
    model = TableModel(name="Ann", ascii=ascii)

    async def send(action: dict) -> None:
        return None

    model.send = send
    model.spawn = lambda coro: coro.close()  # type: ignore[assignment]
    model.apply_message({"type": "welcome", "seat": seat})
    model.apply_message({"type": "state", "view": {**game.view(seat), **extra}, "events": []})
    return model


def keys_of(model: TableModel) -> set[str]:
    return {k for k, _label, _fn in key_bar(model)}


# ---------------------------------------------------------------------- jokers


def test_a_joker_is_drawn_apart_and_a_melded_joker_shows_what_it_stands_for() -> None:
    g = position(["JK 2C 3D", "4S 5S 6S"], melds=[("7H 8H JK=9H", 1)], options=JOKERS)
    for ascii, joker, melded in ((False, "🃏", "🃏9♥"), (True, "*", "*9H")):
        model = seated_at(g, ascii=ascii)
        hand, _focus = render.hand_lines(model)
        assert joker in lines_text(hand)
        assert "JK" not in lines_text(hand) and "JK" not in lines_text(render.meld_lines(model)[0])
        melds = lines_text(render.meld_lines(model)[0])
        assert f"8{'H' if ascii else '♥'} {melded}]" in melds
        assert describe.card_text("JK", ascii) == joker
    styles = [f[0] for f in render.card(seated_at(g), "JK")]
    assert "class:card.joker" in styles[0]


def test_melding_with_a_joker_that_could_be_two_cards_asks_which() -> None:
    g = position(["7H 8H JK 2C", "4S 5S 6S"], phase="play", options=JOKERS)
    model = seated_at(g)
    model.selection.selected.update(["7H", "8H", "JK"])
    model.meld_selected()
    assert model.overlay == "choose" and model.sent == []
    labels = [label for label, _a in model.choices]
    assert labels == ["meld 🃏6♥ 7♥ 8♥", "meld 7♥ 8♥ 🃏9♥"]
    assert {"1", "2", "Esc"} <= keys_of(model)
    model.choose_pick(1)
    assert model.sent == [{"type": "meld", "cards": ["7H", "8H", "JK"], "jokers": ["9H"]}]
    assert model.overlay is None and not model.selection.selected


def test_melding_with_a_joker_that_fits_one_way_asks_nothing() -> None:
    g = position(["AH 2H JK 9C", "4S 5S 6S"], phase="play", options=JOKERS)
    model = seated_at(g)
    model.selection.selected.update(["AH", "2H", "JK"])
    model.meld_selected()
    assert model.overlay is None
    assert model.sent == [{"type": "meld", "cards": ["AH", "2H", "JK"], "jokers": ["3H"]}]


def test_laying_off_a_joker_offers_only_the_legal_names() -> None:
    g = position(["JK 2C", "4S 5S 9D"], melds=[("5H 6H 7H", 1)], phase="play", options=JOKERS)
    model = seated_at(g)
    model.selection.zone = Zone.HAND
    model.selection.hand_cursor = model.tableview.hand().index("JK")
    model.lay_off()
    assert model.overlay == "choose"
    assert [a["joker"] for _label, a in model.choices] == ["4H", "8H"]
    model.close_overlay()
    assert model.overlay is None and model.sent == []


# ---------------------------------------------------------------------- "Rummy!"


def claim_game() -> Game:
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=CALLS
    )
    g.apply({"type": "discard", "card": "7D"})
    return g


def window(seconds: float, waiting: list[int], passed: list[int] | None = None) -> dict:
    return {"seconds_left": seconds, "waiting": waiting, "passed": passed or []}


def with_window(g: Game, seat: int, seconds: float, waiting: list[int]) -> TableModel:
    view = g.view(seat)
    view["claim"] = {**view["claim"], **window(seconds, waiting)}
    model = seated_at(g, seat)
    model.apply_message({"type": "state", "view": view, "events": []})
    return model


def test_every_seat_sees_the_countdown_and_a_caller_has_r_and_x() -> None:
    g = claim_game()
    now = [100.0]
    caller = with_window(g, 2, 3.0, [1, 2])
    caller.claim.clock = lambda: now[0]
    caller.claim.update({**g.view(2)["claim"], **window(3.0, [1, 2])})
    status = text(render.status(caller))
    assert "Ann discarded 7♦" in status or "discarded 7♦" in status
    assert "r = Rummy!" in status and status.endswith("3 s")
    now[0] += 1.2
    assert text(render.status(caller)).endswith("2 s")  # counted down on our own clock
    assert {"r", "x"} <= keys_of(caller)
    caller.claim.call()
    assert caller.sent == [{"type": "rummy", "seat": 2, "meld": 0}]
    discarder = with_window(g, 0, 3.0, [1, 2])
    assert "your 7♦" in text(render.status(discarder))
    assert not {"r", "x"} & keys_of(discarder)
    discarder.claim.call()
    assert discarder.sent == [] and "own discard" in discarder.feed.message


def test_x_passes_and_a_seat_with_nothing_to_call_is_told_why() -> None:
    g = position(
        ["2C 7D 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=CALLS
    )
    g.apply({"type": "discard", "card": "2C"})
    model = with_window(g, 1, 3.0, [1, 2])
    assert "r" not in keys_of(model) and "x" in keys_of(model)
    model.claim.call()
    assert model.sent == [] and "2♣ cannot be laid off" in model.feed.message
    model.claim.pass_()
    assert model.sent == [{"type": "pass"}]


def test_a_call_shows_a_banner_on_every_seat_and_the_log_says_who_took_what() -> None:
    g = claim_game()
    events = g.apply({"type": "rummy", "meld": 0}, seat=2)
    for seat in (0, 1, 2):
        model = seated_at(g, seat)
        model.tableview.names = ["Ann", "Bea", "Cid"]
        model.apply_message({"type": "state", "view": g.view(seat), "events": events})
        assert "Cid calls Rummy! and takes 7♦ from Ann." in model.feed.log
        assert model.banner_text() == "Cid calls Rummy! and takes 7♦ from Ann."
        plan = Plan(model, (80, 24))
        assert plan.h["banner"] == 1 and sum(plan.h.values()) == 24
    model.claim.banner_until = 0.0  # the banner's few seconds are over
    assert model.banner_text() == "" and Plan(model, (80, 24)).h["banner"] == 0


def test_a_question_is_dropped_when_the_window_closes_meanwhile() -> None:
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"],
        melds=[("4D 5D 6D", 1), ("7H 7S 7C", 2)],
        phase="play",
        options=CALLS,
    )
    g.apply({"type": "discard", "card": "7D"})
    model = with_window(g, 1, 3.0, [1, 2])
    model.claim.call()
    assert model.overlay == "choose" and len(model.choices) == 2
    g.apply({"type": "close_claims"})
    model.apply_message({"type": "state", "view": g.view(1), "events": [{"type": "close_claims"}]})
    assert model.overlay is None and model.choices == []
    model.choose_pick(0)
    assert model.sent == []


# ---------------------------------------------------------------------- teams, help, 80×24


def test_team_letters_in_the_players_block_and_the_help_explains_the_house_rules() -> None:
    options = Options(teams=2, jokers=True, rummy_calls=True, ace_always_15=True)
    g = Game(4, seed=3, options=options)
    model = seated_at(g)
    model.tableview.names = ["Ann", "Bea", "Cid", "Dan"]
    shown = lines_text(render.players_lines(model, 80))
    for letter, name in (("A", "Ann"), ("B", "Bea"), ("A", "Cid"), ("B", "Dan")):
        assert f"{letter}·{name}" in shown
    help_text = "\n".join(model.help_lines())
    assert "HOUSE RULES AT THIS TABLE" in help_text
    for words in ("Jokers: two per deck", "Rummy!: after every discard", "2 teams", "Aces score"):
        assert words in help_text
    plain = seated_at(Game(4, seed=3))
    assert "HOUSE RULES" not in "\n".join(plain.help_lines())


@pytest.mark.parametrize("players", [4, 6])
def test_the_house_rules_fit_80x24(players: int) -> None:
    options = Options(teams=2, jokers=True, rummy_calls=True)
    g = Game(players, seed=4, options=options)
    model = seated_at(g, ascii=False)
    plan = Plan(model, (80, 24))
    assert sum(plan.h.values()) == 24
    for lines in (plan.players, plan.pile, plan.melds, plan.hand, plan.keys):
        assert all(render.width_of(line) <= 80 for line in lines)
    assert all(render.width_of(line) <= 80 for line in render.players_lines(model, 80))


async def test_r_and_x_are_keys_of_the_table_screen() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from rum500.tui.app import build_table_app

    g = claim_game()
    model = with_window(g, 2, 3.0, [1, 2])
    sent: list[dict] = []

    async def send(action: dict) -> None:
        sent.append(action)

    with create_pipe_input() as pipe:
        app = build_table_app(model, input=pipe, output=DummyOutput())
        model.send = send
        task = asyncio.ensure_future(app.run_async())
        pipe.send_text("r")
        await asyncio.wait_for(_until(lambda: sent), 5)
        app.exit()
        await asyncio.wait_for(task, 5)
    assert sent == [{"type": "rummy", "seat": 2, "meld": 0}]


async def _until(check) -> None:  # type: ignore[no-untyped-def]
    while not check():
        await asyncio.sleep(0.01)


def test_team_lines_on_the_score_sheet_the_score_table_and_the_chart() -> None:
    from rum500.tui import sheets

    g = position(
        ["9S", "2C 3C", "KH", "QS QD"],
        melds=[("4H 5H 6H", 0), ("7S 7D 7C", 2)],
        phase="play",
        options=Options(teams=2),
    )
    g.apply({"type": "discard", "card": "9S"})  # seat 0 goes out
    model = seated_at(g)
    model.tableview.names = ["Ann", "Bea", "Cid", "Dan"]
    result = model.tableview.view["last_hand"]
    assert result["team_scores"] == [15 + 21 - 10, -5 - 20]
    sheet = lines_text(sheets.review_lines(model, 76))
    assert "Team A (Ann, Cid)" in sheet and "+26" in sheet
    assert "Team B (Bea, Dan)" in sheet and "-25" in sheet
    table = lines_text(sheets.score_table_lines(model, 76))
    assert "Team A (Ann, Cid): 26" in table and "Team B (Bea, Dan): -25" in table
    chart = text(render.chart(model, width=60))
    assert "Team A" in chart and "Team B" in chart and "Ann" not in chart


async def test_the_lobby_host_form_sets_every_house_rule() -> None:
    from rum500.tui.lobby import LobbyModel, _lobby_text

    model = LobbyModel("Ann")
    model.open_form("host")
    fields = {f.key: f for f in model.form or []}
    for key in ("jokers", "rummy_calls", "teams", "ace_always_15"):
        assert key in fields, key
    fields["jokers"].step(1)
    fields["rummy_calls"].step(2)  # off -> 1 s -> 2 s
    fields["teams"].step(1)
    fields["ace_always_15"].step(1)
    v = model.values()
    assert (v["jokers"], v["rummy_calls"], v["teams"], v["ace_always_15"]) == (True, 2, 2, True)
    shown = text(_lobby_text(model))
    assert "Rummy! calls" in shown and "2 s to call" in shown
    assert len(shown.rstrip("\n").split("\n")) <= 24  # the whole form fits 80×24
    assert all(len(line) <= 80 for line in shown.split("\n"))


def test_my_turn_begins_when_the_window_before_my_draw_closes() -> None:
    g = claim_game()
    model = with_window(g, 1, 3.0, [1, 2])  # seat 1 is next: it waits for the window
    assert model.tableview.my_turn and "h" not in keys_of(model)
    assert "s" not in keys_of(model)  # no draw while calls are open
    g.apply({"type": "close_claims"})
    model.apply_message({"type": "state", "view": g.view(1), "events": [{"type": "close_claims"}]})
    assert model.feed.message == "Your turn: draw from the stock (s) or take from the pile (t)."
    assert "s" in keys_of(model)
