"""Bot benchmark: the targets of issue 5, measured with the same code as ``rum500 sim``.

    python bench/bots.py [--games 200] [--hands 1000] [--jobs 2] [--seed 0]

1. ``hard`` against ``medium``, 2-player matches to 500: ``hard`` should win ≥ 60%.
2. ``medium`` against ``easy``, 2-player matches to 500: ``medium`` should win ≥ 75%.
3. ``hard``'s decision time at p95 (from run 1): under 250 ms.
4. 1,000 two-player hands of ``medium`` against ``medium`` with ``--jobs 2``: under 30 s.

Timings depend on what else the machine is doing; the win rates do not (seeded).
"""

from __future__ import annotations

import argparse
import sys
import time

from rum500.sim import simulate


def line(name: str, figure: str, ok: bool) -> str:
    return f"{'ok  ' if ok else 'MISS'} {name:<44} {figure}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="matches per pairing (200)")
    p.add_argument("--hands", type=int, default=1000, help="hands for the speed run (1000)")
    p.add_argument("--jobs", type=int, default=2, help="processes (2)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    out = []
    hm = simulate(args.games, 2, ["hard", "medium"], seed=args.seed, jobs=args.jobs)
    hard = hm["levels"]["hard"]
    lo, hi = hard["ci95"]
    out.append(
        line(
            f"hard beats medium ({args.games} matches)",
            f"{hard['win_rate']:.1%} (95% CI {lo:.1%}–{hi:.1%}), "
            f"{hard['mean_score_per_hand']:+.1f} vs "
            f"{hm['levels']['medium']['mean_score_per_hand']:+.1f} per hand",
            hard["win_rate"] >= 0.60,
        )
    )
    me = simulate(args.games, 2, ["medium", "easy"], seed=args.seed, jobs=args.jobs)
    medium = me["levels"]["medium"]
    lo, hi = medium["ci95"]
    out.append(
        line(
            f"medium beats easy ({args.games} matches)",
            f"{medium['win_rate']:.1%} (95% CI {lo:.1%}–{hi:.1%})",
            medium["win_rate"] >= 0.75,
        )
    )
    ms = hard["decision_ms"]
    out.append(
        line(
            "hard decision time p95",
            f"p50 {ms['p50']:.2f} ms, p95 {ms['p95']:.2f} ms, max {ms['max']:.1f} ms "
            f"over {hard['decisions']} decisions",
            ms["p95"] < 250,
        )
    )
    start = time.perf_counter()
    simulate(args.hands, 2, ["medium", "medium"], hands=1, seed=args.seed, jobs=args.jobs)
    took = time.perf_counter() - start
    out.append(
        line(
            f"{args.hands} hands medium vs medium, {args.jobs} jobs",
            f"{took:.1f} s ({args.hands / took:.0f} hands/s)",
            took < 30,
        )
    )
    print("\n".join(out))
    return 0 if all(s.startswith("ok") for s in out) else 1


if __name__ == "__main__":
    sys.exit(main())
