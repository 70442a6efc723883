"""The hand-end review: what the host says about the pause between two hands.

While a hand is over and the match goes on, every view carries ``review`` = ``{"hand",
"waiting", "seconds_left"}`` (docs/protocol.md). :class:`Review` keeps the newest one with the
moment it arrived, so the screen counts ``seconds_left`` down locally, and remembers whether
this seat has already said it is ready.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class Review:
    """The open review (or none). ``clock`` is injectable for tests."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.hand: int | None = None
        self.waiting: list[int] = []
        self.deadline: float | None = None
        self.ready_sent = False
        self.scroll = 0

    @property
    def open(self) -> bool:
        return self.hand is not None

    def update(self, review: object) -> None:
        """Take a view's ``review`` field (a dict, or None once the next hand is dealt)."""
        if not isinstance(review, dict):
            self.hand = None
            self.waiting = []
            self.deadline = None
            self.ready_sent = False
            self.scroll = 0
            return
        hand = review.get("hand")
        if hand != self.hand:
            self.ready_sent = False
            self.scroll = 0
        self.hand = hand if isinstance(hand, int) else -1
        waiting = review.get("waiting")
        self.waiting = (
            [s for s in waiting if isinstance(s, int)] if isinstance(waiting, list) else []
        )
        left = review.get("seconds_left")
        if isinstance(left, int | float) and math.isfinite(left):
            self.deadline = self.clock() + max(0.0, min(float(left), 86400.0))
        else:
            self.deadline = None

    def seconds_left(self) -> int | None:
        """Whole seconds until the host deals anyway (counted down locally), None if unknown."""
        if self.deadline is None:
            return None
        return max(0, math.ceil(self.deadline - self.clock()))

    def waits_for(self, seat: int | None) -> bool:
        return seat is not None and seat in self.waiting and not self.ready_sent
