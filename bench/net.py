"""Benchmark of the host and the wire on loopback.

8 seats of zero-delay bots (behind the client library) and 32 spectators, each group in
processes of their own, the host in another. Closed loop: an action is sent once every
connection has the previous update. For every action: the time from the moment the acting
seat sends it until the moment the *last* of the 40 connections has the whole
update frame (p50, p99); the bytes of an update per connection; and, in the same run, a bare
msgpack echo round trip over loopback TCP.

The fan-out floor: the same processes, sockets, framing (net/framing.py), connections and
closed loop with a do-nothing relay in place of the host. The relay knows no game: for the
k-th action it is sent it writes every connection the frame that connection got from the
host for the k-th action of the host's slice before (the same bytes, the ``seq`` stamped
anew), then ``accepted`` to the acting seat — the host's framing and writing, minus
applying the action and building and packing views. Host and relay take turns in slices
(``--slices`` of each, fresh processes each slice, host first); the ratio of their p50s is
the host's overhead over the floor (the issue's goal: within 1.3x).

    python bench/net.py [--actions 1500] [--slices 3] [--spectators 32] [--seats 8]
                        [--procs 4] [--log-dir DIR] [--whole-views] [--profile FILE]

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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net.client import Client  # noqa: E402
from net.framing import HEADER, ConnectionClosed, decode, encode, read_frame  # noqa: E402
from net.protocol import check_client_message  # noqa: E402
from net.server import ActionHandler, Connection, Limits  # noqa: E402


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
    if (ROOT / "rum500" / "host" / "__init__.py").exists():
        from rum500.host import HostConfig, start_host
    else:  # before issue 23 (a worktree of an older commit, to compare with)
        from rum500.hosting import HostConfig, start_host  # type: ignore[no-redef]
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
        spent: list[float] = []

        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()

        def timed(handle: ActionHandler) -> ActionHandler:  # the host's own time: the action
            # read → every update written
            def timed_handle(conn: Connection, msg: dict) -> None:
                if profiler is not None:
                    profiler.enable()
                t0 = time.perf_counter()
                handle(conn, msg)
                spent.append(time.perf_counter() - t0)
                if profiler is not None:
                    profiler.disable()

            return timed_handle

        host.wrap_actions(timed)
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

    def __init__(
        self,
        done: asyncio.Future,
        on_state: Callable[[Watcher, int], None],
        keep: bool = False,
    ) -> None:
        self.welcomed = done.get_loop().create_future()
        self.buffer = b""
        self.got: dict[int, tuple[float, int]] = {}
        #: the frames themselves by seq, when kept (the relay sends them again)
        self.frames: dict[int, bytes] | None = {} if keep else None
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
            frame = self.buffer[: HEADER.size + length]
            self.buffer = self.buffer[HEADER.size + length :]
            msg = decode(frame[HEADER.size :])
            if msg["type"] == "welcome" and not self.welcomed.done():
                self.welcomed.set_result(None)
            elif msg["type"] == "error" and not self.welcomed.done():
                self.welcomed.set_exception(RuntimeError(f"refused: {msg}"))
            elif msg["type"] == "ping":
                self.transport.write(encode({"type": "pong"}))
            elif msg["type"] == "state":
                self.got[msg["seq"]] = (now, length + HEADER.size)
                if self.frames is not None:
                    self.frames[msg["seq"]] = frame
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
    keep: bool = False,
) -> None:
    """``n`` spectators; with ``keep`` the first keeps the frames it gets (for the relay)."""

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
                lambda d=done, k=keep and i == 0: Watcher(d, on_state, k), "127.0.0.1", port
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
        out.put(([w.got for w in watchers], watchers[0].frames if watchers else None))

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
    script: list[int] | None = None,
) -> None:
    """The seats' closed loop. Against the host, random bots play ``actions`` actions; with
    ``script`` (against the relay) the seats named act in turn with a stock draw, which the
    relay does not read. Puts (sent times, arrivals per seat, acting seat by seq, frames
    per seat by seq) on ``out``."""
    if script is None:
        from rum500.bots import make_bot

    async def main() -> None:
        frames: list[list[tuple[float, bytes]]] = [[] for _ in range(seats)]

        def tracer(k: int) -> Callable[[bytes], None]:
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
        sent: dict[int, float] = {}
        acted: dict[int, int] = {}
        seq = 1
        while not all(c.seq >= 1 for c in clients):
            await asyncio.sleep(0.01)
        for seat in script or ():
            while min(c.seq for c in clients) < seq or min(have) < seq:
                await asyncio.sleep(0.0002)
            t0 = time.monotonic()
            reply = await by_seat[seat].act({"type": "draw", "source": "stock"})
            seq = reply["seq"]
            sent[seq] = t0
        bots = {c.seat: make_bot("random", c.seat) for c in clients} if script is None else {}
        for _ in range(actions if script is None else 0):
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
            acted[seq] = c.seat
        last_seq.value = seq
        while min(c.seq for c in clients) < seq or min(have) < seq:
            await asyncio.sleep(0.001)
        await clients[0].chat("bye")
        await asyncio.sleep(0.5)
        for c in clients:
            await c.close()
        arrivals = []
        kept: dict[int, dict[int, bytes]] = {}
        for client, conn in zip(clients, frames, strict=True):
            got = {}
            mine = kept[client.seat] = {}
            for t, frame in conn:
                msg = decode(frame[HEADER.size :])
                if msg.get("type") == "state":
                    got[msg["seq"]] = (t, len(frame))
                    if msg["seq"] in acted:
                        mine[msg["seq"]] = frame
            arrivals.append(got)
        out.put((sent, arrivals, acted, kept))

    asyncio.run(main())


# ---------------------------------------------------------------------- the relay

#: one update the relay sends again: (the acting seat, each seat's frame, the spectators')
Update = tuple[int, dict[int, bytes], bytes]


def restamp(frame: bytes, seq: int) -> bytes:
    """``frame`` (a ``state``) with ``seq`` in place of its own: the same size, give or take
    the bytes of the number."""
    msg = decode(frame[HEADER.size :])
    msg["seq"] = seq
    return encode(msg)


def relay_process(
    seats: int, updates: list[Update], ports: mp.Queue, stop: mp.Event, costs: mp.Queue
) -> None:
    """The fan-out floor: a server that knows no game. It reads frames and checks messages
    as the host does (net/framing.py, net/protocol.py); the k-th action it is sent is
    answered with ``updates[k]``'s frames, built before the first action (``seq`` 2 + k),
    one write per connection in the order they joined, then ``accepted`` to the actor."""
    prebuilt = []
    for k, (_, by_seat, spectators) in enumerate(updates):
        seq = 2 + k
        prebuilt.append(
            ({s: restamp(f, seq) for s, f in by_seat.items()}, restamp(spectators, seq))
        )

    async def main() -> None:
        members: list[tuple[int | None, asyncio.Transport]] = []
        taken = [False] * seats
        spent: list[float] = []
        done = 0

        def fan_out(writer: asyncio.StreamWriter, ident: int) -> None:
            nonlocal done
            by_seat, spectators = prebuilt[done]
            done += 1
            for seat, transport in members:
                if not transport.is_closing():
                    transport.write(spectators if seat is None else by_seat[seat])
            writer.write(encode({"type": "accepted", "id": ident, "seq": 1 + done}))

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                hello = check_client_message(await read_frame(reader))
                seat = None
                if not hello["spectate"]:
                    seat = taken.index(False)
                    taken[seat] = True
                welcome = {"type": "welcome", "version": hello["version"], "seat": seat}
                welcome |= {"token": "relay", "name": hello["name"], "table": {"id": "relay"}}
                writer.write(encode(welcome))
                writer.write(encode({"type": "state", "seq": 1, "by": None, "view": {}}))
                members.append((seat, writer.transport))  # type: ignore[arg-type]
                while True:
                    msg = check_client_message(await read_frame(reader))
                    if msg["type"] == "action":
                        t0 = time.perf_counter()
                        fan_out(writer, msg["id"])
                        spent.append(time.perf_counter() - t0)
                    elif msg["type"] == "chat":
                        said = encode({"type": "chat", "seat": seat, "text": msg["text"]})
                        for _, transport in members:
                            transport.write(said)
                    elif msg["type"] == "ping":
                        writer.write(encode({"type": "pong", "seq": 1 + done}))
                    elif msg["type"] == "leave":
                        break
            except ConnectionClosed:
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        ports.put(server.sockets[0].getsockname()[1])
        while not stop.is_set():
            await asyncio.sleep(0.1)
        costs.put(spent)
        server.close()

    asyncio.run(main())


# ---------------------------------------------------------------------- the echo


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


def run_slice(args: argparse.Namespace, updates: list[Update] | None, profile: str | None) -> dict:
    """One slice: the host (``updates`` None) or the relay sending ``updates`` again, with
    fresh spectator and seat processes. Returns the figures and, for the host, the updates
    the relay is to send."""
    stop = mp.Event()
    ports: mp.Queue = mp.Queue()
    costs: mp.Queue = mp.Queue()
    if updates is None:
        server_args = (args.seats, ports, stop, costs, args.log_dir, profile)
        server = mp.Process(target=host_process, args=server_args)
    else:
        server = mp.Process(target=relay_process, args=(args.seats, updates, ports, stop, costs))
    server.start()
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
    deltas = not args.whole_views
    watchers = [
        mp.Process(
            target=spectator_process,
            args=(port, n, last_seq, have, slot, ready, out, deltas, updates is None and slot == 0),
        )
        for slot, n in enumerate(per)
    ]
    for w in watchers:
        w.start()
    for _ in range(args.spectators):
        ready.get(timeout=30)
    seats_out: mp.Queue = mp.Queue()
    script = None if updates is None else [by for by, _, _ in updates]
    player = mp.Process(
        target=seats_process,
        args=(port, args.seats, args.actions, last_seq, have, seats_out, deltas, script),
    )
    player.start()
    sent, seat_arrivals, acted, seat_frames = seats_out.get(timeout=600)
    results = [out.get(timeout=60) for _ in watchers]
    spectator_arrivals = [r for got, _ in results for r in got]
    spectator_frames = next((frames for _, frames in results if frames is not None), None)
    stop.set()
    server_costs = costs.get(timeout=30)
    for p in (player, *watchers, server):
        p.join(10)

    connections = [*seat_arrivals, *spectator_arrivals]
    latencies, firsts = [], []
    for seq, t0 in sent.items():
        arrived = [conn[seq][0] for conn in connections if seq in conn]
        if len(arrived) == len(connections):
            latencies.append(max(arrived) - t0)
            firsts.append(min(arrived) - t0)
    new_updates: list[Update] | None = None
    if updates is None:
        new_updates = [
            (acted[seq], {s: f[seq] for s, f in seat_frames.items()}, spectator_frames[seq])
            for seq in sorted(acted)
            if spectator_frames is not None and seq in spectator_frames
        ]
    return {
        "latencies": latencies,
        "firsts": firsts,
        "costs": server_costs,
        "sent": sent,
        "seat_arrivals": seat_arrivals,
        "spectator_arrivals": spectator_arrivals,
        "connections": len(connections),
        "updates": new_updates,
    }


def figures(values: list[float]) -> str:
    ms = 1000
    return f"p50 {percentile(values, 50) * ms:.3f} ms, p99 {percentile(values, 99) * ms:.3f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=1500, help="actions in all host slices")
    ap.add_argument("--slices", type=int, default=3, help="slices of the host and of the relay")
    ap.add_argument("--seats", type=int, default=8)
    ap.add_argument("--spectators", type=int, default=32)
    ap.add_argument("--procs", type=int, default=4, help="processes for the spectators")
    ap.add_argument("--log-dir", help="the host keeps its game log in this folder")
    ap.add_argument(
        "--whole-views", action="store_true", help="whole views in every update, no deltas"
    )
    ap.add_argument(
        "--profile",
        metavar="FILE",
        help="cProfile the host's handling of actions (its first slice) into FILE",
    )
    args = ap.parse_args()
    per_slice = max(1, args.actions // args.slices)
    args.actions = per_slice

    stop = mp.Event()
    ports: mp.Queue = mp.Queue()
    echo = mp.Process(target=echo_server, args=(ports, stop))
    echo.start()
    floor = asyncio.run(echo_floor(ports.get(timeout=10), 3000))
    stop.set()
    echo.join(10)

    hosts: list[dict] = []
    relays: list[dict] = []
    for k in range(args.slices):
        host = run_slice(args, None, args.profile if k == 0 else None)
        hosts.append(host)
        relays.append(run_slice(args, host["updates"], None))
        h, r = hosts[-1]["latencies"], relays[-1]["latencies"]
        print(
            f"  slice {k + 1}: host {figures(h)} | relay {figures(r)} | "
            f"p50 ratio {statistics.median(h) / statistics.median(r):.2f}x",
            flush=True,
        )

    report(args, hosts, relays, floor)
    return 0


def report(
    args: argparse.Namespace, hosts: list[dict], relays: list[dict], floor: list[float]
) -> None:
    """Print the figures of every slice pooled: the host's, the relay's, their ratio."""

    def pooled(runs: list[dict], key: str) -> list[float]:
        return [v for run in runs for v in run[key]]

    latencies = pooled(hosts, "latencies")
    relay_latencies = pooled(relays, "latencies")
    firsts = pooled(hosts, "firsts")
    host_costs = pooled(hosts, "costs")
    relay_costs = pooled(relays, "costs")
    connections = hosts[0]["connections"]
    seat_sizes, spec_sizes = [], []
    for run in hosts:
        sent = run["sent"]
        seat_sizes += [s for c in run["seat_arrivals"] for q, (_, s) in c.items() if q in sent]
        spec_sizes += [s for c in run["spectator_arrivals"] for q, (_, s) in c.items() if q in sent]
    sizes = seat_sizes + spec_sizes
    relay_sizes = [
        s
        for run in relays
        for c in run["seat_arrivals"] + run["spectator_arrivals"]
        for q, (_, s) in c.items()
        if q in run["sent"]
    ]
    ms = 1000
    floor_p50 = statistics.median(floor) * ms
    p50 = percentile(latencies, 50) * ms
    p99 = percentile(latencies, 99) * ms
    relay_p50 = percentile(relay_latencies, 50) * ms
    print(
        f"rum500 net benchmark: {args.seats} seats of zero-delay bots + "
        f"{args.spectators} spectators on loopback, {len(latencies)} actions measured "
        f"({args.slices} host slices taking turns with {args.slices} relay slices), "
        f"{'whole views' if args.whole_views else 'deltas'}, "
        f"game log {'in ' + args.log_dir if args.log_dir else 'off'}"
    )
    print(
        f"  host:  send -> last of {connections} connections has the update: "
        f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {max(latencies) * ms:.2f} ms"
    )
    print(
        f"  relay: send -> last of {connections} connections has the update: "
        f"{figures(relay_latencies)}  ({len(relay_latencies)} actions; the fan-out floor)"
    )
    ratios = [
        statistics.median(h["latencies"]) / statistics.median(r["latencies"])
        for h, r in zip(hosts, relays, strict=True)
    ]
    print(
        f"  host p50 / fan-out floor p50 = {p50 / relay_p50:.2f}x  (goal: within 1.3x); "
        f"median of the slices' ratios {statistics.median(ratios):.2f}x"
    )
    print(
        f"  send -> first connection has the update (host processing + one hop): {figures(firsts)}"
    )
    print(
        f"  host time per action (apply, views, {connections} frames written): "
        f"{figures(host_costs)}; relay's (the same frames written): {figures(relay_costs)}"
    )
    print(
        f"  bytes per update per connection: mean {statistics.mean(sizes):.0f} "
        f"(seats {statistics.mean(seat_sizes):.0f}, spectators "
        f"{statistics.mean(spec_sizes) if spec_sizes else 0:.0f}), max {max(sizes)}; "
        f"the relay's: mean {statistics.mean(relay_sizes):.0f}, max {max(relay_sizes)}"
    )
    print(
        f"  bare msgpack echo round trip on loopback: p50 {floor_p50:.3f} ms, "
        f"p99 {percentile(floor, 99) * ms:.3f} ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
