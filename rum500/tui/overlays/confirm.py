"""A yes/no question (ending the hand): y runs the action, n (Esc) does not."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class YesNo(Protocol):
    """What the yes/no question uses of the table screen (a narrow port)."""

    confirm_text: str

    def confirm_yes(self) -> None: ...

    def close_overlay(self) -> None: ...

    feed: Feed  # the message line


def keys(model: YesNo) -> list[Key]:
    return [
        Key(("y", "Y"), model.confirm_yes, "y", lambda: _("yes")),
        Key(("n", "N", "escape", "c-c"), model.close_overlay, "n", lambda: _("no")),
    ]


def body(model: YesNo, kit: Kit) -> AnyContainer:
    return kit.window(lambda: [("class:label", model.confirm_text)], wrap_lines=True)


def why(model: YesNo, key: str) -> None:
    model.feed.say(_("Answer first: y = yes, n = no."), error=True)


OVERLAY = Overlay(
    "confirm", lambda: _("Are you sure?"), keys, body, lambda kit: {"left": 2, "right": 2}, why
)
