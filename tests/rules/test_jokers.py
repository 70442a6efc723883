"""Jokers (RULES.md §11.1) and the §11.5 worked positions for them."""

from __future__ import annotations

from collections import Counter

import pytest

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options, Phase
from rum500.rules.melds import Meld
from tests.rules.positions import legal, position

JOKERS = Options(jokers=True)
TWO_DECKS = Options(jokers=True, decks=2)
OTHER = "2C 3D 9S KS 4C"  # a hand for the seat not to move


def meld(cards: list[str], jokers: list[str] | None = None) -> dict:
    a: dict = {"type": "meld", "cards": cards}
    if jokers is not None:
        a["jokers"] = jokers
    return a


def test_rule_11_1_jokers_two_per_deck():
    assert Counter(Game(3, 1, JOKERS)._deck())[C.JOKER] == 2
    g = Game(6, 1, JOKERS)
    assert len(g._deck()) == 108 and Counter(g._deck())[C.JOKER] == 4
    cards = [c for h in g.hands for c in h] + g.stock + g.pile
    assert Counter(cards) == Counter(C.deck(2)) + Counter({C.JOKER: 4})
    assert len(Game(3, 1, Options())._deck()) == 52  # the seed game has none


def test_rule_11_1_the_lot_is_drawn_without_jokers():
    for seed in range(40):
        with_jokers = Game(4, seed, JOKERS)
        assert with_jokers.lot == Game(4, seed).lot
        assert all(card != "JK" for r in with_jokers.lot["rounds"] for _, card in r)


def test_rule_11_5_seven_eight_joker_as_nine_scores_30_and_holds_the_place_of_the_nine():
    """(Jokers, one deck) 7♥ 8♥ JK melded, the joker named 9♥: scores 7 + 8 + 15 = 30; a later
    10♥ lays off above it; another 9♥ cannot (the joker holds that place)."""
    g = position(["7H 8H JK 2C 3C", "10H 9H 3S 4D 5C"], phase="play", options=JOKERS)
    # two names fit (6♥ or 9♥): both are offered, and the player must choose
    offered = [a for a in legal(g, "meld") if "JK" in a["cards"]]
    assert meld(["7H", "8H", "JK"], ["9H"]) in offered
    assert meld(["JK", "7H", "8H"], ["6H"]) in offered
    with pytest.raises(IllegalMove, match="name the card the joker stands for: 6H 9H"):
        g.apply(meld(["7H", "8H", "JK"]))
    g.apply(meld(["JK", "8H", "7H"], ["9H"]))
    assert g.melds[0].to_dict()["cards"] == ["7H", "8H", "JK"]
    assert g.melds[0].to_dict()["stands_for"] == [None, None, "9H"]
    assert g.actions[-1] == meld(["7H", "8H", "JK"], ["9H"])
    assert g.table_points()[0] == 7 + 8 + 15
    g.apply({"type": "discard", "card": "2C"})
    g.apply({"type": "draw", "source": "stock"})
    assert {"type": "layoff", "card": "10H", "meld": 0} in legal(g, "layoff")
    with pytest.raises(IllegalMove):
        g.apply({"type": "layoff", "card": "9H", "meld": 0})
    assert {"type": "layoff", "card": "9H", "meld": 0} not in legal(g, "layoff")
    g.apply({"type": "layoff", "card": "10H", "meld": 0})
    assert g.melds[0].to_dict()["cards"] == ["7H", "8H", "JK", "10H"]
    assert g.table_points() == [30, 10]


def test_rule_11_5_two_jokers_and_one_natural_is_refused_a_set_with_a_joker_names_a_suit():
    """(Jokers) JK JK 5♠ is refused (one natural card); 5♠ 5♥ JK (joker named 5♦ or 5♣) is a
    set."""
    g = position(["JK JK 5S 5H 9C", OTHER], phase="play", options=TWO_DECKS)
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="at least two natural cards"):
        g.apply(meld(["JK", "JK", "5S"]))
    with pytest.raises(IllegalMove, match="at least two natural cards"):
        g.apply(meld(["JK", "JK", "5S"], ["5H", "5D"]))
    assert g.to_dict() == before
    sets = [a for a in legal(g, "meld") if len(a["cards"]) == 3 and "5S" in a["cards"]]
    assert meld(["5S", "5H", "JK"], ["5D"]) in sets
    assert meld(["5S", "5H", "JK"], ["5C"]) in sets
    assert not any(a["cards"].count("JK") == 2 and len(a["cards"]) == 3 for a in sets)
    with pytest.raises(IllegalMove, match="5D 5C"):
        g.apply(meld(["5S", "JK", "5H"]))
    with pytest.raises(IllegalMove, match="not a meld"):
        g.apply(meld(["5S", "JK", "5H"], ["5H"]))  # a set's suits stay distinct
    g.apply(meld(["5S", "JK", "5H"], ["5C"]))
    assert g.melds[0].to_dict()["cards"] == ["5S", "5H", "JK"]
    assert g.melds[0].to_dict()["stands_for"] == [None, None, "5C"]


def test_rule_11_5_a_joker_left_in_hand_costs_15():
    g = position(["KC", "JK 4D"], pile="2C", melds=[("10C JC QC", 1)], phase="play", options=JOKERS)
    g.apply({"type": "layoff", "card": "KC", "meld": 0})
    r = g.results[-1]
    assert r["hand_points"] == [0, 15 + 4]
    assert r["scores"] == [10, 30 - 19]  # seat 1: 10 + 10 + 10 on the table, 19 in hand


def test_rule_11_5_two_jokers_with_two_naturals_but_never_three():
    """(Jokers) 5♥ 6♥ JK JK is a meld (two of each); 5♥ 6♥ JK JK JK is refused, and so is
    laying a third joker off on 5♥ 6♥ JK JK."""
    g = position(["5H 6H JK JK JK 2C", OTHER], phase="play", options=TWO_DECKS)
    with pytest.raises(IllegalMove, match="more jokers than natural cards"):
        g.apply(meld(["5H", "6H", "JK", "JK", "JK"], ["7H", "8H", "9H"]))
    assert not any(a["cards"].count("JK") > 2 for a in legal(g, "meld"))
    g.apply(meld(["5H", "6H", "JK", "JK"], ["7H", "8H"]))
    assert g.melds[0].to_dict()["cards"] == ["5H", "6H", "JK", "JK"]
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="never more jokers than natural cards"):
        g.apply({"type": "layoff", "card": "JK", "meld": 0, "joker": "9H"})
    assert g.to_dict() == before
    assert not [a for a in legal(g, "layoff") if a["card"] == "JK"]


def test_rule_11_1_the_engine_names_the_joker_where_only_one_card_fits():
    """A♥ 2♥ joker: only 3♥ (K-A-2 is no run); 5♠ 5♥ 5♦ joker: only 5♣."""
    g = position(["AH 2H JK 5S 5H 5D JK 9C", OTHER], phase="play", options=TWO_DECKS)
    g.apply(meld(["AH", "2H", "JK"]))
    assert g.melds[0].to_dict()["stands_for"] == [None, None, "3H"]
    assert g.actions[-1] == meld(["AH", "2H", "JK"], ["3H"])
    # a natural low ace still scores 1 beside a joker
    assert g.melds[0].points == [1, 2, 15]
    g.apply(meld(["5S", "5H", "5D", "JK"]))
    assert g.melds[1].to_dict()["stands_for"] == [None, None, None, "5C"]


def test_rule_11_1_a_joker_standing_for_a_low_ace_scores_15():
    g = position(["JK 2H 3H 9C", OTHER], phase="play", options=JOKERS)
    offered = legal(g, "meld")
    assert meld(["JK", "2H", "3H"], ["AH"]) in offered
    assert meld(["2H", "3H", "JK"], ["4H"]) in offered
    g.apply(meld(["2H", "3H", "JK"], ["AH"]))
    assert g.melds[0].ace == "low" and g.melds[0].points == [15, 2, 3]
    assert g.table_points()[0] == 20


def test_rule_11_1_laying_off_a_joker_names_its_card():
    g = position(
        ["JK 9C 4D", OTHER], phase="play", melds=[("5H 6H 7H", 1), ("8S 8H 8D", 1)], options=JOKERS
    )
    layoffs = [a for a in legal(g, "layoff") if a["card"] == "JK"]
    assert {"type": "layoff", "card": "JK", "meld": 0, "joker": "4H"} in layoffs
    assert {"type": "layoff", "card": "JK", "meld": 0, "joker": "8H"} in layoffs
    assert {"type": "layoff", "card": "JK", "meld": 1, "joker": "8C"} in layoffs
    assert len(layoffs) == 3
    with pytest.raises(IllegalMove, match="name the card the joker stands for: 4H 8H"):
        g.apply({"type": "layoff", "card": "JK", "meld": 0})
    with pytest.raises(IllegalMove, match="cannot stand for 9H"):
        g.apply({"type": "layoff", "card": "JK", "meld": 0, "joker": "9H"})
    g.apply({"type": "layoff", "card": "JK", "meld": 1})  # only 8C fits
    assert g.melds[1].to_dict()["stands_for"] == [None, None, None, "8C"]
    assert g.actions[-1] == {"type": "layoff", "card": "JK", "meld": 1, "joker": "8C"}
    assert g.table_points()[0] == 15


def test_rule_11_1_digging_for_a_joker_means_playing_it_this_turn():
    g = position(["7H 8H 2C", "9S 4D 5C"], pile="3S JK KD", options=JOKERS)
    take = {"type": "draw", "source": "discard", "index": 1}
    assert take in legal(g, "draw")
    g.apply(take)
    assert g.must_play == C.JOKER
    assert legal(g, "discard") == []
    with pytest.raises(IllegalMove, match="JK must be played"):
        g.apply({"type": "discard", "card": "2C"})
    g.apply(meld(["7H", "8H", "JK"], ["9H"]))
    assert g.must_play is None
    # nobody may dig for a joker they could not play
    h = position(["7H 9S 2C", "9C 4D 5C"], pile="3S JK KD", options=JOKERS)
    assert {"type": "draw", "source": "discard", "index": 1} not in legal(h, "draw")
    with pytest.raises(IllegalMove, match="may not take JK"):
        h.apply({"type": "draw", "source": "discard", "index": 1})


def test_rule_11_1_a_joker_helps_to_play_a_dug_card():
    # 9♦ dug with 9♠ and a joker in hand: 9♠ 9♦ JK is a set
    g = position(["9S JK 2C", "4D 5C 6S"], pile="4C 9D", options=JOKERS)
    take = {"type": "draw", "source": "discard", "index": 1}
    assert take in legal(g, "draw")
    without = position(["9S 3H 2C", "4D 5C 6S"], pile="4C 9D", options=JOKERS)
    assert take not in legal(without, "draw")


def test_rule_11_1_an_upcard_joker_stays_on_the_pile_and_a_joker_may_be_discarded():
    deck = [C.name(c) for c in range(26)] + ["JK"]
    g = Game(2, 5, JOKERS, deck=deck)
    assert C.names(g.pile) == ["JK"]
    g.apply({"type": "draw", "source": "stock"})
    assert C.names(g.pile) == ["JK"]
    h = position(["JK 7C 6D", OTHER], phase="play", options=JOKERS)
    h.apply({"type": "discard", "card": "JK"})
    assert C.names(h.pile)[-1] == "JK" and h.phase is Phase.DRAW


def test_a_joker_in_a_saved_game_view_and_replay_stays_a_joker():
    g = position(["7H 8H JK 2C", "10H 9H 3S 4D 5C"], phase="play", options=JOKERS)
    g.apply(meld(["7H", "8H", "JK"], ["9H"]))
    d = g.to_dict()
    assert Game.from_dict(d).to_dict() == d
    m = Meld.from_dict(g.view(1)["melds"][0])
    assert m.cards == C.parse_many("7H 8H 9H") and m.wild == [False, False, True]
    with pytest.raises(ValueError):
        Meld.from_dict({**g.view(1)["melds"][0], "stands_for": None})


def test_rule_11_1_a_joker_dug_with_a_card_below_it_may_make_its_meld():
    """A joker a meld on the table takes as it is, lying above 6♠ on the discard pile: taking
    6♠ takes the joker too, which makes 6♠ 7♠ JK (or 6♠ 6♥ JK) — the dig is listed, as the
    rules accept it."""
    g = position(
        ["9D 6H 2H 10H 7S 5C", OTHER],
        pile="6S QD JK",
        melds=[("8S 8H 8C", 1)],
        options=JOKERS,
    )
    digs = [a["index"] for a in legal(g, "draw") if a["source"] == "discard"]
    assert digs == [0, 2]
    g.apply({"type": "draw", "source": "discard", "index": 0})
