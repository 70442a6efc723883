"""Issue 25 §3: the four-colour deck in a real terminal (tmux, the pane captured with its
colours, ``capture-pane -e``): ♠ black, ♥ red, ♦ blue, ♣ green with ``--four-colour``; ♥♦ red
and ♠♣ black without it; no colour at all under ``NO_COLOR``; ``--ascii`` keeps the colours
on its letters."""

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

#: a card of the hand row with the SGR sequences just before it
CARD = re.compile(r"((?:\x1b\[[0-9;]*m)*)(?:10|[2-9AJQK])([♠♥♦♣]|[SHDC](?=\x1b| |$))")
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: the foregrounds the suits are drawn in (the four-colour deck's green is 256-colour 29)
FOREGROUND = {"30": "black", "31": "red", "32": "green", "34": "blue", "38;5;29": "green"}


class Coloured(Tmux):
    def pane(self) -> str:
        """The pane with its escape sequences (colours, bold …)."""
        return self.tmux("capture-pane", "-e", "-p", "-t", "0")


def suit_colours(args: str, tmp_path: Path, env: dict[str, str] | None = None) -> dict:
    """Start ``rum500 ARGS play`` (seed 7: a first hand of all four suits) and read the
    foreground colour each suit of the hand is drawn in: {suit: {colours}}."""
    term = Coloured(tmp_path)
    try:
        term.start(
            f"{sys.executable} -m rum500 {args} play --seed 7 --bot-delay 0 --name Ann",
            env=env,
        )
        term.wait_text("Your turn")
        pane = term.pane()
        lines = pane.splitlines()
        at = next(i for i, line in enumerate(lines) if "Your hand" in line)
        seen: dict[str, set[str]] = {}
        for codes, suit in CARD.findall(lines[at + 1]):
            params = ";".join(re.findall(r"\[([0-9;]*)m", codes))
            fg = re.findall(r"(?:^|;)(3[0-7]|9[0-7]|38;5;\d+)(?=;|$)", params)
            colours = {FOREGROUND.get(p, p) for p in fg}
            seen.setdefault(SUIT.get(suit, suit), set()).update(colours)
        assert set(seen) == {"♠", "♥", "♦", "♣"}, lines[at + 1]
        return seen
    finally:
        term.close()


def test_the_four_colour_deck(tmp_path: Path) -> None:
    assert suit_colours("--four-colour", tmp_path) == {
        "♠": {"black"},
        "♥": {"red"},
        "♦": {"blue"},
        "♣": {"green"},
    }


def test_the_two_colour_deck_by_default(tmp_path: Path) -> None:
    assert suit_colours("", tmp_path) == {
        "♠": {"black"},
        "♥": {"red"},
        "♦": {"red"},
        "♣": {"black"},
    }


def test_no_color_takes_the_colours_away_and_ascii_keeps_them(tmp_path: Path) -> None:
    none = suit_colours("--four-colour", tmp_path, env={"NO_COLOR": "1"})
    assert none == {"♠": set(), "♥": set(), "♦": set(), "♣": set()}
    letters = suit_colours("--four-colour --ascii", tmp_path)
    assert letters == {"♠": {"black"}, "♥": {"red"}, "♦": {"blue"}, "♣": {"green"}}
