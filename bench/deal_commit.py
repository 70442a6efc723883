"""Benchmark: what committed deals (docs/protocol.md §17) cost a player.

* the engine: a committed deal (SHA-256 key, stream, Fisher–Yates, cut) against a deal from
  the match's random state, per deal;
* a solo table as ``rum500 play`` runs it (the host in this process on 127.0.0.1, one bot,
  one seated client of this program's own class): the time from the client's connection to
  the first hand on its screen (a ``state`` with its hand), and from its ``ready`` at a
  hand-end review to the next hand's ``state`` — with commitments (no fixed seed: the start
  and the deal wait for the client's contribution, one loopback round trip) and without (a
  fixed seed). Prints the median and the worst of ``--tables`` tables.

    python bench/deal_commit.py [--tables 20] [--deals 2000]

Run it against another checkout with ``PYTHONPATH=/that/checkout python bench/deal_commit.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.client import ActionRefused  # noqa: E402
from rum500.client import RumClient  # noqa: E402
from rum500.host import HostConfig, start_host  # noqa: E402
from rum500.rules import Game, Options  # noqa: E402
from rum500.rules.shuffle import commitment  # noqa: E402


def engine(deals: int) -> tuple[float, float]:
    """Microseconds per deal: committed, from the random state."""
    games = [Game(2, k) for k in range(deals)]
    actions = []
    for _ in range(deals):
        secret = secrets.token_hex(32)
        actions.append(
            {
                "type": "deal",
                "commitment": commitment(secret),
                "secret": secret,
                "contributions": [secrets.token_hex(32), None],
            }
        )
    t = time.perf_counter()
    for g, a in zip(games, actions, strict=True):
        g.apply(a)
    committed = (time.perf_counter() - t) / deals * 1e6
    games = [Game(2, k) for k in range(deals)]
    t = time.perf_counter()
    for g in games:
        g._deal(None)  # the same work as a deal between hands, from the random state
    plain = (time.perf_counter() - t) / deals * 1e6
    return committed, plain


async def one_table(seed: int | None) -> tuple[float, float]:
    """Seconds: connection -> first hand; ready -> next hand."""
    host = await start_host(
        HostConfig(
            players=2,
            bots=1,
            seed=seed,
            bot_level="random",
            options=Options(target=5000, empty_stock="end"),
        )
    )
    try:
        t = time.perf_counter()
        client = await RumClient.connect(host.address, host.port, name="Ann")
        first = None
        ready_at = None
        again = None
        async for msg in client.messages():
            if msg.get("type") != "state" or not msg["view"].get("hand"):
                continue
            view = msg["view"]
            if first is None:
                first = time.perf_counter() - t
            if ready_at is not None and view["hand_number"] == 2:
                again = time.perf_counter() - ready_at
                break
            if msg["seq"] != client.seq:
                continue
            review = view.get("review")
            if review and client.seat in (review.get("waiting") or []) and ready_at is None:
                ready_at = time.perf_counter()
                await client.act({"type": "ready"})
            elif view["turn"] == client.seat and view["legal_actions"]:
                legal = view["legal_actions"]
                pick = next((a for a in legal if a.get("source") == "stock"), None) or next(
                    (a for a in legal if a["type"] == "discard"), legal[0]
                )  # the stock runs out soon: the hand ends (empty_stock "end")
                with contextlib.suppress(ActionRefused):  # a view the bot has moved past
                    await client.act(pick)
        await client.close()
        return first or 0.0, again or 0.0
    finally:
        await host.close()


async def tables(n: int, seed: int | None) -> tuple[list[float], list[float]]:
    starts, deals = [], []
    for _ in range(n):
        s, d = await one_table(seed)
        starts.append(s)
        deals.append(d)
    return starts, deals


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:6.1f} ms, worst {max(values) * 1e3:6.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--deals", type=int, default=2000)
    args = ap.parse_args()
    committed, plain = engine(args.deals)
    print(f"engine: a committed deal {committed:.0f} µs, a deal from the seed {plain:.0f} µs")
    for label, seed in (("committed (no --seed)", None), ("not committed (--seed)", 7)):
        starts, deals = asyncio.run(tables(args.tables, seed))
        print(f"{label:24} connect -> first hand: {ms(starts)}")
        print(f"{'':24} ready -> next hand:     {ms(deals)}")


if __name__ == "__main__":
    main()
