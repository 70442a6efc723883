"""Keys several modes share: chat, help and quit at the end of the bar, the score table's p,
and scrolling."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.overlays.keymap import Key
from rum500.tui.tableview import TableView

if TYPE_CHECKING:
    from rum500.tui.scores import Scores


class Linked(Protocol):
    """Whether the link to the host is down (the keys that go to it do not act then): the
    feed's ``link_down``."""

    feed: Feed


class Common(Linked, Protocol):
    """What the keys several modes share use of the table screen (a narrow port): the
    view (are there scores?), the score table, and opening the chat, the help, the quit
    question."""

    tableview: TableView  # what the host sent, and its accessors
    scores: Scores

    def open_chat(self) -> None: ...

    def toggle_help(self) -> None: ...

    def ask_quit(self) -> None: ...


def online(model: Linked) -> Callable[[], bool]:
    return lambda: not model.feed.link_down


def has_results(model: Common) -> bool:
    return bool(model.tableview.view and model.tableview.view.get("results"))


def always_keys(model: Common) -> list[Key]:
    """c (chat), ? (help), q (leave): the end of the bar of the table and of the sheets."""
    return [
        Key(("c",), model.open_chat, "c", lambda: _("chat"), when=online(model)),
        Key(("?",), model.toggle_help, "?", lambda: _("help"), offline=3),
        Key(("q", "c-c"), model.ask_quit, "q", lambda: _("quit"), offline=4),
    ]


def scores_key(model: Common, offered: Callable[[], bool]) -> Key:
    """p: the score table (shown while offline only when there are scores)."""
    return Key(
        ("p",),
        model.scores.toggle,
        "p",
        lambda: _("scores"),
        offered=lambda: has_results(model) if model.feed.link_down else offered(),
        offline=2,
    )


def scroll_keys(scroll_by: Callable[[int], None]) -> list[Key]:
    """↑/↓ a line, PgUp/PgDn (and space) a page; the bar shows "↑↓ scroll"."""
    return [
        Key(("up",), lambda: scroll_by(-1)),
        Key(("down",), lambda: scroll_by(1), "↑↓", lambda: _("scroll")),
        Key(("pageup",), lambda: scroll_by(-10)),
        Key(("pagedown", "space"), lambda: scroll_by(10)),
    ]
