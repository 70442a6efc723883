"""Table options carry their own metadata (rum500.rules.options.OPTION_SPECS), and RULES.md
§12.5 "ten cards at two players" is one of them: ``ten_cards``."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from rum500.rules import Game, Options, hand_size
from rum500.rules.options import GROUP_TITLES, OPTION_NAMES, OPTION_SPECS, spec

TEN = Options(ten_cards=True)


def play_randomly(game: Game, seed: int, actions: int) -> None:
    rng = random.Random(seed)
    while game.to_move is not None and len(game.actions) < actions:
        game.apply(rng.choice(game.legal_actions()), game.to_move)


# ------------------------------------------------------------------ the metadata


def test_every_field_has_its_metadata_in_field_order() -> None:
    assert tuple(f.name for f in fields(Options)) == OPTION_NAMES
    assert tuple(Options().to_dict()) == OPTION_NAMES
    for s in OPTION_SPECS:
        assert s.default == getattr(Options(), s.name)
        assert s.kind in ("bool", "int", "choice") and s.label and s.help
        assert s.group in GROUP_TITLES and s.section.startswith(s.group)
        assert s.flag == "--" + s.name.replace("_", "-")
        assert spec(s.name) is s


@pytest.mark.parametrize("s", OPTION_SPECS, ids=lambda s: s.name)
def test_each_kind_describes_its_values(s) -> None:
    if s.kind == "int":
        assert s.low <= s.default <= s.high and s.noun
    else:  # a choice or a flag: every value the form offers has its label, the default too
        values = [v for v, _label in s.choices]
        assert s.default in values and len(set(map(repr, values))) == len(values)
        assert all(label for _v, label in s.choices)
    if s.kind == "bool":
        assert [v for v, _label in s.choices] == [False, True]


def test_the_house_rules_and_family_variants_explain_themselves_on_the_help_screen() -> None:
    for s in OPTION_SPECS:
        assert bool(s.explain) == (s.group != "§9"), s.name


def test_an_option_that_needs_another_is_refused_without_it() -> None:
    needing = [s for s in OPTION_SPECS if s.needs]
    assert [s.name for s in needing] == ["joker_as_card"]  # §12.4: only with jokers on
    for s in needing:
        assert spec(s.needs).kind == "bool"
        with pytest.raises(ValueError, match=f"{s.name} is only played with {s.needs} on"):
            Options(**{s.name: True}).validate(4)
        Options(**{s.name: True, s.needs: True}).validate(4)


def test_the_seed_game_is_every_default() -> None:
    assert Options().changed() == {}
    assert Options(ten_cards=True).changed() == {"ten_cards": True}


# ------------------------------------------------------------------ RULES.md §12.5


def test_ten_cards_at_two_players_leaves_31_in_the_stock() -> None:
    """RULES.md §12.7: (Ten cards, two players) 10 each; the stock holds 31."""
    g = Game(2, seed=3, options=TEN)
    assert [len(h) for h in g.hands] == [10, 10]
    assert len(g.pile) == 1 and len(g.stock) == 52 - 20 - 1 == 31
    assert g.view(0)["stock"] == 31 and g.view(0)["hand_sizes"] == [10, 10]


def test_without_it_two_players_hold_13() -> None:
    g = Game(2, seed=3)
    assert [len(h) for h in g.hands] == [13, 13] and len(g.stock) == 25


@pytest.mark.parametrize("players", [3, 4, 8])
def test_with_more_players_it_changes_nothing(players: int) -> None:
    """§12.5 is about two players; at three or more the deal is §3's seven each."""
    TEN.validate(players)
    on, off = Game(players, seed=5, options=TEN), Game(players, seed=5)
    assert on.hands == off.hands and on.stock == off.stock
    assert TEN.hand_size(players) == hand_size(players) == 7


def test_with_jokers_the_stock_holds_the_jokers_too() -> None:
    g = Game(2, seed=1, options=Options(ten_cards=True, jokers=True))
    assert [len(h) for h in g.hands] == [10, 10] and len(g.stock) == 54 - 21


def test_every_hand_of_the_match_is_dealt_ten() -> None:
    g = Game(2, seed=11, options=Options(ten_cards=True, target=300))
    rng = random.Random(11)
    deals = 0
    while g.to_move is not None:
        before = g.hand_number
        g.apply(rng.choice(g.legal_actions()), g.to_move)
        if g.hand_number != before:  # a new hand was dealt
            assert [len(h) for h in g.hands] == [10, 10] and len(g.stock) == 31
            deals += 1
    assert deals >= 1 and deals == g.hand_number - 1


def test_it_must_be_true_or_false() -> None:
    with pytest.raises(ValueError, match="ten_cards must be true or false"):
        Options(ten_cards=1).validate(2)  # type: ignore[arg-type]


def test_the_stored_game_round_trips_and_replays_exactly() -> None:
    g = Game(2, seed=8, options=TEN)
    play_randomly(g, 8, 80)
    d = g.to_dict()
    assert d["options"]["ten_cards"] is True
    back = Game.from_dict(d)
    assert back.to_dict() == d and back.hand_size == 10
    assert Options.from_dict(TEN.to_dict()) == TEN
    again = Game(2, seed=8, options=Options.from_dict(d["options"]))
    for action in g.actions:
        again.apply(dict(action))
    assert again.to_dict() == d


def test_take_back_and_copy_keep_the_hand_size() -> None:
    g = Game(2, seed=4, options=TEN)
    play_randomly(g, 4, 30)
    c = g.copy()
    assert c.hand_size == 10 and c.to_dict() == g.to_dict()
    while g.actions:
        g.pop()
    assert g.to_dict() == Game(2, seed=4, options=TEN).to_dict()


def test_an_older_log_without_it_reads_as_off() -> None:
    d = Options().to_dict()
    del d["ten_cards"]
    assert Options.from_dict(d) == Options()
