"""Issue 25 §1 and §2: ``rum500 --plain learn`` through pipes — the whole lesson with the
commands a learner types, each step's text said when it changes (commands named, no key),
the wrong moves explained in the same words and tried again; not one escape sequence; the
Russian first step."""

from __future__ import annotations

import re

from rum500.i18n import set_language
from rum500.learn import script
from rum500.plain.learn import PLAIN_TEXTS, PLAIN_WHYS, PlainLesson
from tests.plain.driver import Plain

#: a key of the screen named in the lesson's words (none may be in the plain mode's)
KEYS = re.compile(r"\((?:s|l|d|t|m)\)|Space|Home|press [a-z]\b|←|→|↑|\bq leaves")

#: (what the learner types, a line it leads to)
LESSON = [
    ("draw", "Lesson 2, a set: three or four cards of one rank. Meld 7 of spades, 7 of hearts, "
     "7 of diamonds: type meld 7S 7H 7D."),
    ("discard JD", "First the set: type meld 7S 7H 7D."),  # wrong: explained, nothing sent
    ("meld 7S 7H 7D", "Lesson 3, a run:"),
    ("meld AH 2H 3H", "Lesson 4, the discard ends your turn."),
    ("discard KS", "Keep king of spades: it belongs in a meld to come. Type discard JD or "
     "discard 10S."),
    ("discard JD", "Lesson 5, digging."),
    ("draw", "Weak: the pile holds 8 of clubs for Bob's run and queen of spades for your king "
     "of spades and ace of spades. Dig: type take 8C."),
    ("take 8C", "Lesson 6: the card dug for must go on the table this turn."),
    ("discard 10S", "8 of clubs must be played this turn."),
    ("lay 8C", "Lesson 7: the ace may sit high too, worth 15: type meld QS KS AS."),
    ("meld QS KS AS", "Now throw a card you cannot use and keep the fours"),
    ("discard 10S", "Lesson 8, going out:"),
    ("pile", "Discard pile"),  # reading the table is fine at any step
    ("draw", "You drew 4 of hearts."),
    ("discard JD", "Weak: you can put every card down."),
    ("meld 4D 4S 4C 4H", "Ann melds 4 of spades"),
    ("lay 9C", "Ann lays off 9 of clubs"),
    ("discard JD", "Lesson 9, the score:"),
    ("review", "Ann: 95 on the table, 0 left in hand (none); +95."),
]  # fmt: skip


def test_the_whole_lesson_through_pipes() -> None:
    p = Plain("--plain", "learn", "--name", "Ann", "--lang", "en")
    try:
        first = p.until("Lesson 1")
        assert first == (
            "Lesson 1, the draw. Each turn begins with a card from the stock or the pile. "
            "8 of clubs on the pile fits nothing of yours: type draw."
        )
        for typed, said in LESSON:
            p.send(typed)
            line = p.until(said)
            assert line.startswith(said), (typed, line)
        assert "Ann goes out." in p.seen
        assert sum(line.startswith("Lesson 2,") for line in p.seen) == 1  # said once
        lessons = [line for line in p.seen if line.startswith(("Lesson", "Now throw"))]
        assert len(lessons) == 10, lessons
        p.send("quit")  # the lesson is over: it leaves without asking
        code, err = p.close()
        assert code == 0, err
        assert not [line for line in p.seen if "Leave the match?" in line]
        assert not [line for line in p.seen if KEYS.search(line)]
        assert b"\x1b" not in p.raw, "an escape sequence in the plain mode's output"
    finally:
        p.proc.kill()


def test_the_russian_first_step() -> None:
    p = Plain("--plain", "learn", "--name", "Аня", "--lang", "ru")
    try:
        first = p.until("Урок 1")
        assert first.startswith("Урок 1, добор.") and first.endswith("наберите тянуть."), first
        assert "восьмёрка треф" in first  # the card in words, as a speech synthesiser reads it
        p.send("тянуть")  # the Russian command the step names
        assert p.until("Урок 2").startswith("Урок 2")
        code, err = p.close()
        assert code == 0, err
        assert b"\x1b" not in p.raw
    finally:
        p.proc.kill()


def test_every_step_and_why_has_words_without_keys() -> None:
    set_language("en")
    lesson = PlainLesson()
    names = {s.name for s in script.STEPS}
    assert names == set(PLAIN_TEXTS) == set(PLAIN_WHYS)  # every step says why in commands
    for s in script.STEPS:
        assert not KEYS.search(lesson.step_text(s)), s.name
        for action in ({"type": "draw", "source": "stock"}, {"type": "discard", "card": "KS"},
                       {"type": "draw", "source": "pile", "index": 1}):  # fmt: skip
            assert not KEYS.search(lesson.step_why(s, action, {})), (s.name, action)
    high = next(s for s in script.STEPS if s.name == "high")
    assert lesson.step_why(high, {"type": "layoff", "card": "9C", "meld": 0}, {}).endswith(
        "Type meld QS KS AS."
    )
