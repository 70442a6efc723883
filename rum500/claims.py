"""The "Rummy!" claim window at the host (RULES.md §11.2; docs/protocol.md "Rummy! calls").

The engine has no clock: after every discard that does not end the hand (with the
``rummy_calls`` option) it waits in the ``claim`` phase until a seat calls ``rummy`` or the
host applies ``close_claims``. This module is the host's side of that phase:

* a window of ``length`` seconds (0.5–10, default 3) opens with every claim phase, claimable
  or not (so the pause itself tells nobody anything);
* the players it waits for are the connected human players other than the discarder who
  have not passed (``{"type": "pass"}``); with none — every other human passed, or no other
  human sits — it closes at once;
* a call that arrives after the window's deadline is refused (``too late``); calls are judged
  in the order the host receives them (the engine refuses every call after the first valid);
* views show it as ``claim.seconds_left`` (relative to the view, like the hand-end review),
  ``claim.waiting`` and ``claim.passed``.

Bots do not call (yet): the window never waits for a bot, so a table of bots is never held.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rum500.rules import Game, IllegalMove, Phase

#: the window's length: default and bounds (seconds, RULES.md §11.2)
CLAIM_WINDOW = 3.0
MIN_WINDOW = 0.5
MAX_WINDOW = 10.0


def check_window(seconds: float) -> float:
    """``seconds`` as a window length; ``ValueError`` outside 0.5–10."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError("the claim window is a number of seconds")
    if not MIN_WINDOW <= seconds <= MAX_WINDOW:
        raise ValueError(
            f"the claim window must be {MIN_WINDOW:g} to {MAX_WINDOW:g} seconds, not {seconds:g}"
        )
    return float(seconds)


class ClaimWindow:
    """The open claim window of one table (at most one at a time)."""

    def __init__(
        self, length: float = CLAIM_WINDOW, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.length = check_window(length)
        self.clock = clock
        self._key: int | None = None  # len(game.actions) when the claim phase began
        self.until: float | None = None
        self.passed: set[int] = set()

    def follow(self, game: Game) -> None:
        """Open a window when ``game`` has entered a new claim phase, forget it when the
        phase is over. Call after every change of the game."""
        if game.phase is not Phase.CLAIM:
            self._key, self.until = None, None
            self.passed.clear()
            return
        key = len(game.actions)
        if key != self._key:
            self._key = key
            self.until = self.clock() + self.length
            self.passed = set()

    @property
    def open(self) -> bool:
        return self.until is not None

    def left(self) -> float:
        """Seconds until the deadline (0.0 when no window is open)."""
        if self.until is None:
            return 0.0
        return max(0.0, self.until - self.clock())

    def waiting(self, game: Game, humans: Iterable[int]) -> list[int]:
        """The players the window waits for: ``humans`` (the connected human seats) but the
        discarder and those who passed."""
        if not self.open:
            return []
        return sorted(s for s in set(humans) if s != game.claim_from and s not in self.passed)

    def due(self, game: Game, humans: Iterable[int]) -> float:
        """Seconds until the host closes the window: 0.0 when nobody is waited for."""
        return self.left() if self.waiting(game, humans) else 0.0

    def pass_(self, game: Game, seat: int) -> list[dict]:
        """``seat`` will not call on this discard: a ``pass`` event (none when said twice)."""
        if not self.open or game.phase is not Phase.CLAIM:
            raise IllegalMove("there is no discard to pass on now")
        if seat == game.claim_from:
            raise IllegalMove("you may not call Rummy! on your own discard")
        if seat in self.passed:
            return []
        self.passed.add(seat)
        return [{"type": "pass", "seat": seat}]

    def check_call(self) -> None:
        """Refuse a call that comes after the deadline (the host is about to close)."""
        if self.open and self.left() <= 0.0:
            raise IllegalMove("too late: the claim window has closed")

    def view(self, game: Game, humans: Iterable[int]) -> dict:
        """What every view adds to ``claim`` while the window is open."""
        return {
            "seconds_left": round(self.left(), 2),
            "waiting": self.waiting(game, humans),
            "passed": sorted(self.passed),
        }
