"""The table screen's layout: containers that read the model through callables and Conditions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_to_text
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import Frame
from prompt_toolkit.widgets.base import Border

from rum500.i18n import _
from rum500.tui import render
from rum500.tui.helptext import help_lines
from rum500.tui.model import TableModel

ASCII_TEXT = str.maketrans(
    {
        "—": "-",
        "…": "...",
        "←": "<-",
        "→": "->",
        "↑": "^",
        "↓": "v",
        "▶": ">",
        "◀": "<",
        "★": "*",
        "•": "*",
        "│": "|",
        "·": "-",
        "🔒": "[p]",
        "«": '"',
        "»": '"',
    }
)


def plain(model: TableModel | Any, fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """With --ascii, the few non-card symbols of the screen in plain ASCII."""
    if not model.ascii:
        return fragments
    return [(f[0], f[1].translate(ASCII_TEXT), *f[2:]) for f in fragments]  # type: ignore[misc]


@contextmanager
def ascii_borders(enabled: bool) -> Iterator[None]:
    """Frames built inside this block have +-| borders when ``enabled``."""
    names = ("HORIZONTAL", "VERTICAL", "TOP_LEFT", "TOP_RIGHT", "BOTTOM_LEFT", "BOTTOM_RIGHT")
    saved = {n: getattr(Border, n) for n in names}
    if enabled:
        for n in names:
            setattr(Border, n, {"HORIZONTAL": "-", "VERTICAL": "|"}.get(n, "+"))
    try:
        yield
    finally:
        for n, v in saved.items():
            setattr(Border, n, v)


def _tail_window(model: TableModel, get_text, get_lines) -> Window:  # type: ignore[no-untyped-def]
    """A window that keeps its last line in sight (the log, the chat)."""
    control = FormattedTextControl(
        lambda: plain(model, get_text()),
        focusable=False,
        get_cursor_position=lambda: Point(0, max(0, get_lines() - 1)),
    )
    return Window(control, wrap_lines=False, always_hide_cursor=True)


def _window(model: TableModel, get_text, **kw) -> Window:  # type: ignore[no-untyped-def]
    control = FormattedTextControl(lambda: plain(model, get_text()), focusable=False)
    return Window(control, always_hide_cursor=True, **kw)


def _fitted_window(model: TableModel, part, most: int) -> Window:  # type: ignore[no-untyped-def]
    """A wrapping window for one part of the table, as tall as its text (at most ``most``)."""
    return _window(
        model, lambda: part(model), wrap_lines=True, height=fitted(lambda: part(model), most)
    )


def _overlay(model: TableModel, name: str, body: HSplit | Window, title: str, **pos) -> Float:
    frame = Frame(body, title=title, style="class:overlay")
    return Float(
        ConditionalContainer(frame, filter=Condition(lambda: model.overlay == name)), **pos
    )


def help_text(model: TableModel) -> StyleAndTextTuples:
    lines = help_lines()
    shown = lines[model.help_scroll :]
    return [("", "\n".join(shown))]


def _players_height(model: TableModel) -> int:
    if model.view:
        return model.view["players"] + 1
    if model.lobby:
        return len(model.lobby.get("seats") or []) + 1
    return 1


def _screen_width() -> int:
    try:
        return max(20, get_app().output.get_size().columns)
    except Exception:  # no terminal yet
        return 80


def fitted(get_text, most: int):  # type: ignore[no-untyped-def]
    """A height that fits the wrapped text (at most ``most`` lines), so the log gets the rest."""

    def height() -> Dimension:
        width = _screen_width()
        text = fragment_list_to_text(get_text())
        lines = sum(max(1, -(-get_cwidth(line) // width)) for line in text.split("\n"))
        return Dimension.exact(max(1, min(most, lines)))

    return height


def build_layout(model: TableModel) -> Layout:
    with ascii_borders(model.ascii):
        return _build_layout(model)


def _build_layout(model: TableModel) -> Layout:
    players = _window(
        model,
        lambda: render.players(model),
        height=lambda: Dimension.exact(_players_height(model)),
    )
    chat_lines = lambda: max(1, len(list(model.chat_lines)[-20:]))  # noqa: E731
    log_lines = lambda: max(1, len(list(model.log)[-40:]))  # noqa: E731
    body = HSplit(
        [
            ConditionalContainer(
                _window(model, lambda: [("class:banner", f" {model.banner} ")], height=1),
                filter=Condition(lambda: bool(model.banner)),
            ),
            _window(model, lambda: render.title(model), height=1, style="class:title"),
            players,
            _fitted_window(model, render.pile, 4),
            _fitted_window(model, render.melds, 10),
            _fitted_window(model, render.hand, 4),
            _fitted_window(model, render.actions, 2),
            _fitted_window(model, render.status, 2),
            Window(height=1, char="-" if model.ascii else "─", style="class:dim"),
            VSplit(
                [
                    _tail_window(model, lambda: render.log(model), log_lines),
                    Window(width=1, char="│" if not model.ascii else "|", style="class:dim"),
                    Window(
                        FormattedTextControl(
                            lambda: plain(model, render.chat(model)),
                            get_cursor_position=lambda: Point(0, chat_lines() - 1),
                        ),
                        width=Dimension(preferred=30, max=34),
                        wrap_lines=True,
                        always_hide_cursor=True,
                    ),
                ],
                height=Dimension(min=2, weight=1),
            ),
        ]
    )
    floats = [
        _overlay(
            model,
            "help",
            _window(model, lambda: help_text(model)),
            _("Help"),
            top=0,
            bottom=0,
            left=0,
            right=0,
        ),
        _overlay(
            model,
            "quit",
            _window(
                model,
                lambda: [
                    (
                        "class:label",
                        _("Close the table for the players waiting? y = close, n = stay")
                        if model.guests_waiting
                        else _("Leave the match? y = leave, n = stay"),
                    )
                ],
                height=1,
            ),
            _("Leave"),
        ),
        _overlay(
            model, "sheet", _window(model, lambda: render.score_sheet(model)), _("Score sheet")
        ),
        _overlay(
            model,
            "final",
            _window(model, lambda: render.final(model, width=_screen_width() - 8)),
            _("Final standings"),
            top=1,
            bottom=1,
            left=2,
            right=2,
        ),
        _overlay(
            model,
            "chat",
            _window(
                model,
                lambda: [("", _("Say: ")), ("class:label", model.chat_input + "_")],
                height=1,
                width=60,
            ),
            _("Chat (Enter sends, Esc cancels)"),
        ),
    ]
    return Layout(FloatContainer(content=body, floats=floats))
