"""The hand-end review: the pause between two hands, as this seat lives it.

While a hand is over and the match goes on, every view carries ``review`` = ``{"hand",
"waiting", "seconds_left"}`` (docs/protocol.md). :class:`Review` keeps the newest one with the
moment it arrived, so the screen counts ``seconds_left`` down locally; it remembers whether
this seat has said it is ready, and it owns what Enter does in the review (ready, deal with a
host that has no review, or close) and the one line saying who the table waits for. The score
sheet itself is drawn by :mod:`rum500.tui.sheets`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from rum500.i18n import _, ngettext
from rum500.tui.countdown import deadline, whole_seconds_left
from rum500.tui.feed import Feed
from rum500.tui.tableview import TableView


class ReviewTable(Protocol):
    """What :class:`Review` reads and calls of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    feed: Feed  # the message line

    def submit_action(self, action: dict) -> None: ...

    def deal(self) -> None: ...

    def close_overlay(self) -> None: ...

    def on_change(self) -> None: ...


class Review:
    """The open review (or none) of ``screen``'s seat. ``clock`` is injectable for tests."""

    def __init__(self, screen: ReviewTable, clock: Callable[[], float] = time.monotonic) -> None:
        self.screen = screen
        self.clock = clock
        self.hand: int | None = None
        self.waiting: list[int] = []
        self.deadline: float | None = None
        self.ready_sent = False
        self.scroll = 0

    # ------------------------------------------------------------------ the host's word

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
        hand = hand if isinstance(hand, int) else -1
        if hand != self.hand:
            self.ready_sent = False
            self.scroll = 0
        self.hand = hand
        waiting = review.get("waiting")
        self.waiting = (
            [s for s in waiting if isinstance(s, int)][:8] if isinstance(waiting, list) else []
        )
        self.deadline = deadline(review.get("seconds_left"), self.clock(), 86400.0)

    def seconds_left(self) -> int | None:
        """Whole seconds until the host deals anyway (counted down locally), None if unknown."""
        return whole_seconds_left(self.deadline, self.clock())

    def waits_for(self, seat: int | None) -> bool:
        return seat is not None and seat in self.waiting and not self.ready_sent

    @property
    def waits_for_me(self) -> bool:
        """The table waits for this seat's Enter (never a spectator's)."""
        return not self.screen.tableview.spectator and self.waits_for(self.screen.tableview.seat)

    def still_waiting(self) -> list[int]:
        """The seats the deal waits for (this one left out once it said ready)."""
        me = self.screen.tableview.seat
        return [s for s in self.waiting if not (s == me and self.ready_sent)]

    # ------------------------------------------------------------------ the player's part

    def ready(self) -> None:
        """Tell the host this seat is ready for the next deal (a spectator: close)."""
        t = self.screen
        if t.tableview.spectator or t.tableview.seat is None:
            t.close_overlay()
            return
        if not self.waits_for(t.tableview.seat):
            t.feed.say(self.wait_text())
            return
        self.ready_sent = True
        t.submit_action({"type": "ready"})
        t.feed.say(self.wait_text())

    def enter_label(self) -> str:
        if self.waits_for_me:
            return _("ready for the next hand")
        if not self.open and self.screen.tableview.legal("deal"):
            return _("deal the next hand")
        return _("close")

    def enter(self) -> None:
        """Enter in the review: ready (or deal, with a host that has no review), else close."""
        if self.waits_for_me:
            self.ready()
        elif not self.open and self.screen.tableview.legal("deal"):
            self.screen.deal()
        else:
            self.screen.close_overlay()

    def wait_text(self) -> str:
        """Who the next deal waits for, and for how long at most ("" with no review)."""
        if not self.open:
            return ""
        waiting = self.still_waiting()
        if not waiting:
            return _("Dealing the next hand…")
        names = ", ".join(self.screen.tableview.player_name(s) for s in waiting)
        left = self.seconds_left()
        if left is None:
            return _("Waiting for {names}.").format(names=names)
        return ngettext(
            "Waiting for {names}: the next hand is dealt in {n} second.",
            "Waiting for {names}: the next hand is dealt in {n} seconds.",
            left,
        ).format(names=names, n=left)

    def why_not(self) -> str:
        """Why a game key does nothing while the hand is over."""
        if self.waits_for_me:
            return _("The hand is over: press Enter when you are ready for the next one.")
        if self.open:
            return self.wait_text() + " " + _("Esc shows the table.")
        return _("The hand is over: Enter closes this sheet.")

    def scroll_by(self, step: int) -> None:
        self.scroll = max(0, self.scroll + step)
        self.screen.on_change()
