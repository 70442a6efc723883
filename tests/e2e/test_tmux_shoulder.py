"""Over the shoulder in the real terminal client at 80×24 (issue 25 §4): ``rum500 host
--player Ann`` (a bot in the other seat) and ``rum500 join --spectate --name Bea`` in two
tmux windows on loopback. On her turn Ann presses ``w`` and ``1`` (Bea): Bea's screen shows
Ann's hand — the very cards Ann's screen shows — and both players blocks say that Ann shows
her hand to Bea; Bea's ``h`` says what the expert would play for Ann. Ann presses ``w`` and
``e``: Bea's screen no longer shows the hand, and both logs say that it ended."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.ports import free_port

from .test_tmux import hand_cards, rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


def test_ann_shows_bea_her_hand_bea_sees_it_and_the_hint_then_ann_ends_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    (tmp_path / "ann").mkdir()
    (tmp_path / "bea").mkdir()
    ann = Tmux(tmp_path / "ann", width=80, height=24)
    bea = Tmux(tmp_path / "bea", width=80, height=24)
    try:
        ann.start(
            rum500(
                f"host --players 2 --bots 1 --bind 127.0.0.1 --port {port} --no-announce "
                "--name Kitchen --player Ann --seed 11 --target 300 --failover off --lang en "
                "--bot-delay 0.2"
            )
        )
        ann.wait_text("Your hand", 30)
        bea.start(rum500(f"join 127.0.0.1:{port} --spectate --name Bea --lang en"))
        bea.wait_text("You are watching this table.", 30)
        # Ann's turn to draw: nothing moves until she does
        ann.wait_text("draw from stock", 30)
        ann.keys("w")
        screen = ann.wait_text("Show your hand to a spectator")
        assert " 1  Bea" in screen, screen
        ann.keys("1")
        shown = bea.wait_text("Ann's hand, shown to you:", 15)
        mine = ann.wait_text("(hand→Bea)", 15)
        assert "(hand→Bea)" in shown
        theirs = hand_cards(shown, "Ann's hand, shown to you:")
        assert len(theirs) >= 7 and theirs == hand_cards(mine, "Your hand"), (shown, mine)
        bea.wait_text("Ann shows their hand to Bea (over the shoulder).")
        # Bea's hint: the expert's move for Ann, from what Bea is shown
        bea.keys("h")
        screen = bea.wait_text("Hint for Ann:", 30)
        assert "draw from the stock" in screen or "from the discard pile" in screen, screen
        # Ann ends it
        ann.keys("w")
        ann.wait_text("You show your hand to Bea.")
        ann.keys("e")
        screen = bea.wait_text("You are watching this table.", 15)
        assert "shown to you" not in screen and "(hand→Bea)" not in screen
        bea.wait_text("Ann no longer shows their hand to Bea.")
        screen = ann.wait(lambda s: "(hand→Bea)" not in s, what="Ann's mark gone")
        assert "Ann no longer shows their hand to Bea." in screen
    finally:
        bea.close()
        ann.close()
