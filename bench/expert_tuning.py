"""Paired matches for tuning the expert: ``expert`` (with some of its constants changed)
against another level, every deal played twice with the seats swapped.

    python bench/expert_tuning.py --seed 902 --pairs 150 [--set NAME=VALUE ...] [--jobs 2]

Match ``i`` of pair ``i`` deals from seed ``SEED * 1000 + i`` with the expert in seat 0, then
in seat 1; the same deals for every ``--set``, so two runs on one seed differ by what was
changed (and by where the games drift apart after the first different decision). ``--set``
changes a constant of :mod:`rum500.bots.expert` in every worker, e.g. ``--set
STRUCTURE_TRIES=1`` or ``--set HELD_WEIGHT=0.8 --set PAIRED_WEIGHT=0.8``.

It prints one JSON line: the expert's win rate with its 95% Wilson interval, the points a hand
it makes over the other seat (the mean over pairs, each pair's points over its hands, with the
standard error over pairs), its decision time (p95 and max), and its digs (cards taken per dig,
and how many are still in hand when the hand ends). The figures quoted in
``rum500/bots/expert.py`` ("on tuning seeds, 300 matches against hard") were taken with this:
``--pairs 150`` on seeds 902, 903 and 905. A seed used here is a tuning seed:
``bench/bots.py``'s figures for issue 12 are taken on a seed chosen after the last change and
never tuned on.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import rum500.bots.expert as expert
from rum500.bots import LEVELS
from rum500.sim import MatchResult, MatchTask, play_match, summarize


def parse_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` for a constant of the expert module, the value of the constant's type."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name.isupper() or not hasattr(expert, name):
        raise argparse.ArgumentTypeError(f"not a constant of rum500.bots.expert: {text!r}")
    old = getattr(expert, name)
    try:
        value = ast.literal_eval(raw.strip())
    except (ValueError, SyntaxError) as exc:
        raise argparse.ArgumentTypeError(f"{name}: not a Python literal: {raw!r}") from exc
    mismatch = isinstance(old, bool) != isinstance(value, bool) or (
        isinstance(old, int) and isinstance(value, float)
    )
    if mismatch or not isinstance(value, (int, float)):
        kind = {bool: "True or False", int: "a whole number"}.get(type(old), "a number")
        raise argparse.ArgumentTypeError(f"{name} takes {kind}: {raw!r}")
    return name, type(old)(value)


def _apply(settings: list[tuple[str, object]]) -> None:
    for name, value in settings:
        setattr(expert, name, value)


def _play(work: tuple[int, bool, str, int]) -> MatchResult:
    seed, swapped, other, target = work
    levels = (other, "expert") if swapped else ("expert", other)
    return play_match(MatchTask(0, seed, levels, None, target, ()))


def report(results: list[MatchResult], pairs: int) -> dict:
    """The expert's figures from ``results`` (:func:`rum500.sim.summarize`'s), and its points
    a hand over the other seat per pair: pair ``i`` is ``results[2i]`` and ``results[2i + 1]``."""
    other = next(lv for lv in results[0].levels if lv != "expert")
    mine = summarize(results, ["expert", other])["expert"]
    per_pair = []
    for i in range(pairs):
        diff = hands = 0
        for r in results[2 * i : 2 * i + 2]:
            me = r.levels.index("expert")
            diff += sum(h[me] - h[1 - me] for h in r.scores)
            hands += len(r.scores)
        per_pair.append(diff / max(1, hands))
    mean = sum(per_pair) / pairs
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_pair) / (pairs - 1)) if pairs > 1 else 0.0
    return {
        "matches": mine["seats"],
        "win": round(mine["win_rate"], 3),
        "win_ci": [round(x, 3) for x in mine["ci95"]],
        "points_per_hand": round(mean, 2),
        "se": round(sd / math.sqrt(pairs), 2),
        "decision_ms_p95": round(mine["decision_ms"]["p95"], 1),
        "decision_ms_max": round(mine["decision_ms"]["max"]),
        "cards_per_dig": round(mine["digging"]["cards_per_dig"], 2),
        "held_per_dig": round(mine["digging"]["held_per_dig"], 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True, help="a tuning seed")
    ap.add_argument("--pairs", type=int, default=150, help="deals, each played twice (150)")
    ap.add_argument("--against", default="hard", choices=[lv for lv in LEVELS if lv != "expert"])
    ap.add_argument("--target", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--set", dest="settings", action="append", default=[], type=parse_setting,
        metavar="NAME=VALUE", help="change a constant of rum500.bots.expert (repeatable)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    if args.pairs < 1 or args.jobs < 1 or args.target < 1:
        ap.error("--pairs, --jobs and --target must be positive")
    work = [
        (args.seed * 1000 + i, swapped, args.against, args.target)
        for i in range(args.pairs)
        for swapped in (False, True)
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, initializer=_apply, initargs=(args.settings,)) as pool:
        results = list(pool.map(_play, work, chunksize=1))
    out = {
        "seed": args.seed,
        "against": args.against,
        "set": {name: value for name, value in args.settings},
        **report(results, args.pairs),
        "seconds": round(time.perf_counter() - start),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
