"""What the player at the real terminal client sees when the table changes host (issue 21).

1. ``rum500 host --player Ann`` and ``rum500 join … --name Bea`` in two tmux windows on
   loopback (a bot in the third seat). Ann hands the table to Bea (``H``, ``1``, then ``1``:
   she keeps her seat). Bea's screen says that she hosts now, her ``q`` says that leaving
   closes the table for everyone, and her ``H`` lists Ann and hands the table back to her —
   whose screen then says that she hosts.
2. A headless host with no standby is killed (``kill -9``) under Bea's screen: the banner
   says the host is not answering and how long the screen keeps trying, ``s draw from
   stock`` is no longer offered and ``s`` does nothing but say why, and when it gives up the
   screen ends saying that the host stopped answering.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ports import free_port

from .test_tmux import rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


HOSTS_NOW = "You host this table now: leaving closes it for everyone; H hands it on once"


def test_the_new_host_is_told_warned_on_q_and_hands_the_table_back_with_h(
    tmp_path: Path,
) -> None:
    port = free_port()
    (tmp_path / "ann").mkdir()
    (tmp_path / "bea").mkdir()
    ann = Tmux(tmp_path / "ann", width=100, height=30)
    bea = Tmux(tmp_path / "bea", width=100, height=30)
    try:
        ann.start(
            rum500(
                f"host --players 3 --bots 1 --bind 127.0.0.1 --port {port} --no-announce "
                "--name Kitchen --player Ann --seed 11 --target 300 --failover off --lang en"
            )
        )
        ann.wait_text("Press g")
        bea.start(
            rum500(f"join 127.0.0.1:{port} --name Bea --bind 127.0.0.1 --no-announce --lang en")
        )
        bea.wait_text("Your hand", 30)  # every seat is taken: the match starts
        ann.wait_text("H hand the table over", 30)
        assert "H hand the table over" not in bea.screen()  # Bea does not host (yet)

        ann.keys("H")
        ann.wait_text("Hand the table to whose machine?")
        ann.keys("1")
        screen = ann.wait_text("Hand the table to Bea's machine, and your seat?")
        assert "keep my seat: I play on at Bea's table" in screen
        assert "leave my seat to a bot, and leave the table" in screen
        ann.keys("1")
        ann.wait_text("The table moved to Bea's machine.", 30)

        # Bea hosts now, and her screen says so
        screen = bea.wait_text(HOSTS_NOW[:40], 30)
        assert "you host" in screen.splitlines()[0] + screen, screen
        screen = bea.wait_text("H hand the table over", 30)
        bea.keys("q")
        screen = bea.wait_text("You host this table: leaving closes it for everyone", 10)
        bea.keys("n")
        bea.wait(lambda s: "leaving closes it for everyone. y" not in s, what="the question gone")

        # … and hands it back to Ann: H lists the seats whose machine can take it
        bea.keys("H")
        screen = bea.wait_text("Hand the table to whose machine?")
        assert re.search(r"\b1\s+Ann\b", screen), screen
        assert not re.search(r"\b2\s+\S", screen.split("whose machine?")[1]), screen
        bea.keys("1")
        bea.wait_text("Hand the table to Ann's machine, and your seat?")
        bea.keys("1")
        bea.wait_text("The table moved to Ann's machine.", 30)
        ann.wait_text(HOSTS_NOW[:40], 30)
        screen = bea.wait(lambda s: "Your hand" in s and "you host" not in s, 30, "Bea a guest")
        assert "H hand the table over" not in screen
    finally:
        ann.close()
        bea.close()


def test_a_host_killed_with_no_standby_is_said_keys_stop_and_the_screen_gives_up(
    tmp_path: Path,
) -> None:
    port = free_port()
    (tmp_path / "bea").mkdir()
    host = subprocess.Popen(
        [sys.executable, "-m", "rum500", "host", "--headless", "--no-announce"]
        + ["--bind", "127.0.0.1", "--port", str(port), "--name", "Kitchen", "--players", "2"]
        + ["--bots", "1", "--bot-level", "random", "--seed", "5", "--failover", "off"],
        env={**os.environ, "RUM500_HOME": str(tmp_path / "host")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    bea = Tmux(tmp_path / "bea", width=100, height=30)
    try:
        end = time.monotonic() + 30
        while not listening(port):
            assert time.monotonic() < end and host.poll() is None, "the host did not start"
            time.sleep(0.1)
        bea.start(rum500(f"join 127.0.0.1:{port} --name Bea --bind 127.0.0.1 --lang en"))
        bea.wait_text("s draw from stock", 30)  # Bea's turn: the bot has played

        host.kill()  # the host's process dies: no goodbye
        host.wait()
        screen = bea.wait_text("The host is not answering — trying to rejoin for", 30)
        assert re.search(r"trying to rejoin for \d+ s more", screen), screen
        assert "s draw from stock" not in screen and "d discard" not in screen
        bea.keys("s")
        bea.wait_text("The host cannot be reached: wait for the table to come back", 10)

        # it gives up (after its 60 s): the screen ends, saying why
        bea.wait(lambda s: "Rummy 500" not in s, 120, "the screen to give up")
        err = bea.home / "stderr.txt"
        end = time.monotonic() + 10
        while "stopped answering" not in err.read_text() and time.monotonic() < end:
            time.sleep(0.05)
        assert err.read_text().strip() == (
            "rum500: the host stopped answering: no answer for 60 s — the match is kept on the "
            "host's machine: once it hosts it again (rum500 host --resume), join that table "
            "again to take your seat back"
        )
    finally:
        bea.close()
        if host.poll() is None:
            host.kill()
            host.wait()
