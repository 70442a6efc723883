"""The hand-end review: the score sheet of the hand just over; Enter = ready (or deal, or
close), the arrows scroll, Esc shows the table. :mod:`rum500.tui.review` keeps its state."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer
from prompt_toolkit.layout.dimension import Dimension

from rum500.i18n import _
from rum500.tui import render, sheets
from rum500.tui.feed import Feed
from rum500.tui.overlays.common import Common, always_keys, online, scores_key, scroll_keys
from rum500.tui.overlays.keymap import Key, Kit, Overlay
from rum500.tui.tableview import TableView


class HandReview(Common, sheets.SheetTable, Protocol):
    """What the hand-end review uses of the table screen (a narrow port): the sheets' reads,
    the review, whether the match is over."""

    tableview: TableView  # what the host sent, and its accessors
    feed: Feed  # the message line

    def close_overlay(self) -> None: ...


def keys(model: HandReview) -> list[Key]:
    review = model.review
    return [
        Key(("enter", "n"), review.enter, "Enter", review.enter_label, when=online(model)),
        *scroll_keys(review.scroll_by),
        scores_key(model, lambda: True),
        Key(
            ("escape",),
            model.close_overlay,
            "Esc",
            lambda: _("look at the table"),
            lambda: model.feed.link_down or review.open or model.tableview.finished,
            offline=1,
        ),
        *always_keys(model),
    ]


def body(model: HandReview, kit: Kit) -> AnyContainer:
    def scroll(n: int, room: int) -> int:
        model.review.scroll = max(0, min(model.review.scroll, n - room))
        return model.review.scroll

    return kit.stack(
        [
            kit.scrolled(
                lambda w: sheets.review_lines(model, w),
                scroll,
                lambda: len(sheets.review_footer(model)) + 1,
            ),
            kit.rule(),
            kit.window(
                lambda: render.joined(sheets.review_footer(model)),
                height=lambda: Dimension.exact(len(sheets.review_footer(model))),
            ),
        ]
    )


def why(model: HandReview, key: str) -> None:
    model.feed.say(model.review.why_not())


OVERLAY = Overlay(
    "sheet",
    lambda: _("Hand over"),
    keys,
    body,
    lambda kit: kit.above_the_keys(),
    why,
    offline_bar=True,
)
