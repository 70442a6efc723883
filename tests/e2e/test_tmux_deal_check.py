"""The terminal client checks every deal (docs/protocol.md §17): ``rum500 play`` without
``--seed`` deals from a commitment, and the hand-end review says "Deal checked" under the
score sheet — the real client in tmux, following the hint to the end of a hand."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_tmux import follow_hint, rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path, width=100, height=40)
    yield t
    t.close()


def test_the_review_says_deal_checked(term: Tmux) -> None:
    term.start(rum500("play --bots 1 --target 1 --bot-level random --bot-delay 0 --name Ann"))
    term.wait_text("Your hand (by suit)")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        screen = term.wait(
            lambda s: "h hint" in s or "score sheet" in s or "standings" in s,
            timeout=20,
            what="my turn or the end of the hand",
        )
        if "score sheet" in screen or "standings" in screen:
            break
        follow_hint(term, screen)
    else:
        pytest.fail("the hand did not end")
    if "standings" in screen and "score sheet" not in screen:
        term.keys("s")  # the scores: the sheet of the last hand
    screen = term.wait(
        lambda s: "Deal checked: it follows from the commitment and every contribution." in s,
        timeout=20,
        what="the deal checked in the review",
    )
    assert "NOT CHECKED" not in screen
