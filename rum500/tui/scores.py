"""The score table overlay (``p``): every hand so far, per player, open at any time.

The rows are the view's ``results`` (the host keeps the newest, ``results_start`` says how many
earlier ones it left out); :mod:`rum500.tui.sheets` draws them.
"""

from __future__ import annotations

from typing import Protocol

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.tableview import TableView


class ScoresTable(Protocol):
    """What :class:`Scores` reads and calls of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    overlay: str | None
    feed: Feed  # the message line

    def close_overlay(self) -> None: ...

    def on_change(self) -> None: ...


class Scores:
    def __init__(self, screen: ScoresTable) -> None:
        self.screen = screen
        self.scroll: int | None = None  # the first row shown; None: the newest hands in sight

    def rows(self) -> int:
        return len((self.screen.tableview.view or {}).get("results") or [])

    def toggle(self) -> None:
        """Open the table (again: close it)."""
        t = self.screen
        if t.overlay == "scores":
            t.close_overlay()
            return
        if not self.rows():
            t.feed.say(_("No hand has been scored yet."))
            return
        t.overlay = "scores"
        self.scroll = None
        t.on_change()

    def scroll_by(self, step: int) -> None:
        now = self.rows() if self.scroll is None else self.scroll
        self.scroll = max(0, min(self.rows(), now + step))
        self.screen.on_change()
