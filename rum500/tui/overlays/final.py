"""The final standings, once the match is over (until closed once): p the score table, Esc
the table, q leaves."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui import render
from rum500.tui.feed import Feed
from rum500.tui.overlays.common import Common, always_keys, scores_key
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class Standings(Common, render.Names, Protocol):
    """What the final standings use of the table screen (a narrow port)."""

    def close_overlay(self) -> None: ...

    feed: Feed  # the message line


def keys(model: Standings) -> list[Key]:
    return [
        scores_key(model, lambda: True),
        Key(("escape",), model.close_overlay, "Esc", lambda: _("look at the table"), offline=1),
        *always_keys(model),
    ]


def body(model: Standings, kit: Kit) -> AnyContainer:
    return kit.window(lambda: render.final(model, width=kit.screen_width() - 8))


def why(model: Standings, key: str) -> None:
    model.feed.say(_("The match is over: q leaves, Esc shows the table."))


OVERLAY = Overlay(
    "final",
    lambda: _("Final standings"),
    keys,
    body,
    lambda kit: {**kit.above_the_keys(), "left": 2, "right": 2},
    why,
    offline_bar=True,
)
