"""``rum500 learn`` in tmux at 80×24, with the keys a learner presses: each lesson's text
shows when its situation arises and the review ends the hand; every wrong move the lesson
guards against is explained and not played (nothing lost); the first steps in Russian."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_tmux import hand_cards, rum500
from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

HAND = "Your hand"


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path, width=80, height=24)
    yield t
    t.close()


def hand(term: Tmux, label: str = HAND) -> list[str]:
    return hand_cards(term.wait(lambda s: bool(hand_cards(s, label)), what="the hand"), label)


def select(term: Tmux, *cards: str, label: str = HAND) -> None:
    """Escape (nothing selected, back to the hand), then Space on each card."""
    term.keys("Escape", "Down", "Down", "Down")
    shown = hand(term, label)
    for card in cards:
        term.keys("Home", *(["Right"] * shown.index(card)), "Space")


def pile(screen: str) -> list[str]:
    """The stock's count and the pile's cards (the cursor's marks aside)."""
    lines = [line for line in screen.splitlines() if "Discard pile" in line]
    return [line.split("←")[0].replace("*", "").rstrip() for line in lines]


def wrong(term: Tmux, keys: list[str], why: str, label: str = HAND) -> None:
    """A wrong move: its explanation shows, and the hand and the pile are as they were."""
    before = term.screen()
    term.keys(*keys)
    after = term.wait(lambda s: why in s.replace("\n  ", " "), what=why)
    assert hand_cards(after, label) == hand_cards(before, label)
    assert pile(after) == pile(before)
    term.keys("Escape")


def lesson(term: Tmux, mistakes: bool) -> None:
    term.start(rum500("learn --name Ann"))
    term.wait_text("Lesson 1, the draw")
    if mistakes:
        wrong(term, ["Up", "t"], "You may not take 8♣: it must be played this turn")
    term.keys("s")
    term.wait_text("Lesson 2, a set")
    if mistakes:
        select(term, "4♠")
        wrong(term, ["d"], "First the set: select 7♠ 7♥ 7♦")
    select(term, "7♠", "7♥", "7♦")
    term.keys("m")
    term.wait_text("Lesson 3, a run")
    if mistakes:  # u takes the set back: its lesson again, the sevens in hand
        term.keys("Escape", "u")
        term.wait(lambda s: "Lesson 2, a set" in s and "7♠" in hand_cards(s, HAND))
        select(term, "7♠", "7♥", "7♦")
        term.keys("m")
        term.wait_text("Lesson 3, a run")
        select(term, "4♠")
        wrong(term, ["d"], "Not yet: cards left in your hand count against you.")
    select(term, "A♥", "2♥", "3♥")
    term.keys("m")
    term.wait_text("Lesson 4, the discard")
    if mistakes:
        select(term, "4♣")
        wrong(term, ["d"], "Keep 4♣: it belongs in a meld to come.")
    select(term, "J♦")
    term.keys("d")
    term.wait_text("Lesson 5, digging")
    if mistakes:
        wrong(term, ["s"], "Weak: the pile holds 8♣ for Bob's run and Q♠ for your K♠ A♠.")
        wrong(term, ["Up", "Up", "End", "t"], "Deeper: 8♣ at the bottom fits Bob's run too.")
    term.keys("Escape", "Up", "Up", "Home", "t")
    term.wait_text("Lesson 6: the card dug for must go on the table this turn.")
    if mistakes:
        select(term, "4♠")
        wrong(term, ["d"], "8♣ must be played this turn.")
    select(term, "8♣")
    term.keys("l")
    term.wait_text("Lesson 7: the ace may sit high too")
    if mistakes:
        select(term, "10♠")
        wrong(term, ["d"], "Meld Q♠ K♠ A♠ before you discard")
    select(term, "Q♠", "K♠", "A♠")
    term.keys("m")
    term.wait_text("Now throw a card you cannot use")
    select(term, "J♦")
    term.keys("d")
    term.wait_text("Lesson 8, going out")
    if mistakes:
        wrong(term, ["Up", "Up", "End", "t"], "You may not take 2♦: it must be played this turn")
    term.keys("Escape", "Down", "Down", "s")
    term.wait(lambda s: "4♥" in hand_cards(s, HAND), what="4♥ drawn")
    if mistakes:
        select(term, "10♠")
        wrong(term, ["d"], "Weak: you can put every card down.")
    select(term, "4♠", "4♥", "4♣", "4♦")
    term.keys("m")
    term.wait(lambda s: "4♠" not in hand_cards(s, HAND), what="the fours melded")
    select(term, "9♣")
    term.keys("l")
    term.wait(lambda s: hand_cards(s, HAND) == ["10♠"], what="one card left")
    select(term, "10♠")
    term.keys("d")
    screen = term.wait_text("score sheet")
    assert "Ann went out." in screen
    assert "+95" in screen
    screen = term.wait(lambda s: "Lesson 9, the score" in s.replace("\n  ", " "), what="Lesson 9")
    assert "rum500 play" in screen.replace("\n  ", " ")
    assert "Press Enter to close." in screen and "deal" not in key_bar(screen)
    term.keys("Enter")  # closes the review: the lesson ends here, no next hand is offered
    screen = term.wait(lambda s: "Enter review" in s, what="the review closed")
    assert "deal" not in key_bar(screen)
    assert "The lesson ends with this review: q leaves." in screen.replace("\n  ", " ")
    term.keys("n")  # a deal asked for all the same: the lesson says why not
    term.wait(lambda s: "The lesson ends with this review" in s.replace("\n  ", " "))


def key_bar(screen: str) -> str:
    return next(line for line in screen.splitlines() if "q quit" in line)


def test_the_whole_lesson(term: Tmux) -> None:
    lesson(term, mistakes=False)


def test_every_wrong_move_is_explained_and_not_played(term: Tmux) -> None:
    lesson(term, mistakes=True)


def test_the_first_steps_in_russian(term: Tmux) -> None:
    term.start(rum500("learn --lang ru --name Аня"))
    term.wait_text("Урок 1")
    term.keys("s")
    term.wait_text("Урок 2")


def test_the_house_rules_lessons_open_from_the_help(term: Tmux) -> None:
    """At a table with house rules, ? then L opens a page per rule on; ← → turn the pages,
    Esc goes back to the help."""
    term.start(rum500("play --bots 1 --jokers --ace-always-15 --bot-delay 0 --name Ann"))
    term.wait_text("Your hand")
    term.keys("?")
    term.wait_text("L house rules' lessons")
    term.keys("L")
    screen = term.wait_text("JOKERS")
    assert "Page 1 of 2" in screen
    term.keys("Right")
    screen = term.wait_text("ACES ALWAYS 15")
    assert "Page 2 of 2" in screen and "JOKERS" not in screen
    term.keys("Escape")
    term.wait(lambda s: "ACES ALWAYS 15" not in s and "L house rules' lessons" in s)
