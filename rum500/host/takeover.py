"""The takeover countdown: a human seat whose player stays away ``after`` seconds is played
by a bot until its player rejoins (every view's ``takeover`` counts down to it).

A clock-injected object beside :class:`rum500.claims.ClaimWindow` and
:class:`rum500.host.review.ReviewWindow`: it reads the server's seats (``taken``, ``bot``,
``conn``, ``away_since``) and knows no rule; ``clock`` (``time.monotonic`` by default) is its
only source of time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Protocol


class AwaySeat(Protocol):
    """What the countdown reads of a seat (:class:`net.server.Seat` has it)."""

    taken: bool
    bot: bool
    conn: object | None
    away_since: float | None


class Takeover:
    """When the host's bot plays an away player's seat (``after``: None, never)."""

    def __init__(self, after: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.after = after
        self.clock = clock

    def away(self, seat: AwaySeat) -> bool:
        """Whether ``seat`` is a human player's who is not connected now."""
        return seat.taken and not seat.bot and seat.conn is None

    def wait(self, seat: AwaySeat) -> float | None:
        """Seconds until a bot plays ``seat`` (0.0: it does now); None when it never will
        (takeover off, or the seat is not an away player's)."""
        if self.after is None or not self.away(seat):
            return None
        now = self.clock()
        since = seat.away_since if seat.away_since is not None else now
        return max(0.0, since + self.after - now)

    def countdown(self, seats: Iterable[AwaySeat]) -> list[float | None]:
        """Per seat, :meth:`wait` rounded to a tenth (what views carry as ``takeover``)."""
        out: list[float | None] = []
        for s in seats:
            w = self.wait(s)
            out.append(None if w is None else round(w, 1))
        return out
