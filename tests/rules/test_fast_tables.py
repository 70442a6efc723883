"""The fast path's tables and bit tricks agree with the plain definitions they stand for.

``rum500.rules.moves`` lists a hand's melds and discards from tables built once (per rank and
mask of suits, per suit and mask of positions) and from a few shifts of the card mask; the
reference here is :func:`rum500.rules.melds.candidate_melds` built from the hand's cards one
by one (brute force in ``test_legal_reference``) and ``sorted`` for the discards.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rum500 import cards as C
from rum500.rules.game import MOVE_MELD
from rum500.rules.melds import HIGH_ACE, candidate_meld_tuples, card_mask, position_rank
from rum500.rules.notation import DISCARD_MOVES
from rum500.rules.tables import discard_tables, meld_moves
from tests.rules.positions import position
from tests.rules.test_legal_reference import _key, accepted

hands = st.lists(st.integers(0, C.JOKER), max_size=20)


def brute_melds(cards: set[int]) -> list[tuple[int, ...]]:
    """Every set (by rank, suits in order) then every run (by suit, from low to high, the
    shortest first at each start), as the fast path lists them."""
    sets = []
    for r in range(13):
        suits = [s for s in range(4) if s * 13 + r in cards]
        picks = [p for k in (3, 4) for p in _combos(suits, k)]
        sets += [tuple(s * 13 + r for s in p) for p in picks]
    runs = []
    for s in range(4):
        for a in range(HIGH_ACE + 1):
            for b in range(a + 2, HIGH_ACE + 1):
                if a == 0 and b >= C.KING:
                    continue  # two aces, or the same cards as 1..13
                run = tuple(s * 13 + position_rank(p) for p in range(a, b + 1))
                if all(c in cards for c in run):
                    runs.append(run)
    return sets + runs


def _combos(items: list[int], k: int) -> list[tuple[int, ...]]:
    if k == 0:
        return [()]
    return [(x, *rest) for i, x in enumerate(items) for rest in _combos(items[i + 1 :], k - 1)]


@settings(max_examples=400, deadline=None)
@given(hands)
def test_meld_moves_are_the_candidate_melds(hand):
    cm = card_mask(hand)
    assert candidate_meld_tuples(cm) == brute_melds(set(hand) - {C.JOKER})
    assert meld_moves(cm) == [(MOVE_MELD, t, None) for t in candidate_meld_tuples(cm)]


def test_meld_moves_on_crowded_hands():
    """Hands of 20 to 52 cards (many sets and long runs, every ace), seeded."""
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.sample(range(C.DECK_SIZE), rng.randint(20, C.DECK_SIZE))
        cm = card_mask(hand)
        assert candidate_meld_tuples(cm) == brute_melds(set(hand))
        assert meld_moves(cm) == [(MOVE_MELD, t, None) for t in candidate_meld_tuples(cm)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, C.DECK_SIZE - 1), unique=True, max_size=52))
def test_discard_tables_list_the_hand_in_order(hand):
    cm = card_mask(hand)
    d = discard_tables()
    listed = [*d[0][cm & 8191], *d[1][cm >> 13 & 8191], *d[2][cm >> 26 & 8191], *d[3][cm >> 39]]
    assert listed == [DISCARD_MOVES[c] for c in sorted(hand)]


def test_the_deal_shuffles_as_random_shuffle():
    """game._shuffle is ``Random.shuffle`` inlined: the same order and the same random state
    after, for decks of every size a table deals."""
    from rum500.rules.game import _shuffle

    for seed in range(40):
        for n in (1, 2, 52, 54, 104, 108):
            a, b = random.Random(seed), random.Random(seed)
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            _shuffle(b, y)
            assert x == y
            assert a.getstate() == b.getstate()


@pytest.mark.parametrize(
    ("hand", "pile", "run"),
    [
        ("8H 9H 2C 4D KS", "3S 10H", "5H 6H 7H"),  # 8H on the run, then 9H, then 10H
        ("3H 4H 2C 9D KS", "QS 2H", "5H 6H 7H"),  # 4H below the run, then 3H, then 2H
        ("JD QD 2C 4S 7H", "5C KD", "8D 9D 10D"),  # up to the king
        ("3C 2C 9D 4S JH", "KS AC", "4C 5C 6C"),  # the ace, low, after 3C and 2C
    ],
)
def test_a_lay_off_that_takes_the_way_of_the_dug_card(hand, pile, run):
    """The dug card must be played and its way (a run in hand) uses the card laid off: the
    lay-off is listed exactly when the rules accept it (the run grown, the card still
    reaches it through the cards between) — as every other play then."""
    g = position([hand, "5S 6D 9C"], pile=pile, melds=[(run, 1)], phase="draw")
    g.apply({"type": "draw", "source": "discard", "index": len(g.pile) - 1})
    assert g.must_play is not None
    listed = g.legal_actions()
    assert sorted(map(_key, listed)) == sorted(map(_key, accepted(g)))
    assert any(a["type"] == "layoff" for a in listed)
