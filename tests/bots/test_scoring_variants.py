"""The bots value cards as the table scores them: RULES.md §12.3 five-point pips make a 9
left in hand cost 5 in the expert's (and the coach's) playout outcomes and the hard bot's
end-the-hand choice (its keep/discard values stay face values: see HardBot.keep_value).
§12.4 needs nothing of theirs (a joker left in hand still costs 15, and the table's points
come from the engine)."""

from __future__ import annotations

from rum500 import cards as C
from rum500.bots.expert import HELD_WEIGHT, THEIRS_WEIGHT, held_cost, outcome
from rum500.rules import Options
from tests.rules.positions import position

PIPS = Options(five_point_pips=True)


def test_the_expert_counts_cards_left_in_hand_as_the_table_does() -> None:
    hand = C.parse_many("9C KD")
    assert held_cost(hand, PIPS) == HELD_WEIGHT * (5 + 10)
    assert held_cost(hand, Options()) == held_cost(hand) == HELD_WEIGHT * (9 + 10)
    for options, mine, theirs in [(PIPS, 5 + 5, 5 + 10), (Options(), 2 + 3, 9 + 10)]:
        g = position(["9C KD", "2H 3D"], phase="play", options=options)
        assert g.table_points() == [0, 0]
        expected = -HELD_WEIGHT * mine + THEIRS_WEIGHT * HELD_WEIGHT * theirs
        assert abs(outcome(g, 1, 0) - expected) < 1e-9
