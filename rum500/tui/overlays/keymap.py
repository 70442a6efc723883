"""What every mode of the table screen is made of (ptpython's shape: one list of keys per
mode, each under that mode's filter; the key bar reads the same list).

A :class:`Key` is bound under its mode (and its own ``when``); the key bar shows it, as ``bar``
and ``label()``, while ``offered()``. An :class:`Overlay` adds a body built with a :class:`Kit`
(the layout's window maker, a narrow port), where it floats, and the line said for a key it
does not use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from prompt_toolkit.layout import AnyContainer

Check = Callable[[], bool]
#: what a mode reads and calls of the table screen: each overlay file names its own small
#: Protocol (never the table screen's model itself)
Port = TypeVar("Port")


def always() -> bool:
    return True


def no_label() -> str:
    return ""


@dataclass(frozen=True)
class Key:
    """One binding of a mode, and how the key bar shows it (``bar`` "": not shown)."""

    keys: tuple[str, ...]  # prompt_toolkit key names (their Cyrillic twins are bound too)
    handler: Callable[[], object]
    bar: str = ""  # the key as the bar names it ("↑↓", "Enter", "Esc", "s" …)
    label: Callable[[], str] = no_label  # what it does, in the player's language
    offered: Check = always  # shown in the bar now
    when: Check = always  # the binding acts now (besides its mode being open)
    offline: int = 0  # its place in the bar while the link to the host is down (0: not shown)


class Kit(Protocol):
    """The layout's window maker, as overlays see it."""

    def window(self, get_text: Callable[[], Any], **kw: Any) -> AnyContainer: ...

    def scrolled(
        self,
        get_lines: Callable[[int], list],
        get_scroll: Callable[[int, int], int],
        pinned: Callable[[], int] = ...,
    ) -> AnyContainer: ...

    def rule(self) -> AnyContainer: ...

    def stack(self, parts: list[AnyContainer]) -> AnyContainer: ...

    def screen_width(self) -> int: ...

    def above_the_keys(self) -> dict: ...


def no_body(model: object, kit: Kit) -> AnyContainer:
    return kit.window(lambda: [])


def nothing_said(model: object, key: str) -> None:
    return None


def is_character(key: str) -> bool:
    """Whether a key press (its ``event.data``) is a letter, digit or sign — a key a player
    means, which a mode that does not use it answers; not a function key, Tab or a space."""
    return len(key) == 1 and key.isprintable() and not key.isspace()


@dataclass(frozen=True)
class Overlay(Generic[Port]):
    """A mode drawn over the table: its name (``model.overlay``), title, keys, body, where it
    floats (``place``: Float's position arguments), and ``why(model, key)``, run for a key it
    does not use (says in one line why nothing happens; the chat types it).
    ``offline_bar``: while the link is down, its bar shows only the keys marked ``offline``
    (in that order). ``Port`` is what its keys, body and ``why`` take of the table screen:
    a small Protocol of its own file."""

    name: str
    title: Callable[[], str]
    keys: Callable[[Port], list[Key]]
    body: Callable[[Port, Kit], AnyContainer] = no_body
    place: Callable[[Kit], dict] = lambda kit: {}
    why: Callable[[Port, str], None] = nothing_said
    offline_bar: bool = False
