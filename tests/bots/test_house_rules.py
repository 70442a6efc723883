"""Every bot level plays whole matches with every house rule on (jokers, "Rummy!" calls,
partnerships, ace always 15, top card free, must discard), and only legal actions."""

from __future__ import annotations

import pytest

from rum500.bots import LEVELS, make_bot
from rum500.sim import MatchTask, play_match

ALL_RULES = (
    ("jokers", True),
    ("rummy_calls", True),
    ("ace_always_15", True),
    ("top_card_free", True),
    ("must_discard", True),
    ("empty_stock", "reshuffle"),
)


class Checked:
    """A bot whose every choice is checked against its view's legal actions."""

    def __init__(self, level: str, seed: int) -> None:
        self.bot = make_bot(level, seed=seed)
        if hasattr(self.bot, "strict"):
            self.bot.strict = True  # raise instead of falling back to a legal action
        if hasattr(self.bot, "steps"):
            self.bot.steps = 300  # the expert's search, small: these tests are about rules
        self.level = level
        self.decisions = 0
        if hasattr(self.bot, "observe"):
            self.observe = self.bot.observe

    def choose(self, view: dict) -> dict:
        action = self.bot.choose(view)
        assert action in view["legal_actions"], (self.level, action)
        self.decisions += 1
        return action


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("players", "teams"), [(2, 0), (4, 2)])
def test_a_whole_match_with_every_house_rule(level: str, players: int, teams: int) -> None:
    levels = tuple(level if s % 2 == 0 else "medium" for s in range(players))
    bots = [Checked(lv, seed=31 + s) for s, lv in enumerate(levels)]
    task = MatchTask(0, 4242 + players, levels, None, 300, (*ALL_RULES, ("teams", teams)))
    result = play_match(task, bots)  # type: ignore[arg-type]
    assert sum(result.wins) == pytest.approx(1.0 if not teams else players / teams)
    assert bots[0].decisions > 20  # whole hands, not a move or two
