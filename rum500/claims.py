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
  ``claim.waiting``, ``claim.passed`` and ``claim.on``: which discard the window is for (the
  number of the match's actions up to that discard — the same at every host the table moves
  to); a ``rummy`` or ``pass`` that names it (``"on": …``) is judged only against that
  discard: once its window has closed the call is refused (:meth:`ClaimWindow.check_on`),
  never taken for a call on the next discard.

Bots call too (:mod:`rum500.bots.calls`): once per claim phase the host asks each bot seat
(:meth:`ClaimWindow.ask`, from that seat's view) whether and when it calls. The window never
waits for a bot, so a table of bots is never held:

* while the window waits for a human, each bot's call is made at its reaction time (a call
  that would come after the deadline is a miss) and judged in the order of arrival with the
  humans' calls: the first valid call wins;
* when nobody is waited for (no human but the discarder, or every other human passed), the
  bots' calls still to be made are judged at once, in seat order from the discarder's left,
  and the host closes the claim phase if none is valid (:meth:`ClaimWindow.now`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping

from rum500.bots.calls import Call, Caller
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
        #: bots' calls to be made in this window: seat -> (when, action)
        self.calls: dict[int, tuple[float, dict]] = {}
        self._asked = False
        self._made: set[int] = set()  # bots whose call, made in time, is being judged
        self._callers: dict[int, Caller] = {}

    def follow(self, game: Game) -> None:
        """Open a window when ``game`` has entered a new claim phase, forget it when the
        phase is over. Call after every change of the game."""
        if game.phase is not Phase.CLAIM:
            self._key, self.until = None, None
            self.passed.clear()
            self._forget_calls()
            return
        key = len(game.actions)
        if key != self._key:
            self._key = key
            self.until = self.clock() + self.length
            self.passed = set()
            self._forget_calls()

    def carry(self, passed: Iterable[int], left: float) -> None:
        """Go on with the open window as it stood where the table was before a move (a
        handoff, a failover): ``passed`` those who passed, ``left`` seconds to its deadline
        (at most its length). The bots' calls are asked again, timed from when it opened."""
        if not self.open:
            return
        self.until = self.clock() + min(max(0.0, left), self.length)
        self.passed = set(passed)
        self._forget_calls()

    def _forget_calls(self) -> None:
        self.calls = {}
        self._asked = False
        self._made = set()

    @property
    def open(self) -> bool:
        return self.until is not None

    @property
    def on(self) -> int | None:
        """Which discard the open window is for (``claim.on``), None when none is open."""
        return self._key if self.open else None

    def check_on(self, action: Mapping) -> None:
        """Refuse a ``rummy`` or ``pass`` whose ``on`` names another discard than the one
        the open window is for (one whose window has closed): it answers that discard, not
        this one. Without ``on`` (or ``None``) it is for the open window, whichever."""
        on = action.get("on")
        if on is None:
            return
        if not isinstance(on, int) or isinstance(on, bool):
            raise IllegalMove("'on' names a discard by its number, claim.on of the view")
        if on != self.on:
            raise IllegalMove("the discard you answered is no longer open to calls")

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
        """Seconds until the host acts on the window — makes a bot's call or closes it: 0.0
        when nobody is waited for."""
        if not self.waiting(game, humans):
            return 0.0
        left = self.left()
        if self.calls:
            first = min(when for when, _ in self.calls.values())
            left = min(left, max(0.0, first - self.clock()))
        return left

    # -- bots' calls

    def caller(self, seat: int, level: str, seed: int | None = None) -> Caller:
        """The :class:`~rum500.bots.calls.Caller` of a bot seat (made once per seat)."""
        c = self._callers.get(seat)
        if c is None or c.level != level:
            c = self._callers[seat] = Caller(level, seed)
        return c

    def ask(
        self,
        game: Game,
        bots: Mapping[int, str],
        view: Callable[[int], dict],
        seed: int | None = None,
    ) -> None:
        """Once per claim phase: ask each bot seat (``bots``: seat -> level) from its view
        whether and when it calls; the calls that would come before the deadline are
        scheduled (:attr:`calls`)."""
        if not self.open or self._asked or game.phase is not Phase.CLAIM:
            return
        self._asked = True
        assert self.until is not None
        opened = self.until - self.length
        for seat in game.claim_seats():
            level = bots.get(seat)
            if level is None:
                continue
            s = None if seed is None else seed * 97 + seat
            decided: Call | None = self.caller(seat, level, s).decide(view(seat))
            if decided is not None and decided.delay < self.length:
                self.calls[seat] = (opened + decided.delay, decided.action)

    def now(self, game: Game, humans: Iterable[int]) -> list[tuple[int | None, dict]]:
        """What the host does when :meth:`due` says it is time, in order (the first action
        the table accepts ends the claim phase; a refused one is skipped): ``(seat, call)``
        for bots' calls, ``(None, close_claims)`` last.

        While a human is waited for: the bots' calls whose time has come, earliest first
        (the window stays open when none has: the host closes it at the deadline). When
        nobody is waited for: every bot's call still to be made, in seat order from the
        discarder's left, then the close."""
        close: list[tuple[int | None, dict]] = [(None, {"type": "close_claims"})]
        if not self.open or game.phase is not Phase.CLAIM:
            return []
        if self.waiting(game, humans):
            t = self.clock()
            due = sorted((when, seat) for seat, (when, _) in self.calls.items() if when <= t)
            order = [seat for _, seat in due]
            if not order:
                return close if self.left() <= 0.0 else []
        else:
            order = [s for s in game.claim_seats() if s in self.calls]
        out: list[tuple[int | None, dict]] = []
        for seat in order:
            _, action = self.calls.pop(seat)
            self._made.add(seat)  # made in time: judged even if the host comes late to it
            out.append((seat, action))
        if not self.waiting(game, humans) or self.left() <= 0.0:
            out += close
        return out

    def bot_calls(self) -> int:
        """Bots' calls still to be made in this window."""
        return len(self.calls)

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

    def check_call(self, seat: int | None = None) -> None:
        """Refuse a call that comes after the deadline (the host is about to close); a bot's
        call made in time is judged even when the host gets to it a moment late."""
        if seat is not None and seat in self._made:
            return
        if self.open and self.left() <= 0.0:
            raise IllegalMove("too late: the claim window has closed")

    def view(self, game: Game, humans: Iterable[int]) -> dict:
        """What every view adds to ``claim`` while the window is open."""
        return {
            "on": self.on,
            "seconds_left": round(self.left(), 2),
            "waiting": self.waiting(game, humans),
            "passed": sorted(self.passed),
        }


def answering(action: dict, view: Mapping | None) -> dict:
    """``action`` — a ``rummy`` or ``pass`` — naming the discard of ``view``'s claim window
    (``on``), so that the host never takes it for a call on a later discard; any other action
    as it is."""
    claim = view.get("claim") if isinstance(view, Mapping) else None
    on = claim.get("on") if isinstance(claim, Mapping) else None
    if action.get("type") not in ("rummy", "pass") or not isinstance(on, int):
        return action
    return {**action, "on": on}
