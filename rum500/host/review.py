"""The hand-end review window (RULES.md §16, docs/protocol.md): after a hand the host waits
for the connected players to say ready, up to ``length`` seconds, then deals anyway.

A clock-injected timer beside a clockless engine, shaped like
:class:`rum500.claims.ClaimWindow`: :meth:`ReviewWindow.open` when a hand ends,
:meth:`ReviewWindow.close` when the next deal comes, :meth:`ReviewWindow.say_ready`,
:meth:`ReviewWindow.waiting`, :meth:`ReviewWindow.left`, and :meth:`ReviewWindow.carry` for a
window that moved here from another host. ``clock`` (``time.monotonic`` by default) is the
only source of time, so a test drives it by hand.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable


class ReviewWindow:
    """Who said ready since the hand ended, and when the host deals anyway."""

    def __init__(self, length: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        #: seconds the review lasts at most (None: no deadline, :meth:`left` is infinite)
        self.length = length
        self.clock = clock
        #: the seats that said ready in this review
        self.ready: set[int] = set()
        #: the clock's time when the host deals anyway (None: no review open)
        self.until: float | None = None

    def open(self) -> None:
        """A hand ended: nobody is ready yet; the full length to go."""
        self.ready.clear()
        if self.length is None:
            self.until = math.inf
            return
        self.until = self.clock() + max(0.0, self.length)

    def close(self) -> None:
        """The next hand was dealt."""
        self.ready.clear()
        self.until = None

    def carry(self, ready: Iterable[int], left: float) -> None:
        """Go on with a review that was open at another host: who said ready there, and the
        seconds it had left."""
        self.ready = set(ready)
        self.until = self.clock() + max(0.0, left)

    def say_ready(self, seat: int) -> bool:
        """``seat`` is ready; False when it had said so already."""
        if seat in self.ready:
            return False
        self.ready.add(seat)
        return True

    def waiting(self, humans: Iterable[int]) -> list[int]:
        """Of ``humans`` (the connected players' seats), those who have not said ready."""
        return [s for s in humans if s not in self.ready]

    def left(self) -> float:
        """Seconds until the host deals anyway (0.0 when none is open, or it is due;
        infinite with no deadline)."""
        if self.until is None:
            return 0.0
        return max(0.0, self.until - self.clock())
