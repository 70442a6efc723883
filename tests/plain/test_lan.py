"""Issue 25 §2: a plain-mode player (pipes only) at a LAN table beside a terminal-client player
(tmux), on loopback: each hears the other's moves and chat, in their own way."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.e2e.tmux import Tmux
from tests.plain.driver import Plain
from tests.ports import free_port

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


def test_a_plain_player_beside_a_terminal_client_player(tmp_path: Path) -> None:
    port = free_port()
    term = Tmux(tmp_path / "ann")
    (tmp_path / "ann").mkdir()
    term.start(
        f"{sys.executable} -m rum500 host --no-announce --bind 127.0.0.1 --port {port} "
        "--players 2 --name Kitchen --player Ann --lang en --bot-delay 0"
    )
    term.wait_text("Waiting for players")
    bea = Plain(
        "--plain", "join", f"127.0.0.1:{port}", "--name", "Bea", "--no-announce",
        "--bind", "127.0.0.1",
        env={"RUM500_HOME": str(tmp_path / "bea"), "LANG": "C.UTF-8"},
    )  # fmt: skip
    try:
        bea.until("Seats: Ann, Bea.")
        bea.until("Your hand, ")  # the match begins: Bea hears her hand in words
        bea.send("say hello from the plain mode")
        term.wait_text("Bea: hello from the plain mode")
        bea_played, ann_played, ann_discards = False, False, ""
        for _step in range(1200):  # at most two minutes, in steps of 0.1 s
            line = bea.poll(0.1)
            assert line is not None, bea.seen[-10:]
            if line.startswith("Your turn") and not bea_played:
                bea.send("draw")
                bea.until("You drew")
                bea.send("hand short")
                hand = bea.until("Your hand").rstrip(".").split(": ", 1)[1].split()
                bea.send(f"discard {hand[-1]}")
                bea.until("Bea discards")
                bea_played = True
            elif line.startswith("Ann discards"):  # the terminal player's move, said
                ann_discards = line
            if not ann_played and "Your turn: draw" in term.screen():
                term.keys("s")
                term.wait_text("Your turn: meld")
                term.keys("d")
                term.keys("d")
                ann_played = True
            if bea_played and ann_discards:
                break
        assert "Ann draws from the stock." in bea.seen, (bea.seen[-8:], term.screen())
        assert re.fullmatch(r"Ann discards (10|\d|ace|jack|queen|king) of \w+\.", ann_discards)
        screen = term.wait_text("Bea discards")  # and the terminal's log has Bea's moves
        assert "Bea draws from the stock." in screen
        term.keys("q")
        term.wait_text("y = leave")
        term.keys("y")
        bea.until("the host closed the table")
        code, err = bea.close()
        assert "the host closed the table" in err or code == 0
        assert b"\x1b" not in bea.raw
    except AssertionError as e:  # what each side had, to tell a slow machine from a bug
        seen = f"Bea heard: {bea.seen[-12:]}\nAnn's screen:\n{term.screen()}"
        raise AssertionError(f"{e}\n{seen}") from e
    finally:
        bea.proc.kill()
        term.close()
