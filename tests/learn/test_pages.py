"""The house rules' lessons: a page for each rule on, in order; the standard game's page
when none is."""

from __future__ import annotations

from rum500.learn.pages import PAGES, pages
from rum500.rules import Options


def test_a_page_per_rule_on() -> None:
    o = Options(jokers=True, rummy_calls=True, teams=2, target=300).to_dict()
    titles = [p.splitlines()[0] for p in pages(o)]
    assert titles == ["JOKERS", "RUMMY! CALLS", "PARTNERSHIPS", "TARGET 300"]
    assert "2 teams" in pages(o)[2]


def test_the_standard_game_has_its_own_page() -> None:
    assert [p.splitlines()[0] for p in pages(Options().to_dict())] == ["THE STANDARD GAME"]
    assert [p.splitlines()[0] for p in pages(None)] == ["THE STANDARD GAME"]


def test_every_option_that_changes_play_has_a_page() -> None:
    every = {
        "jokers": True,
        "rummy_calls": True,
        "teams": 3,
        "ace_always_15": True,
        "ten_cards": True,
        "top_card_free": True,
        "must_discard": True,
        "empty_stock": "reshuffle",
        "target": 1000,
        "decks": 2,
        "first_meld": 50,  # RULES.md §12
        "dug_card_new_meld": True,
        "five_point_pips": True,
        "joker_as_card": True,
        "runs_of_four": True,
    }
    assert set(every) == set(PAGES)
    assert set(every) <= set(Options().to_dict())
    assert len(pages(every)) == len(PAGES)
