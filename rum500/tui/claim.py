"""The "Rummy!" claim window as this seat lives it (the ``rummy_calls`` house rule).

While the host holds a discard open for calls, every view carries ``claim`` = ``{"card",
"from", "on", "seconds_left", "waiting", "passed"}`` (docs/protocol.md). :class:`Claim` keeps
the newest with the moment it arrived, so the screen counts the window down locally; ``r``
calls "Rummy!" (asking on which meld, or what a joker stands for, when there is a choice) and
``x`` passes — each naming the discard it answers (``on``), so that a key pressed as the
window closes is never taken for a call on the next discard. A call by anyone shows a banner
on every seat for a few seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from rum500.i18n import _
from rum500.tui import describe
from rum500.tui.countdown import deadline, whole_seconds_left
from rum500.tui.feed import Feed
from rum500.tui.tableview import TableView

BANNER_SECONDS = 5.0


class ClaimTable(Protocol):
    """What :class:`Claim` reads and calls of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    ascii: bool
    feed: Feed  # the message line

    def choose(self, question: str, choices: list[tuple[str, dict]]) -> None: ...

    def submit_action(self, action: dict) -> None: ...


class Claim:
    """The open claim window (or none) of ``screen``'s seat. ``clock`` is injectable."""

    def __init__(self, screen: ClaimTable, clock: Callable[[], float] = time.monotonic) -> None:
        self.screen = screen
        self.clock = clock
        self.card: str | None = None
        self.by: int | None = None  # the discarder
        self.waiting: list[int] = []
        self.passed: list[int] = []
        self.deadline: float | None = None
        self.on: int | None = None  # which discard the window is for (the host's claim.on)
        self.banner = ""
        self.banner_until = 0.0

    @property
    def open(self) -> bool:
        return self.card is not None

    def update(self, claim: object) -> None:
        """Take a view's ``claim`` field (a dict while the window is open, else None)."""
        if not isinstance(claim, dict) or not isinstance(claim.get("card"), str):
            self.card, self.by, self.waiting, self.passed, self.deadline = None, None, [], [], None
            self.on = None
            return
        self.card = str(claim["card"])[:3]
        by = claim.get("from")
        self.by = by if isinstance(by, int) else None
        self.waiting = _seats(claim.get("waiting"))
        self.passed = _seats(claim.get("passed"))
        on = claim.get("on")
        self.on = on if isinstance(on, int) and not isinstance(on, bool) else None
        self.deadline = deadline(claim.get("seconds_left"), self.clock(), 60.0)

    def seconds_left(self) -> int | None:
        """Whole seconds left to call (counted down locally), None if the host did not say."""
        return whole_seconds_left(self.deadline, self.clock())

    @property
    def mine(self) -> bool:
        """The discard is my own (no call on it)."""
        return self.by is not None and self.by == self.screen.tableview.seat

    def may_act(self) -> bool:
        """I sit at the table, the discard is another's, and I have not passed."""
        seat = self.screen.tableview.seat
        return self.open and seat is not None and not self.mine and seat not in self.passed

    # ------------------------------------------------------------------ keys

    def call(self) -> None:
        """r: call "Rummy!" on the discard — at once when one call fits, else ask which."""
        t = self.screen
        if not self.open or self.card is None:
            if self._table_without_calls():
                return
            t.feed.say(
                _("Rummy! can only be called while a discard is open for calls."), error=True
            )
            return
        if t.tableview.spectator or t.tableview.seat is None:
            t.feed.say(_("You are watching: spectators do not play."), error=True)
            return
        card = describe.card_text(self.card, t.ascii)
        if self.mine:
            t.feed.say(_("You may not call Rummy! on your own discard."), error=True)
            return
        calls = t.tableview.legal("rummy")
        if not calls:
            t.feed.say(
                _("{card} cannot be laid off on any meld: there is no Rummy! to call.").format(
                    card=card
                ),
                error=True,
            )
            return
        if len(calls) == 1:
            t.submit_action(self.answering(calls[0]))
            return
        view = t.tableview.view or {}
        t.choose(
            _("Rummy! on which meld?"),
            [
                (describe.action(a, view, t.tableview.player_name, t.ascii), self.answering(a))
                for a in calls
            ],
        )

    def pass_(self) -> None:
        """x: no call on this discard (the window closes early once every other human has
        passed)."""
        t = self.screen
        if not self.may_act():
            if self._table_without_calls():
                return
            t.feed.say(_("There is no discard to pass on now."), error=True)
            return
        t.submit_action(self.answering({"type": "pass"}))

    def _table_without_calls(self) -> bool:
        """A call or a pass (r or x; plain: call, pass) with no window open, at a table that
        plays without "Rummy!" calls: says so (True)."""
        options = (self.screen.tableview.view or {}).get("options") or {}
        if options.get("rummy_calls", True):
            return False
        self.screen.feed.say(_('This table plays without "Rummy!" calls.'), error=True)
        return True

    def answering(self, action: dict) -> dict:
        """``action`` naming the discard this window is for (``on``), when the host said it."""
        return action if self.on is None else {**action, "on": self.on}

    # ------------------------------------------------------------------ words

    def status_text(self) -> str:
        """One line: whose discard, the countdown, and what I may do."""
        t = self.screen
        card = describe.card_text(self.card or "?", t.ascii)
        left = self.seconds_left()
        clock = _(" — {n} s").format(n=left) if left is not None else ""
        if self.mine:
            return _("Rummy! may be called on your {card}{clock}").format(card=card, clock=clock)
        who = t.tableview.player_name(self.by)
        if t.tableview.seat is None or t.tableview.seat in self.passed:
            return _("{who} discarded {card}: calls are open{clock}").format(
                who=who, card=card, clock=clock
            )
        if t.tableview.legal("rummy"):
            return _("{who} discarded {card}: r = Rummy!, x = no call{clock}").format(
                who=who, card=card, clock=clock
            )
        return _("{who} discarded {card}: x = no call{clock}").format(
            who=who, card=card, clock=clock
        )

    def called(self, text: str) -> None:
        """Someone called Rummy!: a banner on every seat for a few seconds."""
        self.banner = text
        self.banner_until = self.clock() + BANNER_SECONDS

    def banner_text(self) -> str:
        return self.banner if self.banner and self.clock() < self.banner_until else ""


def _seats(value: object) -> list[int]:
    if not isinstance(value, list):
        return []
    return [s for s in value[:8] if isinstance(s, int) and not isinstance(s, bool)]
