"""RULES.md §5: sets, runs, aces, lay-offs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rum500 import cards as C
from rum500.rules import IllegalMove
from rum500.rules.melds import (
    Meld,
    candidate_melds,
    grown,
    lay_off,
    layoff_cards,
    layoff_position,
    make_meld,
    placement_cost,
)


def meld(text: str, seat: int = 0):
    return make_meld(0, C.parse_many(text), seat)


def test_rule_5_set_of_three_and_four():
    assert meld("9S 9H 9D").kind == "set"
    assert meld("9C 9S 9H 9D").kind == "set"
    assert C.names(meld("9C 9D 9H 9S").cards) == ["9S", "9H", "9D", "9C"]


def test_rule_5_set_needs_different_suits():
    with pytest.raises(IllegalMove, match="different suits"):
        meld("7H 7H 7S")  # §10: two decks, 7♥ 7♥ 7♠ is refused


@pytest.mark.parametrize("text", ["9S 9H", "9S 9H 9D 9C 9S", "9S 9H 8D", "2S 3S 5S"])
def test_rule_5_not_melds(text):
    with pytest.raises(IllegalMove):
        meld(text)


def test_rule_5_run_any_order_is_canonical():
    m = meld("7D 5D 6D")
    assert m.kind == "run"
    assert C.names(m.cards) == ["5D", "6D", "7D"]


def test_rule_5_ace_low_and_high():
    low = meld("3S 2S AS")
    assert low.ace == "low" and C.names(low.cards) == ["AS", "2S", "3S"]
    high = meld("QS KS AS")
    assert high.ace == "high" and C.names(high.cards) == ["QS", "KS", "AS"]


def test_rule_5_no_wrap_round_the_corner():
    with pytest.raises(IllegalMove, match="corner"):
        meld("KS AS 2S")  # §10: K♠ A♠ 2♠ is refused


def test_rule_5_one_ace_per_run():
    # 2..K plus ace: the ace sits high when it could sit at either end
    m = meld(" ".join(f"{r}H" for r in C.RANKS))
    assert m.ace == "high" and C.names(m.cards)[-1] == "AH" and len(m.cards) == 13


def test_rule_5_layoff_extends_run_either_end():
    m = meld("5D 6D 7D")
    assert layoff_position(m, C.parse("8D")) == "high"
    assert layoff_position(m, C.parse("4D")) == "low"
    assert layoff_position(m, C.parse("9D")) is None
    assert layoff_position(m, C.parse("8H")) is None
    lay_off(m, C.parse("8D"), 1)
    assert C.names(m.cards) == ["5D", "6D", "7D", "8D"] and m.by == [0, 0, 0, 1]
    lay_off(m, C.parse("4D"), 2)
    assert m.by == [2, 0, 0, 0, 1] and m.owner == 0  # a low lay-off does not take the meld
    assert m.to_dict()["owner"] == 0


def test_rule_5_layoff_set_of_three_to_four():
    m = meld("9S 9H 9D")
    assert layoff_position(m, C.parse("9C")) == "set"
    assert layoff_position(m, C.parse("9S")) is None  # same suit twice (two decks)
    lay_off(m, C.parse("9C"), 2)
    assert layoff_position(m, C.parse("9C")) is None  # a set has at most 4 cards


def test_rule_5_no_layoff_round_the_corner():
    m = meld("QS KS AS")
    assert layoff_position(m, C.parse("2S")) is None  # §10: 2♠ not on Q♠ K♠ A♠
    m = meld("AS 2S 3S")
    assert layoff_position(m, C.parse("KS")) is None


def test_rule_5_ace_laid_off_on_two_to_king_sits_high():
    m = meld(" ".join(f"{r}C" for r in C.RANKS[1:]))
    assert layoff_position(m, C.parse("AC")) == "high"
    lay_off(m, C.parse("AC"), 0)
    assert m.ace == "high" and m.points[-1] == 15


def test_rule_2_low_ace_in_run_is_worth_one():
    assert sum(meld("3S 2S AS").points) == 6  # §10
    assert sum(meld("QS KS AS").points) == 35  # §10
    m = meld("2H 3H 4H")
    lay_off(m, C.parse("AH"), 1)
    assert m.points[0] == 1 and m.by[0] == 1


def test_candidate_melds_each_once():
    hand = C.parse_many("AS 2S 3S 4S 9H 9D 9C 9S KS QS")
    found = [tuple(C.names(m)) for m in candidate_melds(hand)]
    assert len(found) == len(set(found))
    assert ("AS", "2S", "3S") in found and ("QS", "KS", "AS") in found
    assert ("AS", "2S", "3S", "4S") in found
    assert ("9S", "9H", "9D", "9C") in found
    assert ("KS", "AS", "2S") not in found
    for m in candidate_melds(hand):
        make_meld(0, m, 0)  # every candidate is a real meld


def test_candidate_melds_thirteen_card_run_listed_once():
    hand = [C.make(r, 2) for r in range(13)]
    runs13 = [m for m in candidate_melds(hand) if len(m) == 13]
    assert len(runs13) == 1
    assert make_meld(0, runs13[0], 0).ace == "high"


def test_placement_cost_chain_of_layoffs():
    # RULES.md §4.2: lay off 8♦ on 5♦ 6♦ 7♦, then the dug 9♦
    table = [meld("5D 6D 7D")]
    assert placement_cost(C.parse("9D"), C.parse_many("9D 8D KS"), table) == 2
    assert placement_cost(C.parse("9D"), C.parse_many("9D KS"), table) is None
    assert placement_cost(C.parse("9D"), C.parse_many("9D 9S 9H"), []) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=20, unique=True), st.randoms())
def test_layoff_cards_agree_with_layoff_position(hand, rnd):
    for mc in candidate_melds(hand):
        m = make_meld(0, mc, 0)
        for _ in range(rnd.randrange(4)):
            spots = layoff_cards(m)
            if spots:
                lay_off(m, rnd.choice(spots), 1)
        expected = sorted(c for c in range(52) if layoff_position(m, c) is not None)
        assert sorted(layoff_cards(m)) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=20, unique=True), st.randoms())
def test_grown_is_lay_off_on_a_copy(hand, rnd):
    """grown() gives the meld lay_off() makes of a copy (jokers too), the meld untouched."""
    for mc in candidate_melds(hand):
        m = make_meld(0, mc, 0)
        for step in range(rnd.randrange(1, 6)):
            spots = layoff_cards(m)
            if not spots:
                break
            card, wild = rnd.choice(spots), rnd.random() < 0.3
            before = m.copy()
            expected = m.copy()
            lay_off(expected, card, step, wild)
            got = grown(m, card, step, wild)
            assert m.copy() == before
            assert got == expected and got.spots is None
            m = got
        with pytest.raises(IllegalMove):
            grown(m, next(c for c in range(52) if layoff_position(m, c) is None), 1)


def test_rule_5_full_run_takes_no_second_ace():
    """Two decks: 2♣…K♣ A♣ on the table takes no other A♣ (one ace per run)."""
    m = meld(" ".join(f"{r}C" for r in C.RANKS))
    assert m.lo == 1 and m.hi == 13
    assert layoff_cards(m) == []
    assert layoff_position(m, C.parse("AC")) is None


def test_meld_from_dict_round_trips_and_keeps_a_low_ace():
    m = meld("AS 2S 3S", 1)
    for r in C.RANKS[3:]:
        lay_off(m, C.parse(f"{r}S"), 0)  # up to the king: the ace stays low
    assert m.ace == "low" and len(m.cards) == 13
    again = Meld.from_dict(m.to_dict())
    assert again.to_dict() == m.to_dict() and again.points == m.points
    assert again.lo == 0 and again.hi == C.KING and again.owner == 1
    with pytest.raises(ValueError):
        Meld.from_dict({**m.to_dict(), "cards": ["KS", "AS", "2S"], "by": [0, 0, 0]})
