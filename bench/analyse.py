"""The coach's benchmark (issue 24 §1 and its Goals), with the same code as ``rum500 analyse``.

    python bench/analyse.py [--budget 32] [--jobs 2] [--seed S] [--matches 200]
                            [--hands H] [--levels random,easy,medium,hard,expert]
                            [--stability-matches 2] [--skip-speed] [--skip-ladder]

1. Speed: one two-player match to 500 between ``hard`` bots, both seats analysed on
   ``--jobs`` processes: the wall time (goal: within 3 minutes on 2 cores) and decisions
   analysed per second; beside it its floor, the same match replayed with no analysis.
2. The ladder: for each level, ``--matches`` two-player matches against ``expert`` (to 500,
   or their first ``--hands`` hands), both seats analysed: each level's error rate (points
   lost per decision) and the ``expert`` opponents' with a 95% interval (over matches:
   mean ± 1.96 standard errors of the per-match rates), and how many matches and decisions
   each figure is from. Goal: random ≫ easy > medium > hard > expert, each gap outside the
   intervals. The issue asks 200 matches per level: that is ``--matches 200`` (hours on two
   cores); the default runs what fits in a few minutes and says so.
3. Stability: ``--stability-matches`` matches (hard against expert) analysed twice, with two
   seeds: of the decisions where the first run calls the loss ≥ 5 points, the share where the
   second finds the same best move (goal ≥ 90%, the strict figure); beside it the share where
   the second's best move is the first's best or one of its ``ties`` (docs/analysis.md, "How
   a move is valued", step 4), and how often the second calls no mistake there at all.

Timings depend on what else the machine is doing. The figures of 2 and 3 are seeded, but the
matches are played by bots and ``expert`` stops thinking at a time guard: under heavy load
its matches (and so the decisions analysed) may differ from a quiet machine's.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rum500.coach.analysis import analyse_seats, new_game  # noqa: E402
from rum500.coach.selfplay import bot_record  # noqa: E402

LEVELS = ["random", "easy", "medium", "hard", "expert"]


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    if not n:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def replay_time(record: dict) -> float:
    """The floor: the match replayed through the engine, no analysis."""
    start = time.perf_counter()
    game = new_game(record)
    for entry in record["actions"]:
        game.apply(entry["action"], entry["seat"])
    return time.perf_counter() - start


def speed(args: argparse.Namespace) -> None:
    record = bot_record(["hard", "hard"], args.seed)
    floor = replay_time(record)
    start = time.perf_counter()
    done = analyse_seats(record, [0, 1], budget=args.budget, seed=args.seed, jobs=args.jobs)
    took = time.perf_counter() - start
    decisions = sum(len(a.decisions) for a in done)
    hands = len(done[0].hands)
    print(
        f"1. a two-player match to 500 ({hands} hands, {len(record['actions'])} actions), both "
        f"seats, --jobs {args.jobs}, --budget {args.budget}: {took:.1f} s "
        f"(goal ≤ 180 s) — {decisions} decisions, {decisions / took:.1f} decisions analysed "
        f"per second; floor (the same match replayed, no analysis): {floor * 1000:.1f} ms"
    )


def ladder(args: argparse.Namespace) -> None:
    levels = args.levels.split(",")
    print(
        f"2. the ladder: {args.matches} match(es) per level against expert, "
        + (f"first {args.hands} hand(s) each" if args.hands else "whole matches to 500")
        + f", --budget {args.budget}"
    )
    rows = []
    for k, level in enumerate(levels):
        mine: list[float] = []
        theirs: list[float] = []
        decisions = [0, 0]
        start = time.perf_counter()
        for m in range(args.matches):
            seed = args.seed + 1000 * k + m
            seats = [level, "expert"] if m % 2 == 0 else ["expert", level]
            record = bot_record(seats, seed, hands=args.hands or None)
            done = analyse_seats(record, [0, 1], budget=args.budget, seed=seed, jobs=args.jobs)
            for a in done:
                ours = a.seat == (0 if m % 2 == 0 else 1)
                (mine if ours else theirs).append(a.error_rate)
                decisions[0 if ours else 1] += len(a.decisions)
        took = time.perf_counter() - start
        rows.append((level, interval(mine), decisions[0], interval(theirs), decisions[1], took))
    for level, (m, h), d, (tm, th), td, took in rows:
        print(
            f"   {level:>7}: {m:6.2f} ± {h:5.2f} points lost per decision ({args.matches} "
            f"matches, {d} decisions) | its expert opponents: {tm:5.2f} ± {th:5.2f} ({td} "
            f"decisions) [{took:.0f} s]"
        )
    order = [r[1][0] for r in rows]
    ordered = all(a > b for a, b in zip(order, order[1:], strict=False))
    figures = [r[1] for r in rows]
    apart = all(a[0] - a[1] > b[0] + b[1] for a, b in zip(figures, figures[1:], strict=False))
    print(f"   ordered as the ladder: {ordered}; every gap outside the intervals: {apart}")


def stability(args: argparse.Namespace) -> None:
    agree = total = tied = unmade = 0
    decisions = 0
    for m in range(args.stability_matches):
        seed = args.seed + 7000 + m
        record = bot_record(["hard", "expert"], seed, hands=args.hands or None)
        one = analyse_seats(record, [0, 1], budget=args.budget, seed=1, jobs=args.jobs)
        two = analyse_seats(record, [0, 1], budget=args.budget, seed=2, jobs=args.jobs)
        for a, b in zip(one, two, strict=True):
            decisions += len(a.decisions)
            for x, y in zip(a.decisions, b.decisions, strict=True):
                if x.loss >= 5:
                    total += 1
                    agree += _same(x.best, y.best)
                    tied += any(_same(m, y.best) for m in [x.best, *getattr(x, "ties", [])])
                    unmade += y.loss == 0
    share = agree / total if total else math.nan
    tie_share = tied / total if total else math.nan
    print(
        f"3. stability: {args.stability_matches} match(es) analysed with seeds 1 and 2 "
        f"({decisions} decisions): {total} with a loss ≥ 5 in the first run, the second "
        f"agrees on the best move in {agree} ({100 * share:.0f}%; goal ≥ 90%); its best move "
        f"is the first's best or one of its ties in {tied} ({100 * tie_share:.0f}%); the "
        f"second calls no mistake in {unmade}"
    )


def _same(a: dict, b: dict) -> bool:
    from rum500.coach.search import same_action

    return same_action(a, b)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", type=int, default=32)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--matches", type=int, default=2, help="matches per level (the issue: 200)")
    p.add_argument("--hands", type=int, default=2, help="hands per ladder match (0: whole)")
    p.add_argument("--levels", default=",".join(LEVELS))
    p.add_argument("--stability-matches", type=int, default=1)
    p.add_argument("--skip-speed", action="store_true")
    p.add_argument("--skip-ladder", action="store_true")
    p.add_argument("--skip-stability", action="store_true")
    args = p.parse_args(argv)
    if not args.skip_speed:
        speed(args)
    if not args.skip_ladder:
        ladder(args)
    if not args.skip_stability:
        stability(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
