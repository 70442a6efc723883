"""The frame the bot levels share: read the view, pick an action for the phase, make sure
it is one of the seat's legal actions."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping

from rum500 import cards as C
from rum500.bots.calls import best_call
from rum500.bots.hands import Plan, partners, plan
from rum500.bots.jokers import joker_dig
from rum500.bots.seat import SeatView, read_view
from rum500.bots.tracker import Tracker
from rum500.rules.melds import make_meld
from rum500.rules.opening import can_open
from rum500.rules.scoring import meld_points

log = logging.getLogger(__name__)


def action_key(action: Mapping) -> tuple:
    """A hashable form of an action, for matching against the legal list."""
    cards = action.get("cards")
    return (
        action.get("type"),
        action.get("source"),
        action.get("index"),
        tuple(sorted(cards)) if isinstance(cards, list) else None,
        action.get("card"),
        action.get("meld"),
    )


def draw_stock() -> dict:
    return {"type": "draw", "source": "stock"}


def dig(index: int) -> dict:
    return {"type": "draw", "source": "discard", "index": index}


def discard(card: int) -> dict:
    return {"type": "discard", "card": C.name(card)}


class PlanningBot:
    """Base of the ``easy``, ``medium`` and ``hard`` bots.

    ``choose(view)`` reads the view with :func:`rum500.bots.seat.read_view` (so a bot handed
    the game, or its full state, refuses it), asks the level for a draw or a play, and checks
    the answer against ``view["legal_actions"]``. ``strict`` bots raise when their strategy
    picks an illegal action (tests); others fall back to a legal one and log it.
    """

    level = "planning"

    def __init__(self, seed: int | None = None, strict: bool = False) -> None:
        self.rng = random.Random(seed)
        self.strict = strict
        self.tracker = Tracker()

    def observe(self, events: list[dict], view: dict) -> None:
        """Remember the public events of an update (called after each one, when offered)."""
        read_view(view)  # the same rule as choose: only a seat's view
        self.tracker.observe(events, view)

    def choose(self, view: dict) -> dict:
        v = read_view(view)
        if not v.legal:
            raise ValueError("this seat has nothing to do")
        if len(v.legal) == 1:
            return v.legal[0]
        if v.phase == "draw":  # a joker on top of the pile first (rum500/bots/jokers.py)
            action = joker_dig(v) or self.draw(v)
        elif v.phase == "play":
            action = self.play(v)
        elif v.phase == "claim":  # asked for a "Rummy!" call: the best (rum500.bots.calls)
            action = best_call(view) or v.legal[0]
        else:
            action = v.legal[0]
        return self._checked(action, v)

    def _checked(self, action: dict, v: SeatView) -> dict:
        key = action_key(action)
        for legal in v.legal:
            if action_key(legal) == key:
                return legal
        if self.strict:
            raise AssertionError(f"{self.level} bot chose an illegal action {action!r}")
        log.warning("%s bot chose an illegal action %r; playing a legal one", self.level, action)
        return self._fallback(v)

    def _fallback(self, v: SeatView) -> dict:
        for kind in ("meld", "layoff", "discard", "draw", "end_hand"):
            for a in v.legal:
                if a["type"] == kind:
                    return a
        return v.legal[0]

    # ------------------------------------------------------------------ levels override

    def draw(self, v: SeatView) -> dict:
        return draw_stock() if v.stock else self._fallback(v)

    def play(self, v: SeatView) -> dict:
        """Put on the table what the plan says, in order, then a joker where the engine
        offers it a place; then discard."""
        p = plan(v.hand, v.melds, v.seat, v.must_play, v.min_run, v.new_meld)
        legal = {action_key(a) for a in v.legal}
        if v.to_open:
            return self.open_play(v, p, legal)
        for action in self.placements(v, p):
            if action_key(action) in legal:
                return action
        joker = self.joker_play(v)
        if joker is not None:
            return joker
        if v.must_play is not None:
            return self.play_dug(v)
        return self.discard(v, p)

    def open_play(self, v: SeatView, p: Plan, legal: set[tuple]) -> dict:
        """Not opened yet (RULES.md §12.1): meld only when this turn's melds can reach N —
        the engine's own check, :func:`rum500.rules.opening.can_open` — the plan's melds when
        they reach it (none held back), else the engine's offered meld worth most (each one it
        offers leaves a way to reach N); otherwise keep the cards that build toward an opening
        and discard."""
        need = v.to_open
        if can_open(v.hand, need, v.options, v.min_run, v.must_play, v.no_discard):
            melds = sorted(p.melds, key=lambda m: -self.meld_points(m, v))
            if sum(self.meld_points(m, v) for m in melds) >= need:
                for m in melds:
                    action = {"type": "meld", "cards": C.names(m)}
                    if action_key(action) in legal:
                        return action
            offered = [a for a in v.legal if a["type"] == "meld"]
            if offered:
                return max(offered, key=lambda a: self.meld_points(C.parse_many(a["cards"]), v))
        joker = self.joker_play(v)
        if joker is not None:
            return joker
        if v.must_play is not None:
            return self.play_dug(v)
        return self.discard(v, p)  # the plan's melds stay in hand: only its dead cards go

    @staticmethod
    def meld_points(cards: list[int], v: SeatView) -> int:
        """What a new meld of ``cards`` scores on the table (§12.1 counts these)."""
        return sum(meld_points(make_meld(-1, list(cards), v.seat), v.options))

    def placements(self, v: SeatView, p: Plan) -> list[dict]:
        """The plan's melds, then its lay-offs onto melds already on the table."""
        out = [{"type": "meld", "cards": C.names(m)} for m in p.melds]
        out += [
            {"type": "layoff", "card": C.name(c), "meld": mid} for c, mid in p.layoffs if mid >= 0
        ]
        return out

    def joker_play(self, v: SeatView) -> dict | None:
        """A joker laid off (on the longest meld that takes it) or melded, when one can be:
        it scores 15 on the table instead of costing 15 in hand."""
        if C.JOKER not in v.hand:
            return None
        layoffs = [a for a in v.legal if a["type"] == "layoff" and a.get("card") == C.JOKER_NAME]
        if layoffs:
            return layoffs[0]
        melds = [a for a in v.legal if a["type"] == "meld" and C.JOKER_NAME in a["cards"]]
        if melds:
            return max(melds, key=lambda a: sum(C.VALUES[C.parse(n)] for n in a["cards"]))
        return None

    def play_dug(self, v: SeatView) -> dict:
        """The card dug for must still go down and the plan found no way: any legal play keeps
        a way open (the engine refuses the others), so play one, the dug card's first."""
        mp = C.name(v.must_play) if v.must_play is not None else None
        plays = [a for a in v.legal if a["type"] in ("meld", "layoff")]
        for a in plays:
            if a.get("card") == mp or mp in (a.get("cards") or ()):
                return a
        return plays[0] if plays else self._fallback(v)

    def discard_candidates(self, v: SeatView, p: Plan) -> list[int]:
        """Cards that may be discarded, the plan's leftovers first when there are any."""
        allowed = {C.parse(a["card"]) for a in v.legal if a["type"] == "discard"}
        if len(allowed) > 1:
            allowed.discard(C.JOKER)  # never throw a joker while there is another card
        dead = [c for c in p.dead if c in allowed]
        return sorted(set(dead)) if dead else sorted(allowed)

    def discard(self, v: SeatView, p: Plan) -> dict:
        cands = self.discard_candidates(v, p)
        if not cands:
            return self._fallback(v)
        lone = [c for c in cands if partners(c, p.dead) == 0] or cands
        return discard(self.rng.choice(lone))
