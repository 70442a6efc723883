"""``rum500 --plain learn``: the first hand that teaches (:mod:`rum500.learn`), in lines.

The lesson's steps are the screen's (the same deal, situations, goals and move filter); what
differs is the words: each step's text and each "why not" here name the typed commands
(``draw``, ``meld 7S 7H 7D``, ``take 8C``, ``lay 8C``) instead of keys
(:data:`PLAIN_TEXTS`, :data:`PLAIN_WHYS`; a step not listed keeps its own words, which name
no key). The text is said when the step changes (:meth:`PlainModel.follow_lesson`); a move
the lesson keeps back is said as a refusal, and may be typed again.
"""

from __future__ import annotations

from collections.abc import Callable

from rum500.configs import PlainLearnConfig
from rum500.i18n import _, set_language
from rum500.learn.script import UPCARD, Lesson, Step, View
from rum500.plain.session import Inbox, plain_model, run_session

Card = Callable[[str], str]


def _kind(a: dict) -> str:
    if a.get("type") == "draw":
        return "stock" if a.get("source") == "stock" else "pile"
    return str(a.get("type"))


#: each step's text, the commands named (the screen's names keys)
PLAIN_TEXTS: dict[str, Callable[[Card], str]] = {
    "stock": lambda c: _(
        "Lesson 1, the draw. Each turn begins with a card from the stock or the pile. "
        "{card} on the pile fits nothing of yours: type draw."
    ).format(card=c(UPCARD)),
    "set": lambda c: _(
        "Lesson 2, a set: three or four cards of one rank. Meld {a}, {b}, {c}: type meld 7S 7H 7D."
    ).format(a=c("7S"), b=c("7H"), c=c("7D")),
    "low": lambda c: _(
        "Lesson 3, a run: three or more in a row of one suit. The ace may sit low: meld "
        "{a}, {b}, {c} (low, the ace scores 1): type meld AH 2H 3H."
    ).format(a=c("AH"), b=c("2H"), c=c("3H")),
    "discard": lambda c: _(
        "Lesson 4, the discard ends your turn. Throw a card no meld wants, {j} or {t}: "
        "type discard JD or discard 10S."
    ).format(j=c("JD"), t=c("10S")),
    "dig": lambda c: _(
        "Lesson 5, digging. You may take any card of the pile with every card above it. "
        "{e} at the bottom fits Bob's run: type pile to hear the pile, then take 8C."
    ).format(e=c("8C")),
    "dug": lambda c: _(
        "Lesson 6: the card dug for must go on the table this turn. Lay {e} off on Bob's "
        "meld: type lay 8C. Cards laid off score for you."
    ).format(e=c("8C")),
    "high": lambda c: _(
        "Lesson 7: the ace may sit high too, worth 15: type meld QS KS AS. Never both ends: "
        "K A 2 is no run."
    ),
    "discard2": lambda c: _(
        "Now throw a card you cannot use and keep the fours: type discard 10S or discard JD."
    ),
    "out": lambda c: _(
        "Lesson 8, going out: the hand ends when your last card leaves it. Type draw, "
        "meld 4D 4S 4C 4H, lay 9C, then discard your last card."
    ),
    "review": lambda c: _(
        "Lesson 9, the score: what you put down counts for you, what is left in a hand "
        "against its player; type review to hear it. Next: rum500 --plain play. "
        "quit leaves."
    ),
}


def _why_stock(a: dict, v: View, c: Card) -> str:
    return _("Not the pile now: {card} fits none of your cards yet. Type draw.").format(
        card=c(UPCARD)
    )


def _why_set(a: dict, v: View, c: Card) -> str:
    return _("First the set: type meld 7S 7H 7D.")


def _why_low(a: dict, v: View, c: Card) -> str:
    if _kind(a) == "discard":
        return _("Not yet: cards left in your hand count against you. Type meld AH 2H 3H first.")
    return _("Now the run: type meld AH 2H 3H.")


def _why_discard(a: dict, v: View, c: Card) -> str:
    if _kind(a) == "discard":
        card = c(str(a.get("card")))
        return _(
            "Keep {card}: it belongs in a meld to come. Type discard JD or discard 10S."
        ).format(card=card)
    return _("Keep the rest for later turns: type discard JD or discard 10S now.")


def _why_dig(a: dict, v: View, c: Card) -> str:
    if _kind(a) == "stock":
        return _(
            "Weak: the pile holds {e} for Bob's run and {q} for your {k} and {a}. "
            "Dig: type take 8C."
        ).format(e=c("8C"), q=c("QS"), k=c("KS"), a=c("AS"))
    return _("Deeper: {e} at the bottom fits Bob's run too. Type take 8C.").format(e=c("8C"))


def _why_dug(a: dict, v: View, c: Card) -> str:
    return _("The card dug for, {e}, must be on the table before you discard: type lay 8C.").format(
        e=c("8C")
    )


def _why_out(a: dict, v: View, c: Card) -> str:
    if _kind(a) == "pile":
        return _("Weak: nothing on the pile helps you now. Type draw.")
    return _(
        "Weak: you can put every card down. Type meld 4D 4S 4C 4H, lay 9C, then discard "
        "the last card."
    )


def _why_over(a: dict, v: View, c: Card) -> str:
    return _("The lesson ends with this review: quit leaves.")


def _why_high(a: dict, v: View, c: Card) -> str:
    return _(
        "Not yet: keep {n} and the fours for going out next turn (lesson 8). Type meld QS KS AS."
    ).format(n=c("9C"))


#: each step's "why not", the commands named
PLAIN_WHYS: dict[str, Callable[[dict, View, Card], str]] = {
    "stock": _why_stock,
    "set": _why_set,
    "low": _why_low,
    "discard": _why_discard,
    "dig": _why_dig,
    "dug": _why_dug,
    "high": _why_high,
    "discard2": _why_discard,
    "out": _why_out,
    "review": _why_over,
}


class PlainLesson(Lesson):
    """The lesson whose words name the typed commands (see the module)."""

    def __init__(self) -> None:
        super().__init__(ascii=True)

    def step_text(self, s: Step) -> str:
        text = PLAIN_TEXTS.get(s.name)
        return text(self.card) if text is not None else super().step_text(s)

    def step_why(self, s: Step, action: dict, view: View) -> str:
        why = PLAIN_WHYS.get(s.name)
        if why is None:
            return super().step_why(s, action, view)
        return why(action, view, self.card)


def run_learn(args: PlainLearnConfig) -> int:
    """``rum500 --plain learn``: the lesson's hand in typed lines, no screen."""
    set_language(args.lang)
    from rum500.learn.session import LessonSession
    from rum500.plain.main import _run
    from rum500.tui import main as screen

    name = screen.player_name(args)

    async def body(inbox: Inbox) -> int:
        model = plain_model(name, inbox)
        model.lesson = PlainLesson()
        return await run_session(LessonSession(name), model, inbox)

    return _run(body)
