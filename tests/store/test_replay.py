"""The replay viewer: the model, its keys, and the real thing in tmux."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500 import cards as C
from rum500.rules import Game, Options
from rum500.store import Journal, open_db
from rum500.store.log import load_match
from rum500.tui.replay import ReplayModel, build_app

from .conftest import play


@pytest.fixture
def finished(home: Path) -> tuple[dict, Game]:
    with Journal() as j:
        game = play(j, 4, ["Ann", "Bob", "Cleo"], target=150)
    conn = open_db()
    match = load_match(conn, 1)
    conn.close()
    return match, game


def sort_hand(hand: list[str]) -> list[str]:
    """A hand in the terminal client's order (``o`` by suit: ♠ ♥ ♣ ♦, aces high)."""
    return sorted(hand, key=lambda t: C.sort_key_by_suit(C.parse(t)))


def _text(model: ReplayModel) -> str:
    return "".join(t for _, t in model.render(ascii_only=True))


def test_a_seat_that_did_not_play_is_said_before_the_terminal_is_asked_for(
    finished: tuple[dict, Game], capsys: pytest.CaptureFixture[str]
) -> None:
    """``rum500 replay 1 --seat 5`` on a match of three, no terminal: the seat's error (the
    one a player can mend), then with a seat that played, the terminal's."""
    from rum500.cli import main

    assert main(["replay", "1", "--seat", "5"]) == 1
    err = capsys.readouterr().err
    assert "game 1 has no seat 5: its seats are 0 to 2" in err and "terminal" not in err
    assert main(["replay", "1", "--seat", "2"]) == 1
    assert "the replay viewer needs a terminal" in capsys.readouterr().err


def test_every_position_is_the_engines_and_every_hand_is_face_up(
    finished: tuple[dict, Game],
) -> None:
    match, game = finished
    model = ReplayModel(match)
    assert len(model.frames) == len(game.actions) + 1
    assert model.hands_total == game.hand_number > 1
    probe = Game(3, game.seed, Options(target=150))
    for k, frame in enumerate(model.frames):
        if k:
            probe.apply(game.actions[k - 1])
        # the engine's hands, each in the terminal client's order (by suit, aces high)
        assert frame.hands == [sort_hand(probe.view(s)["hand"]) for s in range(3)]
        assert frame.pile == probe.view(None)["discard_pile"]
        assert frame.totals == probe.totals
    model.go(5)
    text = _text(model)
    for seat in range(3):
        assert " ".join(model.frames[5].hands[seat]) in text


def test_moving_by_move_and_by_hand(finished: tuple[dict, Game]) -> None:
    match, game = finished
    m = ReplayModel(match)
    m.prev_move()
    assert m.index == 0
    m.next_move()
    m.next_move()
    assert m.index == 2 and m.frame.move == 2
    m.prev_move()
    assert m.index == 1
    m.next_hand()
    assert m.frame.hand_number == 2 and m.frame.move == 0
    deal2 = m.index
    assert game.actions[deal2 - 1] == {"type": "deal"}
    m.next_move()
    m.prev_hand()  # back to this hand's deal
    assert m.index == deal2
    m.prev_hand()  # then to the previous hand's
    assert m.index == 0
    m.go(10**6)
    assert m.index == len(game.actions) and m.frame.winner == game.winner
    text = _text(m)
    name = match["seats"][game.winner]["name"]
    assert f"; {name} wins the match" in text and text.count("wins the match") == 1, text
    assert "score sheet" in text


def test_keys_drive_the_model() -> None:
    """create_pipe_input + DummyOutput: keys in, model positions out."""
    game = play(None, 9, ["Ann", "Bob"], target=400)
    assert game.hand_number > 1
    match = {
        "id": 7,
        "uid": uuid.uuid4().hex,
        "table": "T",
        "players": 2,
        "seed": 9,
        "options": game.options.to_dict(),
        "deck": None,
        "seats": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}],
        "actions": [{"seat": None, "action": a} for a in game.actions],
    }
    model = ReplayModel(match)

    def press(text: str) -> None:
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            app = build_app(model, input=inp, output=DummyOutput())
            inp.send_text(text + "q")
            app.run()

    press("nnn" + "\x1b[D")  # three moves forward, one back (left arrow)
    assert model.index == 2
    press("]")  # the next hand's deal
    assert model.frame.hand_number == 2 and model.frame.move == 0
    press("G")
    assert model.index == len(game.actions)
    press("g")
    assert model.index == 0


TMUX = shutil.which("tmux")


@pytest.mark.e2e
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_replay_in_a_real_terminal(finished: tuple[dict, Game], home: Path) -> None:
    match, game = finished
    session = f"rum500-replay-{uuid.uuid4().hex[:8]}"
    env_home = str(home.parent)
    cmd = (
        f"env RUM500_HOME={env_home} LANG=C.UTF-8 LC_ALL=C.UTF-8 "
        f"{sys.executable} -m rum500 replay --ascii 1"
    )
    tmux = ["tmux", "-L", session]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", cmd], check=True
    )

    def screen() -> str:
        return subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True
        ).stdout

    def wait_for(needle: str) -> str:
        text = ""
        for _ in range(200):
            text = screen()
            if needle in text:
                return text
            time.sleep(0.05)
        raise AssertionError(f"{needle!r} never appeared on the screen:\n{text}")

    def keys(*k: str) -> None:
        subprocess.run([*tmux, "send-keys", "-t", session, *k], check=True)

    try:
        n = len(game.actions)
        text = wait_for(f"action 0 of {n}")
        probe = Game(3, game.seed, Options(target=150))
        for seat in range(3):
            assert " ".join(sort_hand(probe.view(seat)["hand"])) in text  # every hand face up
        keys("Right", "Right", "Right")
        text = wait_for(f"action 3 of {n}")
        for a in game.actions[:3]:
            probe.apply(a)
        for seat in range(3):
            assert " ".join(sort_hand(probe.view(seat)["hand"])) in text
        keys("Left")
        wait_for(f"action 2 of {n}")
        keys("Down")
        text = wait_for("Hand 2 of")
        assert "move 0 of" in text and "dealt hand 2" in text
        keys("End")
        text = wait_for(f"action {n} of {n}")
        winner = match["seats"][game.winner]["name"]
        assert f"; {winner} wins the match" in text and text.count("wins the match") == 1
        assert "score sheet" in text
        keys("q")
        for _ in range(100):
            gone = subprocess.run([*tmux, "has-session", "-t", session], capture_output=True)
            if gone.returncode != 0:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the viewer did not quit on q")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def test_a_committed_match_starts_at_the_deal_that_was_played() -> None:
    """A match whose deals were committed re-deals hand 1 as its first action: the seed's
    deal before it was never played, so the replay never shows it — it starts, and Home and
    ← stop, at the committed deal; the frames stay one per action (the coach's marks)."""
    from rum500.coach.selfplay import bot_record
    from rum500.store.replay import Replay
    from tests.coach.conftest import committed_deal

    match = bot_record(["random", "random"], 6, hands=1, committed=committed_deal())
    game = Game(2, 6, Options(target=500))
    game.apply(dict(match["actions"][0]["action"]))
    played = [sort_hand(game.view(s)["hand"]) for s in (0, 1)]
    r = Replay(match)
    assert r.index == r.frame.step == 1 and r.frame.hands == played
    assert r.frames[0].hands != played  # the seed's deal, kept for the numbering only
    r.go(0)
    assert r.index == 1
    r.next_move()
    r.prev_move()
    r.prev_move()
    assert r.index == 1
    r.next_hand()
    r.prev_hand()
    assert r.index == 1 and r.frame.hands == played
    assert len(r.frames) == len(match["actions"]) + 1
    plain = Replay(bot_record(["random", "random"], 6, hands=1))
    assert plain.index == plain.frame.step == 0  # a match dealt from its seed starts at 0
