"""Benchmark: does the host answer a seated player at once, whatever its bots are thinking?

A table of three: one seated player (this process, over loopback TCP, the client library)
and two bots at the host (another process, the real ``start_host``, zero bot delay, so the
bots play all the time). The seated player plays its own turns at once (a random legal
action; ``ready`` at each hand-end review) and, the whole time, sends a ``ping`` every
``--every`` seconds and times the ``pong`` — the round trip as a person at the table would
feel it, measured from outside the host's process.

Slices of ``--seconds`` each, with ``random`` bots and with ``expert`` bots taking turns in
ONE run (a fresh host process each slice, random first), ``--slices`` of each. Prints the
pooled p50 / p99 / max of each level, and the ratio of the expert p99 to the random p99
(issue 23's goal: within 5x).

    python bench/responsive.py [--slices 3] [--seconds 8] [--every 0.02] [--levels random,expert]

Run it against another checkout with ``PYTHONPATH=/that/checkout python bench/responsive.py``
(the bench puts its own checkout first on the path only when PYTHONPATH is not set).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # bench/net.py is not net
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(HERE.parent))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def host_process(level: str, ready: mp.Queue, stop: mp.Event) -> None:
    """The host: a table of three, the player's seat 0 reserved, two ``level`` bots."""
    try:  # a checkout from before the host package (see the module docstring)
        from rum500.hosting import HostConfig, start_host  # type: ignore[import-not-found]
    except ImportError:
        from rum500.host import HostConfig, start_host  # type: ignore[no-redef]
    import rum500.bots

    ready.put(str(Path(rum500.bots.__file__).parent.parent))  # which checkout hosts
    from net.server import Limits
    from rum500.rules import Options

    if os.environ.get("BENCH_SWITCH"):  # an experiment: the GIL's switch interval
        sys.setswitchinterval(float(os.environ["BENCH_SWITCH"]))

    async def main() -> None:
        host = await start_host(
            HostConfig(
                players=3,
                bots=2,
                bot_level=level,
                seed=1,
                host_player="Ann",
                options=Options(target=10**6),
                takeover_after=None,
                bot_delay=0.0,
                limits=Limits(rate=1e6, burst=1e6),  # the pings are not a flood
            )
        )
        ready.put((host.port, host.token))
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await host.close()

    asyncio.run(main())


async def seated_player(port: int, token: str, seconds: float, every: float) -> tuple:
    """Sit at seat 0, play own turns, ping all along; (round trips in ms, own actions,
    table actions seen)."""
    from net.client import Client
    from rum500.bots import make_bot

    client = await Client.connect("127.0.0.1", port, name="Ann", token=token)
    bot = make_bot("random", 5)
    pongs: asyncio.Queue[float] = asyncio.Queue()
    trips: list[float] = []
    played = 0
    turn = asyncio.Event()

    async def read() -> None:
        async for msg in client.messages():
            if msg.get("type") == "pong":
                pongs.put_nowait(time.monotonic())
            elif client.view:
                turn.set()

    async def play() -> None:
        nonlocal played
        while True:
            await turn.wait()
            turn.clear()
            view = client.view
            if not view:
                continue
            try:
                if view.get("phase") == "hand_over":
                    if client.seat in (view.get("review") or {}).get("waiting", []):
                        await client.act({"type": "ready"})
                elif view.get("turn") == client.seat and view.get("legal_actions"):
                    await client.act(bot.choose(view))
                    played += 1
            except Exception:  # a stale view (the table moved on): look again
                pass

    async def ping() -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t0 = time.monotonic()
            client._send({"type": "ping"})  # its pong comes to messages() (not our own ping)
            t1 = await asyncio.wait_for(pongs.get(), 30)
            trips.append((t1 - t0) * 1000)
            await asyncio.sleep(every)

    tasks = [asyncio.create_task(read()), asyncio.create_task(play())]
    try:
        await ping()
    finally:
        for t in tasks:
            t.cancel()
        seen = client.seq
        await client.close()
    return trips, played, seen


def run_slice(level: str, seconds: float, every: float) -> tuple:
    ctx = mp.get_context("spawn")
    ready: mp.Queue = ctx.Queue()
    stop = ctx.Event()
    proc = ctx.Process(target=host_process, args=(level, ready, stop))
    proc.start()
    try:
        print(f"  host from {ready.get(timeout=60)}", flush=True)
        port, token = ready.get(timeout=60)
        return asyncio.run(seated_player(port, token, seconds, every))
    finally:
        stop.set()
        proc.join(10)
        if proc.is_alive():
            proc.kill()


def figures(trips: list[float]) -> str:
    return (
        f"p50 {percentile(trips, 50):7.2f} ms   p99 {percentile(trips, 99):7.2f} ms   "
        f"max {max(trips):7.1f} ms   ({len(trips)} pings)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slices", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--every", type=float, default=0.02)
    parser.add_argument("--levels", default="random,expert")
    args = parser.parse_args()
    levels = args.levels.split(",")
    pooled: dict[str, list[float]] = {level: [] for level in levels}
    import rum500

    print(f"rum500 from {Path(rum500.__file__).parent}")
    for k in range(args.slices):
        for level in levels:
            trips, played, seen = run_slice(level, args.seconds, args.every)
            pooled[level] += trips
            print(
                f"slice {k + 1} {level:7s} {figures(trips)}  table actions {seen}, own {played}",
                flush=True,
            )
    print()
    for level in levels:
        print(f"{level:7s} {figures(pooled[level])}")
    if "random" in pooled and "expert" in pooled:
        ratio = percentile(pooled["expert"], 99) / percentile(pooled["random"], 99)
        print(f"expert p99 / random p99 = {ratio:.1f}x (goal: within 5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
