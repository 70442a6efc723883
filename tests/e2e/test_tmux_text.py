"""Text a player must read is never cut, at a real 80×24 terminal (issue 22 §4): tmux runs
``rum500``, the test reads the screen with ``capture-pane``.

* English, solo (``rum500 play``): every line of the help is on screen whole (paging through
  it), the issue's two cut sentences read whole; a refusal in the status line is a whole
  sentence on two rows; the quit question says ``rum500 play --resume 1``, and so does the
  terminal after the screen is gone.
* Russian with ``--ascii``: the same help and refusal, longer words, no "…" and no sentence
  cut short.
* Two people at a table hosted from this terminal on 127.0.0.1 (no announcement): the waiting
  room shows the table's options as ``rum500 list`` words them; the log shows the failover
  note whole (a long line on two rows); I turns the hint off for the table, the log says so
  and the ``h`` key is gone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rum500.i18n import set_language
from rum500.tui.helptext import help_lines
from tests.ports import free_port

from .test_tmux import rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path, width=80, height=24)
    yield t
    t.close()


def flat(text: str) -> str:
    """The screen's words in one line (a sentence wrapped on two rows reads as one)."""
    return " ".join(text.replace("│", " ").replace("|", " ").split())


def help_pages(term: Tmux, last: str) -> list[str]:
    """Open the help and page through it until ``last`` shows; each page's lines inside the
    frame (pages overlap: a paragraph wrapped on several rows is whole on one of them)."""
    term.keys("?")
    term.wait(lambda s: "┌" in s or "+--" in s, what="the help")
    pages: list[str] = []
    for _page in range(12):
        screen = term.screen()
        inside = [
            line[1:-1].rstrip()
            for line in screen.splitlines()
            if len(line) >= 2 and line[0] in "│|" and line[-1] in "│|"
        ]
        pages.append("\n".join(inside))
        if last in flat(pages[-1]):
            break
        term.keys("PageDown")
        term.wait(lambda s, before=screen: s != before, what="the next page of the help")
    term.keys("Escape")
    return pages


def ascii_text():  # type: ignore[no-untyped-def]
    try:
        from rum500.tui.wrapping import ASCII_TEXT
    except ImportError:  # before issue 22
        from rum500.tui.layout import ASCII_TEXT
    return ASCII_TEXT


def check_help(term: Tmux, lang: str, ascii: bool) -> str:
    """Every line of the help's text is on screen with all its words (wrapped or not)."""
    set_language(lang)
    try:
        source = help_lines(ascii)
    finally:
        set_language("en")
    if ascii:  # and the screen's other symbols in ASCII (« » are ", — is -)
        source = [line.translate(ascii_text()) for line in source]
    pages = help_pages(term, " ".join(flat(source[-1]).split()[:3]))  # the last line's start
    for line in source:
        assert any(flat(line) in flat(page) for page in pages), (
            f"help line not on screen whole: {line!r}\n" + "\n-----\n".join(pages)
        )
    text = "\n".join(pages)
    assert "…" not in text.replace("1 … 9", "")
    return text


def test_english_help_refusal_and_resume_at_80x24(term: Tmux) -> None:
    term.start(
        rum500("play --bots 1 --seed 7 --bot-level random --bot-delay 0 --name Ann --lang en")
    )
    term.wait_text("Your hand (by suit)")
    text = flat(check_help(term, "en", False))
    # the examples, whole: "(none selected: the first d sele…", "When the stock is emp…"
    assert "(none selected: the first d selects the card under the cursor, a second d" in text
    assert "When the stock is empty you may still take from the pile, or end the hand." in text
    # a refusal: a whole sentence, on two rows of the status area
    term.wait(lambda s: "Discard pile:" in s and "KEYS" not in s, what="the table again")
    term.keys("d")  # selects the card under the cursor
    term.keys("t")  # take 2♠ from the pile: refused, nothing could take it
    screen = term.wait_text("You may not take")
    rows = screen.rstrip("\n").splitlines()
    status = flat("\n".join(rows[-2:]))
    assert status == (
        "You may not take 2♠: it must be played this turn and no meld or lay-off could take it."
    ), screen
    # leaving the solo match: the question and, after the screen, the terminal say how to
    # pick it up again
    term.keys("q")
    screen = term.wait_text("It is saved")
    assert "rum500 play --resume 1 picks it up later." in flat(screen), screen
    term.keys("y")
    screen = term.wait_text("Game 1 is saved")
    assert "Game 1 is saved: rum500 play --resume 1 picks it up where you left it." in flat(screen)


def test_russian_ascii_help_and_refusal_at_80x24(term: Tmux) -> None:
    term.start(
        rum500(
            "play --bots 1 --seed 7 --bot-level random --bot-delay 0 --name Аня --lang ru --ascii"
        )
    )
    term.wait_text("Ваша рука")
    check_help(term, "ru", True)
    term.wait(lambda s: "КЛАВИШИ" not in s, what="the table again")
    term.keys("d")
    term.keys("t")
    screen = term.wait_text("Нельзя")
    rows = screen.rstrip("\n").splitlines()
    status = flat("\n".join(rows[-3:]))
    set_language("ru")
    try:
        from rum500.tui import describe

        why = describe.refusal(
            "you may not take 2S: it must be played this turn and no meld or lay-off could take it",
            ascii=True,
        )
    finally:
        set_language("en")
    assert why in status, screen
    assert "…" not in screen


def test_two_people_options_log_and_the_hosts_hint_switch(term: Tmux, tmp_path: Path) -> None:
    port = free_port()
    term.start(
        rum500(
            f"host --no-announce --bind 127.0.0.1 --port {port} --players 2 --target 300 "
            "--jokers --name Kitchen --player Ann --lang en"
        )
    )
    screen = term.wait_text("Waiting for players")
    # the house rules in the waiting room, as `rum500 list` words them
    assert "Table options: jokers=True target=300" in screen or (
        "Table options: target=300 jokers=True" in screen
    ), screen
    guest = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rum500",
            "join",
            f"127.0.0.1:{port}",
            "--headless",
            "--name",
            "Bea",
            "--no-announce",
            "--no-log",
            "--bot-delay",
            "0.5",
            "--lang",
            "en",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RUM500_HOME": str(tmp_path / "bea")},
    )
    try:
        # the failover note, a line longer than the log's column: whole, on two rows
        note = (
            "failover is off: with two people at the table the standby would hold the key "
            "to every hand, so if this host goes the match waits for it (host with "
            "--failover on to allow it)"
        )
        screen = term.wait(lambda s: "allow it)" in s, what="the failover note")
        log = flat("\n".join(line.split("│")[0] for line in screen.splitlines()))
        assert note in log, screen
        # the host turns the hint off for everyone: the log says so, h is gone
        term.wait_text("hint off for all")
        term.keys("I")
        screen = term.wait_text("The host turned the hint off for everyone")
        log = flat("\n".join(line.split("│")[0] for line in screen.splitlines()))
        assert "The host turned the hint off for everyone at this table." in log
        screen = term.wait_text("hint on for all")
        assert not re.search(r"(^|\s)h hint", screen), screen
    finally:
        guest.kill()
        guest.wait(timeout=10)
