"""A LAN of N machines for end-to-end tests: network namespaces joined by a bridge.

Harness API
-----------
::

    from tests.e2e.lan import RUM500, Lan, lan3  # lan3: the pytest fixture, 3 machines

    def test_something(lan3):                     # or: with Lan(4, tmp_path) as lan: ...
        a, b, c = lan3.machines                   # Machine objects, a = 10.78.0.1, b = .2, …
        host = a.run([*RUM500, "host", "--headless", "--bind", "0.0.0.0"])  # a Popen
        tables = b.wait_listed(lambda ts: any(t["name"] == "T" for t in ts))  # real zeroconf
        done = c.call([*RUM500, "list", "--json"])  # run to the end: CompletedProcess
        a.cut(); a.mend()        # the cable: link down / up (a's own sends fail at once)
        a.block(); a.unblock()   # iptables DROP of all a's traffic, the link still up (silence)
        a.lossy(0.1); a.reliable()  # 10% of a's packets lost at random, and back
        a.freeze(); a.thaw()     # SIGSTOP / SIGCONT every process of a (a laptop asleep)
        a.kill()                 # SIGKILL every process of a (the host dies; its kernel
                                 # still refuses connections to its ports: add a.block()
                                 # for a machine that vanished altogether)
        lines = Lines(host)      # a process's stdout as JSON lines, waited for with a deadline
        said = Said(host, "A")   # … as plain-text lines with their arrival times (and stderr)

- Each machine is a namespace (``machine.ns``) with ``lo`` and ``eth0`` (``machine.dev``) at
  ``machine.addr`` in 10.78.0.0/24; the bridge ``br0`` lives in a namespace of its own with
  multicast snooping off, so mDNS reaches every machine. IPv6 link-local addresses are there
  too (duplicate address detection is off, so they are usable at once). These addresses
  exist only inside the namespaces; several LANs can live side by side.
- Every machine has its own data folder (``machine.home``, given as ``RUM500_HOME`` to what it
  runs): a game log, tokens and lock files are per machine, as on separate laptops.
- :meth:`Machine.run` takes ``subprocess.Popen`` keywords (``stdin=subprocess.PIPE`` …) and
  ``env`` (extra variables); stdout and stderr are pipes of text.
- Leaving the ``with`` block (the fixture's teardown), even on failure, kills every process
  still in the LAN's namespaces and deletes them.
- Needs root and ``ip`` (iproute2); ``block`` needs ``iptables``. A missing capability skips
  the test with the reason, or fails it in CI (``tests/capability.py``).

The module also holds the helpers the two-namespace tests share (:func:`in_ns`,
:func:`run_in_ns`, :func:`list_tables`, :func:`wait_listed`, :class:`Lines`, :class:`Said`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import capability

ROOT = Path(__file__).resolve().parents[2]
RUM500 = [sys.executable, "-m", "rum500"]
SUBNET = "10.78.0"  # machine i (from 0) is SUBNET.(i + 1)/24
_serial = itertools.count()


def need_root_and_ip() -> None:
    """Skip (fail in CI) unless this runs as root with iproute2."""
    if shutil.which("ip") is None:
        capability.missing("needs iproute2 ('ip')")
    if os.geteuid() != 0:
        capability.missing("needs root for network namespaces")


def sh(*args: str) -> None:
    """Run a command, raising CalledProcessError (with its stderr) if it fails."""
    subprocess.run(args, check=True, capture_output=True, text=True)


def in_ns(ns: str, cmd: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    """``cmd`` started in namespace ``ns`` with the project on its path; stdout/stderr piped."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}
    return subprocess.Popen(
        ["ip", "netns", "exec", ns, *cmd],
        env=full_env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


def run_in_ns(
    ns: str, cmd: list[str], timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``cmd`` run to its end in namespace ``ns``."""
    p = in_ns(ns, cmd, env=env)
    try:
        out, err = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def list_tables(ns: str, timeout: float = 3.0, env: dict[str, str] | None = None) -> list[dict]:
    """What ``rum500 list --json`` finds from namespace ``ns``."""
    done = run_in_ns(ns, [*RUM500, "list", "--json", "--timeout", str(timeout)], env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def wait_listed(
    ns: str,
    predicate: Callable[[list[dict]], bool],
    tries: int = 8,
    env: dict[str, str] | None = None,
) -> list[dict]:
    """The first listing from ``ns`` that satisfies ``predicate``; fails after ``tries``."""
    tables: list[dict] = []
    for _ in range(tries):
        tables = list_tables(ns, env=env)
        if predicate(tables):
            return tables
    raise AssertionError(f"never listed as expected: {tables}")


class Lines:
    """A process's stdout as JSON lines, waited for with a deadline."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[dict] = []
        assert proc.stdout is not None
        stream = proc.stdout
        threading.Thread(target=lambda: [self.lines.put(ln) for ln in stream], daemon=True).start()

    def wait(self, want: str | Callable[[dict], bool], deadline: float = 30.0) -> dict:
        """The first line that has the key ``want`` (or satisfies it, a predicate); fails
        after ``deadline`` seconds."""
        match = (lambda msg: want in msg) if isinstance(want, str) else want
        end = time.monotonic() + deadline
        try:
            while True:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
                msg = json.loads(line)
                self.seen.append(msg)
                if match(msg):
                    return msg
        except queue.Empty:
            raise AssertionError(
                f"{want!r} not seen in {deadline} s; saw {self.seen[-5:]}"
            ) from None


class Said:
    """What a process says, one plain-text line at a time (the headless host and guests),
    each with the ``time.monotonic()`` it arrived at; waited for with a deadline. Its stderr
    is read too (kept for the failure message), so a chatty process never blocks on a full
    pipe."""

    def __init__(self, proc: subprocess.Popen, name: str = "") -> None:
        self.proc, self.name = proc, name
        self.lines: list[str] = []
        self.times: list[float] = []
        self.errors: list[str] = []
        self._news = threading.Condition()
        assert proc.stdout is not None
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()
        if proc.stderr is not None:
            stderr = proc.stderr
            threading.Thread(target=lambda: self.errors.extend(stderr), daemon=True).start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            with self._news:
                self.times.append(time.monotonic())
                self.lines.append(line.rstrip("\n"))
                self._news.notify_all()

    def wait(
        self, want: str | Callable[[str], bool], deadline: float = 30.0, after: int = 0
    ) -> int:
        """The index of the first line from index ``after`` on that starts with ``want``
        (or satisfies it, a predicate); fails after ``deadline`` seconds."""
        match = (lambda line: line.startswith(want)) if isinstance(want, str) else want
        end = time.monotonic() + deadline
        with self._news:
            k = after
            while True:
                while k < len(self.lines):
                    if match(self.lines[k]):
                        return k
                    k += 1
                left = end - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and k >= len(self.lines)):
                    time.sleep(0.2)  # the last lines of a process that ended
                    if k < len(self.lines):
                        continue
                    raise AssertionError(
                        f"{self.name}: {want!r} not said in {deadline} s "
                        f"(exit {self.proc.poll()}); said:\n"
                        + "\n".join(self.lines[-15:])
                        + "\nstderr:\n"
                        + "".join(self.errors[-15:])
                    )
                self._news.wait(min(left, 0.5))

    def said(self, want: str | Callable[[str], bool]) -> bool:
        match = (lambda line: line.startswith(want)) if isinstance(want, str) else want
        with self._news:
            return any(match(line) for line in self.lines)

    def write(self, line: str) -> None:
        """A line on the process's standard input (started with ``stdin=subprocess.PIPE``)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


class Machine:
    """One machine of a :class:`Lan`: a network namespace with one interface on the bridge."""

    dev = "eth0"

    def __init__(self, ns: str, addr: str, home: Path) -> None:
        self.ns, self.addr, self.home = ns, addr, home
        self.procs: list[subprocess.Popen] = []
        self._loss = 0.0

    def __repr__(self) -> str:
        return f"Machine({self.ns}, {self.addr})"

    @property
    def env(self) -> dict[str, str]:
        return {"RUM500_HOME": str(self.home)}

    def run(self, cmd: list[str], env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
        """``cmd`` started on this machine (see :func:`in_ns`)."""
        proc = in_ns(self.ns, cmd, env={**self.env, **(env or {})}, **kw)
        self.procs.append(proc)
        return proc

    def call(self, cmd: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
        """``cmd`` run to its end on this machine."""
        return run_in_ns(self.ns, cmd, timeout=timeout, env=self.env)

    def list_tables(self, timeout: float = 3.0) -> list[dict]:
        return list_tables(self.ns, timeout, env=self.env)

    def wait_listed(self, predicate: Callable[[list[dict]], bool], tries: int = 8) -> list[dict]:
        return wait_listed(self.ns, predicate, tries, env=self.env)

    def cut(self) -> None:
        """Pull the cable: this machine's link goes down."""
        sh("ip", "-n", self.ns, "link", "set", self.dev, "down")

    def mend(self) -> None:
        """Plug the cable back in (the address and routes are restored with it)."""
        sh("ip", "-n", self.ns, "link", "set", self.dev, "up")
        sh("ip", "-n", self.ns, "route", "replace", "224.0.0.0/4", "dev", self.dev)

    def block(self) -> None:
        """Drop every packet in and out on the LAN, the link staying up: the machine falls
        silent (no refusals, no errors on its side)."""
        if shutil.which("iptables") is None:
            capability.missing("needs iptables (a DROP rule cuts a machine off)")
        self._drop_rules("-I")

    def unblock(self) -> None:
        """Undo :meth:`block`."""
        self._drop_rules("-D")

    def lossy(self, probability: float) -> None:
        """Lose ``probability`` of the packets in and out on the LAN, at random (iptables
        ``statistic``: the kernel here has no netem)."""
        self._loss_rules("-I", probability)
        self._loss = probability

    def reliable(self) -> None:
        """Undo :meth:`lossy`."""
        self._loss_rules("-D", self._loss)

    def _loss_rules(self, verb: str, probability: float) -> None:
        if shutil.which("iptables") is None:
            capability.missing("needs iptables (random loss on a link)")
        for chain, flag in (("INPUT", "-i"), ("OUTPUT", "-o")):
            rule = [chain, flag, self.dev, "-m", "statistic", "--mode", "random"]
            rule += ["--probability", f"{probability:.3f}", "-j", "DROP"]
            for tables in ("iptables", "ip6tables"):
                sh("ip", "netns", "exec", self.ns, tables, verb, *rule)

    def _drop_rules(self, verb: str) -> None:
        """Insert (``-I``) or delete (``-D``) the DROP rules of :meth:`block`."""
        for chain, flag in (("INPUT", "-i"), ("OUTPUT", "-o")):
            rule = [chain, flag, self.dev, "-j", "DROP"]
            for tables in ("iptables", "ip6tables"):  # IPv6 link-local too: all of it silent
                sh("ip", "netns", "exec", self.ns, tables, verb, *rule)

    def pids(self) -> list[int]:
        """Every process running in this machine's namespace."""
        out = subprocess.run(
            ["ip", "netns", "pids", self.ns], capture_output=True, text=True, check=False
        ).stdout
        return [int(p) for p in out.split()]

    def signal_all(self, sig: int) -> None:
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def freeze(self) -> None:
        """Stop every process of this machine (a laptop asleep)."""
        self.signal_all(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let them run again."""
        self.signal_all(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL every process of this machine and reap the ones it started."""
        for _ in range(50):  # a process may start another as it dies
            if not self.pids():
                break
            self.signal_all(signal.SIGKILL)
            time.sleep(0.05)
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


class Lan:
    """``n`` machines joined by a bridge; a context manager that undoes it all on exit."""

    def __init__(self, n: int, home: Path) -> None:
        assert 1 <= n <= 250
        tag = f"{os.getpid() % 100000}x{next(_serial)}"
        self.switch = f"r5s{tag}"
        self.machines = [
            Machine(f"r5m{tag}x{i}", f"{SUBNET}.{i + 1}", home / f"m{i}") for i in range(n)
        ]
        self.made: list[str] = []

    def __enter__(self) -> Lan:
        need_root_and_ip()
        try:
            self._build()
        except subprocess.CalledProcessError as e:
            self.close()
            capability.missing(f"cannot make the LAN's namespaces here: {(e.stderr or '').strip()}")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _build(self) -> None:
        sw = self.switch
        sh("ip", "netns", "add", sw)
        self.made.append(sw)
        sh("ip", "-n", sw, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        sh("ip", "-n", sw, "link", "set", "br0", "up")
        for i, m in enumerate(self.machines):
            m.home.mkdir(parents=True, exist_ok=True)
            sh("ip", "netns", "add", m.ns)
            self.made.append(m.ns)
            for key in ("default", "all"):  # link-local IPv6 usable at once
                sh(
                    "ip",
                    "netns",
                    "exec",
                    m.ns,
                    "sysctl",
                    "-qw",
                    f"net.ipv6.conf.{key}.accept_dad=0",
                )
            port = f"p{i}"
            sh(
                "ip",
                "-n",
                sw,
                "link",
                "add",
                port,
                "type",
                "veth",
                "peer",
                "name",
                m.dev,
                "netns",
                m.ns,
            )
            sh("ip", "-n", sw, "link", "set", port, "master", "br0")
            sh("ip", "-n", sw, "link", "set", port, "up")
            sh("ip", "-n", m.ns, "addr", "add", f"{m.addr}/24", "dev", m.dev)
            sh("ip", "-n", m.ns, "link", "set", "lo", "up")
            m.mend()

    def close(self) -> None:
        """Kill what runs in the LAN and delete its namespaces (safe to call twice)."""
        for m in self.machines:
            if m.ns in self.made:
                m.kill()
        for ns in reversed(self.made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.made.clear()


@pytest.fixture
def lan3(tmp_path: Path) -> Iterator[Lan]:
    """Three machines on one LAN (10.78.0.1, .2, .3), each with its own data folder."""
    with Lan(3, tmp_path) as lan:
        yield lan
