"""Engine speed: random play through the dict API and through the fast path, OpenSpiel's
gin_rummy in the same run when it is installed, and playouts as the expert bot runs them.

    python bench/engine.py [--hands N] [--seed S] [--playouts N] [--repeat R]
    python bench/engine.py --ratio [--slices K] [--slice-hands N]   # the 3× goal alone
    python bench/engine.py --profile [--hands N]   # where the fast path's random play spends

1. Random agents choose uniformly from the legal actions and play whole hands, 2 players
   (13 cards) and 4 players (7 cards), the seed game and with jokers on: hands/s and
   decisions/s (a decision is one listing of the legal actions plus one apply) —
   ``legal_actions()``/``apply()`` (the dict API, every action checked) and
   ``legal_moves()``/``apply_move()`` (the fast path: cached moves, no re-check).
2. OpenSpiel's ``gin_rummy`` (``pip install open_spiel``), random play, same measures
   (chance nodes — the deal — are not decisions), and the ratio of the fast path's
   decisions/s to OpenSpiel's (the goal is 3×).
3. Playouts: positions mid-hand (random play into a hand), the hidden cards resampled from
   one seat's view as the expert bot does (``determinize``), then a copy of that world (as
   the expert copies it for each candidate) played to the end of the hand by the expert's
   greedy playout policy: playouts/s, decisions per playout.

Each figure of 1 and 3 is the best of ``--repeat`` runs (5 by default; the same games each
time). The ratio to OpenSpiel (2) is measured as the goal states it: short slices of
rum500's fast path (2 players, the seed game) and of OpenSpiel's random play taking turns in
one run (``--slices`` pairs of ``--slice-hands`` hands each, a different seed per pair, the
same seed for both sides of a pair); each pair gives a ratio of decisions/s, and the MEDIAN
ratio is printed with its spread (the lowest and highest pair, and the quartiles), so that
a burst of other work on the machine moves one slice, not the figure. ``--ratio`` runs that
part alone. ``--profile`` profiles the fast path's random play (2 players, the seed game,
``--hands`` hands) under cProfile instead and prints where its time goes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

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
        steps += playout(world.copy(), world.turn, turns=10**6, cap=10**6)
    elapsed = time.perf_counter() - start
    return count / elapsed, steps / count


def ratio_slices(slices: int, hands: int, seed: int) -> list[tuple[float, float]] | None:
    """``slices`` pairs (rum500's fast path decisions/s, OpenSpiel's), taking turns; which of
    the two goes first alternates from pair to pair. None when OpenSpiel is not installed."""
    if run_openspiel(1, seed) is None:
        return None
    run_moves(2, hands, seed, False)  # warm-up: caches, allocator
    pairs = []
    for k in range(slices):
        s = seed + k
        if k % 2:
            spiel = run_openspiel(hands, s)
            mine = run_moves(2, hands, s, False)
        else:
            mine = run_moves(2, hands, s, False)
            spiel = run_openspiel(hands, s)
        pairs.append((mine[1], spiel[1]))  # type: ignore[index]
    return pairs


def print_ratio(pairs: list[tuple[float, float]], hands: int) -> None:
    ratios = sorted(m / o for m, o in pairs)
    n = len(ratios)
    mine = statistics.median(m for m, _ in pairs)
    spiel = statistics.median(o for _, o in pairs)
    q1, _, q3 = statistics.quantiles(ratios, n=4) if n >= 2 else (ratios[0],) * 3
    print(
        f"ratio to OpenSpiel gin_rummy, random play, {n} slices of {hands} hands taking "
        f"turns: MEDIAN {statistics.median(ratios):.2f}× decisions/s (goal ≥ 3×; spread "
        f"{ratios[0]:.2f}–{ratios[-1]:.2f}×, quartiles {q1:.2f}–{q3:.2f}×) — median "
        f"rum500 fast path {mine:,.0f}, OpenSpiel {spiel:,.0f} decisions/s"
    )


def profile_moves(hands: int, seed: int, top: int = 30) -> None:
    """The fast path's random play of :func:`run_moves` (2 players, the seed game) under
    cProfile: the functions that take the most time of their own (cProfile's overhead per
    call inflates the small ones)."""
    import cProfile
    import pstats

    run_moves(2, 5, seed, False)  # warm-up: the tables built on first use
    profiler = cProfile.Profile()
    profiler.runcall(run_moves, 2, hands, seed, False)
    pstats.Stats(profiler).strip_dirs().sort_stats("tottime").print_stats(top)


def best(
    repeat: int, run: Callable[..., tuple[float, float]], *args: object
) -> tuple[float, float]:
    """The run with the most decisions/s of ``repeat`` (the same games each time)."""
    return max((run(*args) for _ in range(repeat)), key=lambda r: r[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument("--ratio", action="store_true", help="only the ratio to OpenSpiel")
    parser.add_argument("--slices", type=int, default=31, help="pairs of slices for the ratio")
    parser.add_argument("--slice-hands", type=int, default=50, help="hands in each slice")
    parser.add_argument(
        "--profile", action="store_true", help="profile the fast path's random play instead"
    )
    args = parser.parse_args()
    if args.profile:
        profile_moves(args.hands, args.seed)
        return
    repeat = max(1, args.repeat)
    pairs = ratio_slices(max(1, args.slices), max(1, args.slice_hands), args.seed)
    if pairs is None:
        print("OpenSpiel gin_rummy: not installed (pip install open_spiel) — no comparison")
    else:
        print_ratio(pairs, args.slice_hands)
    if args.ratio:
        return
    for players in (2, 4):
        for jokers in (False, True):
            label = "with jokers" if jokers else "seed game  "
            hps, dps = best(repeat, run_dicts, players, args.hands, args.seed, jokers)
            fhps, fdps = best(repeat, run_moves, players, args.hands, args.seed, jokers)
            print(
                f"{players} players, {label}: dict API {hps:,.0f} hands/s, {dps:,.0f} "
                f"decisions/s; fast path {fhps:,.0f} hands/s, {fdps:,.0f} decisions/s "
                f"({fdps / dps:.2f}×)"
            )
    for players in (2, 4):
        pps, per = max(
            (run_playouts(players, args.playouts, args.seed) for _ in range(repeat)),
            key=lambda r: r[0],
        )
        print(
            f"playouts, {players} players, mid-hand, hidden cards resampled: {pps:,.0f} "
            f"playouts/s to the end of the hand ({per:.0f} decisions each)"
        )


if __name__ == "__main__":
    main()
