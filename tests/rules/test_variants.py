"""RULES.md §12: the family variants, each a table option, and the §12.7 worked positions by
name."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options
from tests.rules.positions import position

# ---------------------------------------------------------------- §12.3 five-point pips

PIPS = Options(five_point_pips=True, decks=2)


def test_rule_12_7_five_point_pips_low_run_15_high_run_35_seven_in_hand_costs_5() -> None:
    """(Five-point pips) 3♠ 2♠ A♠ on the table scores 15; Q♠ K♠ A♠ scores 35; 7♥ in hand
    costs 5 — and the seed game's 6, 35 and 7 without the option."""
    for opts, low, left in [(PIPS, 5 + 5 + 5, 5), (Options(decks=2), 1 + 2 + 3, 7)]:
        g = position(["3S 2S AS 9C", "7H"], melds=[("QS KS AS", 1)], phase="play", options=opts)
        g.apply({"type": "meld", "cards": ["3S", "2S", "AS"]})
        assert g.table_points() == [low, 10 + 10 + 15]
        g.apply({"type": "discard", "card": "9C"})  # seat 0 is out
        r = g.results[-1]
        assert r["table_points"] == [low, 35]
        assert r["hand_points"] == [0, left]
        assert r["scores"] == [low, 35 - left]


def test_rule_12_3_pips_in_hand_and_with_ace_always_15() -> None:
    """2 … 9 cost 5 each in hand, 10 … K 10, an ace 15; with §11.4 a low ace scores 15."""
    opts = replace(PIPS, ace_always_15=True)
    g = position(["AS 2S 3S 9C", "2H 9D 10C KD AH"], phase="play", options=opts)
    g.apply({"type": "meld", "cards": ["AS", "2S", "3S"]})
    assert g.table_points()[0] == 15 + 5 + 5
    g.apply({"type": "discard", "card": "9C"})
    assert g.results[-1]["hand_points"] == [0, 5 + 5 + 10 + 10 + 15]


# ---------------------------------------------------------- §12.4 a joker worth its card

AS_CARD = Options(jokers=True, joker_as_card=True)


def test_rule_12_7_joker_as_its_card_7_8_joker_as_9_scores_24_joker_in_hand_15() -> None:
    """(Joker as its card) 7♥ 8♥ JK, the joker named 9♥: scores 7 + 8 + 9 = 24; a joker in hand
    costs 15 — 30 with jokers worth 15, and 5 + 5 + 5 with five-point pips too."""
    for opts, scored in [
        (AS_CARD, 7 + 8 + 9),
        (Options(jokers=True), 7 + 8 + 15),
        (replace(AS_CARD, five_point_pips=True), 5 + 5 + 5),
    ]:
        g = position(["7H 8H JK 2C", "JK 4D"], phase="play", options=opts)
        g.apply({"type": "meld", "cards": ["7H", "8H", "JK"], "jokers": ["9H"]})
        assert g.table_points()[0] == scored
        g.apply({"type": "discard", "card": "2C"})
        r = g.results[-1]
        assert r["table_points"][0] == scored
        assert r["hand_points"][1] == 15 + (5 if opts.five_point_pips else 4)


def test_rule_12_4_a_joker_standing_for_a_low_ace_scores_1_or_5_with_pips() -> None:
    for opts, scored in [
        (AS_CARD, 1 + 2 + 3),
        (replace(AS_CARD, five_point_pips=True), 5 + 5 + 5),
        (replace(AS_CARD, ace_always_15=True), 15 + 2 + 3),
        (Options(jokers=True), 15 + 2 + 3),
    ]:
        g = position(["JK 2H 3H 9C", "4D 5D"], phase="play", options=opts)
        g.apply({"type": "meld", "cards": ["JK", "2H", "3H"], "jokers": ["AH"]})
        assert g.melds[0].to_dict()["stands_for"] == ["AH", None, None]
        assert g.table_points()[0] == scored, opts


def test_rule_12_4_a_joker_laid_off_scores_its_card_for_the_seat_that_laid_it() -> None:
    g = position(["JK 9C 4S", "5D 6D"], melds=[("10S JS QS", 1)], phase="play", options=AS_CARD)
    g.apply({"type": "layoff", "card": "JK", "meld": 0, "joker": "9S"})
    assert g.table_points() == [9, 30]
    g.apply({"type": "discard", "card": "4S"})
    g.apply({"type": "draw", "source": "stock"})
    assert g.table_points() == [9, 30]  # the joker keeps its name and its score


def test_rule_12_4_only_with_jokers_on() -> None:
    with pytest.raises(ValueError, match="joker_as_card is only played with jokers on"):
        Options(joker_as_card=True).validate(2)
    with pytest.raises(ValueError, match="only played with jokers on"):
        Game(2, 1, Options(joker_as_card=True))
    Options(jokers=True, joker_as_card=True).validate(2)


def test_scoring_variants_round_trip_replay_take_back_and_copy() -> None:
    """to_dict/from_dict, replay, take-back and copy keep the options and the scores."""
    opts = Options(jokers=True, joker_as_card=True, five_point_pips=True, target=10**6)
    g = Game(3, 5, opts)
    rng = random.Random(5)
    while len(g.results) < 2 or not g.melds:
        g.apply(rng.choice(g.legal_actions()))
    back = Game.from_dict(g.to_dict())
    assert back.options == opts and back.results == g.results
    assert back.table_points() == g.table_points()
    again = Game.replay(3, 5, g.actions, opts)
    assert again.results == g.results and again.table_points() == g.table_points()
    copy = g.copy()
    last = copy.pop()
    assert copy.to_dict() == Game.replay(3, 5, g.actions[:-1], opts).to_dict()
    copy.apply(last)
    assert copy.to_dict() == g.to_dict()


# ---------------------------------------------------------------- §12.6 runs of four

FOUR = Options(runs_of_four=True)


def _meld(g: Game, cards: str, jokers: list[str] | None = None) -> dict:
    action: dict = {"type": "meld", "cards": cards.split()}
    if jokers:
        action["jokers"] = jokers
    return action


def _listed_melds(g: Game) -> list[list[str]]:
    return [a["cards"] for a in g.legal_actions() if a["type"] == "meld"]


def test_rule_12_7_runs_of_four_5_6_7_refused_5_6_7_8_a_run_then_9_lays_off() -> None:
    """(Runs of four) 5♥ 6♥ 7♥ is refused as a meld; 5♥ 6♥ 7♥ 8♥ is a run; 9♥ then lays off
    on it — and without the option 5♥ 6♥ 7♥ is a run."""
    hands = ["5H 6H 7H 8H 9H 2C", "4D 5D"]
    g = position(hands, phase="play", options=FOUR)
    assert ["5H", "6H", "7H"] not in _listed_melds(g)
    assert ["5H", "6H", "7H", "8H"] in _listed_melds(g)
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="a run needs at least 4 cards"):
        g.apply(_meld(g, "5H 6H 7H"))
    assert g.to_dict() == before  # refused with nothing changed
    g.apply(_meld(g, "5H 6H 7H 8H"))
    assert {"type": "layoff", "card": "9H", "meld": 0} in g.legal_actions()
    g.apply({"type": "layoff", "card": "9H", "meld": 0})
    assert [C.name(c) for c in g.melds[0].cards] == ["5H", "6H", "7H", "8H", "9H"]
    seed = position(hands, phase="play")
    assert ["5H", "6H", "7H"] in _listed_melds(seed)
    seed.apply(_meld(seed, "5H 6H 7H"))


def test_rule_12_6_sets_are_still_three_or_four_and_short_runs_grow_by_lay_offs() -> None:
    """Sets of 3 stay melds; a run of four on the table grows at either end."""
    g = position(
        ["5S 5H 5D 9C 4C 2D", "4D"], melds=[("5C 6C 7C 8C", 1)], phase="play", options=FOUR
    )
    assert ["5S", "5H", "5D"] in _listed_melds(g)  # (sets in suit order)
    g.apply(_meld(g, "5S 5H 5D"))
    assert g.melds[-1].kind == "set"
    g.apply({"type": "layoff", "card": "9C", "meld": 0})
    g.apply({"type": "layoff", "card": "4C", "meld": 0})
    assert len(g.melds[0].cards) == 6


def test_rule_12_6_with_jokers_two_naturals_and_never_more_jokers_than_naturals() -> None:
    """With jokers a run needs 4 cards too: 7♥ 8♥ JK is refused (no joker to name first);
    7♥ 8♥ JK JK is a run of four (two of each); 7♥ JK JK is refused (one natural)."""
    opts = Options(runs_of_four=True, jokers=True)
    g = position(["7H 8H JK JK 2C", "4D"], phase="play", options=opts)
    listed = [a for a in g.legal_actions() if a["type"] == "meld"]
    assert all(len(a["cards"]) >= 4 for a in listed)
    assert any(a["cards"] == ["7H", "8H", "JK", "JK"] for a in listed)
    with pytest.raises(IllegalMove, match="a run needs at least 4 cards"):
        g.apply(_meld(g, "7H 8H JK"))
    with pytest.raises(IllegalMove, match="a run needs at least 4 cards"):
        g.apply(_meld(g, "7H 8H JK", ["9H"]))
    with pytest.raises(IllegalMove, match="at least two natural cards"):
        g.apply(_meld(g, "7H JK JK", ["8H", "9H"]))
    g.apply(_meld(g, "7H 8H JK JK", ["9H", "10H"]))
    assert g.melds[0].kind == "run" and len(g.melds[0].cards) == 4


def test_rule_12_6_a_card_is_dug_only_when_a_run_of_four_or_a_lay_off_can_take_it() -> None:
    """Hand 6♦ 7♦ 2♣: 8♦ would make only a run of three, so it may not be taken; with 9♦
    in hand too (6♦ 7♦ 8♦ 9♦) it may; so may it be to lay off on a run on the table."""
    take = {"type": "draw", "source": "discard", "index": 1}
    g = position(["6D 7D 2C", "4S"], pile="KC 8D", options=FOUR)
    assert take not in g.legal_actions()
    with pytest.raises(IllegalMove, match="may not take 8♦|may not take 8D"):
        g.apply(take)
    assert take in position(["6D 7D 2C", "4S"], pile="KC 8D").legal_actions()  # seed game
    assert take in position(["6D 7D 9D 2C", "4S"], pile="KC 8D", options=FOUR).legal_actions()
    table = position(["2C 3S", "4S"], pile="KC 8D", melds=[("4D 5D 6D 7D", 1)], options=FOUR)
    assert take in table.legal_actions()


def test_rule_12_6_a_play_that_leaves_only_a_run_of_three_for_the_dug_card_is_refused() -> None:
    """8♦ dug with 5♦ 6♦ 7♦ in hand (and 5♠ 5♥): melding 5♠ 5♥ 5♦ would leave 6♦ 7♦ 8♦, a
    run of three — refused with runs of four, allowed in the seed game."""
    hands = ["5D 6D 7D 5S 5H 2C", "4S"]
    take = {"type": "draw", "source": "discard", "index": 1}
    for opts, allowed in [(FOUR, False), (Options(), True)]:
        g = position(hands, pile="KC 8D", options=opts)
        g.apply(take)
        assert (["5S", "5H", "5D"] in _listed_melds(g)) is allowed
        if not allowed:
            with pytest.raises(IllegalMove, match="no way to play it"):
                g.apply(_meld(g, "5S 5H 5D"))
        g.apply(_meld(g, "5D 6D 7D 8D") if not allowed else _meld(g, "6D 7D 8D"))


@pytest.mark.parametrize(
    "opts",
    [
        Options(runs_of_four=True, jokers=True, target=10**6),
        Options(dug_card_new_meld=True, top_card_free=True, runs_of_four=True, target=10**6),
    ],
)
def test_runs_of_four_and_dug_card_round_trip_replay_take_back_and_copy(opts: Options) -> None:
    g = Game(3, 6, opts)
    rng = random.Random(6)
    while len(g.results) < 2 or not g.melds:
        g.apply(rng.choice(g.legal_actions()))
    assert all(len(m.cards) >= 4 for m in g.melds if m.kind == "run") or not opts.runs_of_four
    back = Game.from_dict(g.to_dict())
    assert back.options == opts and back.to_dict() == g.to_dict()
    assert Game.replay(3, 6, g.actions, opts).to_dict() == g.to_dict()
    copy = g.copy()
    last = copy.pop()
    assert copy.to_dict() == Game.replay(3, 6, g.actions[:-1], opts).to_dict()
    copy.apply(last)
    assert copy.to_dict() == g.to_dict()


# ------------------------------------------------- §12.2 the card dug for into a new meld

NEW_MELD = Options(dug_card_new_meld=True)
DIG_8D = {"type": "draw", "source": "discard", "index": 1}


def test_rule_12_7_dug_card_new_meld_8d_melded_with_9d_10d_not_laid_off() -> None:
    """(Dug card into a new meld, without "top card free") Table 5♦ 6♦ 7♦; a player holding
    9♦ 10♦ 2♣ may take 8♦ from the pile and meld 8♦ 9♦ 10♦; holding only 2♣ 3♣ they may not
    take 8♦ to lay it off — which the seed game allows."""
    table = [("5D 6D 7D", 1)]
    g = position(["9D 10D 2C", "4S"], pile="KC 8D", melds=table, options=NEW_MELD)
    assert DIG_8D in g.legal_actions()
    g.apply(DIG_8D)
    assert {"type": "layoff", "card": "8D", "meld": 0} not in g.legal_actions()
    assert ["8D", "9D", "10D"] in _listed_melds(g)
    g.apply(_meld(g, "8D 9D 10D"))
    assert g.must_play is None
    g = position(["2C 3C", "4S"], pile="KC 8D", melds=table, options=NEW_MELD)
    assert DIG_8D not in g.legal_actions()
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="no meld or lay-off could take it"):
        g.apply(DIG_8D)
    assert g.to_dict() == before
    seed = position(["2C 3C", "4S"], pile="KC 8D", melds=table)
    assert DIG_8D in seed.legal_actions()


def test_rule_12_2_a_lay_off_of_the_dug_card_is_refused_even_on_a_meld_of_this_turn() -> None:
    """8♦ dug with 9♦ 10♦ J♦ in hand, 5♦ 6♦ 7♦ on the table: laying 8♦ off there is refused;
    so is 9♦ 10♦ J♦ then 8♦ laid off on it (the turn's own meld) — the meld is refused, as it
    would leave no new meld for 8♦. Other plays may come first: 3♠ 3♥ 3♣, then 8♦ 9♦ 10♦."""
    g = position(
        ["9D 10D JD 3S 3H 3C 2C", "4S"], pile="KC 8D", melds=[("5D 6D 7D", 1)], options=NEW_MELD
    )
    g.apply(DIG_8D)
    legal = g.legal_actions()
    assert {"type": "layoff", "card": "8D", "meld": 0} not in legal
    assert ["9D", "10D", "JD"] not in _listed_melds(g)
    for action in [
        {"type": "layoff", "card": "8D", "meld": 0},
        _meld(g, "9D 10D JD"),
        {"type": "discard", "card": "2C"},
    ]:
        before = g.to_dict()
        with pytest.raises(IllegalMove):
            g.apply(action)
        assert g.to_dict() == before
    g.apply(_meld(g, "3S 3H 3C"))
    g.apply(_meld(g, "8D 9D 10D"))
    assert {"type": "layoff", "card": "JD", "meld": 2} in g.legal_actions()
    g.apply({"type": "discard", "card": "2C"})


def test_rule_12_2_top_card_free_the_free_card_may_still_be_laid_off() -> None:
    """With "top card free" the free top card is no card dug for: it may be laid off (8♦ on
    5♦ 6♦ 7♦); a card dug from deeper must still go into a new meld."""
    opts = Options(dug_card_new_meld=True, top_card_free=True)
    g = position(["2C 3C", "4S"], pile="KC 8D", melds=[("5D 6D 7D", 1)], options=opts)
    g.apply(DIG_8D)
    assert g.must_play is None
    g.apply({"type": "layoff", "card": "8D", "meld": 0})
    g = position(["2C 3C", "4S"], pile="8D KC", melds=[("5D 6D 7D", 1)], options=opts)
    assert {"type": "draw", "source": "discard", "index": 0} not in g.legal_actions()


def test_rule_12_2_with_jokers_and_two_decks_a_copy_laid_off_keeps_the_obligation() -> None:
    """Two decks: 8♦ dug while holding another 8♦, 8♠ 8♥: laying one 8♦ off on 5♦ 6♦ 7♦
    leaves the card dug for still to be melded (8♠ 8♥ 8♦); and a joker may fill the new meld."""
    opts = Options(dug_card_new_meld=True, decks=2)
    g = position(
        ["8D 8S 8H 2C", "4S"], pile="KC 8D", melds=[("5D 6D 7D", 1)], options=opts, players=2
    )
    g.apply(DIG_8D)
    g.apply({"type": "layoff", "card": "8D", "meld": 0})
    assert g.must_play is not None
    assert {"type": "discard", "card": "2C"} not in g.legal_actions()
    g.apply(_meld(g, "8S 8H 8D"))
    assert g.must_play is None
    wild = Options(dug_card_new_meld=True, jokers=True)
    g = position(["9D JK 2C", "4S"], pile="KC 8D", melds=[("5D 6D 7D", 1)], options=wild)
    g.apply(DIG_8D)
    assert {"type": "layoff", "card": "8D", "meld": 0} not in g.legal_actions()
    g.apply(_meld(g, "8D 9D JK", ["10D"]))


# ------------------------------------------------- §12.1 a first meld of at least N points

FIRST_30 = Options(first_meld=30)
FROM_STOCK = {"type": "draw", "source": "stock"}


def _drawn(hands: list[str], options: Options, **kw) -> Game:
    """Seat 0 to draw in ``position(hands, **kw)``, having drawn QH from the stock (a turn
    that began unopened)."""
    g = position(hands, options=options, stock="QH", **kw)
    g.apply(FROM_STOCK)
    assert g.opening == (0 if options.first_meld else None)
    return g


def _refused(g: Game, action: dict, match: str) -> None:
    before = g.to_dict()
    with pytest.raises(IllegalMove, match=match):
        g.apply(action)
    assert g.to_dict() == before


def test_rule_12_7_first_meld_30_both_melds_open_one_alone_may_not_meld_nor_lay_off() -> None:
    """(First meld 30, one deck) 5♠ 5♥ 5♦ and 7♣ 8♣ 9♣ open in one turn (15 + 24 = 39); with
    only 5♠ 5♥ 5♦ (15) the player may not meld at all, and may not lay 6♦ off on a meld already
    on the table — which the seed game allows."""
    g = _drawn(["5S 5H 5D 7C 8C 9C 2D", "4S"], FIRST_30)
    g.apply(_meld(g, "5S 5H 5D"))
    assert g.opening == 15 and g.opened == [False, False]
    g.apply(_meld(g, "7C 8C 9C"))
    assert g.opening == 39 and g.opened == [True, False]
    assert g.view(1)["opened"] == [True, False]  # public: every seat sees it
    g.apply({"type": "discard", "card": "2D"})
    table = [("7D 8D 9D", 1)]
    g = _drawn(["5S 5H 5D 6D 2C", "4S"], FIRST_30, melds=table)
    assert _listed_melds(g) == []
    assert {"type": "layoff", "card": "6D", "meld": 0} not in g.legal_actions()
    _refused(g, _meld(g, "5S 5H 5D"), "could not make up the rest")
    _refused(g, {"type": "layoff", "card": "6D", "meld": 0}, "you have not opened yet")
    seed = _drawn(["5S 5H 5D 6D 2C", "4S"], Options(), melds=table)
    assert ["5S", "5H", "5D"] in _listed_melds(seed)
    assert {"type": "layoff", "card": "6D", "meld": 0} in seed.legal_actions()


def test_rule_12_7_first_meld_30_a_discard_between_the_two_melds_is_refused() -> None:
    """(First meld 30) Not opened, 5♠ 5♥ 5♦ melded first: 7♣ 8♣ 9♣ must follow before the
    discard; a discard in between is refused (and not listed)."""
    g = _drawn(["5S 5H 5D 7C 8C 9C 2D", "4S"], FIRST_30)
    g.apply(_meld(g, "5S 5H 5D"))
    assert not [a for a in g.legal_actions() if a["type"] == "discard"]
    _refused(g, {"type": "discard", "card": "2D"}, "reach 30 to open before you discard")
    g.apply(_meld(g, "7C 8C 9C"))
    assert {"type": "discard", "card": "2D"} in g.legal_actions()


def test_rule_12_7_first_meld_50_kc_taken_only_with_melds_of_50_and_goes_out() -> None:
    """(First meld 50) Pile 9♥ K♣, K♣ on top. Holding K♠ K♦ 2♣ the take of K♣ is refused (30,
    short of 50); holding K♠ K♦ 7♣ 8♣ 9♣ it is allowed, K♠ K♦ K♣ and 7♣ 8♣ 9♣ open (54) and the
    player goes out; with "must discard" that take is refused (nothing left to discard)."""
    opts = Options(first_meld=50)
    take = {"type": "draw", "source": "discard", "index": 1}
    g = position(["KS KD 2C", "4S"], pile="9H KC", options=opts)
    assert take not in g.legal_actions()
    _refused(g, take, "you have not opened")
    g = position(["KS KD 7C 8C 9C", "4S"], pile="9H KC", options=opts)
    assert take in g.legal_actions()
    g.apply(take)
    g.apply(_meld(g, "KS KD KC"))
    assert {"type": "discard", "card": "7C"} not in g.legal_actions()
    g.apply(_meld(g, "7C 8C 9C"))
    assert g.results[-1]["went_out"] == 0 and g.opened == [True, False]
    g = position(["KS KD 7C 8C 9C", "4S"], pile="9H KC", options=replace(opts, must_discard=True))
    assert take not in g.legal_actions()
    _refused(g, take, "you have not opened")


def test_rule_12_1_a_play_that_leaves_no_way_to_reach_n_is_refused_the_turn_never_sticks() -> None:
    """First meld 50 with 5♠ 5♥ 5♦ and 7♣ 8♣ 9♣ (39 at most): neither meld is offered nor
    accepted — the turn could not end. The stock draw and a discard are the turn."""
    g = _drawn(["5S 5H 5D 7C 8C 9C 2D", "4S"], Options(first_meld=50))
    assert _listed_melds(g) == []
    _refused(g, _meld(g, "5S 5H 5D"), "15 of the 50 points")
    _refused(g, _meld(g, "7C 8C 9C"), "24 of the 50 points")
    assert {"type": "discard", "card": "2D"} in g.legal_actions()


def test_rule_12_1_lay_offs_once_the_turns_melds_reach_n_and_the_dug_card_into_a_new_meld() -> None:
    """Taken before opening, 8♦ must go into a new meld: K♠ K♥ K♦ opens (30), yet 8♦ may not
    be laid off on 5♦ 6♦ 7♦; 8♦ 9♦ 10♦ takes it, and then J♦ may be laid off."""
    take = {"type": "draw", "source": "discard", "index": 1}
    g = position(
        ["KS KH KD 9D 10D JD 2C", "4S"], pile="3H 8D", melds=[("5D 6D 7D", 1)], options=FIRST_30
    )
    assert take in g.legal_actions()
    g.apply(take)
    assert {"type": "layoff", "card": "8D", "meld": 0} not in g.legal_actions()
    _refused(g, {"type": "layoff", "card": "8D", "meld": 0}, "you have not opened yet")
    g.apply(_meld(g, "KS KH KD"))
    assert g.opened[0]
    _refused(g, {"type": "layoff", "card": "8D", "meld": 0}, "laying it off does not count")
    g.apply(_meld(g, "8D 9D 10D"))
    assert {"type": "layoff", "card": "JD", "meld": 2} in g.legal_actions()
    g.apply({"type": "layoff", "card": "JD", "meld": 2})
    g.apply({"type": "discard", "card": "2C"})
    assert g.opened == [True, False] and g.opening is None


def test_rule_12_1_top_card_free_taken_without_opening_a_deeper_card_must_open() -> None:
    """With "top card free" the free top card may be taken without opening; a card dug from
    deeper may not (no melds of 30 with it)."""
    opts = Options(first_meld=30, top_card_free=True)
    g = position(["2C 3C", "4S"], pile="KC 8D", options=opts)
    legal = g.legal_actions()
    assert {"type": "draw", "source": "discard", "index": 1} in legal
    assert {"type": "draw", "source": "discard", "index": 0} not in legal


def test_rule_12_1_rummy_refused_before_opening_and_each_partner_opens_for_themselves() -> None:
    """A "Rummy!" call by a seat not opened is refused (and none is offered); once opened it is
    allowed. With partnerships a partner's opening does not open the other."""
    opts = Options(first_meld=30, rummy_calls=True)
    g = position(
        ["2C 3C", "4S 10D JS"], melds=[("7D 8D 9D", 1)], turn=1, phase="play", options=opts
    )
    g.apply({"type": "discard", "card": "10D"})
    assert g.claims(0) == []
    _refused(g, {"type": "rummy", "seat": 0, "meld": 0}, "before you have opened")
    d = g.to_dict()
    d["opened"] = [True, False]
    g = Game.from_dict(d)
    assert g.claims(0) == [{"type": "rummy", "seat": 0, "meld": 0}]
    g.apply({"type": "rummy", "seat": 0, "meld": 0})
    teams = Options(first_meld=30, teams=2)
    g = _drawn(["6D 2C", "4S", "5S", "5H"], teams, melds=[("7D 8D 9D", 2)])
    d = g.to_dict()
    d["opened"] = [False, False, True, False]  # seat 2, seat 0's partner, has opened
    g = Game.from_dict(d)
    _refused(g, {"type": "layoff", "card": "6D", "meld": 0}, "you have not opened yet")


def test_rule_12_1_round_trips_copy_pop_replay_and_a_new_hand_starts_unopened() -> None:
    """Mid-opening (15 of 30 melded) the position survives to_dict/from_dict, copy, pop and
    replay exactly; a new hand starts with nobody opened."""
    g = Game(2, 5, FIRST_30)
    rng = random.Random(5)
    seen = 0
    while g.hand_number < 4 and g.winner is None:
        if g.opening:
            seen += 1
            again = Game.from_dict(g.to_dict())
            assert again.to_dict() == g.to_dict() and again.legal_actions() == g.legal_actions()
            assert g.copy().to_dict() == g.to_dict()
            before = g.to_dict()
            g.apply(g.legal_actions()[0])
            g.pop()
            assert g.to_dict() == before
        if g.phase.value == "hand_over":
            g.apply({"type": "deal"})
            assert g.opened == [False, False] and g.opening is None
            continue
        g.apply(rng.choice(g.legal_actions()))
    assert g.to_dict() == Game.replay(2, 5, g.actions, FIRST_30).to_dict()
    assert any(r["went_out"] is not None for r in g.results)


@pytest.mark.parametrize("seed", range(24))
def test_rule_12_1_every_listed_action_is_accepted_and_every_accepted_one_listed(seed) -> None:
    """Along seeded games with a first meld (30 or 50) and the options it meets — jokers, two
    decks, "must discard", top card free, §12.2, §12.3, §12.6 — the listing (the fast path's
    door) is exactly what ``apply`` accepts (the checked door), and so are the calls."""
    from tests.rules.test_legal_reference import _key, accepted

    opts = Options(
        target=10**6,
        first_meld=(30, 50)[seed % 2],
        decks=2 if seed % 3 == 0 else None,
        top_card_free=seed % 4 == 1,
        must_discard=seed % 5 == 2,
        jokers=seed % 3 == 1,
        runs_of_four=seed % 7 == 3,
        dug_card_new_meld=seed % 6 == 4,
        five_point_pips=seed % 4 == 3,
        rummy_calls=seed % 5 == 0,
    )
    g = Game(2 + seed % 3, seed, opts)
    rng = random.Random(seed)
    for _ in range(300):
        if g.phase.value == "game_over":
            break
        if g.phase.value in ("draw", "play"):
            listed = sorted(_key(a) for a in g.legal_actions())
            assert listed == sorted({_key(a) for a in accepted(g)})
        if g.phase.value == "claim":
            for s in range(g.players):
                for call in g.claims(s):
                    g.copy().apply(call)
        g.apply_move(rng.choice(g.legal_moves()), undo=False)


def test_rule_12_1_first_meld_is_0_or_1_to_200_and_offered_as_30_or_50() -> None:
    """The option: 0 (off) or 1 … 200 points; the lobby steps through off, 30 and 50; any
    other value is refused with a clear sentence."""
    from rum500.rules.options import spec

    for n in (0, 1, 30, 50, 200):
        Options(first_meld=n).validate(2)
    for bad in (-1, 201, True, 30.0, "30"):
        with pytest.raises(ValueError, match="first_meld must be 0 .off. or a number of points"):
            Options(first_meld=bad).validate(2)  # type: ignore[arg-type]
    s = spec("first_meld")
    assert [v for v, _ in s.choices] == [0, 30, 50] and (s.low, s.high) == (1, 200)
    assert "opened" not in Game(2, 1).view(0)
    assert Game(2, 1, FIRST_30).view(0)["opened"] == [False, False]


def _open_by_brute_force(hand, need, options, min_run, must, nd) -> bool:
    """can_open by trying every set of the hand's melds (small hands only)."""
    from collections import Counter

    from rum500.rules.opening import _hand_melds

    melds = _hand_melds(hand, min_run, options)
    counts = Counter(hand)

    def ends() -> bool:
        left = list((+counts).elements())
        if not left:
            return not options.must_discard
        return nd is None or any(c != nd for c in left)

    def go(i: int, got: int, placed: bool) -> bool:
        if got >= need and placed and ends():
            return True
        for j in range(i, len(melds)):
            cards, points = melds[j]
            if all(counts[c] >= k for c, k in Counter(cards).items()):
                counts.subtract(cards)
                ok = go(j + 1, got + points, placed or must in cards)
                counts.update(cards)
                if ok:
                    return True
        return False

    return go(0, 0, must is None or must not in hand)


def test_rule_12_1_can_open_agrees_with_trying_every_set_of_melds() -> None:
    """The opening check (a remembered search cut by the points the cards could score) says
    what trying every set of melds says, on dense random hands under the scoring options."""
    from rum500.rules.opening import can_open

    yes = 0
    for opts in [
        Options(first_meld=30),
        Options(first_meld=30, jokers=True, decks=2, must_discard=True),
        Options(first_meld=30, five_point_pips=True, runs_of_four=True),
        Options(first_meld=30, jokers=True, joker_as_card=True, five_point_pips=True),
    ]:
        deck = C.deck(opts.deck_count(2), opts.jokers)
        pool = [c for c in deck if c == C.JOKER or C.rank(c) in (0, 1, 2, 3, 4, 9, 10, 11, 12)]
        min_run = 4 if opts.runs_of_four else 3
        for seed in range(120):
            rng = random.Random(seed)
            hand = rng.sample(pool, rng.randint(3, 11))
            for need in (10, 30, 50, 80):
                must, nd = rng.choice([*hand, None]), rng.choice([*hand, None, None])
                got = can_open(hand, need, opts, min_run, must, nd)
                assert got == _open_by_brute_force(hand, need, opts, min_run, must, nd)
                yes += got
    assert yes > 50
