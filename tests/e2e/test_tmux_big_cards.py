"""Issue 25 §3: larger cards in a real terminal (tmux). At 140×40 the hand is drawn as
two-line card faces (rank over suit between side borders); the arrows and space select the
card the cursor is on and d discards exactly that card; a resize to 80×24 brings the compact
hand back, and a resize to 140×40 the faces again."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

#: one face's top line (rank) and bottom line (suit): ``│10 │`` and ``│  ♥│``
RANKS = re.compile(r"│(10|[2-9AJQK]) *│")
SUITS = re.compile(r"│ *([♠♥♦♣])│")


def faces(screen: str) -> list[str]:
    """The cards of the hand as drawn in faces (``10♥`` …), read from the two lines below
    the heading."""
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if "Your hand" in line)
    ranks, suits = RANKS.findall(lines[at + 1]), SUITS.findall(lines[at + 2])
    assert len(ranks) == len(suits), lines[at + 1 : at + 3]
    return [r + s for r, s in zip(ranks, suits, strict=True)]


def compact(screen: str) -> list[str]:
    """The cards of the hand as drawn compact (``10♥ J♥`` …) on the line below the heading."""
    lines = screen.splitlines()
    at = next((i for i, line in enumerate(lines) if "Your hand" in line), None)
    if at is None or at + 1 >= len(lines):
        return []
    return re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", lines[at + 1])


def pile(screen: str) -> list[str]:
    line = next(line for line in screen.splitlines() if "Discard pile:" in line)
    return re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", line.split("Discard pile:")[1])


def test_two_line_cards_at_140x40_and_the_keys_pick_the_right_one(tmp_path: Path) -> None:
    term = Tmux(tmp_path, width=140, height=40)
    try:
        term.start(f"{sys.executable} -m rum500 play --seed 7 --bot-delay 0 --name Ann")
        screen = term.wait_text("s draw from stock")
        assert len(faces(screen)) == 13
        term.keys("s")
        screen = term.wait_text("d discard")
        hand = faces(screen)
        assert len(hand) == 14
        term.keys("Down", "Down", "Home", "Right", "Right", "Right", "Space")
        screen = term.wait(lambda s: "[│" in s, what="a selected face")
        lines = screen.splitlines()
        at = next(i for i, line in enumerate(lines) if "Your hand" in line)
        chosen = hand[3]
        assert re.search(r"\[│" + re.escape(chosen[:-1]) + r" *│\]", lines[at + 1]), lines[at + 1]
        assert re.search(r"\[│ *" + chosen[-1] + r"│\]", lines[at + 2]), lines[at + 2]
        term.keys("d")
        screen = term.wait(lambda s: len(faces(s)) == 13, what="the discard")
        # the bot may already have played on it: the card is in the pile, gone from my hand
        assert chosen in pile(screen)[-2:]
        assert sorted(faces(screen) + [chosen]) == sorted(hand)
        term.tmux("resize-window", "-t", "0", "-x", "80", "-y", "24")
        # tmux cuts the old lines to 80 columns at once; the client's own redraw is what
        # brings the compact hand, so wait for it rather than for the cut rule
        screen = term.wait(
            lambda s: "─" * 80 in s and "─" * 81 not in s and len(compact(s)) >= 13,
            what="the compact hand at 80 columns",
        )
        assert not RANKS.search(screen)  # no face left over from the big layout
        term.tmux("resize-window", "-t", "0", "-x", "140", "-y", "40")
        screen = term.wait(lambda s: "─" * 140 in s and RANKS.search(s), what="faces again")
    finally:
        term.close()
