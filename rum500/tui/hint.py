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
    """What :func:`set_up` moves: the table screen's cursor and selection (a narrow port)."""

    zone: Zone
    pile_cursor: int | None
    hand_cursor: int
    meld_cursor: int
    selected: Counter[str]
    choosing_meld_for: str | None

    def hand(self) -> list[str]: ...

    def melds(self) -> list[dict]: ...


def set_up(table: HintTarget, action: dict) -> str:
    """Put ``table``'s cursor and selection where ``action`` is one key away; that key ("" if
    none plays it)."""
    kind = action.get("type")
    hand = table.hand()
    if kind == "draw" and action.get("source") == "stock":
        return "s"
    if kind == "draw" and isinstance(action.get("index"), int):
        table.zone = Zone.PILE
        table.pile_cursor = action["index"]
        return "t"
    if kind == "meld" and isinstance(action.get("cards"), list):
        table.selected = Counter(action["cards"]) & Counter(hand)
        table.choosing_meld_for = None
        table.zone = Zone.HAND
        if action["cards"] and action["cards"][0] in hand:
            table.hand_cursor = hand.index(action["cards"][0])
        return "m"
    if kind == "layoff":
        card = action.get("card")
        ids = [m["id"] for m in table.melds()]
        if card in hand and action.get("meld") in ids:
            table.selected = Counter([card])
            table.hand_cursor = hand.index(card)
            table.choosing_meld_for = card
            table.zone = Zone.MELDS
            table.meld_cursor = ids.index(action["meld"])
            return "l"
    if kind == "discard" and action.get("card") in hand:
        table.selected = Counter([action["card"]])
        table.zone = Zone.HAND
        table.hand_cursor = hand.index(action["card"])
        return "d"
    if kind == "end_hand":
        return "e"
    return ""
