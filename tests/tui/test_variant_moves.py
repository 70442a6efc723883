"""The client's local check of a chosen meld follows the table's options, read from the
view (issue 26): with runs of four, m on a run of three says why the host would refuse it,
in the player's language, and sends nothing."""

from __future__ import annotations

import pytest

from rum500.i18n import set_language
from rum500.rules import Options
from tests.rules.positions import position
from tests.tui.test_house_rules import seated_at


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_with_runs_of_four_a_run_of_three_is_refused_before_it_leaves() -> None:
    g = position(["5H 6H 7H 2C", "4S 5S 6S"], phase="play", options=Options(runs_of_four=True))
    model = seated_at(g)
    model.selection.selected.update(["5H", "6H", "7H"])
    model.meld_selected()
    assert model.sent == []
    assert (
        model.feed.message == "5♥ 6♥ 7♥ is not a meld: a run needs at least 4 cards (runs of four)."
    )
    set_language("ru")
    model.meld_selected()
    assert "4" in model.feed.message and "run" not in model.feed.message


def test_without_it_the_same_cards_are_melded() -> None:
    g = position(["5H 6H 7H 2C", "4S 5S 6S"], phase="play")
    model = seated_at(g)
    model.selection.selected.update(["5H", "6H", "7H"])
    model.meld_selected()
    assert model.sent == [{"type": "meld", "cards": ["5H", "6H", "7H"]}]


def test_with_runs_of_four_a_set_of_three_is_still_a_meld() -> None:
    g = position(["5H 5C 5D 2C", "4S 6S 7S"], phase="play", options=Options(runs_of_four=True))
    model = seated_at(g)
    model.selection.selected.update(["5H", "5C", "5D"])
    model.meld_selected()
    assert len(model.sent) == 1 and model.sent[0]["type"] == "meld"
