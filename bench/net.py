"""Benchmark of the host and the wire on loopback.

8 seats of zero-delay bots (behind the client library) and 32 spectators, each group in
processes of their own, the host in another. Closed loop: an action is sent once every
connection has the previous update. For every action: the time from the moment the acting
seat sends it until the moment the *last* of the 40 connections has the whole
update frame (p50, p99); the bytes of an update per connection; and, in the same run, a bare
msgpack echo round trip over loopback TCP as the floor.

    python bench/net.py [--actions 1500] [--spectators 32] [--seats 8] [--procs 4]
                        [--log-dir DIR] [--whole-views] [--profile FILE]

``--log-dir DIR`` gives the host its game log (``DIR/games.sqlite3``, as ``rum500 host``
keeps it): every action is then on disk before anyone is told of it. ``--whole-views``
has every connection ask for whole views instead of deltas (the protocol before deltas).
``--profile FILE`` writes a cProfile of the host's handling of actions (``pstats`` reads it).

Times come from ``time.monotonic`` (one clock for every process on Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net.client import Client  # noqa: E402
from net.framing import HEADER, decode, encode, read_frame  # noqa: E402
from net.server import Limits  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


# ---------------------------------------------------------------------- the host


def host_process(
    seats: int,
    ports: mp.Queue,
    stop: mp.Event,
    costs: mp.Queue,
    log_dir: str | None,
    profile: str | None = None,
) -> None:
    from rum500.hosting import HostConfig, start_host
    from rum500.rules import Options

    journal = None
    if log_dir:
        from rum500.store.journal import Journal

        Path(log_dir).mkdir(parents=True, exist_ok=True)
        journal = Journal(Path(log_dir) / "games.sqlite3")

    async def main() -> None:
        host = await start_host(
            HostConfig(
                players=seats,
                bots=0,
                seed=1,
                options=Options(target=10**6),
                limits=Limits(rate=1e6, burst=1e6),
                takeover_after=None,
                journal=journal,
            )
        )
        server = host.server
        handle = server._on_action
        spent: list[float] = []

        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()

        def timed(conn, msg):  # the host's own time: the action read → every update written
            if profiler is not None:
                profiler.enable()
            t0 = time.perf_counter()
            handle(conn, msg)
            spent.append(time.perf_counter() - t0)
            if profiler is not None:
                profiler.disable()

        server._on_action = timed
        ports.put(host.port)
        while not stop.is_set():
            await asyncio.sleep(0.1)
        costs.put(spent)
        if profiler is not None:
            profiler.dump_stats(profile)
        await host.close()

    asyncio.run(main())
    if journal is not None:
        journal.close()


# ---------------------------------------------------------------------- spectators


class Watcher(asyncio.Protocol):
    """A spectator as a bare protocol: each frame is stamped the moment its bytes are in."""

    def __init__(self, done: asyncio.Future, on_state) -> None:
        self.welcomed = done.get_loop().create_future()
        self.buffer = b""
        self.got: dict[int, tuple[float, int]] = {}
        self.done = done
        self.on_state = on_state
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer)
            if len(self.buffer) < HEADER.size + length:
                return
            payload = self.buffer[HEADER.size : HEADER.size + length]
            self.buffer = self.buffer[HEADER.size + length :]
            msg = decode(payload)
            if msg["type"] == "welcome" and not self.welcomed.done():
                self.welcomed.set_result(None)
            elif msg["type"] == "error" and not self.welcomed.done():
                self.welcomed.set_exception(RuntimeError(f"refused: {msg}"))
            elif msg["type"] == "ping":
                self.transport.write(encode({"type": "pong"}))
            elif msg["type"] == "state":
                self.got[msg["seq"]] = (now, length + HEADER.size)
                self.on_state(self, msg["seq"])
            elif msg["type"] == "chat" and not self.done.done():
                self.done.set_result(None)  # the seats say goodbye in a chat

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


def spectator_process(
    port: int,
    n: int,
    last_seq: mp.Value,
    have: mp.Array,
    slot: int,
    ready: mp.Queue,
    out: mp.Queue,
    deltas: bool,
) -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        latest: dict[Watcher, int] = {}

        def on_state(w: Watcher, seq: int) -> None:
            latest[w] = seq
            have[slot] = min(latest.values())

        watchers = []
        for i in range(n):
            done = loop.create_future()
            _, w = await loop.create_connection(
                lambda d=done: Watcher(d, on_state), "127.0.0.1", port
            )
            latest[w] = 0
            w.transport.write(
                encode(
                    {
                        "type": "hello",
                        "version": 1,
                        "name": f"spec{i}",
                        "spectate": True,
                        "deltas": deltas,
                    }
                )
            )
            # one at a time: the host lets only 8 sockets of an address wait to say hello
            await asyncio.wait_for(w.welcomed, 30)
            watchers.append(w)
            ready.put(1)
        await asyncio.gather(*(w.done for w in watchers))
        for w in watchers:
            w.transport.close()
        out.put([w.got for w in watchers])

    asyncio.run(main())


# ---------------------------------------------------------------------- the seats


def seats_process(
    port: int,
    seats: int,
    actions: int,
    last_seq: mp.Value,
    have: mp.Array,
    out: mp.Queue,
    deltas: bool,
) -> None:
    from rum500.bots import make_bot

    async def main() -> None:
        frames: list[list[tuple[float, bytes]]] = [[] for _ in range(seats)]

        def tracer(k: int):
            def trace(frame: bytes) -> None:
                frames[k].append((time.monotonic(), frame))  # decoded after the run

            return trace

        # (a client from before deltas has no such option: it always had whole views)
        knows = "deltas" in inspect.signature(Client.connect).parameters
        options = {"deltas": deltas} if knows else {}
        clients = [
            await Client.connect("127.0.0.1", port, name=f"bot{k}", trace=tracer(k), **options)
            for k in range(seats)
        ]
        by_seat = {c.seat: c for c in clients}
        bots = {c.seat: make_bot("random", c.seat) for c in clients}
        sent: dict[int, float] = {}
        seq = 1
        while not all(c.seq >= 1 for c in clients):
            await asyncio.sleep(0.01)
        for _ in range(actions):
            # closed loop: the next action is sent once every connection has the last update
            while min(c.seq for c in clients) < seq or min(have) < seq:
                await asyncio.sleep(0.0002)
            c = by_seat[clients[0].view["turn"]]
            if c.view["phase"] == "hand_over":  # the hand-end review: all ready, the host deals
                for r in clients:
                    reply = await r.act({"type": "ready"})
                seq = reply["seq"] + 1
                continue
            action = bots[c.seat].choose(c.view)
            t0 = time.monotonic()
            reply = await c.act(action)
            seq = reply["seq"]
            sent[seq] = t0
        last_seq.value = seq
        while min(c.seq for c in clients) < seq or min(have) < seq:
            await asyncio.sleep(0.001)
        await clients[0].chat("bye")
        await asyncio.sleep(0.5)
        for c in clients:
            await c.close()
        arrivals = []
        for conn in frames:
            got = {}
            for t, frame in conn:
                msg = decode(frame[HEADER.size :])
                if msg.get("type") == "state":
                    got[msg["seq"]] = (t, len(frame))
            arrivals.append(got)
        out.put((sent, arrivals))

    asyncio.run(main())


# ---------------------------------------------------------------------- the floor


def echo_server(ports: mp.Queue, stop: mp.Event) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                writer.write(encode(await read_frame(reader)))
        except Exception:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        ports.put(server.sockets[0].getsockname()[1])
        while not stop.is_set():
            await asyncio.sleep(0.1)
        server.close()

    asyncio.run(main())


async def echo_floor(port: int, rounds: int) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    msg = {"type": "action", "id": 1, "action": {"type": "draw", "source": "stock"}}
    times = []
    for i in range(rounds):
        msg["id"] = i
        t0 = time.monotonic()
        writer.write(encode(msg))
        await read_frame(reader)
        times.append(time.monotonic() - t0)
    writer.close()
    return times


# ---------------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1500)
    ap.add_argument("--seats", type=int, default=8)
    ap.add_argument("--spectators", type=int, default=32)
    ap.add_argument("--procs", type=int, default=4, help="processes for the spectators")
    ap.add_argument("--log-dir", help="the host keeps its game log in this folder")
    ap.add_argument(
        "--whole-views", action="store_true", help="whole views in every update, no deltas"
    )
    ap.add_argument(
        "--profile", metavar="FILE", help="cProfile the host's handling of actions into FILE"
    )
    args = ap.parse_args()

    stop = mp.Event()
    ports: mp.Queue = mp.Queue()
    echo = mp.Process(target=echo_server, args=(ports, stop))
    echo.start()
    floor = asyncio.run(echo_floor(ports.get(timeout=10), 3000))

    costs: mp.Queue = mp.Queue()
    host = mp.Process(
        target=host_process, args=(args.seats, ports, stop, costs, args.log_dir, args.profile)
    )
    host.start()
    port = ports.get(timeout=20)
    last_seq = mp.Value("q", 0)
    ready: mp.Queue = mp.Queue()
    out: mp.Queue = mp.Queue()
    per = [
        args.spectators // args.procs + (i < args.spectators % args.procs)
        for i in range(args.procs)
    ]
    per = [n for n in per if n]
    have = mp.Array("q", len(per) or 1)
    if not per:
        have[0] = 2**62  # no spectators to wait for
    watchers = [
        mp.Process(
            target=spectator_process,
            args=(port, n, last_seq, have, slot, ready, out, not args.whole_views),
        )
        for slot, n in enumerate(per)
    ]
    for w in watchers:
        w.start()
    for _ in range(args.spectators):
        ready.get(timeout=30)
    seats_out: mp.Queue = mp.Queue()
    player = mp.Process(
        target=seats_process,
        args=(port, args.seats, args.actions, last_seq, have, seats_out, not args.whole_views),
    )
    player.start()
    sent, seat_arrivals = seats_out.get(timeout=600)
    spectator_arrivals = [r for _ in watchers for r in out.get(timeout=60)]
    stop.set()
    host_costs = costs.get(timeout=30)
    for p in (player, *watchers, host, echo):
        p.join(10)

    connections = [*seat_arrivals, *spectator_arrivals]
    latencies = []
    firsts = []
    for seq, t0 in sent.items():
        arrived = [conn[seq][0] for conn in connections if seq in conn]
        if len(arrived) == len(connections):
            latencies.append(max(arrived) - t0)
            firsts.append(min(arrived) - t0)
    sizes = [size for conn in connections for seq, (_, size) in conn.items() if seq in sent]
    seat_sizes = [size for conn in seat_arrivals for seq, (_, size) in conn.items() if seq in sent]
    spec_sizes = [
        size for conn in spectator_arrivals for seq, (_, size) in conn.items() if seq in sent
    ]
    ms = 1000
    floor_p50 = statistics.median(floor) * ms
    p50 = percentile(latencies, 50) * ms
    p99 = percentile(latencies, 99) * ms
    print(
        f"rum500 net benchmark: {args.seats} seats of zero-delay bots + "
        f"{args.spectators} spectators on loopback, {len(latencies)} actions measured, "
        f"{'whole views' if args.whole_views else 'deltas'}, "
        f"game log {'in ' + args.log_dir if args.log_dir else 'off'}"
    )
    print(
        f"  send -> last of {len(connections)} connections has the update: "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {max(latencies) * ms:.2f} ms"
    )
    print(
        f"  send -> first connection has the update (host processing + one hop): "
        f"p50 {percentile(firsts, 50) * ms:.2f} ms, p99 {percentile(firsts, 99) * ms:.2f} ms"
    )
    print(
        f"  host time per action (apply, views, {len(connections)} frames written): "
        f"p50 {percentile(host_costs, 50) * ms:.2f} ms, "
        f"p99 {percentile(host_costs, 99) * ms:.2f} ms"
    )
    print(
        f"  bytes per update per connection: mean {statistics.mean(sizes):.0f} "
        f"(seats {statistics.mean(seat_sizes):.0f}, spectators "
        f"{statistics.mean(spec_sizes) if spec_sizes else 0:.0f}), max {max(sizes)}"
    )
    print(
        f"  floor, bare msgpack echo round trip on loopback: p50 {floor_p50:.3f} ms, "
        f"p99 {percentile(floor, 99) * ms:.3f} ms"
    )
    print(f"  p50 / floor = {p50 / floor_p50:.1f}x  (aim: p99 < 5 ms, p50 within 5x the floor)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
