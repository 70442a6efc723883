"""The host player hands the table over from the real terminal client (issue 13 §3).

``rum500 host --player Ann`` runs in tmux on loopback (a bot in one seat); a headless guest
(``rum500 join 127.0.0.1:PORT --headless --name Bea``) takes the other. Ann presses ``H``,
the screen asks whose machine takes the table, ``1`` picks Bea: the screen says the table
moved, Bea's process hosts it, Ann's screen follows by itself with the same seat and hand,
and the match goes on at the new host (Bea's process prints Ann's next moves as its host
applies them).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.lan import Said
from tests.ports import free_port

from .test_tmux import hand_cards, play_until, rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e
ME = re.compile(r"Ann (\(D\) )?\(you\)")


def test_h_hands_the_table_to_a_headless_guest_and_ann_plays_on_there(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "ann").mkdir()
    (tmp_path / "bea").mkdir()
    term = Tmux(tmp_path / "ann", width=100, height=30)
    guest: Said | None = None
    try:
        term.start(
            rum500(
                f"host --players 3 --bots 1 --bind 127.0.0.1 --port {port} --no-announce "
                "--name Kitchen --player Ann --seed 11 --target 300 --lang en"
            )
        )
        term.wait_text("Press g")
        guest = Said(
            subprocess.Popen(
                [sys.executable, "-m", "rum500", "join", f"127.0.0.1:{port}", "--headless"]
                + ["--name", "Bea", "--bind", "127.0.0.1", "--no-announce", "--bot-delay", "0.2"],
                env={**os.environ, "RUM500_HOME": str(tmp_path / "bea")},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            ),
            "Bea",
        )
        guest.wait("joined Kitchen", 30)
        term.wait_text("Bea")
        term.keys("g")  # every seat is taken: the match starts
        term.wait_text("Your hand")
        term.wait_text("H hand the table over")  # Bea's rum500 can host

        term.keys("H")
        screen = term.wait_text("Hand the table to whose machine?")
        assert re.search(r"\b1\s+Bea\b", screen), screen
        hand = sorted(hand_cards(term.screen(), "Your hand"))
        term.keys("1")
        term.wait_text("Hand the table to Bea's machine, and your seat?")
        term.keys("1")  # keep my seat
        term.wait_text("The table moved to Bea's machine.", 30)
        k = guest.wait("hosting the table 'Kitchen' on port ", 30)
        new_port = int(guest.lines[k].split("on port ")[1].split()[0])
        assert new_port != port
        guest.wait("rejoined (moved) at ", 30, k)
        after = len(guest.lines)

        # Ann's screen follows: same seat, same hand, and she plays on at Bea's machine
        screen = term.wait(lambda s: bool(ME.search(s)) and "Your hand" in s, 30, "Ann seated")
        assert "H hand the table over" not in screen  # she hosts no more
        assert sorted(hand_cards(screen, "Your hand")) == hand, screen  # she has not moved

        def discarded(_screen: str) -> bool:  # … as the new host applied it
            return any(ln.startswith("event: Ann discards") for ln in guest.lines[after:])

        play_until(term, discarded)
        assert guest.proc.poll() is None  # the match goes on there
    finally:
        term.close()
        if guest is not None and guest.proc.poll() is None:
            guest.proc.kill()
            guest.proc.wait()
