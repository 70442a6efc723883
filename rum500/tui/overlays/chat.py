"""Chat input (``c``): printable keys type, Enter sends, Esc cancels."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class ChatLine(Protocol):
    """What the chat line uses of the table screen (a narrow port)."""

    feed: Feed  # the line being typed

    def chat_send(self) -> None: ...

    def close_overlay(self) -> None: ...


def keys(model: ChatLine) -> list[Key]:
    return [
        Key(("enter",), model.chat_send, "Enter", lambda: _("send")),
        Key(("escape",), model.close_overlay, "Esc", lambda: _("cancel")),
        Key(("backspace", "c-h"), model.feed.chat_backspace),
        Key(("c-c",), model.close_overlay),
    ]


def body(model: ChatLine, kit: Kit) -> AnyContainer:
    return kit.window(
        lambda: [("", _("Say: ")), ("class:label", model.feed.chat_input + "_")], height=1, width=60
    )


def why(model: ChatLine, data: str) -> None:
    """Any other key: a printable one is typed into the line."""
    if data and data.isprintable():
        model.feed.chat_type(data)


OVERLAY = Overlay("chat", lambda: _("Chat (Enter sends, Esc cancels)"), keys, body, why=why)
