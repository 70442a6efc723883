"""Jokers for every bot level (RULES.md §11.1), read from the seat's view.

* :func:`joker_dig`: a joker on top of the discard pile is taken whenever it can go on the
  table at once — laid off on a table meld that takes a joker, or melded with two cards of
  the hand that sit next to each other (a pair, or the same suit one or two steps apart).
  Dug, it must be on the table this turn: 15 points for this seat (and the cards it melds
  with), where the stock would bring an unknown card. The levels' own draw logic leaves
  jokers out of its plans (:func:`rum500.bots.hands.plan` keeps them in hand), so without
  this no level ever dug one.
* :func:`keep_jokers`: the discards left once jokers are set aside — a joker is thrown only
  when nothing else may be.
"""

from __future__ import annotations

from rum500 import cards as C
from rum500.bots.hands import partners
from rum500.bots.seat import SeatView
from rum500.rules.melds import joker_fits, layoff_cards


def joker_goes_down(v: SeatView) -> bool:
    """A joker taken now could go on the table this turn."""
    if any(layoff_cards(m) and joker_fits(m) for m in v.melds):
        return True
    naturals = [c for c in v.hand if c < C.DECK_SIZE]
    return any(partners(c, naturals[:i] + naturals[i + 1 :]) for i, c in enumerate(naturals))


def joker_dig(v: SeatView) -> dict | None:
    """The dig for a joker on top of the discard pile, when it is legal and the joker can go
    down this turn; else None."""
    if v.phase != "draw" or not v.pile or v.pile[-1] != C.JOKER:
        return None
    top = len(v.pile) - 1
    for a in v.legal:
        if a.get("type") == "draw" and a.get("source") == "discard" and a.get("index") == top:
            return a if joker_goes_down(v) else None
    return None


def keep_jokers(cards: list[int]) -> list[int]:
    """``cards`` less the jokers, unless only jokers are left."""
    natural = [c for c in cards if c != C.JOKER]
    return natural or list(cards)
