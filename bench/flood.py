"""Fair limits, measured: a seated player's rejoin under a flood from one address, and how
fast one address can guess a table password.

    python bench/flood.py [--rounds 20] [--flood 100] [--guess-seconds 5]

Everything runs on 127.0.0.1 (one address: the worst case for the per-address caps). Each
round floods the host with ``--flood`` spectator hellos and as many sockets that never say
hello, drops a seated player and times its rejoin (connect, hello with the token, welcome).
Then one address guesses the password for ``--guess-seconds`` seconds, 8 connections at once.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net.client import Client, ConnectionLost, HandshakeError  # noqa: E402
from net.framing import encode, read_frame  # noqa: E402
from net.protocol import auth_proof  # noqa: E402
from rum500.host import Host, HostConfig, start_host  # noqa: E402
from rum500.rules import Options  # noqa: E402


async def flood(host: Host, n: int) -> list[asyncio.StreamWriter]:
    writers = []
    for i in range(n):
        _, w = await asyncio.open_connection(host.address, host.port)
        w.write(encode({"type": "hello", "version": 1, "name": f"F{i}", "spectate": True}))
        writers.append(w)
        _, silent = await asyncio.open_connection(host.address, host.port)
        writers.append(silent)
    return writers


async def rejoin(host: Host, token: str) -> float:
    started = time.perf_counter()
    while True:
        try:
            c = await Client.rejoin(host.address, host.port, token, name="Ann", timeout=5)
            break
        except HandshakeError:
            raise
        except ConnectionLost:
            await asyncio.sleep(0.01)
    took = time.perf_counter() - started
    await c.drop()
    return took


async def rejoins(rounds: int, size: int) -> list[float]:
    host = await start_host(
        HostConfig(players=3, bots=1, bot_level="random", seed=1, options=Options(target=5000))
    )
    try:
        ann = await Client.connect(host.address, host.port, name="Ann")
        bea = await Client.connect(host.address, host.port, name="Bea")
        token = ann.token or ""
        await ann.drop()
        times = []
        for _ in range(rounds):
            writers = await flood(host, size)
            times.append(await rejoin(host, token))
            for w in writers:
                w.close()
        await bea.close()
        return times
    finally:
        await host.close()


async def guesses(seconds: float) -> int:
    host = await start_host(
        HostConfig(players=3, bots=1, bot_level="random", seed=1, password="correct horse")
    )
    count = 0
    end = time.perf_counter() + seconds

    async def guesser() -> None:
        nonlocal count
        while time.perf_counter() < end:
            reader, writer = await asyncio.open_connection(host.address, host.port)
            writer.write(encode({"type": "hello", "version": 1, "name": "G"}))
            try:
                nonce = (await read_frame(reader))["nonce"]
                writer.write(encode({"type": "auth", "proof": auth_proof("guess", nonce)}))
                while True:
                    msg = await asyncio.wait_for(read_frame(reader), end - time.perf_counter())
                    if msg.get("code") == "bad_password":
                        count += 1
                        break
            except Exception:
                pass
            writer.close()

    try:
        await asyncio.gather(*(guesser() for _ in range(8)))
        return count
    finally:
        await host.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--flood", type=int, default=100)
    ap.add_argument("--guess-seconds", type=float, default=5.0)
    args = ap.parse_args()
    times = asyncio.run(rejoins(args.rounds, args.flood))
    ms = sorted(t * 1000 for t in times)
    print(
        f"rejoin under a flood of {args.flood} spectator hellos + {args.flood} silent sockets "
        f"from one address: p50 {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms, "
        f"{len(ms)} of {args.rounds} back (goal: within 1 s)"
    )
    n = asyncio.run(guesses(args.guess_seconds))
    print(
        f"password guesses from one address: {n} in {args.guess_seconds:.0f} s "
        f"({n / args.guess_seconds:.1f}/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
