"""The ``medium`` bot: greedy and sound.

* Draw: digs in the discard pile when the dug card goes into a meld (or a lay-off) that
  pays for the cards taken with it; otherwise the stock.
* Play: lays down the melds that shed the most points, and lays off all it can, at once.
* Discard: never a card that fits a meld on the table, nor one next to what the next player
  is known to hold (cards it took from the pile); then a card with no neighbour in the
  hand before one that has; then the most expensive.
"""

from __future__ import annotations

from collections import Counter

from rum500 import cards as C
from rum500.bots.base import PlanningBot, dig, discard, draw_stock
from rum500.bots.hands import Plan, fits, partners, plan
from rum500.bots.seat import SeatView
from rum500.bots.teams import discard_key

#: A dig must gain this much more than the cards it leaves in hand cost.
DIG_MARGIN = 6.0


def dug_plan(v: SeatView, index: int) -> tuple[Plan, list[int], int | None]:
    """The plan after taking the pile from ``index`` up: (plan, cards taken, card forced)."""
    taken = v.pile[index:]
    free = v.top_card_free and index == len(v.pile) - 1 and v.stock > 0
    force = None if free else v.pile[index]
    p = plan(v.hand + taken, v.melds, v.seat, force, v.min_run, v.new_meld)
    return p, taken, force


def left_over(taken: list[int], dead: list[int]) -> list[int]:
    """The cards of ``taken`` that the plan leaves in hand."""
    left = Counter(dead)
    out = []
    for c in taken:
        if left[c]:
            left[c] -= 1
            out.append(c)
    return out


class MediumBot(PlanningBot):
    level = "medium"

    def draw(self, v: SeatView) -> dict:
        base = plan(v.hand, v.melds, v.seat, None, v.min_run)
        best: dict | None = None
        best_score = DIG_MARGIN if v.stock else 0.0
        for a in v.legal:
            if a["type"] != "draw" or a.get("source") != "discard":
                continue
            p, taken, force = dug_plan(v, a["index"])
            if force is not None and not p.places(force):
                continue
            junk = sum(C.VALUES[c] for c in left_over(taken, p.dead))
            score = p.gain - base.gain - junk
            if score > best_score:
                best, best_score = dig(a["index"]), score
        if best is not None:
            return best
        if v.stock:
            return draw_stock()
        return {"type": "end_hand"}

    def danger(self, v: SeatView, card: int) -> int:
        """2: anyone could lay it off; 1: next to a card the next player holds; 0: neither."""
        if fits(card, [], v.melds, v.min_run):
            return 2
        known = self.tracker.known_cards(v.next_seat)
        return 1 if known and partners(card, known) else 0

    def discard(self, v: SeatView, p: Plan) -> dict:
        cands = self.discard_candidates(v, p)
        if not cands:
            return self._fallback(v)

        def key(c: int) -> tuple:
            rest = list(p.dead)
            if c in rest:
                rest.remove(c)
            # then, with partners, the team's order (rum500/bots/teams.py)
            team = discard_key(v, c, self.tracker.known_cards)
            return (self.danger(v, c), partners(c, rest) > 0, -C.VALUES[c], team)

        return discard(min(cands, key=key))
