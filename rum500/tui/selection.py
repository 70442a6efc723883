"""The table screen's cursor and selection: which zone the cursor is in (the pile, the melds,
the hand), where in it, which cards of the hand are selected, and the card waiting for its
lay-off meld.

:class:`Selection` moves the cursor along a zone (stopping at both ends), between zones, and
keeps it and the selection inside what the newest view still holds (:meth:`Selection.
follow_view`). It reads the view through the :class:`rum500.tui.tableview.TableView` it is
given (its port: the hand, the pile, the melds, the hand's sort order) and plays no move: a
key that both moves the cursor and plays (space on the pile, a click on a meld) is the
coordinator's (:class:`rum500.tui.model.TableModel`, which holds it as ``selection``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rum500.tui.tableview import TableView
from rum500.tui.zones import ZONES, Zone


def _clamp(i: int, n: int) -> int:
    return max(0, min(n - 1, i))


class Selection:
    """The cursor and the selected cards, over the view they point into (``tableview``);
    ``on_change`` is the screen's redraw."""

    def __init__(self, tableview: TableView, on_change: Callable[[], None] = lambda: None) -> None:
        self.tableview = tableview
        self.on_change = on_change
        self.zone = Zone.HAND
        self.hand_cursor = 0
        self.pile_cursor: int | None = None  # index from the bottom; None: the top card
        self.meld_cursor = 0
        self.selected: Counter[str] = Counter()
        self.choosing_meld_for: str | None = None  # a card waiting for its lay-off meld
        #: the card a first d selected (the next d discards it — or, the cursor moved to
        #: another card since, selects that one instead: the card the player now points at)
        self.armed: str | None = None

    # ------------------------------------------------------------------ reading

    def pile_index(self) -> int | None:
        """The depth the cursor would take from (an index from the bottom), None if empty."""
        n = len(self.tableview.pile())
        if n == 0:
            return None
        if self.pile_cursor is None or not 0 <= self.pile_cursor < n:
            return n - 1
        return self.pile_cursor

    def selected_cards(self) -> list[str]:
        """The selected cards of my hand, in display order."""
        left = Counter(self.selected)
        out = []
        for c in self.tableview.hand():
            if left[c] > 0:
                out.append(c)
                left[c] -= 1
        return out

    def cursor_card(self) -> str | None:
        hand = self.tableview.hand()
        if not hand:
            return None
        return hand[min(self.hand_cursor, len(hand) - 1)]

    def selected_flags(self) -> list[bool]:
        """For each card of ``hand()``, whether it is selected (copies counted)."""
        left = Counter(self.selected)
        flags = []
        for c in self.tableview.hand():
            flags.append(left[c] > 0)
            left[c] -= 1
        return flags

    # ------------------------------------------------------------------ moving

    def move(self, step: int) -> None:
        """←/→: move along the zone the cursor is in; it stops at both ends (no wrapping
        round from the last card to the first: that is how wrong cards get discarded)."""
        if self.zone == Zone.HAND:
            n = len(self.tableview.hand())
            if n:
                self.hand_cursor = _clamp(self.hand_cursor + step, n)
        elif self.zone == Zone.PILE:
            n = len(self.tableview.pile())
            if n:
                i = self.pile_index()
                self.pile_cursor = _clamp((n - 1 if i is None else i) + step, n)
        else:
            n = len(self.tableview.melds())
            if n:
                self.meld_cursor = _clamp(self.meld_cursor + step, n)
        self.on_change()

    def move_home(self) -> None:
        """Home: the first card of the hand (the bottom of the pile, the first meld)."""
        if self.zone == Zone.HAND:
            self.hand_cursor = 0
        elif self.zone == Zone.PILE:
            self.pile_cursor = 0 if self.tableview.pile() else None
        else:
            self.meld_cursor = 0
        self.on_change()

    def move_end(self) -> None:
        """End: the last card of the hand (the top of the pile, the last meld)."""
        if self.zone == Zone.HAND:
            self.hand_cursor = max(0, len(self.tableview.hand()) - 1)
        elif self.zone == Zone.PILE:
            self.pile_cursor = None
        else:
            self.meld_cursor = max(0, len(self.tableview.melds()) - 1)
        self.on_change()

    def switch_zone(self, step: int) -> None:
        """↑/↓: pile, melds, hand (melds are skipped while the table has none)."""
        zones = [z for z in ZONES if z != Zone.MELDS or self.tableview.melds()]
        i = zones.index(self.zone) if self.zone in zones else len(zones) - 1
        self.zone = zones[max(0, min(len(zones) - 1, i + step))]
        self.on_change()

    def flip_selected(self, i: int) -> None:
        """Select or unselect the ``i``-th card of the hand as shown (copies counted)."""
        card = self.tableview.hand()[i]
        if self.selected_flags()[i]:
            self.selected[card] -= 1
            if self.selected[card] <= 0:
                del self.selected[card]
        else:
            self.selected[card] += 1

    def unselect_all(self) -> None:
        """Nothing selected, no lay-off being chosen; a cursor on the melds goes back to the
        hand."""
        self.selected.clear()
        self.choosing_meld_for = None
        if self.zone == Zone.MELDS:
            self.zone = Zone.HAND

    def flip_sort(self) -> None:
        """Sort the hand the other way (by suit / by rank); the cursor stays on its card."""
        card = self.cursor_card()
        self.tableview.sort_mode = "rank" if self.tableview.sort_mode == "suit" else "suit"
        if card is not None:
            self.hand_cursor = self.tableview.hand().index(card)

    def follow_view(self, view: dict) -> None:
        """Keep the cursors and the selection inside ``view`` (the newest): selected cards
        that left the hand are forgotten, each cursor stays within its zone."""
        have = Counter(view.get("hand") or [])
        self.selected = self.selected & have
        hand = self.tableview.hand()
        self.hand_cursor = max(0, min(self.hand_cursor, len(hand) - 1))
        self.meld_cursor = max(0, min(self.meld_cursor, len(view["melds"]) - 1))
        if self.pile_cursor is not None and self.pile_cursor >= len(view["discard_pile"]):
            self.pile_cursor = None
        if self.choosing_meld_for and self.choosing_meld_for not in have:
            self.choosing_meld_for = None

    def turn_begins(self) -> None:
        """My turn's draw begins: the cursor leaves the melds, the pile cursor is on top."""
        if self.zone == Zone.MELDS:
            self.zone = Zone.HAND
        self.pile_cursor = None
