"""The score table (``p``): every hand so far, per player, open at any time. :class:`rum500.
tui.scores.Scores` keeps its state; :mod:`rum500.tui.sheets` draws its rows."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui import sheets
from rum500.tui.feed import Feed
from rum500.tui.overlays.common import Common, always_keys, scroll_keys
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class ScoreTable(Common, sheets.SheetTable, Protocol):
    """What the score table uses of the table screen (a narrow port)."""

    def close_overlay(self) -> None: ...

    feed: Feed  # the message line


def keys(model: ScoreTable) -> list[Key]:
    return [
        *scroll_keys(model.scores.scroll_by),
        Key(("p",), model.scores.toggle, "p", lambda: _("close")),
        Key(("escape", "enter"), model.close_overlay, "Esc", lambda: _("close")),
        *always_keys(model),
    ]


def body(model: ScoreTable, kit: Kit) -> AnyContainer:
    def scroll(n: int, room: int) -> int:
        if model.scores.scroll is None:
            return n  # the newest hands
        model.scores.scroll = max(0, min(model.scores.scroll, n - room))
        return model.scores.scroll

    return kit.scrolled(lambda w: sheets.score_table_lines(model, w), scroll)


def why(model: ScoreTable, key: str) -> None:
    model.feed.say(_("The score table is open: p or Esc closes it."))


OVERLAY = Overlay(
    "scores",
    lambda: _("Scores, hand by hand"),
    keys,
    body,
    lambda kit: kit.above_the_keys(),
    why,
)
