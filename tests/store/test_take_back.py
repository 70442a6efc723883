"""``Journal.take_back``: a taken-back meld or lay-off leaves the log, which replays exactly."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from rum500.rules import Game, Options
from rum500.store import Journal, load_for_resume

from .conftest import match_info


def logged_actions(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        return [n for (n,) in conn.execute("SELECT n FROM actions ORDER BY n")]
    finally:
        conn.close()


def test_take_back_leaves_a_log_that_replays_to_the_live_game(home: Path) -> None:
    rng = random.Random(5)
    game = Game(3, 77, Options(target=300))
    taken_back = 0
    with Journal() as j:
        j.start_match(match_info(game, ["Ann", "Bob", "Cleo"]))
        while game.to_move is not None and taken_back < 6:
            seat = game.to_move
            action = rng.choice(game.legal_actions())
            game.apply(action, seat)
            j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
            if game.actions[-1]["type"] in ("meld", "layoff") and game.to_move == seat:
                before = len(game.actions) - 1
                undone = game.pop()
                assert undone["type"] in ("meld", "layoff")
                j.take_back(before)
                taken_back += 1
                assert logged_actions(home) == list(range(len(game.actions)))
                restored, _, _ = load_for_resume("latest")
                assert restored.to_dict() == game.to_dict()
        assert taken_back == 6
        # the match goes on after a take-back: new actions follow on in the log
        for _ in range(20):
            if game.to_move is None:
                break
            seat = game.to_move
            game.apply(rng.choice(game.legal_actions()), seat)
            j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
    restored, _, _ = load_for_resume("latest")
    assert restored.to_dict() == game.to_dict()


def test_take_back_of_two_actions_at_once_and_of_nothing(home: Path) -> None:
    game = Game(2, 3, Options())
    with Journal() as j:
        j.start_match(match_info(game, ["Ann", "Bob"]))
        for _ in range(9):
            seat = game.to_move
            assert seat is not None
            game.apply(game.legal_actions()[0], seat)
            j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
        j.take_back(99)  # past the end: nothing to take back
        assert logged_actions(home) == list(range(9))
        game.pop()
        game.pop()
        j.take_back(7)
        assert logged_actions(home) == list(range(7))
        assert j.warning is None
    restored, _, _ = load_for_resume("latest")
    assert restored.to_dict() == game.to_dict()
