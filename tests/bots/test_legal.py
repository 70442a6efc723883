"""Bots of every level play only legal actions: whole hands for 2 to 8 players under several
table options, and positions reached by random play."""

from __future__ import annotations

import random

import pytest

from rum500.bots import LEVELS, hint, make_bot
from rum500.rules import Game, Options

LEVEL_CYCLE = ["hard", "medium", "easy", "random"]

OPTION_SETS = [
    Options(),
    Options(top_card_free=True),
    Options(must_discard=True),
    Options(empty_stock="end"),
    Options(empty_stock="reshuffle", top_card_free=True, must_discard=True),
]


def strict_bot(level: str, seed: int):
    bot = make_bot(level, seed=seed)
    if hasattr(bot, "strict"):
        bot.strict = True  # raise instead of falling back to a legal action
    return bot


def play_hands(players: int, options: Options, seed: int, hands: int) -> int:
    """Play ``hands`` hands with mixed bots; assert each action is legal; return decisions."""
    game = Game(players, seed=seed, options=options)
    bots = [strict_bot(LEVEL_CYCLE[(s + seed) % 4], seed * 10 + s) for s in range(players)]
    decisions = 0
    while game.to_move is not None and len(game.results) < hands:
        seat = game.to_move
        view = game.view(seat)
        action = bots[seat].choose(view)
        assert action in view["legal_actions"], (bots[seat].level, action)
        events = game.apply(action, seat=seat)
        decisions += 1
        for s, bot in enumerate(bots):
            if hasattr(bot, "observe"):
                bot.observe(events, game.view(s))
    assert len(game.results) >= hands or game.to_move is None
    return decisions


@pytest.mark.parametrize("players", range(2, 9))
def test_mixed_bots_play_legal_hands(players: int) -> None:
    total = 0
    for k, options in enumerate(OPTION_SETS):
        total += play_hands(players, options, seed=100 * players + k, hands=3)
    assert total > 200  # whole hands were played, not a move or two


def test_one_deck_for_small_tables() -> None:
    assert play_hands(4, Options(decks=1), seed=7, hands=2) > 0
    assert play_hands(3, Options(decks=1, must_discard=True), seed=8, hands=2) > 0


def test_thousands_of_random_positions() -> None:
    """Random play reaches positions no bot would steer to; every level must cope there,
    without any memory of the hand (as the hint does)."""
    rng = random.Random(2024)
    checked = 0
    for k in range(400):
        players = rng.randint(2, 8)
        options = rng.choice(OPTION_SETS)
        game = Game(players, seed=k, options=options)
        walker = make_bot("random", seed=k)
        for _ in range(rng.randint(0, 120)):
            if game.to_move is None:
                break
            game.apply(walker.choose(game.view(game.to_move)))
        for _ in range(4):
            if game.to_move is None:
                break
            view = game.view(game.to_move)
            for level in ("easy", "medium", "hard"):
                action = strict_bot(level, k).choose(view)
                assert action in view["legal_actions"], (level, action, view["phase"])
                checked += 1
            if k % 8 == 0:  # the hint searches (the expert's): a sample of the positions
                assert hint(view) in view["legal_actions"]
            game.apply(walker.choose(view))
    assert checked >= 3000


def test_levels_and_bad_level() -> None:
    assert {"random", "easy", "medium", "hard"} <= set(LEVELS)
    with pytest.raises(ValueError, match="no bot level"):
        make_bot("grandmaster")


def test_bot_with_nothing_to_do_says_so() -> None:
    game = Game(2, seed=1)
    idle = 1 - game.to_move
    for level in LEVELS:
        with pytest.raises(ValueError, match="nothing to do"):
            make_bot(level, seed=0).choose(game.view(idle))
