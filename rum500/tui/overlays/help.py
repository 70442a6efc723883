"""The help (``?``): every key and the house rules on at this table, scrolled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.overlays.common import scroll_keys
from rum500.tui.overlays.keymap import Key, Kit, Overlay

if TYPE_CHECKING:
    from rum500.tui.model import TableModel


def keys(model: TableModel) -> list[Key]:
    def scroll_by(step: int) -> None:
        model.scroll_help(step, len(model.help_lines()))

    return [
        *scroll_keys(scroll_by),
        Key(("escape", "q", "enter"), model.close_overlay, "Esc", lambda: _("close")),
        Key(("?",), model.toggle_help),
    ]


def body(model: TableModel, kit: Kit) -> AnyContainer:
    return kit.scrolled(
        lambda w: [[("", line)] for line in model.help_lines(w)], lambda n, room: model.help_scroll
    )


def why(model: TableModel, key: str) -> None:
    model.say(_("The help is open: Esc closes it."))


OVERLAY = Overlay("help", lambda: _("Help"), keys, body, lambda kit: kit.above_the_keys(), why)
