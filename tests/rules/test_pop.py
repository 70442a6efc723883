"""Taking back actions: ``Game.pop`` (python-chess's push/pop)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rum500.rules import Game, IllegalMove, Options, Phase
from tests.rules.positions import options_st

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(players: int, seed: int, options: Options, steps: int) -> Game:
    g = Game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.phase is Phase.GAME_OVER:
            break
        moves = [(None, a) for a in g.legal_actions()]
        moves += [(s, a) for s in range(players) for a in g.claims(s)]  # "Rummy!" calls
        seat, action = rng.choice(moves)
        g.apply(action, seat=seat)
    return g


@SETTINGS
@given(st.integers(2, 8), st.integers(0, 2**32), options_st, st.integers(1, 250))
def test_pop_returns_the_last_action_and_restores_the_position_before_it(
    players, seed, options, steps
):
    g = random_game(players, seed, options, steps)
    history = [dict(a) for a in g.actions]
    last = g.pop()
    assert last == history[-1]
    assert g.actions == history[:-1]
    assert g.to_dict() == Game.replay(players, seed, history[:-1], options).to_dict()
    # pushing the same action again gives back the very same position
    g.apply(last)
    assert g.to_dict() == Game.replay(players, seed, history, options).to_dict()


@SETTINGS
@given(st.integers(2, 8), st.integers(0, 2**32), options_st, st.integers(1, 120))
def test_pop_works_on_a_restored_game_and_goes_back_to_the_start(players, seed, options, steps):
    g = Game.from_dict(random_game(players, seed, options, steps).to_dict())
    n = len(g.actions)
    k = random.Random(seed).randint(1, n)
    for _ in range(k):
        g.pop()
    expected = Game.replay(
        players, seed, random_game(players, seed, options, steps).actions[: n - k], options
    )
    assert g.to_dict() == expected.to_dict()


def test_pop_undoes_a_deal_and_a_finished_hand():
    g = Game(2, 7)
    rng = random.Random(7)
    while len(g.results) < 1:
        g.apply(rng.choice(g.legal_actions()))
    over = g.to_dict()
    assert g.phase is Phase.HAND_OVER
    g.apply({"type": "deal"})
    assert g.pop() == {"type": "deal"}
    assert g.to_dict() == over
    g.pop()  # the action that ended the hand
    assert g.phase in (Phase.DRAW, Phase.PLAY) and g.results == [] and g.totals == [0, 0]


def test_pop_with_nothing_to_take_back_is_refused_and_changes_nothing():
    g = Game(3, 11)
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="no action to take back"):
        g.pop()
    assert g.to_dict() == before
    g.apply({"type": "draw", "source": "stock"})
    assert g.pop() == {"type": "draw", "source": "stock"}
    assert g.to_dict() == before
    with pytest.raises(IllegalMove):
        g.pop()


def test_pop_keeps_a_fixed_first_deck():
    deck = ["AS", "2S", "3S", "4S"]
    g = Game(2, 5, deck=deck)
    first = g.to_dict()
    g.apply({"type": "draw", "source": "stock"})
    g.pop()
    assert g.to_dict() == first


def test_pop_takes_back_a_rummy_call_and_a_joker_meld():
    g = Game(3, 2, Options(rummy_calls=True, jokers=True))
    rng = random.Random(2)
    seen: set[str] = set()
    while not {"rummy", "joker"} <= seen and g.phase is not Phase.GAME_OVER:
        calls = [(s, a) for s in range(3) for a in g.claims(s)]
        jokers = [a for a in g.legal_actions() if a.get("jokers") or a.get("joker")]
        if calls:
            seat, action = calls[0]
        elif jokers:
            seat, action = None, jokers[0]
        else:
            seat, action = None, rng.choice(g.legal_actions())
        before = g.to_dict()
        g.apply(action, seat=seat)
        if calls or jokers:
            seen.add("rummy" if calls else "joker")
            after = g.to_dict()
            assert g.pop() == g_last(after)
            assert g.to_dict() == before
            g.apply(g_last(after))
            assert g.to_dict() == after
    assert {"rummy", "joker"} <= seen


def g_last(saved: dict) -> dict:
    return saved["actions"][-1]
