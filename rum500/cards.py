"""Cards: a compact integer form for the engine and the text form used everywhere else.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, where ``rank`` 0 is the ace,
1 the two … 12 the king, and ``suit`` indexes :data:`SUITS` (``S H D C``). With two decks
the same card simply occurs twice; copies are indistinguishable, as at a real table.

Text form (on screen, in logs, in tests and on the wire): the rank, then the suit letter —
``AS 2C 10H JD QS KH``, and ``JK`` for a joker (52). :func:`parse` accepts it
case-insensitively (and ``T`` for ten);
:func:`name` always writes the canonical form, so ``name(parse(t))`` round-trips.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")

ACE = 0
KING = 12
DECK_SIZE = 52
#: The joker (RULES.md §11.1, only with the jokers option): one number for every copy, like
#: the two copies of a card with two decks. It has no rank or suit: code that reads either
#: must leave it out (``card == JOKER`` or ``card >= DECK_SIZE``).
JOKER = 52
JOKER_NAME = "JK"
JOKER_VALUE = 15
JOKERS_PER_DECK = 2

_NAMES = [r + s for s in SUITS for r in RANKS] + [JOKER_NAME]
_BY_NAME = {n: i for i, n in enumerate(_NAMES)}
_BY_NAME.update({n.replace("10", "T"): i for n, i in list(_BY_NAME.items()) if "10" in n})

#: Points of a card left in hand or played anywhere but as a low ace (RULES.md §2); the
#: joker's 15 is last (§11.1).
VALUES = tuple((15 if r == ACE else 10 if r >= 9 else r + 1) for _ in SUITS for r in range(13)) + (
    JOKER_VALUE,
)
LOW_ACE_VALUE = 1


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def make(rank_: int, suit_: int) -> int:
    return suit_ * 13 + rank_


def name(card: int) -> str:
    """``name(22) == "10H"``."""
    return _NAMES[card]


def parse(text: object) -> int:
    """Parse one card name (``"10H"``, ``"qs"``, ``"TD"``); a bad name raises ``ValueError``."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written like AS, 10H or QD, not {text!r}")
    card = _BY_NAME.get(text.strip().upper())
    if card is None:
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise ValueError(
            f"{shown!r} is not a card: write the rank (A 2 … 10 J Q K) then the suit "
            "(S H D C), e.g. AS, 10H, QD"
        )
    return card


def parse_many(texts: Iterable[object] | str) -> list[int]:
    """Parse a list of names, or one string of names separated by spaces or commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [parse(t) for t in texts]


def names(cards: Iterable[int]) -> list[str]:
    return [_NAMES[c] for c in cards]


def deck(decks: int = 1, jokers: bool = False) -> list[int]:
    """A fresh, ordered deck (or double deck), with two jokers per deck when asked."""
    return (list(range(DECK_SIZE)) + [JOKER] * (JOKERS_PER_DECK if jokers else 0)) * decks


def is_joker(card: int) -> bool:
    return card == JOKER


def value(card: int) -> int:
    return VALUES[card]


def hand_points(cards: Iterable[int]) -> int:
    """What a hand costs at the end of a hand: every ace 15 (RULES.md §2), a joker 15."""
    return sum(VALUES[c] for c in cards)


#: Suits in the order a hand is shown: black and red take turns (♠ ♥ ♣ ♦), as players hold them.
SHOWN_SUIT_ORDER = tuple(SUITS.index(s) for s in "SHCD")


def sort_key_by_suit(card: int) -> tuple[int, int]:
    """A hand shown by suit (♠ ♥ ♣ ♦), aces high, jokers last: the terminal client's order
    and the replay's."""
    if card == JOKER:
        return len(SHOWN_SUIT_ORDER), 0
    return SHOWN_SUIT_ORDER.index(suit(card)), (rank(card) - 1) % 13


def sort_key_by_rank(card: int) -> tuple[int, int]:
    """A hand shown by rank, aces high, then by suit as :func:`sort_key_by_suit`; jokers last."""
    if card == JOKER:
        return 13, 0
    return (rank(card) - 1) % 13, SHOWN_SUIT_ORDER.index(suit(card))
