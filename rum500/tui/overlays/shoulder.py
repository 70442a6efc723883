"""Over the shoulder (key ``w`` at the table): show your hand to one spectator, for teaching
— 1 … 9 choose the spectator —, or end it (``e``); Esc closes. Every seat and spectator sees
that it is on (rum500/tui/shoulder.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.overlays.keymap import Key, Kit, Overlay

if TYPE_CHECKING:
    from rum500.tui.shoulder import Shoulder


class Showing(Protocol):
    """What this overlay uses of the table screen (a narrow port)."""

    shoulder: Shoulder

    def close_overlay(self) -> None: ...


def keys(model: Showing) -> list[Key]:
    s = model.shoulder

    def pick(i: int) -> Key:
        return Key(
            (str(i + 1),),
            lambda: s.pick(i),
            str(i + 1),
            lambda: s.watchers()[i][1],
            lambda: s.mine() is None and i < len(s.watchers()),
        )

    return [
        *(pick(i) for i in range(9)),
        Key(("e",), s.end, "e", lambda: _("stop showing"), lambda: s.mine() is not None),
        Key(("escape", "q", "c-c"), model.close_overlay, "Esc", lambda: _("close")),
    ]


def text(model: Showing) -> list[tuple[str, str]]:
    s = model.shoulder
    mine = s.mine()
    if mine is not None:
        return [
            ("class:label", _("You show your hand to {name}.").format(name=mine)),
            ("", "\n " + _("e  stop showing it")),
        ]
    lines = [
        (
            "class:label",
            _("Show your hand to a spectator (every player sees that you do):"),
        )
    ]
    watchers = s.watchers()
    lines += [("", f"\n {i + 1}  {name}") for i, (_id, name) in enumerate(watchers[:9])]
    if not watchers:
        lines.append(("", "\n " + _("Nobody is watching this table.")))
    return lines


def body(model: Showing, kit: Kit) -> AnyContainer:
    return kit.window(lambda: text(model), wrap_lines=True)


OVERLAY = Overlay(
    "shoulder",
    lambda: _("Over the shoulder"),
    keys,
    body,
    lambda kit: {"left": 2, "right": 2},
)
