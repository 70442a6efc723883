"""Leaving (``q``) when something is at stake: y leaves, n stays."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer
from prompt_toolkit.layout.dimension import Dimension

from rum500.i18n import _
from rum500.tui import render
from rum500.tui.feed import Feed
from rum500.tui.hostplayer import HostPlayer
from rum500.tui.overlays.keymap import Key, Kit, Overlay
from rum500.tui.wrapping import wrap_text


class Leaving(Protocol):
    """What the quit question uses of the table screen (a narrow port)."""

    ascii: bool
    host_player: HostPlayer  # the question (what leaving closes, or how to resume)

    def confirm_quit(self) -> None: ...

    def close_overlay(self) -> None: ...

    feed: Feed  # the message line


def keys(model: Leaving) -> list[Key]:
    return [
        Key(("y", "Y", "c-c"), model.confirm_quit, "y", lambda: _("leave")),
        Key(("n", "N", "escape", "q"), model.close_overlay, "n", lambda: _("stay")),
    ]


def body(model: Leaving, kit: Kit) -> AnyContainer:
    def lines() -> list[render.Line]:
        """The quit question, wrapped to the overlay's width (it may say how to resume)."""
        text = model.host_player.quit_question().replace(" = ", "\u00a0=\u00a0")
        question = [("class:label", text)]  # (never "y" at a line's end, "= leave" below)
        return wrap_text(question, kit.screen_width() - 6, indent=0, ascii=model.ascii)

    return kit.window(lambda: render.joined(lines()), height=lambda: Dimension.exact(len(lines())))


def why(model: Leaving, key: str) -> None:
    model.feed.say(_("Answer first: y = leave, n = stay."), error=True)


OVERLAY = Overlay("quit", lambda: _("Leave"), keys, body, why=why)
