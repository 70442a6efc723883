"""The help (``?``): every key and the house rules on at this table, scrolled."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.overlays import rules
from rum500.tui.overlays.common import scroll_keys
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class HelpPage(rules.RulePages, Protocol):
    """What the help uses of the table screen (a narrow port; L opens the house rules'
    lessons)."""

    help_scroll: int

    def help_lines(self, width: int | None = None) -> list[str]: ...

    def scroll_help(self, step: int, lines: int) -> None: ...

    def toggle_help(self) -> None: ...

    def close_overlay(self) -> None: ...

    feed: Feed  # the message line


def keys(model: HelpPage) -> list[Key]:
    def scroll_by(step: int) -> None:
        model.scroll_help(step, len(model.help_lines()))

    return [
        *scroll_keys(scroll_by),
        Key(("escape", "q", "enter"), model.close_overlay, "Esc", lambda: _("close")),
        Key(("?",), model.toggle_help),
        Key(("L",), lambda: rules.open_pages(model), "L", lambda: _("house rules' lessons")),
    ]


def body(model: HelpPage, kit: Kit) -> AnyContainer:
    return kit.scrolled(
        lambda w: [[("", line)] for line in model.help_lines(w)], lambda n, room: model.help_scroll
    )


def why(model: HelpPage, key: str) -> None:
    model.feed.say(_("The help is open: Esc closes it."))


OVERLAY = Overlay("help", lambda: _("Help"), keys, body, lambda kit: kit.above_the_keys(), why)
