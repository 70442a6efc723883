"""The ``easy`` bot: legal moves, little planning — a beginner. It digs for the deepest of
the top :data:`DIG_DEPTH` cards of the discard pile that it can put down (with its hand or on
the table), else draws from the stock; lays down the first meld it sees, lays off what fits,
and discards any card at random: it does not plan its hand, so it breaks up pairs and runs it
was building, and it never asks what the card would give the next player (a card that goes
with the pile's cards lets them dig)."""

from __future__ import annotations

from rum500 import cards as C
from rum500.bots.base import PlanningBot, dig, discard, draw_stock
from rum500.bots.hands import fits
from rum500.bots.jokers import keep_jokers
from rum500.bots.seat import SeatView

#: How deep in the discard pile it looks: it digs for the deepest of the top cards it can put
#: down (the engine offers only such digs).
DIG_DEPTH = 3


class EasyBot(PlanningBot):
    level = "easy"

    def observe(self, events: list[dict], view: dict) -> None:
        """The easy bot remembers nothing."""

    def draw(self, v: SeatView) -> dict:
        top = len(v.pile) - 1
        depths = [
            a["index"]
            for a in v.legal
            if a["type"] == "draw"
            and a.get("source") == "discard"
            and a["index"] > top - DIG_DEPTH
            # with "top card free" the top card is offered even when it cannot go down
            and (a["index"] < top or fits(v.pile[top], v.hand, v.melds, v.min_run))
        ]
        if depths:
            return dig(min(depths))
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
        return discard(self.rng.choice(allowed))  # any card: it does not plan its hand
