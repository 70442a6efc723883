"""Where the table screen's cursor can be."""

from __future__ import annotations

from enum import StrEnum


class Zone(StrEnum):
    """Where the cursor is: the hand, the discard pile or the melds on the table."""

    PILE = "pile"
    MELDS = "melds"
    HAND = "hand"


ZONES = [Zone.PILE, Zone.MELDS, Zone.HAND]
