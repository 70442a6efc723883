"""Engine speed: random play through the dict API and through the fast path, OpenSpiel's
gin_rummy in the same run when it is installed, and playouts as the expert bot runs them.

    python bench/engine.py [--hands N] [--seed S] [--playouts N]

1. Random agents choose uniformly from the legal actions and play whole hands, 2 players
   (13 cards) and 4 players (7 cards), the seed game and with jokers on: hands/s and
   decisions/s (a decision is one listing of the legal actions plus one apply) —
   ``legal_actions()``/``apply()`` (the dict API, every action checked) and
   ``legal_moves()``/``apply_move()`` (the fast path: cached moves, no re-check).
2. OpenSpiel's ``gin_rummy`` (``pip install open_spiel``), random play, same measures
   (chance nodes — the deal — are not decisions), and the ratio of the fast path's
   decisions/s to OpenSpiel's (the goal is 3×).
3. Playouts: positions mid-hand (random play into a hand), the hidden cards resampled from
   one seat's view as the expert bot does (``determinize``), then played to the end of the
   hand by the expert's greedy playout policy: playouts/s, decisions per playout.
"""

from __future__ import annotations

import argparse
import random
import time

from rum500.bots.expert import determinize, playout
from rum500.bots.seat import read_view
from rum500.rules import Game, Options, Phase
from rum500.rules.game import MOVE_DEAL


def run_dicts(players: int, hands: int, seed: int, jokers: bool) -> tuple[float, float]:
    rng = random.Random(seed)
    g = Game(players, seed, Options(target=10**9, jokers=jokers))
    decisions = 0
    start = time.perf_counter()
    while len(g.results) < hands:
        if g.phase is Phase.HAND_OVER:
            g.apply({"type": "deal"})  # dealing is not a decision
            continue
        g.apply(rng.choice(g.legal_actions()))
        decisions += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def run_moves(players: int, hands: int, seed: int, jokers: bool) -> tuple[float, float]:
    rng = random.Random(seed)
    g = Game(players, seed, Options(target=10**9, jokers=jokers))
    decisions = 0
    start = time.perf_counter()
    while len(g.results) < hands:
        if g.phase is Phase.HAND_OVER:
            g.apply_move((MOVE_DEAL,), undo=False)
            continue
        g.apply_move(rng.choice(g.legal_moves()), undo=False)
        decisions += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def run_openspiel(hands: int, seed: int) -> tuple[float, float] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(hands):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed


def run_playouts(players: int, count: int, seed: int) -> tuple[float, float]:
    """Playouts/s and decisions per playout from mid-hand positions, hidden cards resampled."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < 40:
        g = Game(players, rng.randrange(2**32), Options(target=10**9))
        for _ in range(rng.randint(4, 24)):
            g.apply_move(rng.choice(g.legal_moves()), undo=False)
            if g.phase is not Phase.DRAW and g.phase is not Phase.PLAY:
                break
        if g.phase is Phase.DRAW or g.phase is Phase.PLAY:
            positions.append(read_view(g.view(g.turn)))
    known = [[] for _ in range(players)]
    steps = 0
    start = time.perf_counter()
    for k in range(count):
        world = determinize(positions[k % len(positions)], known, rng)
        assert world is not None
        steps += playout(world, world.turn, turns=10**6, cap=10**6)
    elapsed = time.perf_counter() - start
    return count / elapsed, steps / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=400)
    args = parser.parse_args()
    fast = {}
    for players in (2, 4):
        for jokers in (False, True):
            label = "with jokers" if jokers else "seed game  "
            hps, dps = run_dicts(players, args.hands, args.seed, jokers)
            fhps, fdps = run_moves(players, args.hands, args.seed, jokers)
            fast[(players, jokers)] = fdps
            print(
                f"{players} players, {label}: dict API {hps:,.0f} hands/s, {dps:,.0f} "
                f"decisions/s; fast path {fhps:,.0f} hands/s, {fdps:,.0f} decisions/s "
                f"({fdps / dps:.2f}×)"
            )
    spiel = run_openspiel(args.hands, args.seed)
    if spiel is None:
        print("OpenSpiel gin_rummy: not installed (pip install open_spiel) — no comparison")
    else:
        hps, dps = spiel
        best = fast[(2, False)]
        print(
            f"OpenSpiel gin_rummy, random play, same run: {hps:,.0f} hands/s, "
            f"{dps:,.0f} decisions/s — rum500's fast path (2 players) is "
            f"{best / dps:.2f}× its decisions/s (goal 3×)"
        )
    for players in (2, 4):
        pps, per = run_playouts(players, args.playouts, args.seed)
        print(
            f"playouts, {players} players, mid-hand, hidden cards resampled: {pps:,.0f} "
            f"playouts/s to the end of the hand ({per:.0f} decisions each)"
        )


if __name__ == "__main__":
    main()
