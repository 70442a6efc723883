"""Each family variant at a real table (issue 26, RULES.md §12): ``rum500 play`` with the
variants on, in tmux at 80×24 — the help lists them, a few turns are played with the keys
the hint names (``h``, then that key), and at the hand's end the review's score sheet says
"Scored with: …" for the options that change what cards score. And the lobby's host form,
longer than a 24-line screen with every option, scrolls round the cursor (▲ / ▼)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_tmux import follow_hint, hand_cards, play_until, rum500, select, status_line
from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path, width=80, height=24)
    yield t
    t.close()


def help_text(term: Tmux) -> str:
    """The whole help screen, scrolled through with PageDown to its end (then closed)."""
    term.keys("?")
    seen = [term.wait_text("KEYS")]
    for _ in range(30):
        term.keys("PageDown")
        try:  # at the end PageDown changes nothing
            screen = term.wait(lambda s, last=seen[-1]: s != last, timeout=3, what="a page")
        except AssertionError:
            break
        seen.append(screen)
    term.keys("Escape")
    term.wait(lambda s: "KEYS" not in s and "│" not in s.splitlines()[1], what="the help closed")
    return "\n".join(seen)


def play_a_hand(term: Tmux, turns: int) -> str:
    """``turns`` of mine by the hint's key (h, then the key it names), then plain moves (draw,
    discard) to the hand's end; the screen of the review's score sheet."""
    for _ in range(turns):
        screen = term.wait(
            lambda s: "h hint" in s or "score sheet" in s, timeout=30, what="my turn"
        )
        if "score sheet" in screen:
            break
        follow_hint(term, screen)
    play_until(term, lambda s: "score sheet" in s)
    return term.wait_text("Enter ready for the next hand")


@pytest.mark.parametrize(
    ("flags", "listed", "scored"),
    [
        (
            "--five-point-pips --runs-of-four --dug-card-new-meld",
            [
                "Pip cards: 2 to 9 score 5 each",
                "Runs of four: a new run needs at least 4 cards",
                "The card dug for must go into a new meld this turn",
            ],
            "Scored with: Pip cards: 5 points each",
        ),
        (
            "--jokers --joker-as-card",
            ["A joker on the table scores the card it stands for"],
            "Scored with: Joker value: the card it stands for",
        ),
    ],
)
def test_a_hand_with_the_variants_at_80x24(
    term: Tmux, flags: str, listed: list[str], scored: str
) -> None:
    term.start(
        rum500(
            f"play --seed 5 {flags} --bots 1 --bot-level random --bot-delay 0 "
            "--review-timeout 600 --name Ann --lang en"
        )
    )
    term.wait_text("Your hand (by suit)")
    shown = help_text(term)
    assert "HOUSE RULES AT THIS TABLE" in shown
    for line in listed:
        assert line in shown, (line, shown)
    sheet = play_a_hand(term, turns=3)
    assert "Hand 1 — score sheet" in sheet
    assert scored in sheet, sheet
    assert all(len(line) <= 80 for line in sheet.splitlines())


def test_the_lobby_host_form_scrolls(term: Tmux) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare for a private network namespace")
    # the lobby looks for tables on the LAN: its multicast stays in a namespace of its own
    inner = f"ip link set lo up && exec {sys.executable} -m rum500 --name Bob --lang en"
    term.start(f"unshare --net sh -c {shlex.quote(inner)}")
    term.wait_text("host a new table")
    term.keys("h")
    top = term.wait_text("Host a new table")
    assert "▼" in top and "▲" not in top
    assert len(top.splitlines()) <= 24
    for _ in range(40):  # down to Go: the first lines scroll away
        term.keys("Down")
    bottom = term.wait(lambda s: "▲" in s, what="▲ at the end of the form")
    assert "Host a new table" in bottom and "[ Go ]" in bottom
    assert "Shortest run" in bottom  # §12's options, below the first screen
    assert "Shortest run" not in top


def test_a_first_meld_of_30_at_80x24(term: Tmux) -> None:
    """§12.1 at a real table: ``rum500 play --first-meld 30`` — the help lists the rule; the
    hard bot opens with 10♥ 10♦ 10♣ (seed 24); my 10♠ fits it, but before I have opened the
    lay-off is refused with the engine's sentence; then the hand plays to its review by the
    hint's keys and plain moves."""
    term.start(
        rum500(
            "play --seed 24 --first-meld 30 --bots 1 --bot-level hard --bot-delay 0 "
            "--review-timeout 600 --name Ann --lang en"
        )
    )
    term.wait_text("Your hand (by suit)")
    shown = help_text(term)
    assert "HOUSE RULES AT THIS TABLE" in shown
    assert "First meld: a player opens by laying down" in shown, shown
    assert "at least 30 points; until then no lay-off" in shown, shown
    screen = term.wait(lambda s: "s draw from stock" in s, timeout=30, what="my draw")
    assert "10♥" in status_line(screen, "Melds:") or "10♥" in screen
    term.keys("s")
    screen = term.wait(lambda s: "d discard" in s, timeout=30, what="my play")
    select(term, hand_cards(screen, "Your hand"), "10♠")
    term.keys("l")
    said = term.wait_text("You have not opened yet")
    words = " ".join(said.split())  # the message may wrap
    assert "no lay-off until your new melds this turn reach 30 points." in words, said
    assert all(len(line) <= 80 for line in said.splitlines())
    term.keys("Escape")
    sheet = play_a_hand(term, turns=3)
    assert "Hand 1 — score sheet" in sheet
