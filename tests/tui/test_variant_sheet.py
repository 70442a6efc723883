"""The review's score sheet under RULES.md §12.3 five-point pips and §12.4 a joker worth its
card: it says the hand was scored so, and each meld's points are the table's."""

from __future__ import annotations

import pytest

from rum500.i18n import set_language
from rum500.rules import Options
from rum500.tui import sheets
from tests.rules.positions import position
from tests.tui.test_house_rules import lines_text, seated_at


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def sheet_after_going_out(options: Options) -> str:
    g = position(["7H 8H JK 2C", "JK 4D"], phase="play", options=options)
    g.apply({"type": "meld", "cards": ["7H", "8H", "JK"], "jokers": ["9H"]})
    g.apply({"type": "discard", "card": "2C"})  # seat 0 goes out
    return lines_text(sheets.review_lines(seated_at(g), 76))


def test_the_sheet_says_the_hand_was_scored_with_pips_and_jokers_as_their_card() -> None:
    both = Options(jokers=True, joker_as_card=True, five_point_pips=True)
    sheet = sheet_after_going_out(both)
    assert "Scored with: Pip cards: 5 points each; Joker value: the card it stands for" in sheet
    assert "] +15" in sheet  # 7♥ 8♥ 🃏9♥: 5 + 5 + 5
    assert "in hand: 4♦ 🃏 = -20" in sheet  # 5 + 15
    sheet = sheet_after_going_out(Options(jokers=True, joker_as_card=True))
    assert "Scored with: Joker value: the card it stands for" in sheet
    assert "] +24" in sheet  # 7 + 8 + 9


def test_the_seed_scoring_says_nothing_and_a_joker_scores_15() -> None:
    sheet = sheet_after_going_out(Options(jokers=True))
    assert "Scored with" not in sheet
    assert "] +30" in sheet
    assert "in hand: 4♦ 🃏 = -19" in sheet


def test_ace_always_15_is_named_and_its_low_ace_scores_15_on_the_sheet() -> None:
    g = position(["AS 2S 3S 9C", "4D 5D"], phase="play", options=Options(ace_always_15=True))
    g.apply({"type": "meld", "cards": ["AS", "2S", "3S"]})
    g.apply({"type": "discard", "card": "9C"})
    sheet = lines_text(sheets.review_lines(seated_at(g), 76))
    assert "Scored with: Aces: always 15" in sheet
    assert "] +20" in sheet


def test_the_points_left_in_my_hand_during_play_follow_five_point_pips() -> None:
    for options, left in [(Options(five_point_pips=True), 5 + 5 + 10), (Options(), 7 + 9 + 10)]:
        g = position(["7H 9C KD", "2H 3D"], phase="play", options=options)
        assert seated_at(g).tableview.hand_score() == (0, left)


def test_the_host_form_with_every_family_variant_fits_80x24_round_the_cursor() -> None:
    """With §12's options the host form has more lines than a 24-line screen: it shows
    those round the cursor, ▲ / ▼ where more are above / below."""
    from rum500.tui.lobby import LobbyModel, _lobby_text

    model = LobbyModel("Ann")
    model.open_form("host")
    form = model.form or []
    for cursor in range(len(form) + 1):
        model.form_cursor = cursor
        shown = "".join(t[1] for t in _lobby_text(model)).rstrip("\n").split("\n")
        assert len(shown) <= 24 and all(len(line) <= 80 for line in shown)
        if cursor < len(form):
            assert any(line.startswith(f"  {form[cursor].label:<24}") for line in shown)
        else:
            assert "  [ Go ]" in shown
    model.form_cursor = 0
    shown = "".join(t[1] for t in _lobby_text(model))
    assert "▼" in shown and "▲" not in shown
    model.form_cursor = len(form)
    shown = "".join(t[1] for t in _lobby_text(model))
    assert "▲" in shown and "▼" not in shown and form[-2].label in shown
