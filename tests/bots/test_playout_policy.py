"""The expert's playout policy reads a card's partners from a table (``expert.NEAR``): it must
pick the very discard that counting partners card by card (:func:`hands.partners`) picks, so
that the expert, the hint and the coach play and value exactly as before."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rum500 import cards as C
from rum500.bots import make_bot
from rum500.bots.expert import NEAR, paired_count, policy
from rum500.bots.hands import partners
from rum500.rules import Game, Options, Phase
from rum500.rules.game import MOVE_DISCARD

#: two decks' cards and their jokers: a hand may hold the same card twice, and jokers
CARDS = st.lists(st.sampled_from([*range(C.DECK_SIZE)] * 2 + [C.JOKER] * 4), max_size=16)


@given(CARDS)
@settings(max_examples=300, deadline=None)
def test_near_says_what_partners_counts(hand: list[int]) -> None:
    held = set(hand)
    joker = any(c >= C.DECK_SIZE for c in hand)
    for card in hand:
        if card < C.DECK_SIZE:
            assert (partners(card, hand) == 0) == (not joker and held.isdisjoint(NEAR[card]))


@given(CARDS)
@settings(max_examples=300, deadline=None)
def test_paired_count_counts_what_partners_counts(hand: list[int]) -> None:
    """The sampled opponents' hands (:func:`expert.determinize`) are chosen by this count:
    read from the table, it must be the count card by card."""
    assert paired_count(hand) == sum(1 for c in hand if partners(c, hand))


def test_an_ace_partners_both_ends_of_its_suit() -> None:
    ace = C.parse("AH")
    assert {C.name(c) for c in NEAR[ace] if C.suit(c) == C.suit(ace)} == {"2H", "3H", "QH", "KH"}
    assert {C.name(c) for c in NEAR[ace] if C.rank(c) == C.ACE} == {"AS", "AD", "AC"}


def reference_discard(g: Game) -> int:
    """The discard the policy chose before the table: the costliest card with no partner
    (by :func:`partners`), else the costliest card; a joker only when nothing else goes."""
    hand = g.hands[g.turn]
    discards = [m[1] for m in g.legal_moves() if m[0] == MOVE_DISCARD]
    if len(discards) > 1 and C.JOKER in discards:
        discards.remove(C.JOKER)
    return max(discards, key=lambda c: (partners(c, hand) == 0, C.VALUES[c]))


def test_the_policy_discards_what_counting_partners_discards() -> None:
    rng = random.Random(11)
    checked = 0
    for k in range(60):
        options = rng.choice([Options(), Options(decks=2, jokers=True), Options(jokers=True)])
        g = Game(rng.randint(2, 6), seed=k, options=options)
        walker = make_bot("random", seed=k)
        for _ in range(200):
            if g.to_move is None:
                break
            if g.phase is Phase.PLAY:
                move = policy(g)
                melds = [m for m in g.legal_moves() if m[0] != MOVE_DISCARD]
                if move[0] == MOVE_DISCARD and not melds:
                    assert move[1] == reference_discard(g), (k, g.hands[g.turn])
                    checked += 1
            g.apply(walker.choose(g.view(g.to_move)))
    assert checked >= 500
