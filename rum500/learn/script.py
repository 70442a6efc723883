"""The first hand that teaches, as data: the stacked deal, the bot's moves, the steps.

The deal (:data:`SEED`, :func:`deck`): two seats, the learner (seat 0) plays first with
``7S 7H 7D AH 2H 3H KS AS 4D 4S 4C 9C JD``; the upcard is ``8C``; the stock gives the
learner ``10S`` then ``4H``. The bot (seat 1, :data:`BOT_TURNS`) melds ``5C 6C 7C`` and
throws ``QS`` on its first turn, so that the learner's second turn digs down to ``8C`` (it
must be played: a lay-off on the bot's run) and melds ``QS KS AS``; the third turn goes out.

A :class:`Step` is a situation over the view (when its text shows), a goal over the view
(when it is done), the moves it lets through and why another move is weak. :class:`Lesson`
is the port the table screen's model uses: :meth:`Lesson.text` (the panel),
:meth:`Lesson.check` (the move filter: None lets the move go, a sentence keeps it back),
:meth:`Lesson.follow` (each new view) and :meth:`Lesson.advise` (the hint: the move a step asks
for, never one the filter keeps back). A move the engine refuses never reaches the filter:
the screen says the engine's reason, as at any table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rum500.i18n import _
from rum500.tui.describe import card_text

SEED = 0  #: the lot of seed 0 makes seat 1 deal: the learner plays first
LEARNER = ["7S", "7H", "7D", "AH", "2H", "3H", "KS", "AS", "4D", "4S", "4C", "9C", "JD"]
BOT = ["5C", "6C", "7C", "QS", "2D", "3S", "6H", "9S", "10D", "KH", "5D", "8S", "JH"]
UPCARD = "8C"
STOCK = ["10S", "3D", "9D", "4H"]  #: the stock's first cards, top first
JUNK = ("JD", "10S")  #: the learner's cards no meld wants

#: the bot's turns, in order; a turn past these draws from the stock and throws that card
BOT_TURNS: list[list[dict]] = [
    [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "cards": ["5C", "6C", "7C"]},
        {"type": "discard", "card": "QS"},
    ],
    [{"type": "draw", "source": "stock"}, {"type": "discard", "card": "2D"}],
]


def deck() -> list[str]:
    """The first hand's order (:func:`rum500.rules.deal.first_order`): the hands dealt one
    card at a time from the learner, the upcard, the stock's top cards."""
    return [c for pair in zip(LEARNER, BOT, strict=True) for c in pair] + [UPCARD, *STOCK]


View = dict
Check = Callable[[View], bool]


def mine(v: View) -> bool:
    return v.get("turn") == v.get("seat") and v.get("phase") in ("draw", "play")


def drawing(v: View) -> bool:
    return mine(v) and v["phase"] == "draw"


def playing(v: View) -> bool:
    return mine(v) and v["phase"] == "play"


def on_table(card: str) -> Check:
    return lambda v: any(card in m["cards"] for m in v.get("melds") or [])


def held(*cards: str) -> Check:
    return lambda v: all(c in (v.get("hand") or []) for c in cards)


def meld_of(*cards: str) -> Callable[[dict], bool]:
    return lambda a: a.get("type") == "meld" and sorted(a.get("cards", [])) == sorted(cards)


def layoff_of(*cards: str) -> Callable[[dict], bool]:
    return lambda a: a.get("type") == "layoff" and a.get("card") in cards


@dataclass
class Step:
    """One lesson: ``when`` its text shows, ``goal`` (over the view) done, ``allows`` the
    moves let through, ``why`` a sentence for any other move (with the cards' text). A move
    that would take a card a later step's text names is not let through (tests/learn)."""

    name: str
    when: Check
    goal: Check
    text: Callable[[Callable[[str], str]], str]
    allows: Callable[[dict, View], bool]
    why: Callable[[dict, View, Callable[[str], str]], str]
    #: the goal is cards on the table: looked at again each view (a take-back undoes it)
    recheck: bool = False
    #: the move the text asks for, which the hint (h) offers before another it allows
    #: (None: any move it allows)
    wants: Callable[[dict, View], bool] | None = None


def _kind(a: dict) -> str:
    if a.get("type") == "draw":
        return "stock" if a.get("source") == "stock" else "pile"
    return str(a.get("type"))


def _why_stock(a: dict, v: View, c: Callable[[str], str]) -> str:
    return _(
        "Not the pile now: {card} fits none of your cards yet. Draw from the stock (s)."
    ).format(card=c(UPCARD))


def _why_set(a: dict, v: View, c: Callable[[str], str]) -> str:
    return _("First the set: select {a} {b} {c} (Space on each) and press m.").format(
        a=c("7S"), b=c("7H"), c=c("7D")
    )


def _why_low(a: dict, v: View, c: Callable[[str], str]) -> str:
    if _kind(a) == "discard":
        return _(
            "Not yet: cards left in your hand count against you. Meld {a} {b} {c} first."
        ).format(a=c("AH"), b=c("2H"), c=c("3H"))
    return _("Now the run: select {a} {b} {c} and press m.").format(a=c("AH"), b=c("2H"), c=c("3H"))


def _why_discard(a: dict, v: View, c: Callable[[str], str]) -> str:
    if _kind(a) == "discard":
        return _("Keep {card}: it belongs in a meld to come. Throw {j} or {t}.").format(
            card=c(str(a.get("card"))), j=c("JD"), t=c("10S")
        )
    return _("Keep the rest for later turns: discard {j} or {t} now (select it, press d).").format(
        j=c("JD"), t=c("10S")
    )


def _why_dig(a: dict, v: View, c: Callable[[str], str]) -> str:
    if _kind(a) == "stock":
        return _(
            "Weak: the pile holds {e} for Bob's run and {q} for your {k} {a}. Dig: ↑ ↑ to the "
            "pile, Home, then t."
        ).format(e=c("8C"), q=c("QS"), k=c("KS"), a=c("AS"))
    return _("Deeper: {e} at the bottom fits Bob's run too. ↑ ↑ to the pile, Home, then t.").format(
        e=c("8C")
    )


def _why_dug(a: dict, v: View, c: Callable[[str], str]) -> str:
    return _(
        "The card dug for, {e}, must be on the table before you discard: lay it off (l)."
    ).format(e=c("8C"))


def _why_high(a: dict, v: View, c: Callable[[str], str]) -> str:
    if _kind(a) == "discard":
        return _("Meld {q} {k} {a} before you discard: held, they count 35 against you.").format(
            q=c("QS"), k=c("KS"), a=c("AS")
        )
    return _(
        "Not yet: keep {n} and the fours for going out next turn (lesson 8). Meld {q} {k} {a} now."
    ).format(n=c("9C"), q=c("QS"), k=c("KS"), a=c("AS"))


def _why_out(a: dict, v: View, c: Callable[[str], str]) -> str:
    if _kind(a) == "pile":
        return _("Weak: nothing on the pile helps you now. Draw from the stock (s).")
    return _(
        "Weak: you can put every card down. Meld the fours, lay off {n}, then throw the last."
    ).format(n=c("9C"))


def _why_over(a: dict, v: View, c: Callable[[str], str]) -> str:
    return _("The lesson ends with this review: q leaves.")


def _discard_junk(a: dict, v: View) -> bool:
    return _kind(a) == "discard" and a.get("card") in JUNK


def _going_out(a: dict, v: View) -> bool:
    kind, hand = _kind(a), v.get("hand") or []
    fours = ("4D", "4S", "4C", "4H")
    if kind == "stock" or kind == "take_back":
        return True
    if kind == "meld":
        return all(card in fours for card in a.get("cards", []))
    if kind == "layoff":
        return a.get("card") in (*fours, "9C")
    return kind == "discard" and len(hand) == 1


def _lay_dug(a: dict, v: View) -> bool:
    return layoff_of("8C")(a) or meld_of("QS", "KS", "AS")(a)


def _high(a: dict, v: View) -> bool:
    """Only the high run: 9♣ stays in hand for lesson 8, whose text lays it off."""
    return meld_of("QS", "KS", "AS")(a)


def _stock(a: dict, v: View) -> bool:
    return _kind(a) == "stock"


def _never(a: dict, v: View) -> bool:
    return False


def _turns_over(v: View) -> bool:
    return v.get("turn") != v.get("seat") or v.get("phase") not in ("draw", "play")


STEPS: list[Step] = [
    Step(
        "stock",
        drawing,
        lambda v: v.get("stock", 99) < 25 or v.get("phase") != "draw",
        lambda c: _(
            "Lesson 1, the draw. Each turn begins with a card from the stock or the pile. "
            "{card} on the pile fits nothing of yours: draw from the stock (s)."
        ).format(card=c(UPCARD)),
        _stock,
        _why_stock,
    ),
    Step(
        "set",
        playing,
        on_table("7S"),
        lambda c: _(
            "Lesson 2, a set: three or four cards of one rank. Select {a} {b} {c} (←→ move, "
            "Space selects) and press m to meld."
        ).format(a=c("7S"), b=c("7H"), c=c("7D")),
        lambda a, v: meld_of("7S", "7H", "7D")(a),
        _why_set,
        recheck=True,
    ),
    Step(
        "low",
        playing,
        on_table("AH"),
        lambda c: _(
            "Lesson 3, a run: three or more in a row of one suit. The ace may sit low: meld "
            "{a} {b} {c} (low, the ace scores 1)."
        ).format(a=c("AH"), b=c("2H"), c=c("3H")),
        lambda a, v: meld_of("AH", "2H", "3H")(a),
        _why_low,
        recheck=True,
    ),
    Step(
        "discard",
        playing,
        _turns_over,
        lambda c: _(
            "Lesson 4, the discard ends your turn. Throw a card no meld wants: {j} or {t} "
            "(select it, press d)."
        ).format(j=c("JD"), t=c("10S")),
        _discard_junk,
        _why_discard,
    ),
    Step(
        "dig",
        lambda v: drawing(v) and on_table("5C")(v),
        lambda v: v.get("must_play") == "8C" or on_table("8C")(v),
        lambda c: _(
            "Lesson 5, digging. You may take any card of the pile with every card above it. "
            "{e} fits Bob's run: ↑ ↑ to the pile, Home (its bottom card), then t."
        ).format(e=c("8C")),
        lambda a, v: _kind(a) == "pile" and a.get("index") == 0,
        _why_dig,
    ),
    Step(
        "dug",
        playing,
        on_table("8C"),
        lambda c: _(
            "Lesson 6: the card dug for must go on the table this turn. Lay {e} off on Bob's "
            "meld: select it, press l. Cards laid off score for you."
        ).format(e=c("8C")),
        _lay_dug,
        _why_dug,
        recheck=True,
        wants=lambda a, v: layoff_of("8C")(a),
    ),
    Step(
        "high",
        playing,
        on_table("QS"),
        lambda c: _(
            "Lesson 7: the ace may sit high too, worth 15: meld {q} {k} {a}. Never both ends: "
            "K\u00a0A\u00a02 is no run."  # (no-break spaces: never split at a line's end)
        ).format(q=c("QS"), k=c("KS"), a=c("AS")),
        _high,
        _why_high,
        recheck=True,
    ),
    Step(
        "discard2",
        playing,
        _turns_over,
        lambda c: _("Now throw a card you cannot use ({j} or {t}) and keep the fours.").format(
            j=c("JD"), t=c("10S")
        ),
        _discard_junk,
        _why_discard,
    ),
    Step(
        "out",
        lambda v: mine(v) and on_table("QS")(v),
        lambda v: v.get("phase") in ("hand_over", "game_over"),
        lambda c: _(
            "Lesson 8, going out: the hand ends when your last card leaves it. Draw, meld the "
            "fours, lay off {n}, throw the last card."
        ).format(n=c("9C")),
        _going_out,
        _why_out,
    ),
    Step(
        "review",
        lambda v: v.get("phase") in ("hand_over", "game_over"),
        lambda v: False,
        lambda c: _(
            "Lesson 9, the score: what you put down counts for you, what is left in a hand "
            "against its player. Next: rum500 play; house rules: ? at any table. q leaves."
        ),
        _never,
        _why_over,
    ),
]


class Lesson:
    """The lesson's port for the table screen (see the module docstring)."""

    def __init__(self, ascii: bool = False, steps: list[Step] | None = None) -> None:
        self.ascii = ascii
        self.steps = steps if steps is not None else STEPS
        self.done: set[str] = set()
        self.view: View | None = None

    def card(self, name: str) -> str:
        return card_text(name, self.ascii)

    def step(self) -> Step | None:
        """The first step not done yet (None: every step is)."""
        return next((s for s in self.steps if s.name not in self.done), None)

    def follow(self, view: View) -> str | None:
        """A new view: the steps it completes, in order (a step done stays done). Returns the
        last step's text when the hand has just ended (the review covers the panel: the
        message line says it)."""
        self.view = view
        before = self.step()
        self.done -= {s.name for s in self.steps if s.recheck and not s.goal(view)}
        for s in self.steps:
            if s.name in self.done:
                continue
            if not s.goal(view):
                break
            self.done.add(s.name)
        now = self.step()
        if now is not None and now is not before and now is self.steps[-1] and now.when(view):
            return self.step_text(now)
        return None

    def step_text(self, s: Step) -> str:
        """``s``'s lines (the plain mode's lesson says them without keys: rum500/plain)."""
        return s.text(self.card)

    def step_why(self, s: Step, action: dict, view: View) -> str:
        """Why ``action`` is weak at ``s`` (the plain mode's says it without keys)."""
        return s.why(action, view, self.card)

    def text(self) -> str:
        """The panel's lines: the step's text when its situation holds, else who plays."""
        s, v = self.step(), self.view
        if s is None or v is None:
            return ""
        if s.when(v):
            return self.step_text(s)
        return _("Bob is playing: watch the pile and the melds.")

    def advise(self, view: View, advice: dict | None) -> dict | None:
        """The hint (h) at ``view``: the move the step's text asks for, so that the hint
        never offers a move the lesson keeps back — ``advice`` (the bot's) when it is that
        move, else the first legal move that is; None when the step allows none (the
        review). Where the step's situation does not hold, ``advice`` as it is."""
        s = self.step()
        if s is None or not s.when(view):
            return advice  # as :meth:`check` lets any move go there
        ok = [s.wants or s.allows, s.allows]
        legal = [a for a in view.get("legal_actions") or [] if isinstance(a, dict)]
        for fits in ok:
            if advice is not None and fits(advice, view):
                return advice
            if found := next((a for a in legal if fits(a, view)), None):
                return found
        return None

    def check(self, action: dict, view: View | None = None) -> str | None:
        """None: the move may go; else why it is weak here (it is not sent)."""
        v = view if view is not None else self.view
        s = self.step()
        if v is None or s is None or action.get("type") == "take_back":
            return None
        if s.when(v) and s.allows(action, v):
            return None
        if not s.when(v) and action.get("type") != "deal":
            return None
        return self.step_why(s, action, v)
