"""What a bot remembers of a hand: the public events it was shown.

Everything here comes from events a seat may see (:meth:`rum500.rules.Game.apply` returns
only public events): which cards each opponent took from the discard pile (so still holds,
until it plays them), and which cards it passed over (the top card when it drew from the
stock) or threw away — cards it probably cannot use.
"""

from __future__ import annotations

from collections.abc import Mapping

from rum500 import cards as C

#: How many refused or discarded cards are remembered per seat.
AVOID_MEMORY = 8


class Tracker:
    """Card memory for one seat, fed by :meth:`observe`."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hand_number: int | None = None
        self.known: dict[int, list[int]] = {}
        self.avoid: dict[int, list[int]] = {}
        self.top: int | None = None

    def reset(self) -> None:
        self.known = {}
        self.avoid = {}
        self.top = None

    def observe(self, events: list[dict], view: Mapping) -> None:
        """Take in the events of one update, then the seat's view after it."""
        seat = view.get("seat")
        self.seat = seat if isinstance(seat, int) else None
        hand_number = view.get("hand_number")
        if hand_number != self.hand_number:
            self.reset()
            self.hand_number = hand_number
        for e in events:
            try:
                self._event(e)
            except (KeyError, TypeError, ValueError):
                continue  # an event this bot does not understand tells it nothing
        pile = view.get("discard_pile") or []
        self.top = C.parse(pile[-1]) if pile else None

    def _event(self, e: Mapping) -> None:
        kind = e.get("type")
        if kind in ("deal", "hand_end"):
            self.reset()
            return
        seat = e.get("seat")
        if not isinstance(seat, int) or seat == self.seat:
            return
        known = self.known.setdefault(seat, [])
        if kind == "draw":
            if e.get("source") == "discard":
                known.extend(C.parse_many(e.get("cards") or []))
            elif self.top is not None:
                self._avoid(seat, self.top)
        elif kind == "meld":
            for c in C.parse_many(e["cards"]):
                if c in known:
                    known.remove(c)
        elif kind in ("layoff", "discard"):
            c = C.parse(e["card"])
            if c in known:
                known.remove(c)
            if kind == "discard":
                self._avoid(seat, c)

    def _avoid(self, seat: int, card: int) -> None:
        lst = self.avoid.setdefault(seat, [])
        lst.append(card)
        del lst[:-AVOID_MEMORY]

    def known_cards(self, seat: int) -> list[int]:
        return list(self.known.get(seat, ()))

    def avoided(self, seat: int) -> list[int]:
        return list(self.avoid.get(seat, ()))
