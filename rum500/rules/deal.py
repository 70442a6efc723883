"""The match's beginning: the lot that picks the first dealer (RULES.md §2) and the order of
a first hand dealt from a given deck (a test's or a puzzle's stacked deck). Pure functions
of the match's own random state; imports nothing of ours but :mod:`rum500.cards`."""

from __future__ import annotations

import random
from collections import Counter

from rum500 import cards as C


def draw_lot(players: int, decks: int, rng: random.Random) -> dict:
    """First dealer by lot: one card each face up, lowest deals, ties draw again (``rng``
    shuffles the pack: the match's own random state)."""
    rounds: list[list[list]] = []
    contenders = list(range(players))
    pack: list[int] = []
    while True:
        if len(pack) < len(contenders):
            pack = C.deck(decks)
            rng.shuffle(pack)
        drawn = [(seat, pack.pop()) for seat in contenders]
        rounds.append([[seat, C.name(card)] for seat, card in drawn])
        low = min(C.rank(card) for _, card in drawn)
        contenders = [seat for seat, card in drawn if C.rank(card) == low]
        if len(contenders) == 1:
            return {"rounds": rounds, "dealer": contenders[0]}


def first_order(deck: list[str], full_deck: list[int], rng: random.Random) -> list[int]:
    """The first hand's order: the cards ``deck`` names on top, in that order, then the rest
    of ``full_deck`` shuffled by ``rng``. ``ValueError`` when it names a card more often
    than the table holds it."""
    order = C.parse_many(deck)
    have = Counter(order)
    full = Counter(full_deck)
    for card, n in have.items():
        if n > full[card]:
            raise ValueError(f"the deck holds {C.name(card)} more than {full[card]} time(s)")
    rest = list((full - have).elements())
    rng.shuffle(rest)
    return order + rest
