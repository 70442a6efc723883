"""The "top card free" option (RULES.md §4.2): the free card may still be melded or laid off,
also as the last card to go out; a take or a play is refused only when the player could then
neither discard another card nor put every card left in hand on the table."""

from __future__ import annotations

import pytest

from rum500 import cards as C
from rum500.rules import IllegalMove, Options, Phase
from tests.rules.positions import legal, position

FREE = Options(top_card_free=True)


def draw_top(g) -> dict:
    return {"type": "draw", "source": "discard", "index": len(g.pile) - 1}


def test_rule_10_top_card_free_lay_off_the_hand_then_the_free_card_to_go_out():
    """§10: hand 5♥, 4♥ taken free from the pile, 6♥ 7♥ 8♥ 9♥ on the table: lay off 5♥, then
    4♥ — the player is out. The engine offers both lay-offs."""
    g = position(["5H", "2C 3D 9S KS"], pile="4H", melds=[("6H 7H 8H 9H", 1)], options=FREE)
    assert draw_top(g) in legal(g, "draw")
    g.apply(draw_top(g))
    assert C.name(g.no_discard) == "4H"
    assert {"type": "layoff", "card": "5H", "meld": 0} in legal(g, "layoff")
    g.apply({"type": "layoff", "card": "5H", "meld": 0})
    assert g.hands[0] == [C.parse("4H")]
    assert legal(g) == [{"type": "layoff", "card": "4H", "meld": 0}]
    g.apply({"type": "layoff", "card": "4H", "meld": 0})
    assert g.went_out == 0 and g.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert g.results[-1]["table_points"][0] == 4 + 5


def test_a_play_leaving_only_the_free_card_is_refused_when_it_cannot_go_to_the_table():
    g = position(["5H 3C", "2C 3D 9S KS"], pile="KD", melds=[("6H 7H 8H 9H", 1)], options=FREE)
    g.apply(draw_top(g))
    # lay off 5H: left with 3C and KD — fine (3C can be discarded)
    assert {"type": "layoff", "card": "5H", "meld": 0} in legal(g, "layoff")
    g.apply({"type": "layoff", "card": "5H", "meld": 0})
    assert {"type": "discard", "card": "3C"} in legal(g, "discard")
    assert legal(g, "discard") == [{"type": "discard", "card": "3C"}]


def test_with_must_discard_the_free_card_alone_is_still_refused():
    """With "must discard" the last card may not go to the table, so a play leaving only the
    free card in hand is refused: it could be neither discarded nor played."""
    opts = Options(top_card_free=True, must_discard=True)
    g = position(["5H", "2C 3D 9S KS"], pile="4H", melds=[("6H 7H 8H 9H", 1)], options=opts)
    g.apply(draw_top(g))
    assert legal(g, "layoff") == []
    with pytest.raises(IllegalMove, match="left with only 4H"):
        g.apply({"type": "layoff", "card": "5H", "meld": 0})
    assert legal(g) == [{"type": "discard", "card": "5H"}]


def test_taking_the_free_card_when_the_hand_holds_only_the_same_card_needs_two_lay_offs():
    """Two decks: a hand of 5♥ may take the other 5♥ free only when both could be laid off —
    an identical copy counts as the free card, so neither may be discarded."""
    two = Options(top_card_free=True, decks=2)
    one_place = position(["5H", "2C 3D 9S KS"], pile="5H", melds=[("6H 7H 8H 9H", 1)], options=two)
    assert draw_top(one_place) not in legal(one_place, "draw")
    with pytest.raises(IllegalMove, match="could not discard"):
        one_place.apply(draw_top(one_place))
    two_places = position(
        ["5H", "2C 3D 9S KS"],
        pile="5H",
        melds=[("6H 7H 8H 9H", 1), ("5S 5D 5C", 1)],
        options=two,
    )
    assert draw_top(two_places) in legal(two_places, "draw")
    two_places.apply(draw_top(two_places))
    assert legal(two_places, "discard") == []
    g = two_places
    g.apply({"type": "layoff", "card": "5H", "meld": 0})
    assert legal(g) == [{"type": "layoff", "card": "5H", "meld": 1}]  # not again on the run
    g.apply({"type": "layoff", "card": "5H", "meld": 1})
    assert g.went_out == 0


def test_a_lay_off_that_makes_room_for_the_free_card_counts():
    """Lay off 4♥ below 5♥–9♥ … the free card 3♥ then fits below it: the play is offered
    because the lay-offs chain."""
    g = position(["4H", "2C 3D 9S KS"], pile="3H", melds=[("5H 6H 7H", 1)], options=FREE)
    g.apply(draw_top(g))
    assert {"type": "layoff", "card": "4H", "meld": 0} in legal(g, "layoff")
    g.apply({"type": "layoff", "card": "4H", "meld": 0})
    g.apply({"type": "layoff", "card": "3H", "meld": 0})
    assert g.went_out == 0


def test_a_play_that_strands_the_free_card_is_refused():
    # 4H is free; 5H would go on 6H-9H, but then 4H would still fit: offered. Here the free
    # card is KD, which fits nowhere: laying off the last other card is refused.
    g = position(["5H", "2C 3D 9S KS"], pile="KD", melds=[("6H 7H 8H 9H", 1)], options=FREE)
    g.apply(draw_top(g))
    assert legal(g, "layoff") == []
    with pytest.raises(IllegalMove, match="left with only KD"):
        g.apply({"type": "layoff", "card": "5H", "meld": 0})
    assert g.hands[0] == C.parse_many("5H KD")


def test_a_free_joker_counts_like_any_free_card_and_jokers_are_alike():
    """With jokers, every joker is a copy of the free joker: a hand of jokers may take another
    free only when all of them could be laid off, one after another."""
    opts = Options(top_card_free=True, jokers=True, decks=2)
    # 5H 6H 7H takes a joker (as 4H or 8H), then another: 2 jokers beside 3 naturals
    fits = position(["JK", "2C 3D 9S KS"], pile="JK", melds=[("5H 6H 7H", 1)], options=opts)
    assert draw_top(fits) in legal(fits, "draw")
    fits.apply(draw_top(fits))
    assert legal(fits, "discard") == []
    fits.apply({"type": "layoff", "card": "JK", "meld": 0, "joker": "8H"})
    fits.apply({"type": "layoff", "card": "JK", "meld": 0, "joker": "9H"})
    assert fits.went_out == 0
    # 5H 6H JK=7H takes one more joker, never two
    full = position(["JK", "2C 3D 9S KS"], pile="JK", melds=[("5H 6H JK=7H", 1)], options=opts)
    assert draw_top(full) not in legal(full, "draw")
    with pytest.raises(IllegalMove, match="could not discard"):
        full.apply(draw_top(full))
