"""§12.1 a first meld of at least N points: every bot level plays whole hands at such a table
without hanging — a bot whose chosen play is refused (its plan may not know the rule) falls
back to a legal action — and only legal actions reach the engine."""

from __future__ import annotations

import logging

import pytest

from rum500.bots import LEVELS, make_bot
from rum500.rules import Game, Options


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(
    "options",
    [Options(first_meld=30), Options(first_meld=50, must_discard=True, top_card_free=True)],
    ids=["30", "50-must-discard"],
)
def test_every_level_plays_hands_to_their_end_with_a_first_meld(
    level: str, options: Options, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    game = Game(2, seed=11, options=options)
    bots = [make_bot(level, seed=s) for s in range(2)]
    for bot in bots:
        if hasattr(bot, "steps"):
            bot.steps = 200  # the expert's search, small: this is about the rule
    opened = 0
    for _ in range(1500):
        if len(game.results) >= 2 or game.to_move is None:
            break
        seat = game.to_move
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view["legal_actions"], (level, action)
        events = game.apply(action, seat=seat)
        opened = max(opened, sum(game.opened))
        for s, bot in enumerate(bots):
            if hasattr(bot, "observe"):
                bot.observe(events, game.view(s))
    assert len(game.results) >= 2 or game.to_move is None  # the hands ended: nothing hung
    assert opened or level == "random"
