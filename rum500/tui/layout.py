"""The table screen's layout: containers that read the model through callables and Conditions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import fragment_list_to_text
from prompt_toolkit.layout import (
    AnyContainer,
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
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel
from rum500.tui.overlays.registry import OVERLAYS
from rum500.tui.wrapping import ASCII_TEXT


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


def _tail_window(
    model: TableModel, get_lines: Callable[[], list[render.Line]], **kw: Any
) -> Window:
    """A window of lines already wrapped to its width that keeps its last line in sight (the
    log, the chat)."""
    control = FormattedTextControl(
        lambda: plain(model, render.joined(get_lines())),
        focusable=False,
        get_cursor_position=lambda: Point(0, max(0, len(get_lines()) - 1)),
    )
    return Window(control, wrap_lines=False, always_hide_cursor=True, **kw)


def _window(model: TableModel, get_text: Callable[[], StyleAndTextTuples], **kw: Any) -> Window:
    control = FormattedTextControl(lambda: plain(model, get_text()), focusable=False)
    return Window(control, always_hide_cursor=True, **kw)


def _fitted_window(
    model: TableModel, part: Callable[[TableModel], StyleAndTextTuples], most: int
) -> Window:
    """A wrapping window for one part of the table, as tall as its text (at most ``most``)."""
    return _window(
        model, lambda: part(model), wrap_lines=True, height=fitted(lambda: part(model), most)
    )


def _overlay(model: TableModel, name: str, body: AnyContainer, title: str, **pos: Any) -> Float:
    frame = Frame(body, title=title, style="class:overlay")
    return Float(
        ConditionalContainer(frame, filter=Condition(lambda: model.overlay == name)), **pos
    )


def _screen_size() -> tuple[int, int]:
    """(columns, rows) of the terminal (80×24 before there is one)."""
    try:
        size = get_app().output.get_size()
        return max(20, size.columns), max(5, size.rows)
    except Exception:  # no terminal yet
        return 80, 24


def _screen_width() -> int:
    return _screen_size()[0]


def fitted(get_text: Callable[[], StyleAndTextTuples], most: int) -> Callable[[], Dimension]:
    """A height that fits the wrapped text (at most ``most`` lines)."""

    def height() -> Dimension:
        width = _screen_width()
        text = fragment_list_to_text(get_text())
        lines = sum(max(1, -(-get_cwidth(line) // width)) for line in text.split("\n"))
        return Dimension.exact(max(1, min(most, lines)))

    return height


def _window_of(lines: list[render.Line], focus: int, height: int, tail: bool) -> list[render.Line]:
    """``height`` of ``lines``, keeping the focus line (else the start, or the end when
    ``tail``) in sight; a dim line says when more is hidden below."""
    if height <= 0:
        return []
    if len(lines) <= height:
        return lines
    if focus < 0:
        focus = len(lines) - 1 if tail else 0
    top = max(0, min(focus - height // 2, len(lines) - height))
    shown = lines[top : top + height]
    hidden = len(lines) - top - height
    if hidden > 0 and focus < top + height - 1 and height > 1:
        shown = shown[:-1] + [[("class:dim", "  " + _("… {n} more below").format(n=hidden + 1))]]
    return shown


#: the smallest screen (columns, rows) whose hand is drawn as two-line card faces
#: (:func:`rum500.tui.render.big_hand_lines`); a smaller one keeps the compact hand
BIG_CARDS = (120, 32)


def big_cards(cols: int, rows: int) -> bool:
    """Whether a screen of ``cols`` × ``rows`` draws the hand as two-line card faces."""
    return cols >= BIG_CARDS[0] and rows >= BIG_CARDS[1]


class Plan:
    """How many lines each part of the table gets on this screen (see :func:`plan`)."""

    def __init__(self, model: TableModel, size: tuple[int, int] | None = None) -> None:
        cols, rows = size or _screen_size()
        self.cols, self.rows = cols, rows
        self.players = render.players_lines(model, cols)
        self.pile, self.pile_focus = render.pile_lines(model, cols)
        self.melds, self.meld_focus = render.meld_lines(model, cols)
        #: two-line card faces in the hand (a big screen, :func:`big_cards`)
        self.big = big_cards(cols, rows)
        self.hand, self.hand_focus = render.hand_lines(model, cols, self.big)
        self.recent = render.recent_lines(model, cols)
        self.keys = render.key_lines(key_bar(model), cols)
        self.status = render.status_lines(model, cols)
        #: the chat column's width, and the log's beside it (both wrapped to it)
        self.chat_w = max(16, min(34, cols * 3 // 8))
        self.log_w = max(10, cols - self.chat_w - 1)
        h: dict[str, int] = {}
        shown = model.feed.banner or model.banner_text() or model.feed.notice or model.lesson_text()
        #: the banner (the link is down, a "Rummy!" call, the host's notice), wrapped
        self.banner = render.banner_lines(model, cols) if shown else []
        h["banner"] = min(len(self.banner), 3)
        h["title"] = 1
        h["status"] = min(len(self.status), 6)  # a refusal is read whole, on two rows if need be
        h["keys"] = min(2, len(self.keys))
        h["players"] = min(len(self.players), 5 if model.tableview.view else 12)
        h["hand"] = min(8 if self.big else 4, len(self.hand))
        h["pile"] = min(3, len(self.pile))
        h["melds"] = min(2, len(self.melds))
        left = rows - sum(h.values())
        if left < 0:  # a tiny window: the table's parts give way, the hand and keys last
            for part in ("players", "pile", "melds", "hand"):
                give = min(h[part] - (1 if part in ("hand", "pile") else 0), -left)
                h[part] -= max(0, give)
                left += max(0, give)
        more = min(max(0, left), len(self.melds) - h["melds"])
        h["melds"] += more
        left -= more
        h["recent"] = min(max(0, left), len(self.recent), 2)
        left -= h["recent"]
        h["rule"] = 1 if left >= 3 else 0
        h["log"] = max(0, left - h["rule"])
        # no room for the log and the chat: the newest chat line still gets one line
        h["chat"] = 0
        if h["log"] == 0 and model.feed.chat_lines:
            for part in ("melds", "recent"):
                if h[part] > (2 if part == "melds" else 0):
                    h[part] -= 1
                    h["chat"] = 1
                    break
        self.h = h

    def bottom(self) -> int:
        """Lines the overlays leave free at the bottom: the key bar and the status line."""
        return self.h["keys"] + self.h["status"]


_plans: dict[int, tuple[int, Plan]] = {}


def plan(model: TableModel) -> Plan:
    """The plan of this frame (made once per redraw, read by every part)."""
    try:
        frame = get_app().render_counter
    except Exception:  # no application: always fresh
        return Plan(model)
    cached = _plans.get(id(model))
    if cached is None or cached[0] != frame:
        cached = (frame, Plan(model))
        _plans.clear()
        _plans[id(model)] = cached
    return cached[1]


def build_layout(model: TableModel) -> Layout:
    with ascii_borders(model.ascii):
        return _build_layout(model)


def _part(
    model: TableModel, name: str, lines: Callable[[Plan], tuple[list[render.Line], int, bool]]
) -> Window:
    """One part of the table: ``lines(plan)`` is the (lines, focus, tail) to show."""

    def text() -> StyleAndTextTuples:
        p = plan(model)
        shown, focus, tail = lines(p)
        return render.joined(_window_of(shown, focus, p.h[name], tail))

    return _window(model, text, height=lambda: Dimension.exact(plan(model).h[name]))


def _scrolled(
    model: TableModel,
    get_lines: Callable[[int], list[render.Line]],
    get_scroll: Callable[[int, int], int],
    pinned: Callable[[], int] = lambda: 0,
) -> Window:
    """An overlay's text, from line ``get_scroll()`` (clamped), cut to the screen width;
    ``pinned()`` lines below it are another window's."""

    def text() -> StyleAndTextTuples:
        p = plan(model)
        room = max(1, p.rows - p.bottom() - 2 - pinned())
        lines = get_lines(p.cols - 4)
        top = max(0, min(get_scroll(len(lines), room), len(lines) - room))
        shown = lines[top : top + room]
        return render.joined([render.cut(line, p.cols - 4, model.ascii) for line in shown])

    return _window(model, text)


class _Kit:
    """The windows an overlay's body is made of (:class:`rum500.tui.overlays.keymap.Kit`)."""

    def __init__(self, model: TableModel) -> None:
        self.model = model

    def window(self, get_text: Callable[[], StyleAndTextTuples], **kw: Any) -> Window:
        return _window(self.model, get_text, **kw)

    def scrolled(
        self,
        get_lines: Callable[[int], list[render.Line]],
        get_scroll: Callable[[int, int], int],
        pinned: Callable[[], int] = lambda: 0,
    ) -> Window:
        return _scrolled(self.model, get_lines, get_scroll, pinned)

    def rule(self) -> Window:
        return Window(height=1, char="-" if self.model.ascii else "─", style="class:dim")

    def stack(self, parts: list[AnyContainer]) -> HSplit:
        return HSplit(parts)

    def screen_width(self) -> int:
        return _screen_width()

    def above_the_keys(self) -> dict:
        """The big overlays cover the table down to the key bar and the status line."""
        model = self.model
        return {
            "top": 0,
            "left": 0,
            "right": 0,
            "height": lambda: max(3, plan(model).rows - plan(model).bottom()),
        }


def _build_layout(model: TableModel) -> Layout:
    """The table's regions top to bottom, and every overlay of the registry floating over
    them."""
    body = HSplit([*_board(model), _feed(model), *_foot(model)])
    kit = _Kit(model)
    floats = [
        _overlay(model, o.name, o.body(model, kit), o.title(), **o.place(kit)) for o in OVERLAYS
    ]
    return Layout(FloatContainer(content=body, floats=floats))


def _lines_window(
    model: TableModel, part: str, lines: Callable[[Plan], list[render.Line]]
) -> Window:
    """A region of ``plan(model).h[part]`` lines: the first of ``lines(plan)``."""
    return _window(
        model,
        lambda: render.joined(lines(plan(model))[: plan(model).h[part]]),
        height=lambda: Dimension.exact(plan(model).h[part]),
    )


def _board(model: TableModel) -> list[AnyContainer]:
    """The banner, the title, the players, the pile, the melds, the hand, the recent moves."""
    return [
        _lines_window(model, "banner", lambda p: p.banner),
        _window(model, lambda: render.title(model), height=1, style="class:title"),
        _part(model, "players", lambda p: (p.players, -1, False)),
        _part(model, "pile", lambda p: (p.pile, p.pile_focus, True)),
        _part(model, "melds", lambda p: (p.melds, p.meld_focus, False)),
        _part(model, "hand", lambda p: (p.hand, p.hand_focus, False)),
        _lines_window(
            model,
            "recent",
            lambda p: render.recent_shown(p.recent, p.h["recent"], p.cols, model.ascii),
        ),
        Window(
            height=lambda: Dimension.exact(plan(model).h["rule"]),
            char="-" if model.ascii else "─",
            style="class:dim",
        ),
    ]


def _feed(model: TableModel) -> VSplit:
    """The log and the chat side by side, the newest lines in sight."""
    return VSplit(
        [
            _tail_window(
                model,
                lambda: render.log_lines(model, plan(model).log_w),
                width=lambda: Dimension.exact(plan(model).log_w),
            ),
            Window(width=1, char="│" if not model.ascii else "|", style="class:dim"),
            _tail_window(
                model,
                lambda: render.chat_lines(model, plan(model).chat_w),
                width=lambda: Dimension.exact(plan(model).chat_w),
            ),
        ],
        height=lambda: Dimension.exact(plan(model).h["log"]),
    )


def _foot(model: TableModel) -> list[AnyContainer]:
    """The last chat line, the key bar and the status line."""
    return [
        _window(
            model,
            lambda: render.cut(render.last_chat(model), _screen_width(), model.ascii),
            height=lambda: Dimension.exact(plan(model).h["chat"]),
        ),
        _part(model, "keys", lambda p: (p.keys, -1, False)),
        _lines_window(model, "status", lambda p: p.status),
    ]
