"""The hint (``h``): what the strongest bot would play in this seat, made one key away.

:func:`advise` asks the bots (the strongest first; one that fails is skipped);
:func:`advise_off_loop` runs it in a worker process, so the event loop — and a host server
running in the same process — keeps answering while the expert searches (up to ~0.15 s and
more); :func:`set_up` selects the cards the move needs and puts the cursor on the meld or the
pile's depth, and returns the key that then plays it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Protocol

from rum500.bots.seat import VIEW_KEYS
from rum500.tui.tableview import TableView
from rum500.tui.worker import Worker
from rum500.tui.zones import Zone

LEVELS = ("hard", "medium", "easy", "random")


def advise(view: dict) -> dict | None:
    """The move the strongest available bot would make from ``view``, or None."""
    from rum500 import bots

    advisers = [getattr(bots, "hint", None)] + [
        (lambda view, level=level: bots.make_bot(level, seed=0).choose(view))
        for level in LEVELS
        if level in getattr(bots, "LEVELS", {})
    ]
    for adviser in advisers:
        if adviser is None:
            continue
        try:
            action = adviser(view)
        except Exception:  # a bot's bug must not take the table down
            continue
        if isinstance(action, dict):
            return action
    return None


#: what a hint depends on in a view: the keys every seat view carries (what a bot reads), the
#: hand's number and the "Rummy!" window. When these are equal, a view sent again (someone came
#: or went, the review's waiting list changed) is the same position, and the hint holds
POSITION_KEYS = VIEW_KEYS | {"hand_number", "claim"}


def same_position(now: dict | None, then: dict) -> bool:
    """Whether ``now`` (the view on screen) is still the position ``then`` was advised on."""
    return now is then or (
        now is not None and all(now.get(k) == then.get(k) for k in POSITION_KEYS)
    )


#: the hints' worker process (started on first use)
_WORKER = Worker()


def shut_down() -> None:
    """Stop the hint's worker process, if one was started (it starts again when needed)."""
    _WORKER.shut_down()


async def advise_off_loop(view: dict, work: Callable[[dict], dict | None] = advise) -> dict | None:
    """``work(view)`` (by default :func:`advise`) in the worker process; the event loop runs
    on meanwhile. ``view`` must pickle (a view as the host sends it does); so must ``work``
    (a module-level function, or a ``functools.partial`` of one). When no worker can run it
    (the pool broke, the platform has no processes), it runs here, as it always did."""
    return await _WORKER.run(work, view, lambda: work(view))


class HintTarget(Protocol):
    """What :func:`set_up` moves: the table screen's cursor and selection (a narrow port:
    :class:`rum500.tui.selection.Selection`), over the view it reads (``tableview``)."""

    zone: Zone
    pile_cursor: int | None
    hand_cursor: int
    meld_cursor: int
    selected: Counter[str]
    choosing_meld_for: str | None

    @property
    def tableview(self) -> TableView: ...


def set_up(selection: HintTarget, action: dict) -> str:
    """Put the cursor and the selection where ``action`` is one key away; that key ("" if
    none plays it)."""
    kind = action.get("type")
    hand = selection.tableview.hand()
    if kind == "draw" and action.get("source") == "stock":
        return "s"
    if kind == "draw" and isinstance(action.get("index"), int):
        selection.zone = Zone.PILE
        selection.pile_cursor = action["index"]
        return "t"
    if kind == "meld" and isinstance(action.get("cards"), list):
        selection.selected = Counter(action["cards"]) & Counter(hand)
        selection.choosing_meld_for = None
        selection.zone = Zone.HAND
        if action["cards"] and action["cards"][0] in hand:
            selection.hand_cursor = hand.index(action["cards"][0])
        return "m"
    if kind == "layoff":
        card = action.get("card")
        ids = [m["id"] for m in selection.tableview.melds()]
        if card in hand and action.get("meld") in ids:
            selection.selected = Counter([card])
            selection.hand_cursor = hand.index(card)
            selection.choosing_meld_for = card
            selection.zone = Zone.MELDS
            selection.meld_cursor = ids.index(action["meld"])
            return "l"
    if kind == "discard" and action.get("card") in hand:
        selection.selected = Counter([action["card"]])
        selection.zone = Zone.HAND
        selection.hand_cursor = hand.index(action["card"])
        return "d"
    if kind == "end_hand":
        return "e"
    return ""
