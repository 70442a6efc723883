"""Every mode of the table screen in one place: the table's keys and the overlays, in the
order they are drawn (a later one floats over an earlier one). Adding an overlay is one file
in this package plus one line here."""

from __future__ import annotations

from rum500.tui.overlays import (
    chat,
    choose,
    confirm,
    final,
    help,
    quit,
    rules,
    scores,
    sheet,
    shoulder,
    table,
)
from rum500.tui.overlays.keymap import Overlay

#: the table itself (no overlay open): a mode with keys and no body; a key it does not use
#: says so (:func:`table.why`)
TABLE = Overlay("", lambda: "", table.keys, why=table.why, offline_bar=True)

OVERLAYS: tuple[Overlay, ...] = (
    help.OVERLAY,
    rules.OVERLAY,
    quit.OVERLAY,
    confirm.OVERLAY,
    choose.OVERLAY,
    sheet.OVERLAY,
    scores.OVERLAY,
    final.OVERLAY,
    chat.OVERLAY,
    shoulder.OVERLAY,
)

BY_NAME: dict[str, Overlay] = {o.name: o for o in OVERLAYS}
