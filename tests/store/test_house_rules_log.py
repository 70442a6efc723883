"""The game log with every house rule on (RULES.md §11): the options and the jokers' names are
in the log; resume, history, stats, replay (jokers shown with what they stand for), export and
import work; a real host's log of a match with "Rummy!" calls replays."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options, Phase
from rum500.store import Journal, open_db
from rum500.store.log import load_for_resume, load_match, rebuild
from rum500.store.replay import plain_what
from rum500.tui.replay import ReplayModel

from .conftest import match_info

ALL = Options(target=150, jokers=True, rummy_calls=True, teams=2, ace_always_15=True)
NAMES = ["Ann", "Bob", "Cleo", "Dan"]


def play_house(journal: Journal, seed: int, stop_after: int | None = None) -> Game:
    """Random legal play as a host journals it: in a claim phase a random seat calls "Rummy!"
    when it can (half the time), else the host closes the window (seat None)."""
    rng = random.Random(seed)
    game = Game(4, seed, ALL)
    journal.start_match(match_info(game, NAMES))
    while game.to_move is not None:
        if stop_after is not None and len(game.actions) >= stop_after:
            break
        seat: int | None
        if game.phase is Phase.CLAIM:
            calls = [c for s in game.claim_seats() for c in game.claims(s)]
            if calls and rng.random() < 0.5:
                action = rng.choice(calls)
                seat = action["seat"]
            else:
                action, seat = {"type": "close_claims"}, None
        else:
            seat = game.to_move
            action = rng.choice(game.legal_actions())
        game.apply(action, seat)
        journal.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
        if game.to_move is None:
            journal.finish(game.winner, list(game.totals))
    return game


def kinds(game: Game) -> set[str]:
    out = {a["type"] for a in game.actions}
    if any(a.get("jokers") or a.get("joker") for a in game.actions):
        out.add("joker named")
    return out


@pytest.fixture
def house(home: Path) -> Game:
    """A finished match with jokers named and a "Rummy!" call in its log (the first seed that
    has both)."""
    for seed in range(1, 40):
        with Journal() as j:
            game = play_house(j, seed)
        if {"rummy", "close_claims", "joker named"} <= kinds(game):
            return game
    raise AssertionError("no seed gave a match with a call and a named joker")


def test_the_log_holds_the_options_and_every_jokers_name(house: Game) -> None:
    conn = open_db()
    mid = conn.execute("SELECT max(id) FROM matches").fetchone()[0]
    match = load_match(conn, mid)
    conn.close()
    assert match["options"] == ALL.to_dict()
    assert [e["action"] for e in match["actions"]] == house.actions
    closes = [e for e in match["actions"] if e["action"]["type"] == "close_claims"]
    assert closes and all(e["seat"] is None for e in closes)  # the host's own action
    rebuilt = rebuild(match)
    assert rebuilt.to_dict() == house.to_dict()
    assert rebuilt.totals == house.totals and rebuilt.team_totals() == house.team_totals()


def test_history_and_stats_with_every_option(
    house: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "--all", "--json"]) == 0
    h = json.loads(capsys.readouterr().out)
    newest = h[0]
    assert newest["status"] == "finished" and newest["totals"] == house.totals
    assert newest["winner"] == NAMES[house.winner]
    assert main(["stats", "Ann", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["matches"] >= 1


def test_replay_shows_jokers_with_what_they_stand_for(house: Game) -> None:
    conn = open_db()
    mid = conn.execute("SELECT max(id) FROM matches").fetchone()[0]
    match = load_match(conn, mid)
    conn.close()
    model = ReplayModel(match)
    assert len(model.frames) == len(house.actions) + 1
    whats = [plain_what(f.what) for f in model.frames]
    assert any("called Rummy! and laid" in w for w in whats)
    assert any("nobody called Rummy!" in w for w in whats)
    named = 0  # a joker melded or laid off is written with the card it stands for: 🃏9♥
    for k, entry in enumerate(match["actions"], start=1):
        action = entry["action"]
        jokers = action.get("jokers") or ([action["joker"]] if action.get("joker") else [])
        for stands in jokers:
            named += 1
            assert f"JK={stands}" in whats[k], whats[k]
            assert "joker as" not in whats[k] and "(as " not in whats[k]
            model.go(k)
            event_line = "".join(t for _s, t, *_ in model.render()).splitlines()[2]
            suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[stands[-1]]
            assert f"🃏{stands[:-1]}{suit}" in event_line, event_line
    assert named
    shown = False
    for k, frame in enumerate(model.frames):
        stands = [s for m in frame.melds for s in m.get("stands_for") or [] if s]
        if stands:
            model.go(k)
            fancy = "".join(t for _s, t, *_ in model.render())
            plain = "".join(t for _s, t, *_ in model.render(ascii_only=True))
            assert f"JK={stands[0]}" in plain
            assert "🃏" + stands[0][:-1] in fancy
            shown = True
            break
    assert shown


def test_export_import_and_resume_with_every_option(
    house: Game,
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conn = open_db()
    mid = conn.execute("SELECT max(id) FROM matches").fetchone()[0]
    conn.close()
    file = tmp_path / "house.rum500.json"
    assert main(["export", str(mid), str(file)]) == 0, capsys.readouterr().err
    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "friend"))
    code = main(["import", str(file)])
    assert code == 0, capsys.readouterr().err
    conn = open_db()
    mine = load_match(conn, 1)
    conn.close()
    assert [a["action"] for a in mine["actions"]] == house.actions
    assert mine["options"] == ALL.to_dict() and mine["totals"] == house.totals
    # an unfinished match with every option resumes where it was left
    with Journal() as j:
        half = play_house(j, 5, stop_after=60)
    game, seats, info = load_for_resume("latest")
    assert game.to_dict() == half.to_dict()
    assert info["options"] == ALL.to_dict() and [s["name"] for s in seats] == NAMES


async def test_a_hosts_log_of_a_match_with_calls_replays_without_a_warning(home: Path) -> None:
    warnings: list[str] = []
    journal = Journal(on_warning=warnings.append)
    options = Options(target=100, jokers=True, rummy_calls=True)
    host = await start_host(
        HostConfig(players=3, bots=3, bot_level="random", seed=9, options=options, journal=journal)
    )
    try:
        host.start_now()
        await asyncio.wait_for(host.finished(), 120)
    finally:
        await host.close()
        journal.close()
    assert warnings == []
    conn = open_db()
    match = load_match(conn, 1)
    conn.close()
    assert any(e["action"]["type"] == "close_claims" for e in match["actions"])
    assert rebuild(match).to_dict() == host.table.game.to_dict()
