"""The bots plan by the table's options (RULES.md §12): with runs_of_four three in a row is
a draw to a run, not a meld (§12.6); with dug_card_new_meld a dig is planned only when the
card dug for can go into a NEW meld, a lay-off does not clear it (§12.2). The bots are
strict here: an action the engine does not offer raises instead of being replaced."""

from __future__ import annotations

import pytest

from rum500 import cards as C
from rum500.bots.easy import EasyBot
from rum500.bots.expert import ExpertBot
from rum500.bots.hands import diggable, fits, outs, plan
from rum500.bots.hard import HardBot
from rum500.bots.medium import MediumBot
from rum500.rules import Options
from tests.rules.positions import position

FOUR = Options(runs_of_four=True)
NEW = Options(dug_card_new_meld=True)
LEVELS = [EasyBot, MediumBot, HardBot, ExpertBot]


def test_with_runs_of_four_three_in_a_row_is_no_meld() -> None:
    hand = C.parse_many("5H 6H 7H KC 9D 2S QD")
    assert plan(hand, [], 0).melds == [C.parse_many("5H 6H 7H")]
    assert plan(hand, [], 0, min_run=4).melds == []
    four = plan([*hand, C.parse("8H")], [], 0, min_run=4)
    assert four.melds == [C.parse_many("5H 6H 7H 8H")]
    # a set of three is still a meld
    sets = plan(C.parse_many("5H 5C 5D 9S"), [], 0, min_run=4).melds
    assert [sorted(m) for m in sets] == [sorted(C.parse_many("5H 5C 5D"))]
    assert fits(C.parse("7H"), C.parse_many("5H 6H"), []) is True
    assert fits(C.parse("7H"), C.parse_many("5H 6H"), [], 4) is False
    assert fits(C.parse("7H"), C.parse_many("5H 6H 8H"), [], 4) is True


def test_with_runs_of_four_a_card_waits_for_the_fourth_of_a_run() -> None:
    unseen = [1] * 53
    five = C.parse("5H")
    assert sorted(outs(five, C.parse_many("6H KC"), unseen, [])) == C.parse_many("4H 7H")
    assert outs(five, C.parse_many("6H KC"), unseen, [], 4) == []
    assert sorted(outs(five, C.parse_many("6H 7H"), unseen, [], 4)) == C.parse_many("4H 8H")
    assert outs(five, C.parse_many("7H 8H"), unseen, [], 4) == C.parse_many("6H")


@pytest.mark.parametrize("cls", [MediumBot, HardBot, ExpertBot])
def test_with_runs_of_four_the_bots_do_not_meld_a_run_of_three(cls: type) -> None:
    g = position(["5H 6H 7H KC 9D 2S QD JC", "3C 4C 8S 9S 10D JD KS"], phase="play", options=FOUR)
    action = cls(seed=1, strict=True).choose(g.view(0))
    assert action["type"] == "discard"
    assert action["card"] not in ("5H", "6H", "7H")


def test_with_dug_card_new_meld_a_lay_off_is_no_dig() -> None:
    table = position(["2C", "3C"], melds=[("5H 6H 7H", 1)]).melds
    hand = C.parse_many("9C KD 2S 4D QC")
    pile = C.parse_many("3S 8H")
    assert diggable(hand, pile, table) == [False, True]
    assert diggable(hand, pile, table, new_meld=True) == [False, False]
    assert diggable([*hand, C.parse("8C"), C.parse("8D")], pile, table, new_meld=True)[1]
    p = plan([*hand, C.parse("8H")], table, 0, C.parse("8H"), new_meld=True)
    assert not p.places(C.parse("8H"))
    assert C.parse("8H") in p.dead


@pytest.mark.parametrize("cls", LEVELS)
def test_with_dug_card_new_meld_the_bots_do_not_dig_a_card_they_could_only_lay_off(
    cls: type,
) -> None:
    hands = ["9C KD 2S 4D QC 10S JH", "3C 4C 8S 9S 10D JD KS"]
    g = position(hands, "3S 8H", [("5H 6H 7H", 1)], options=NEW)
    action = cls(seed=1, strict=True).choose(g.view(0))
    assert action == {"type": "draw", "source": "stock"}
