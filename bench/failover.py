"""How long the players are away from the table when it changes host (issue 13 §3).

    python bench/failover.py [--reps 5] [--loopback] [--bot-delay 0.3]

Each repetition is a fresh table with real processes, as people run them: ``rum500 host
--headless`` (4 seats, one a bot, failover ``auto``) and three ``rum500 join HOST:PORT
--headless`` guests (Bea, Cy, Di: each plays its seat with a bot, and can host). With three
people who can host, failover arms the way it is meant to: one standby, the key split
between the two others. Once every guest has joined and has been told who stands by, and a
few moves have been played, one of three things happens to the host:

* **planned handoff** — ``handoff Bea`` on the host's standard input;
* **crash: SIGKILL** — the host process is killed; its machine stays up, so the guests'
  connections end at once and its port refuses them (the connection reset case);
* **crash: vanished** — the host's machine falls silent (every packet dropped; its process
  lives on, unheard, until the repetition ends): nothing tells the guests, they notice the
  silence by themselves.

* **the standby's link out** — the standby's machine falls silent for 8 s (the host and the
  other guests still hear each other): the standby must not take the table over; the figure
  is how long its player is still away once its link is back (``rejoined`` after the DROP
  rule is gone; before issue 21 its client kept knocking at its own standby's door for 30 s).

For the first three, the figure is the time from that moment (the line written, the signal
sent, the drop rule in place) until the *last* of the three guests has printed ``rejoined …
seat N``, i.e. is seated at the new host with its view; each line is timed as it arrives at
this program (``time.monotonic()``, read from the guests' pipes by threads). The "noticed"
column is the same for the guests' ``lost the host`` lines (when the last one noticed).
Median and max over the repetitions are printed against the goals (handoff ≤ 3 s, crash ≤ 10 s, back
after the standby's link returns ≤ 3 s).

The **floor**, in the same run: a plain reconnect of a client to a live host — a spectator on
a guest's machine connects to the table, then drops and reconnects five times (TCP, hello,
welcome and the whole view); the time of each reconnect, as :class:`net.client.Client`
measures it.

Where: when run as root with ``ip`` and ``iptables``, every process is on a machine of its own
(network namespaces on one bridge, tests/e2e/lan.py: host on A, guests on B, C, D; "vanished"
is an iptables DROP of everything on A). Otherwise, or with ``--loopback``, all run on
127.0.0.1 with a data folder each, and "vanished" is SIGSTOP of the host process (its kernel
still accepts connections, nothing answers them). The output says which. It borrows the
LAN harness of the end-to-end tests (tests/e2e/lan.py), so it needs the test extras (pytest).

What bounds the figures (net/client.py; the run prints their values): a client told of a
standby pings a quiet host and counts it gone after ``ARMED_IDLE`` seconds of silence; after
a loss it tries the host again (``HOST_RETRIES`` after a reset, once for ``SILENT_RETRY``
after silence) before it gives the standby its share, then tries the standby every
``STANDBY_RETRY`` seconds until it hosts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from net import client  # noqa: E402
from tests.e2e.lan import RUM500, Lan, Said  # noqa: E402

GOALS = {"handoff": 3.0, "kill": 10.0, "vanish": 10.0, "standby": 3.0}
LABELS = {
    "handoff": "planned handoff",
    "kill": "crash: SIGKILL (reset)",
    "vanish": "crash: vanished (silence)",
    "standby": "standby's link out 8 s",
}
STANDBY_OUT = 8.0  # seconds the standby's machine is silent in the "standby" case
GUESTS = ("Bea", "Cy", "Di")

FLOOR = textwrap.dedent("""
    import asyncio, json, sys, time
    from net.client import Client

    async def main(host, port, n):
        c = await Client.connect(host, port, name="floor", spectate=True)
        times = []
        for _ in range(n):
            start = time.monotonic()
            await c.reconnect()
            times.append(time.monotonic() - start)
        await c.close()
        print(json.dumps(times), flush=True)

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
""")


class LoopMachine:
    """A "machine" on loopback: processes with a data folder of their own (the API of
    tests/e2e/lan.py's Machine that this benchmark uses)."""

    addr = "127.0.0.1"

    def __init__(self, home: Path) -> None:
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen] = []

    def run(self, cmd: list[str], **kw: Any) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        env["RUM500_HOME"] = str(self.home)
        proc = subprocess.Popen(
            cmd, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw
        )
        self.procs.append(proc)
        return proc

    def call(self, cmd: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "RUM500_HOME": str(self.home)}
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)

    def _signal(self, sig: int) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(sig)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)
        for proc in self.procs:
            proc.wait()
        self.procs.clear()

    def block(self) -> None:
        self._signal(signal.SIGSTOP)  # silence: nothing answers, the kernel still accepts

    def unblock(self) -> None:
        self._signal(signal.SIGCONT)


def can_use_namespaces() -> bool:
    return (
        os.geteuid() == 0
        and shutil.which("ip") is not None
        and shutil.which("iptables") is not None
    )


@contextmanager
def machines(loopback: bool, folder: Path) -> Iterator[tuple[list[Any], str]]:
    """Four machines (host, Bea, Cy, Di) and a line saying where they are."""
    if loopback:
        yield [LoopMachine(folder / f"m{i}") for i in range(4)], "loopback (127.0.0.1)"
        return
    with Lan(4, folder) as lan:
        yield (
            lan.machines,
            "network namespaces (host on 10.78.0.1, guests on .2 .3 .4, one bridge)",
        )


def last_time(saids: list[Said], want: str, after: list[int]) -> float:
    """When the last of ``saids`` said a line starting with ``want`` (after its index)."""
    return max(s.times[s.wait(want, 60, k)] for s, k in zip(saids, after, strict=True))


def one_table(
    ms: list[Any],
    kind: str,
    seed: int,
    bot_delay: float,
    floor: list[float],
    trace: bool = False,
) -> tuple[float, float | None]:
    """One repetition: (seconds until every guest is back, seconds until the last noticed
    the loss — None for a handoff)."""
    host_m, guest_ms = ms[0], ms[1:]
    bind = "127.0.0.1" if host_m.addr == "127.0.0.1" else "0.0.0.0"
    host = Said(
        host_m.run(
            [*RUM500, "host", "--headless", "--name", "Bench", "--players", "4", "--bots", "1"]
            + ["--bot-level", "easy", "--target", "1000", "--bot-delay", str(bot_delay)]
            + ["--seed", str(seed), "--bind", bind, "--no-announce"],
            stdin=subprocess.PIPE,
        ),
        "host",
    )
    k = host.wait("hosting table", 60)
    port = int(host.lines[k].split("'")[2].split(":")[1].split()[0])
    guests = [
        Said(
            m.run(
                [*RUM500, "join", f"{host_m.addr}:{port}", "--headless", "--name", name]
                + ["--bot-delay", str(bot_delay), "--bind", bind, "--no-announce", "--no-log"]
                + ["--seed", str(seed + i)]
            ),
            name,
        )
        for i, (m, name) in enumerate(zip(guest_ms, GUESTS, strict=True))
    ]
    for g in guests:
        g.wait("joined", 60)
    for g in guests:
        g.wait("standby named:", 60)
    for g in guests:  # a few moves under the standby
        k = g.wait("standby named:", 1)
        g.wait(lambda ln: ln.startswith("event: "), 60, k + 4)
    out = guest_ms[1].call([sys.executable, "-c", FLOOR, host_m.addr, str(port), "5"])
    if out.returncode == 0:
        floor += json.loads(out.stdout)
    else:
        print(f"  (the floor's client failed: {out.stderr.strip()[-300:]})")

    after = [len(g.lines) for g in guests]
    failed = False
    start = time.monotonic()
    if kind == "handoff":
        host.write("handoff Bea")
    elif kind == "kill":
        host.proc.kill()  # `ip netns exec` execs the program: this is the host's own pid
    elif kind == "standby":
        # the standby alone falls silent: it must not take the table; the figure is how long
        # its player is still away once its link is back (the others are never away)
        k = next(i for i, g in enumerate(guests) if g.said("standby for the table: port "))
        guest_ms[k].block()
        time.sleep(STANDBY_OUT)
        guest_ms[k].unblock()
        start = time.monotonic()
        others = [g for i, g in enumerate(guests) if i != k]
        back = guests[k].times[guests[k].wait("rejoined", 60, after[k])] - start
        took = guests[k].said(lambda ln: ln.startswith("hosting the table"))
        moved = any(g.said(lambda ln: ln.startswith("lost the host")) for g in others)
        if took or moved:
            print(f"    the standby took the table over alone (others lost the host: {moved})")
        return back, None
    else:
        host_m.block()  # the process lives on, unheard (killed by cleanup())
        start = time.monotonic()
    try:
        back = last_time(guests, "rejoined", after) - start
        noticed = None if kind == "handoff" else last_time(guests, "lost the host", after) - start
    except AssertionError:
        failed = trace = True
        raise
    finally:
        if trace:
            for g, k in zip([host, *guests], [0, *after], strict=True):
                for t, line in list(zip(g.times, g.lines, strict=True))[k:]:
                    if not line.startswith("event: "):
                        print(f"    {t - start:7.3f} s  {g.name}: {line}")
                if failed and g.errors:
                    print(f"    {g.name}'s stderr: " + "    ".join(g.errors[-20:]))
    return back, noticed


def stats(values: list[float]) -> str:
    if not values:
        return "      -          -  "
    return f"{statistics.median(values):7.3f} s  {max(values):7.3f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each case (5)")
    parser.add_argument("--loopback", action="store_true", help="127.0.0.1 even as root")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="bots' pause (0.3 s)")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--kinds", default=",".join(GOALS), help="handoff,kill,vanish,standby")
    parser.add_argument("--trace", action="store_true", help="print what the guests said")
    args = parser.parse_args(argv)
    loopback = args.loopback or not can_use_namespaces()
    results: dict[str, list[float]] = {k: [] for k in GOALS}
    noticed: dict[str, list[float]] = {k: [] for k in GOALS}
    floor: list[float] = []
    with tempfile.TemporaryDirectory(prefix="rum500-failover-") as tmp, ExitStack() as stack:
        ms, where = stack.enter_context(machines(loopback, Path(tmp)))
        print(f"rum500 failover bench — {where}; load average {os.getloadavg()[0]:.1f}")
        print(
            f"host + 3 guests that can host (Bea, Cy, Di), bots pause {args.bot_delay} s; "
            f"{args.reps} repetitions of each case",
        )
        knobs = ("ARMED_IDLE", "HOST_RETRIES", "SILENT_RETRY", "STANDBY_RETRY")
        print("net.client: " + ", ".join(f"{k} {getattr(client, k, '?')}" for k in knobs))
        print(flush=True)
        for rep in range(args.reps):
            for kind in args.kinds.split(","):
                seed = args.seed + 10 * rep
                try:
                    back, lost = one_table(ms, kind, seed, args.bot_delay, floor, args.trace)
                except AssertionError as e:
                    print(f"  {LABELS[kind]}, repetition {rep + 1}: FAILED\n{e}", flush=True)
                    back, lost = float("nan"), None
                else:
                    results[kind].append(back)
                    if lost is not None:
                        noticed[kind].append(lost)
                    print(f"  {LABELS[kind]:27} {back:7.3f} s", flush=True)
                finally:
                    cleanup(ms)
    print()
    print(f"{'':28}{'median':>9} {'max':>10}    goal            last noticed (median)")
    for kind, goal in GOALS.items():
        values = results[kind]
        met = ("met" if max(values) <= goal else "NOT met") if values else "not run"
        seen = f"{statistics.median(noticed[kind]):.2f} s" if noticed[kind] else "-"
        print(f"{LABELS[kind]:27} {stats(values)}   ≤ {goal:2.0f} s {met:8}  {seen}")
    print(f"{'floor: reconnect, live host':27} {stats(floor)}   ({len(floor)} reconnects)")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


def cleanup(ms: list[Any]) -> None:
    """Every process of every machine gone, the host's machine reachable again."""
    for m in ms:
        m.unblock() if isinstance(m, LoopMachine) else _unblock_quietly(m)
        m.kill()


def _unblock_quietly(m: Any) -> None:
    with contextlib.suppress(subprocess.CalledProcessError):  # it was not blocked
        m.unblock()


if __name__ == "__main__":
    sys.exit(main())
