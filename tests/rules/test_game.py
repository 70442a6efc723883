"""The rules of RULES.md, one test (or more) per rule, named after its section."""

from collections import Counter

import pytest

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options, Phase

from .positions import legal, position


def draw_discard(index: int) -> dict:
    return {"type": "draw", "source": "discard", "index": index}


STOCK = {"type": "draw", "source": "stock"}


# §1 Players and cards ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 9])
def test_rule_1_two_to_eight_players(players):
    with pytest.raises(ValueError, match="2 to 8"):
        Game(players, seed=1)


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (4, 1), (5, 2), (8, 2)])
def test_rule_1_decks_auto(players, decks):
    g = Game(players, seed=1)
    assert g.decks == decks
    cards = [c for h in g.hands for c in h] + g.stock + g.pile
    assert Counter(cards) == Counter(C.deck(decks))


def test_rule_1_one_deck_only_where_it_fits():
    assert Game(5, seed=1, options=Options(decks=1)).decks == 1  # 5 × 7 + 1 = 36 ≤ 52
    assert Game(7, seed=1, options=Options(decks=1)).decks == 1  # 7 × 7 + 1 = 50
    with pytest.raises(ValueError, match="too small"):
        Game(8, seed=1, options=Options(decks=1))  # 57 > 52
    assert Game(2, seed=1, options=Options(decks=2)).decks == 2


# §3 The deal -------------------------------------------------------------------------------


def test_rule_3_two_players_deal_thirteen_and_stock_of_25():
    g = Game(2, seed=5)
    assert [len(h) for h in g.hands] == [13, 13]
    assert len(g.pile) == 1  # the upcard starts the pile
    assert len(g.stock) == 52 - 26 - 1 == 25


def test_rule_3_five_players_two_decks_seven_each():
    g = Game(5, seed=5)
    assert [len(h) for h in g.hands] == [7] * 5
    assert len(g.stock) == 104 - 35 - 1


def test_rule_3_hand_size_depends_on_players_only():
    assert [len(h) for h in Game(2, seed=1, options=Options(decks=2)).hands] == [13, 13]
    assert [len(h) for h in Game(4, seed=1, options=Options(decks=2)).hands] == [7] * 4


@pytest.mark.parametrize("seed", range(40))
def test_rule_3_first_dealer_by_lot_lowest_deals(seed):
    g = Game(4, seed=seed)
    rounds = g.lot["rounds"]
    for i, rnd in enumerate(rounds):
        ranks = {seat: C.rank(C.parse(card)) for seat, card in rnd}
        low = min(ranks.values())
        lowest = [s for s, r in ranks.items() if r == low]
        if i < len(rounds) - 1:
            assert len(lowest) > 1  # ties draw again
            assert sorted(s for s, _ in rounds[i + 1]) == sorted(lowest)
        else:
            assert lowest == [g.dealer]


def test_rule_3_deal_from_left_of_dealer_and_left_plays_first():
    order = [f"{r}{s}" for s in "SHDC" for r in C.RANKS]
    g = Game(3, seed=9, deck=order)
    first = (g.dealer + 1) % 3
    assert g.turn == first
    assert C.name(g.hands[first][0]) == "AS"  # the top card goes to the dealer's left
    assert C.name(g.hands[(first + 1) % 3][0]) == "2S"
    assert C.name(g.pile[0]) == order[21]  # 3 × 7 cards dealt, then the upcard
    assert C.name(g.stock[-1]) == order[22]  # then the stock, top first


def test_rule_3_deck_prefix_and_bad_deck():
    g = Game(2, seed=3, deck=["AS", "KH"])
    assert C.name(g.hands[(g.dealer + 1) % 2][0]) == "AS"
    with pytest.raises(ValueError):
        Game(2, seed=3, deck=["AS", "AS"])
    with pytest.raises(ValueError, match="not a card"):
        Game(2, seed=3, deck=["ZZ"])


def test_rule_3_deal_passes_to_the_left_and_deck_is_cut():
    g = Game(3, seed=11, options=Options(target=10_000))
    first_dealer = g.dealer
    g.apply(STOCK)
    g.apply({"type": "discard", "card": C.name(g.hands[g.turn][0])})
    # end the hand: empty the stock by force of a position, then decline
    d = g.to_dict()
    d["discard_pile"] += d["stock"]
    d["stock"] = []
    g = Game.from_dict(d)
    ender = g.turn
    events = g.apply({"type": "end_hand"})
    assert [e["type"] for e in events] == ["end_hand", "hand_end"]
    assert events[0]["seat"] == ender and events[1]["reason"] == "declined"
    assert g.phase is Phase.HAND_OVER
    nxt = (first_dealer + 1) % 3
    assert g.to_move == nxt
    with pytest.raises(IllegalMove, match="deals"):
        g.apply({"type": "deal"}, seat=(nxt + 1) % 3)
    (deal,) = g.apply({"type": "deal"}, seat=nxt)
    assert g.dealer == nxt and g.turn == (nxt + 1) % 3
    assert deal["cutter"] == (nxt + 1) % 3 and 1 <= deal["cut"] < 52
    assert g.hand_number == 2


# §4 A turn ---------------------------------------------------------------------------------


def test_rule_4_draw_from_stock():
    g = position(["2C 3C", "4H 5H"], pile="KD")
    top = g.stock[-1]
    g.apply(STOCK)
    assert g.hands[0][-1] == top and g.phase is Phase.PLAY


def test_rule_4_take_card_with_every_card_above_it():
    # §10: pile 4♣ 9♦ K♥ J♠; holding 9♠ 9♥ a player may take 9♦ with K♥ and J♠
    g = position(["9S 9H 2C", "4H 5H 6S"], pile="4C 9D KH JS")
    assert draw_discard(1) in legal(g, "draw")
    g.apply(draw_discard(1))
    assert C.names(g.pile) == ["4C"]
    assert sorted(C.names(g.hands[0])) == sorted(["9S", "9H", "2C", "9D", "KH", "JS"])
    assert C.name(g.must_play) == "9D"


def test_rule_4_dug_card_must_be_played_before_discarding():
    g = position(["9S 9H 2C", "4H 5H 6S"], pile="4C 9D KH JS")
    g.apply(draw_discard(1))
    assert not legal(g, "discard")
    with pytest.raises(IllegalMove, match="9D must be played this turn"):
        g.apply({"type": "discard", "card": "2C"})
    g.apply({"type": "meld", "cards": ["9S", "9H", "9D"]})
    assert g.must_play is None
    g.apply({"type": "discard", "card": "2C"})
    assert g.turn == 1


def test_rule_4_may_not_take_a_card_that_cannot_be_played():
    # §10: no two other nines, no 7♦ 8♦ / 8♦ 10♦ / 10♦ J♦, no lay-off: may not take 9♦
    g = position(["9S 2C 7D KD", "4H 5H 6S QC"], pile="4C 9D KH JS", melds=[("5C 6C 7C", 1)])
    assert draw_discard(1) not in legal(g, "draw")
    with pytest.raises(IllegalMove, match="may not take 9D"):
        g.apply(draw_discard(1))
    assert C.names(g.pile) == ["4C", "9D", "KH", "JS"]  # nothing changed


def test_rule_4_cards_taken_with_it_count_for_the_meld():
    # 10♦ J♦ could come from the pile above 9♦
    g = position(["2C 3H", "4H 5H"], pile="4C 9D 10D JD")
    assert draw_discard(1) in legal(g, "draw")
    g.apply(draw_discard(1))
    assert {"type": "meld", "cards": ["9D", "10D", "JD"]} in legal(g, "meld")


def test_rule_4_dug_card_may_be_laid_off_after_other_layoffs():
    # lay off 8♦ on 5♦ 6♦ 7♦, then the dug 9♦
    g = position(["8D 2C", "4H 5H"], pile="4C 9D", melds=[("5D 6D 7D", 1)])
    assert draw_discard(1) in legal(g, "draw")
    g.apply(draw_discard(1))
    assert {"type": "layoff", "card": "9D", "meld": 0} not in legal(g, "layoff")
    g.apply({"type": "layoff", "card": "8D", "meld": 0})
    g.apply({"type": "layoff", "card": "9D", "meld": 0})
    assert C.names(g.melds[0].cards) == ["5D", "6D", "7D", "8D", "9D"]
    assert g.melds[0].by == [1, 1, 1, 0, 0]


def test_rule_4_top_card_alone_also_must_be_played():
    g = position(["2C 3H 5S", "4H 5H 6S"], pile="4C KD")
    assert draw_discard(1) not in legal(g, "draw")


def test_rule_4_a_play_that_strands_the_dug_card_is_refused():
    g = position(["9S 9H 4C", "4H 5H 6H"], pile="2C 9D", melds=[("10S JS QS", 1)])
    g.apply(draw_discard(1))
    before = g.to_dict()
    assert {"type": "layoff", "card": "9S", "meld": 0} not in legal(g, "layoff")
    with pytest.raises(IllegalMove, match="no way to play it"):
        g.apply({"type": "layoff", "card": "9S", "meld": 0})
    assert g.to_dict() == before


def test_rule_4_meld_and_layoff_on_anyones_melds_score_for_the_player():
    g = position(["8D 2C 2S 2H KS", "4H 5H 6S"], pile="QC", melds=[("5D 6D 7D", 1)])
    g.apply(STOCK)
    g.apply({"type": "layoff", "card": "8D", "meld": 0})
    g.apply({"type": "meld", "cards": ["2H", "2C", "2S"]})
    assert g.table_points() == [8 + 6, 18]


def test_rule_4_going_out_by_meld_ends_the_hand_at_once():
    g = position(["9S 9H", "4H 5H 6S"], pile="2C 9D")
    g.apply(draw_discard(1))
    events = g.apply({"type": "meld", "cards": ["9S", "9H", "9D"]})
    assert g.phase is Phase.HAND_OVER
    assert any(e["type"] == "hand_end" and e["went_out"] == 0 for e in events)
    assert g.results[-1]["hands"][0] == []


def test_rule_4_going_out_by_discard():
    g = position(["KS", "4H 5H 6S"], pile="2C", melds=[("9H 9S 9D", 0)], phase="play")
    events = g.apply({"type": "discard", "card": "KS"})
    assert g.phase is Phase.HAND_OVER and g.went_out == 0
    assert events[0] == {"type": "discard", "seat": 0, "card": "KS"}
    assert events[1]["type"] == "hand_end" and events[1]["reason"] == "out"


def test_rule_4_must_discard_option_keeps_a_card():
    opts = Options(must_discard=True)
    g = position(["9S 9H", "4H 5H 6S"], pile="2C 9D", options=opts)
    assert draw_discard(1) not in legal(g, "draw")  # the meld would leave nothing to discard
    with pytest.raises(IllegalMove, match="nothing to"):
        g.apply(draw_discard(1))
    assert draw_discard(1) in legal(position(["9S 9H", "4H 5H 6S"], pile="2C 9D"), "draw")


def test_rule_4_must_discard_never_puts_last_card_on_table():
    opts = Options(must_discard=True)
    g = position(["9S 9H 9D", "4H 5H 6S"], pile="2C", options=opts, phase="play")
    assert not legal(g, "meld")
    with pytest.raises(IllegalMove, match="keep a card"):
        g.apply({"type": "meld", "cards": ["9S", "9H", "9D"]})
    g = position(
        ["KC", "4H 5H 6S"], pile="2C", melds=[("10C JC QC", 1)], options=opts, phase="play"
    )
    assert not legal(g, "layoff")
    assert legal(g) == [{"type": "discard", "card": "KC"}]
    # the default game: going out by a lay-off is fine
    g = position(["KC", "4H 5H 6S"], pile="2C", melds=[("10C JC QC", 1)], phase="play")
    g.apply({"type": "layoff", "card": "KC", "meld": 0})
    assert g.phase is Phase.HAND_OVER and g.went_out == 0


def test_rule_4_top_card_free_option():
    opts = Options(top_card_free=True)
    g = position(["2C 3H 5S", "4H 5H 6S"], pile="4C KD", options=opts)
    assert draw_discard(1) in legal(g, "draw")
    assert draw_discard(0) not in legal(g, "draw")  # deeper cards still must be played
    g.apply(draw_discard(1))
    assert g.must_play is None and C.name(g.no_discard) == "KD"
    assert {"type": "discard", "card": "KD"} not in legal(g, "discard")
    with pytest.raises(IllegalMove, match="may not discard"):
        g.apply({"type": "discard", "card": "KD"})
    g.apply({"type": "discard", "card": "2C"})
    assert g.no_discard is None


def test_rule_4_top_card_free_does_not_apply_with_empty_stock():
    opts = Options(top_card_free=True)
    g = position(["2C 3H 5S", "4H 5H 6S"], pile="KD", options=opts, stock="")
    top = len(g.pile) - 1
    assert draw_discard(top) not in legal(g, "draw")


def test_rule_4_discard_before_drawing_is_refused():
    g = position(["2C 3H 5S", "4H 5H 6S"], pile="KD")
    with pytest.raises(IllegalMove, match="draw first"):
        g.apply({"type": "discard", "card": "2C"})


# §6 Empty stock ----------------------------------------------------------------------------


def test_rule_6_play_on_from_the_pile_or_end():
    g = position(["9S 9H 2C", "4H 5H 6S"], pile="9D", stock="")
    top = len(g.pile) - 1
    acts = legal(g)
    assert {"type": "end_hand"} in acts and draw_discard(top) in acts
    assert STOCK not in acts
    with pytest.raises(IllegalMove, match="stock is empty"):
        g.apply(STOCK)
    g.apply({"type": "end_hand"})
    assert g.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert g.results[-1]["reason"] == "declined"


def test_rule_6_end_hand_refused_while_stock_has_cards():
    g = position(["9S 9H 2C", "4H 5H 6S"], pile="9D")
    assert {"type": "end_hand"} not in legal(g)
    with pytest.raises(IllegalMove, match="only end the hand"):
        g.apply({"type": "end_hand"})


def _last_stock_card(options: Options) -> Game:
    g = position(["2C 3H 5S", "4H 5H 6S"], pile="KD", stock="QC", options=options)
    g.apply(STOCK)
    g.apply({"type": "discard", "card": "2C"})
    return g


def test_rule_6_option_end_at_once():
    g = _last_stock_card(Options(empty_stock="end"))
    assert g.phase is Phase.HAND_OVER and g.results[-1]["reason"] == "stock"


def test_rule_6_option_reshuffle_once():
    g = _last_stock_card(Options(empty_stock="reshuffle"))
    assert g.phase is Phase.DRAW and g.reshuffled
    assert C.names(g.pile) == ["2C"] and len(g.stock) > 0
    # the second time the stock runs out, play goes on from the pile
    d = g.to_dict()
    d["discard_pile"] = d["stock"][:-1] + d["discard_pile"]
    d["stock"] = d["stock"][-1:]
    g = Game.from_dict(d)
    g.apply(STOCK)
    g.apply({"type": "discard", "card": C.name(g.hands[g.turn][0])})
    assert g.phase is Phase.DRAW and not g.stock
    assert {"type": "end_hand"} in legal(g)


# §7 Scoring --------------------------------------------------------------------------------


def test_rule_7_table_minus_hand():
    # 80 on the table, 85 in hand → −5 (the seed's example)
    g = position(
        ["KS QS JS 10S 10H 10D 10C 9D 6H 2S", "4H 5H 6S"],
        pile="",
        melds=[("KH KD KC", 0), ("QH QD QC", 0), ("4D 5D 6D", 0), ("AC 2C 3C", 0)],
        stock="",
    )
    assert g.table_points()[0] == 30 + 30 + 15 + 6  # the low ace counts 1
    assert C.hand_points(g.hands[0]) == 7 * 10 + 9 + 6 + 2
    g.apply({"type": "end_hand"})
    r = g.results[-1]
    assert r["scores"][0] == r["table_points"][0] - r["hand_points"][0] == 81 - 87
    assert r["scores"][1] == 0 - (4 + 5 + 6)
    assert g.totals == r["scores"]


def test_rule_7_seed_example_minus_five():
    g = position(
        ["KS QS JS 10S 10H 10D 10C 9D 6H", "4H 5H 6S"],
        pile="",
        melds=[("KH KD KC", 0), ("QH QD QC", 0), ("4D 5D 6D", 0), ("AC 2C 3C", 0)],
        stock="",
        totals=[100, 0],
    )
    # table 81, hand 85 (KS QS JS 10S 10H 10D 10C = 70, 9D, 6H)
    assert C.hand_points(g.hands[0]) == 85
    g.apply({"type": "end_hand"})
    assert g.results[-1]["scores"][0] == 81 - 85
    assert g.totals[0] == 100 - 4


def test_rule_7_totals_may_go_negative():
    g = position(["KS QS JS", "4H 5H 6S"], pile="", stock="")
    g.apply({"type": "end_hand"})
    assert g.totals == [-30, -15]


def test_rule_7_no_bonus_for_going_out():
    g = position(["9S 9H", "4H 5H 6S"], pile="2C 9D")
    g.apply(draw_discard(1))
    g.apply({"type": "meld", "cards": ["9S", "9H", "9D"]})
    assert g.results[-1]["scores"][0] == 9 + 9 + 9


# §8 Winning --------------------------------------------------------------------------------


def test_rule_8_tie_plays_another_hand_then_highest_wins():
    # §10: totals 480 and 495; the hand scores +30 and +15: 510 and 510 — tied
    g = position(
        ["3D", "9H"],
        pile="2C",
        totals=[480, 495],
        phase="play",
        melds=[("10H JH QH", 0), ("7S 8S 9S", 1)],
    )
    events = g.apply({"type": "discard", "card": "3D"})
    assert g.results[-1]["scores"] == [30, 24 - 9]
    assert g.totals == [510, 510]
    assert events[-1] == {"type": "tie", "seats": [0, 1], "total": 510}
    assert g.phase is Phase.HAND_OVER and g.winner is None
    g.apply({"type": "deal"})
    assert g.phase is Phase.DRAW and g.hand_number == 2
    # after it, 512 vs 540: the second player wins
    g = position(
        ["4C", "4D"],
        pile="KC",
        base=g,
        turn=1,
        phase="play",
        melds=[("2S 2H 2D", 0), ("10S JS QS", 1)],
    )
    events = g.apply({"type": "discard", "card": "4D"})
    assert g.results[-1]["scores"] == [6 - 4, 30]
    assert g.totals == [512, 540]
    assert g.phase is Phase.GAME_OVER and g.winner == 1
    assert events[-1] == {"type": "game_over", "winner": 1, "totals": [512, 540]}


def test_rule_8_match_over_accepts_nothing():
    g = position(
        ["3D", "9H"],
        pile="2C",
        totals=[482, 525],
        phase="play",
        melds=[("10H JH QH", 0), ("7S 8S 9S", 1)],
    )
    g.apply({"type": "discard", "card": "3D"})
    assert g.winner == 1 and g.legal_actions() == [] and g.to_move is None
    with pytest.raises(IllegalMove, match="over"):
        g.apply({"type": "deal"})


def test_rule_8_target_option():
    g = position(
        ["3D", "9H"],
        pile="2C",
        totals=[180, 0],
        melds=[("10H JH QH", 0)],
        phase="play",
        options=Options(target=200),
    )
    g.apply({"type": "discard", "card": "3D"})
    assert g.winner == 0 and g.totals[0] == 210
