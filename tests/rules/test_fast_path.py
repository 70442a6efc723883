"""The engine's fast path (legal_moves / apply_move / copy / undo) agrees with the dict API."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rum500.rules import Game, IllegalMove, Options, Phase
from rum500.rules.game import MOVE_DEAL, MOVE_DIG, MOVE_STOCK, action_of
from tests.rules.positions import options_st, position

ALL_ON = Options(
    top_card_free=True, must_discard=True, jokers=True, rummy_calls=True, ace_always_15=True
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def walk(g: Game, rng: random.Random, steps: int) -> None:
    """Random play through the dict API, "Rummy!" calls included."""
    for _ in range(steps):
        if g.phase is Phase.GAME_OVER:
            return
        moves = [(None, a) for a in g.legal_actions()]
        moves += [(s, a) for s in range(g.players) for a in g.claims(s)]
        seat, action = rng.choice(moves)
        g.apply(action, seat=seat)


def fresh(g: Game) -> Game:
    """The same position, rebuilt from scratch (no cache, no undo)."""
    return Game.from_dict(g.to_dict())


@SETTINGS
@given(st.integers(2, 8), st.integers(0, 2**32), options_st, st.integers(0, 200))
def test_every_move_does_what_its_action_does(players, seed, options, steps):
    g = Game(players, seed, options)
    walk(g, random.Random(seed), steps)
    if g.phase is Phase.GAME_OVER:
        return
    moves = g.legal_moves()
    assert [action_of(m) for m in moves] == g.legal_actions() == fresh(g).legal_actions()
    for m in random.Random(seed + 1).sample(moves, min(len(moves), 6)):
        fast, slow = g.copy(), fresh(g)
        assert fast.apply_move(m) == slow.apply(action_of(m))
        assert fast.to_dict() == slow.to_dict()
        assert fast.legal_actions() == fresh(slow).legal_actions()
    assert g.legal_moves() == moves  # the copies left the original alone


@SETTINGS
@given(st.integers(2, 6), st.integers(0, 2**32), options_st, st.integers(1, 300))
def test_moves_and_pops_in_any_order_match_a_replay(players, seed, options, steps):
    g = Game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.actions and (g.phase is Phase.GAME_OVER or rng.random() < 0.3):
            g.pop()
            continue
        if g.phase is Phase.CLAIM and rng.random() < 0.5:
            calls = [a for s in range(players) for a in g.claims(s)]
            if calls:
                g.apply(rng.choice(calls))
                continue
        g.apply_move(rng.choice(g.legal_moves()))
    replayed = Game.replay(players, seed, g.actions, options)
    assert g.to_dict() == replayed.to_dict()
    assert g.legal_actions() == replayed.legal_actions()


def test_copy_is_independent_and_equal():
    g = Game(4, 5, ALL_ON)
    walk(g, random.Random(5), 60)
    c = g.copy()
    assert c.to_dict() == g.to_dict()
    before = g.to_dict()
    rng = random.Random(9)
    while c.phase is not Phase.GAME_OVER and len(c.results) < 2:
        c.apply_move(rng.choice(c.legal_moves()), undo=False)
    assert g.to_dict() == before
    assert c.to_dict() != before
    c.pop()  # nothing saved after undo=False: pop replays, and still agrees
    assert c.to_dict() == Game.replay(4, 5, c.actions, ALL_ON).to_dict()


def test_copies_share_the_random_state_until_one_deals():
    """copy() shares the random state until one of the games shuffles: whichever deals first,
    the others deal the same next hand from their own state, untouched by it; pop puts a
    deal back, even in a game whose state is shared again."""
    g = Game(2, 7, Options(target=10**6))
    rng = random.Random(7)
    while g.phase is not Phase.HAND_OVER:
        g.apply_move(rng.choice(g.legal_moves()), undo=False)
    ref = g.to_dict()
    a = g.copy()
    b = a.copy()
    a.apply_move((MOVE_DEAL,))  # a copy deals first
    assert g.to_dict() == ref and b.to_dict() == ref
    dealt = a.to_dict()
    assert dealt["hands"] != ref["hands"] and dealt["rng"] != ref["rng"]
    g.apply_move((MOVE_DEAL,), undo=False)  # then the original, then the other copy
    b.apply_move((MOVE_DEAL,))
    assert g.to_dict() == dealt and b.to_dict() == dealt
    c = a.copy()  # a's state is shared again: its pop restores its own
    a.pop()
    assert a.to_dict() == ref and c.to_dict() == dealt and g.to_dict() == dealt
    a.apply_move((MOVE_DEAL,))
    assert a.to_dict() == dealt


def test_undo_restores_the_random_state_of_a_deal_and_a_reshuffle():
    opts = Options(empty_stock="reshuffle", target=10**6)
    g = Game(2, 3, opts)
    rng = random.Random(3)
    reshuffles = deals = 0
    while deals < 2:
        moves = g.legal_moves()
        draws = [m for m in moves if m[0] not in (MOVE_DIG,)]
        move = rng.choice(draws)
        before = g.to_dict()
        events = g.apply_move(move)
        if any(e["type"] == "reshuffle" for e in events) or move[0] == 6:
            reshuffles += any(e["type"] == "reshuffle" for e in events)
            deals += move[0] == 6
            g.pop()
            assert g.to_dict() == before
            g.apply_move(move)
        if move[0] == MOVE_STOCK:
            assert g.legal_moves()  # the cache follows the position
    assert reshuffles >= 1


def kept_state(g: Game) -> tuple:
    """What the fast path keeps up to date instead of rebuilding: each hand's card mask and
    the table's summary (compared as the same position rebuilt from scratch has them)."""
    needs, runs, layoffs = g._table_spots()
    return (
        g._cm,
        needs,
        [sorted(r) for r in runs],
        [(need, list(moves)) for need, moves in layoffs],
        g.legal_moves(),
    )


@SETTINGS
@given(st.integers(2, 8), st.integers(0, 2**32), options_st, st.integers(1, 300))
def test_kept_state_follows_every_move_pop_and_copy(players, seed, options, steps):
    """After any mix of fast moves, checked actions, "Rummy!" calls, pops and copies, the
    card masks and the table's summary are those of the position rebuilt from scratch."""
    g = Game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        r = rng.random()
        if g.actions and (g.phase is Phase.GAME_OVER or r < 0.2):
            g.pop()
        elif r < 0.3:
            g = g.copy()
        elif g.phase is Phase.CLAIM and r < 0.6:
            calls = [a for s in range(players) for a in g.claims(s)]
            g.apply(rng.choice(calls) if calls else g.legal_actions()[0])
        elif r < 0.45:
            g.apply(rng.choice(g.legal_actions()))
        else:
            g.apply_move(rng.choice(g.legal_moves()), undo=rng.random() < 0.8)
        if g.phase is not Phase.GAME_OVER:
            assert kept_state(g) == kept_state(fresh(g))


def test_hand_mask_is_the_hand_as_bits():
    g = Game(3, 11, Options(jokers=True, decks=2))
    walk(g, random.Random(11), 80)
    for seat in range(3):
        assert g.hand_mask(seat) == sum(1 << c for c in set(g.hands[seat]))


@pytest.mark.parametrize(
    ("hand", "pile", "run", "dug"),
    [
        ("8S 2H 4D KC", "9S 3C", "5S 6S 7S", [0]),  # 9S after 8S, two above the run
        ("3D 2H 9C KC", "2D 4C", "4D 5D 6D", [0]),  # 2D after 3D, two below
        ("KH 2S 4D 7C", "AH 3C", "10H JH QH", [0]),  # the ace, high, after the king
        ("2C 9H 4D 7S", "AC 10S", "3C 4C 5C", [0]),  # the ace, low, after the 2
        ("8S 2H 4D KC", "10S 3C", "5S 6S 7S", []),  # two places between: 9S not held
        ("2H 4D KC 8C", "9S 3C", "5S 6S 7S", []),  # 8S not held
    ],
)
def test_a_dug_card_one_place_beyond_a_run(hand, pile, run, dug):
    """A dig whose card goes on a run after the one card between (held) is listed, and
    exactly the digs the rules accept are."""
    g = position([hand, "5H 6H 9D"], pile=pile, melds=[(run, 1)])
    listed = [m[1] for m in g.legal_moves() if m[0] == MOVE_DIG]
    accepted = []
    for i in range(len(g.pile)):
        try:
            g.copy().apply({"type": "draw", "source": "discard", "index": i})
        except IllegalMove:
            continue
        accepted.append(i)
    assert listed == accepted == dug
