"""Benchmark of a long match: one headless host, bots only, plays many hands of one match.

The host is the real one (``rum500.host.start_host``: bots at every seat, the game log
on unless ``--no-log``, target so high that nobody wins); nothing connects to it. Every
``--every`` hands it prints the hands per second over the last stretch and the process's
memory (resident set, and the Python heap when ``--trace-memory``), then at the end the
speed at hand ~10 and at the last stretch, and the memory added per finished hand.

    python bench/long.py [--hands 10000] [--players 4] [--level random] [--every 500]
                         [--log-dir DIR | --no-log] [--trace-memory]

Goals (issue 11): at hand 1,000 the host runs at ≥ 0.9× its hands/s at hand 10, and holds
≤ 2 KB more per finished hand.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rum500.host import HostConfig, start_host  # noqa: E402
from rum500.rules import Options  # noqa: E402

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss() -> int:
    """Resident memory of this process, bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


async def run(args: argparse.Namespace, journal: object) -> list[tuple[int, float, int, int]]:
    """Play; return (hands finished, time, rss, python heap) at each mark."""
    host = await start_host(
        HostConfig(
            players=args.players,
            bots=args.players,
            bot_level=args.level,
            seed=args.seed,
            options=Options(target=10**9),
            takeover_after=None,
            journal=journal,
        )
    )
    marks: list[tuple[int, float, int, int]] = []
    done = asyncio.Event()
    hands = 0
    wanted = {10, *range(args.every, args.hands + 1, args.every), args.hands}

    def heap() -> int:
        return tracemalloc.get_traced_memory()[0] if args.trace_memory else 0

    def on_events(by: int | None, events: list[dict]) -> None:
        nonlocal hands
        for event in events:
            if event.get("type") != "hand_end":
                continue
            hands += 1
            if hands in wanted or hands == 1:
                gc.collect()
                marks.append((hands, time.perf_counter(), rss(), heap()))
                if hands > 1:
                    report(marks)
            if hands >= args.hands:
                done.set()

    host.on_told(on_events)
    host.start_now()
    await done.wait()
    await host.close()
    return marks


def report(marks: list[tuple[int, float, int, int]]) -> None:
    (h0, t0, _, _), (h1, t1, m1, p1) = marks[-2], marks[-1]
    rate = (h1 - h0) / (t1 - t0) if t1 > t0 else float("inf")
    heap = f", python heap {p1 / 2**20:.1f} MiB" if p1 else ""
    print(f"  hand {h1:6d}: {rate:7.1f} hands/s since hand {h0}, rss {m1 / 2**20:.1f} MiB{heap}")
    sys.stdout.flush()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--level", default="random", help="the bots' level")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=500, help="print every this many hands")
    ap.add_argument("--log-dir", help="keep the game log here (default: a temporary folder)")
    ap.add_argument("--no-log", action="store_true", help="no game log")
    ap.add_argument("--trace-memory", action="store_true", help="also the Python heap")
    args = ap.parse_args()
    if args.hands < 20:
        ap.error("--hands must be at least 20")
    args.every = max(1, min(args.every, args.hands))
    if args.trace_memory:
        tracemalloc.start()

    journal = None
    tmp = None
    if not args.no_log:
        from rum500.store.journal import Journal

        folder = args.log_dir
        if folder is None:
            tmp = tempfile.TemporaryDirectory(prefix="rum500-long-")
            folder = tmp.name
        Path(folder).mkdir(parents=True, exist_ok=True)
        journal = Journal(Path(folder) / "games.sqlite3")
    where = "off" if journal is None else f"in {Path(folder) / 'games.sqlite3'}"
    print(
        f"rum500 long-match benchmark: one host, {args.players} {args.level} bots, "
        f"{args.hands} hands of one match, game log {where}"
    )
    start = time.perf_counter()
    marks = asyncio.run(run(args, journal))
    if journal is not None:
        journal.close()
    if tmp is not None:
        tmp.cleanup()
    total = time.perf_counter() - start

    def rate_at(hand: int) -> float:
        """Hands/s over the stretch that ends at the first mark at or after ``hand``."""
        for (h0, t0, _, _), (h1, t1, _, _) in zip(marks, marks[1:], strict=False):
            if h1 >= hand:
                return (h1 - h0) / (t1 - t0)
        return float("nan")

    first = rate_at(10)
    last = rate_at(marks[-1][0])
    base = next(m for m in marks if m[0] >= 10)
    end = marks[-1]
    grown = (end[2] - base[2]) / max(1, end[0] - base[0])
    print(f"  {end[0]} hands in {total:.1f} s")
    print(
        f"  hands/s: {first:.1f} up to hand 10, {last:.1f} at the last stretch "
        f"(ratio {last / first:.2f}; aim ≥ 0.9 at hand 1,000)"
    )
    print(
        f"  memory from hand {base[0]} to {end[0]}: rss +{grown / 1024:.2f} KB per hand"
        + (
            f", python heap +{(end[3] - base[3]) / max(1, end[0] - base[0]) / 1024:.2f} KB per hand"
            if args.trace_memory
            else ""
        )
        + " (aim ≤ 2 KB)"
    )
    # what each further hand costs once warm (the game log's SQLite page cache, ~2 MB and
    # bounded, fills during the first hundreds of hands and weighs on the figure above)
    (h0, _, m0, _), (h1, _, m1, _) = marks[-2], marks[-1]
    if h1 > h0 and h0 >= 10:
        print(
            f"  memory over the last stretch (hand {h0} to {h1}): rss +"
            f"{(m1 - m0) / (h1 - h0) / 1024:.2f} KB per hand"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
