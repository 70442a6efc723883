"""The ``easy`` bot: legal moves, little planning. It takes the top of the discard pile
when that card makes a meld with its hand, lays down the first meld it sees, lays off what
fits, and discards at random among the cards with no neighbour in its hand."""

from __future__ import annotations

from rum500 import cards as C
from rum500.bots.base import PlanningBot, action_key, dig, discard, draw_stock
from rum500.bots.hands import fits, partners
from rum500.bots.jokers import keep_jokers
from rum500.bots.seat import SeatView


class EasyBot(PlanningBot):
    level = "easy"

    def observe(self, events: list[dict], view: dict) -> None:
        """The easy bot remembers nothing."""

    def draw(self, v: SeatView) -> dict:
        legal = {action_key(a) for a in v.legal}
        top = len(v.pile) - 1
        if top >= 0 and action_key(dig(top)) in legal and fits(v.pile[top], v.hand, []):
            return dig(top)
        if v.stock:
            return draw_stock()
        digs = [a for a in v.legal if a["type"] == "draw"]
        return digs[-1] if digs else {"type": "end_hand"}

    def play(self, v: SeatView) -> dict:
        if v.must_play is not None:
            return self.play_dug(v)
        for kind in ("meld", "layoff"):
            for a in v.legal:
                if a["type"] == kind:
                    return a
        allowed = sorted({C.parse(a["card"]) for a in v.legal if a["type"] == "discard"})
        allowed = keep_jokers(allowed)  # never a joker while another card may go
        if not allowed:
            return self._fallback(v)
        lone = [c for c in allowed if partners(c, v.hand) == 0] or allowed
        return discard(self.rng.choice(lone))
