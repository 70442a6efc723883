"""Bots calling "Rummy!" (RULES.md §11.2), from the seat's view alone.

In the ``claim`` phase a seat's view lists its calls in ``legal_actions`` (one per meld the
discard fits, per name a joker could take there) and says what was discarded in
``view["claim"]``. :func:`best_call` picks one of them:

* it scores the points the call puts on the caller's side of the table (an ace laid off low
  on a run scores 1, high or in a set 15; a joker 15 whatever it stands for),
* plus the points of the caller's own cards that the grown meld then takes (cards it can lay
  off on its next turn), less those of its cards the call shuts out (a joker named for the
  place a card of its hand was waiting for);
* the best total wins; on a tie, the lowest meld id, then the first name offered.

:class:`Caller` adds the level: whether the bot calls at all (``random`` and ``easy`` miss
now and then, ``medium`` rarely) and its reaction time, drawn around the level's mean and
never under :data:`MIN_REACTION` (0.3 s). ``random`` calls any of its calls, ``easy`` the
first offered, the other levels the best. A bot never calls on its own discard (its view
offers it no call).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from rum500 import cards as C
from rum500.bots.seat import SeatView, read_view
from rum500.rules.melds import Meld, lay_off, layoff_position

#: No bot calls sooner than this after the discard (seconds).
MIN_REACTION = 0.3


@dataclass(frozen=True, slots=True)
class Reaction:
    """A level's calling: mean reaction time and its spread (seconds, uniform), and the
    chance of missing a call it could make."""

    mean: float
    spread: float
    miss: float


#: Per level. A level not named here reacts like ``medium``.
REACTIONS: dict[str, Reaction] = {
    "random": Reaction(2.2, 0.6, 0.5),
    "easy": Reaction(1.8, 0.5, 0.3),
    "medium": Reaction(1.2, 0.2, 0.1),
    "hard": Reaction(0.8, 0.15, 0.0),
    "expert": Reaction(0.5, 0.1, 0.0),
}


def reaction(level: str) -> Reaction:
    return REACTIONS.get(level, REACTIONS["medium"])


def calls_of(view: Mapping) -> list[dict]:
    """The "Rummy!" calls this seat's view offers now (none outside the claim phase, none
    for the discarder)."""
    v = read_view(view)
    claim = view.get("claim")
    if v.phase != "claim" or not isinstance(claim, Mapping) or claim.get("from") == v.seat:
        return []
    return [a for a in v.legal if a.get("type") == "rummy"]


def _grown(meld: Meld, card: int, seat: int, joker: bool) -> Meld:
    grown = meld.copy()
    lay_off(grown, card, seat, joker)
    return grown


def call_value(v: SeatView, call: Mapping, card: int) -> int:
    """What ``call`` is worth to the caller: the points it scores, plus the points of its
    hand cards the grown meld then takes, less those of its cards it no longer takes."""
    meld = next((m for m in v.melds if m.id == call.get("meld")), None)
    if meld is None:
        return -(10**6)
    joker = card == C.JOKER
    stands = C.parse(call["joker"]) if joker and call.get("joker") else card
    try:
        grown = _grown(meld, stands, v.seat, joker)
    except ValueError:
        return -(10**6)
    scored = sum(grown.points) - sum(meld.points)
    opened = 0
    for c in set(v.hand):
        if c == C.JOKER:
            continue
        before = layoff_position(meld, c) is not None
        after = layoff_position(grown, c) is not None
        opened += C.VALUES[c] * (int(after) - int(before))
    return scored + opened


def best_call(view: Mapping) -> dict | None:
    """The call this seat's view makes best (see the module docstring), or None when it
    offers none."""
    calls = calls_of(view)
    if not calls:
        return None
    v = read_view(view)
    card = C.parse(view["claim"]["card"])
    best = max(
        enumerate(calls),
        key=lambda ic: (call_value(v, ic[1], card), -int(ic[1].get("meld", 0)), -ic[0]),
    )
    return best[1]


@dataclass(frozen=True, slots=True)
class Call:
    """A bot's decision to call: the action, and how long after the discard it calls."""

    action: dict
    delay: float


class Caller:
    """One bot seat's "Rummy!" calls at its level (seeded: reproducible)."""

    def __init__(self, level: str = "medium", seed: int | None = None) -> None:
        self.level = level
        self.reaction = reaction(level)
        self.rng = random.Random(seed)

    def delay(self) -> float:
        r = self.reaction
        return max(MIN_REACTION, self.rng.uniform(r.mean - r.spread, r.mean + r.spread))

    def choose(self, view: Mapping) -> dict | None:
        """The call the level makes from this view, ignoring reaction and misses."""
        calls = calls_of(view)
        if not calls:
            return None
        if self.level == "random":
            return self.rng.choice(calls)
        if self.level == "easy":
            return calls[0]
        return best_call(view)

    def decide(self, view: Mapping) -> Call | None:
        """Whether this bot calls on the discard its view shows, what, and after how long;
        None when it has no call or misses it."""
        action = self.choose(view)
        if action is None:
            return None
        delay = self.delay()  # drawn every time, so a miss does not shift later draws
        if self.rng.random() < self.reaction.miss:
            return None
        return Call(dict(action), delay)
