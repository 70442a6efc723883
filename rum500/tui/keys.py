"""The key bindings and the key bar of the table screen, both made from the one list of keys
of each mode (:mod:`rum500.tui.overlays.registry`; ptpython's shape: one list per mode, each
under that mode's filter, the key bar reading the same list).

With an overlay open, only that overlay's keys act; any other key gets a one-line answer (the
overlay's ``why``), never silence. While the link to the host is down, a key that would go to
it says so (:meth:`TableModel.offline_key`).
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from rum500.tui import render
from rum500.tui.model import TableModel
from rum500.tui.overlays.keymap import Key, Overlay, always, nothing_said
from rum500.tui.overlays.registry import BY_NAME, OVERLAYS, TABLE

#: The letter the same physical key types on a Russian (ЙЦУКЕН) layout, so the keys work
#: whichever layout is active.
CYRILLIC_TWIN = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))


def with_twins(keys: tuple[str, ...]) -> tuple[str, ...]:
    return keys + tuple(CYRILLIC_TWIN[k] for k in keys if k in CYRILLIC_TWIN)


def mode_of(model: TableModel) -> Overlay:
    """The mode the screen is in: the open overlay, else the table."""
    return BY_NAME.get(model.overlay or "", TABLE)


def key_bar(model: TableModel) -> list[tuple[str, str, Callable[[], object]]]:
    """The keys that work right now, as (key, label, method): only legal moves are offered,
    with an overlay open only that overlay's keys, and while the link to the host is down
    only what does not go to it."""
    mode = mode_of(model)
    shown: list[Key] = [k for k in mode.keys(model) if k.bar]
    if mode.offline_bar and model.feed.link_down:
        shown = sorted((k for k in shown if k.offline and k.offered()), key=lambda k: k.offline)
    else:
        shown = [k for k in shown if k.offered()]
    return [(k.bar, k.label(), k.handler) for k in shown]


def actions(model: TableModel) -> StyleAndTextTuples:
    """The key bar as one line of fragments (each key clickable)."""
    return render.joined(render.key_lines(key_bar(model)))


def build_key_bindings(model: TableModel) -> KeyBindings:
    kb = KeyBindings()
    modes: list[tuple[Overlay, Filter]] = [(TABLE, Condition(lambda: model.overlay is None))]
    modes += [(o, Condition(lambda o=o: model.overlay == o.name)) for o in OVERLAYS]
    for mode, open_ in modes:
        for key in mode.keys(model):
            flt = open_ if key.when is always else open_ & Condition(key.when)
            for name in with_twins(key.keys):
                kb.add(name, filter=flt)(lambda event, handler=key.handler: handler())
        _bind_other_keys(kb, model, mode, open_)
    return kb


def _bind_other_keys(kb: KeyBindings, model: TableModel, mode: Overlay, open_: Filter) -> None:
    """Any key ``mode`` does not use: its ``why`` (a line saying why nothing happens; the chat
    types it), or, while the link is down in a mode that offers only offline keys, one line
    saying so."""
    offline = Condition(lambda: mode.offline_bar and model.feed.link_down)
    if mode.why is nothing_said and not mode.offline_bar:
        return
    flt = open_ if mode.why is not nothing_said else open_ & offline

    @kb.add(Keys.Any, filter=flt)
    def _other(event: KeyPressEvent) -> None:
        if mode.offline_bar and model.feed.link_down:
            model.offline_key(event.data)
        else:
            mode.why(model, event.data)
