"""An evening of faults (issue 21 §2): one whole match, played to its end by four people on
four laptops (network namespaces, real zeroconf, the real command lines), through a seeded
schedule of nine faults:

1. a guest stopped (SIGSTOP) for a few seconds, a laptop asleep;
2. 10% of the packets lost on one laptop's link for a while;
3. a planned handoff (``handoff NAME`` on the headless host's standard input);
4. the standby's link pulled (every packet dropped): it must not take the table;
5. a guest killed (SIGKILL) and started again on its own machine: it gets its own seat back;
6. SIGKILL of whoever hosts now (its player's process: it hosts in that process);
7. that host's own player starting again on its machine: its own seat back;
8. the host's link pulled: it stops serving, the standby takes over;
9. a laptop's cable out (link down) for a while.

A fifth machine only lists the tables (``rum500 list --json``) all evening. At the end:
exactly one table reached game over; what each client printed is the final game log's story,
in order, each event once; no logged action is lost or applied twice (every laptop that
hosted has the match in its game log, the new log going on from the old); the table was
listed once at every moment it was listed.

Needs root, ``ip`` and ``iptables``; skipped with the reason otherwise, failed in CI. The
addresses (10.78.0.0/24) exist only inside the namespaces made here.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.lan import RUM500, Lan, Machine, Said
from tests.e2e.test_failover_netns import TABLE, logged_events, seat_of, the_match

pytestmark = [pytest.mark.e2e, pytest.mark.netns]

SEED = 2112
HOSTING = re.compile(rf"hosting the table '{TABLE}' on port \d+ \((handed over|failover)\)")
ARMED = re.compile(r"failover: failover is on: if this host goes, (\w+)'s machine takes")


class Player:
    """One person at the table: a ``rum500 join --headless`` process on their laptop, and the
    ones that replaced it after it was killed."""

    def __init__(self, machine: Machine, name: str, seed: int) -> None:
        self.machine, self.name = machine, name
        self.lives: list[Said] = []
        self.start(seed)
        self.seat = seat_of(self.now)

    @property
    def now(self) -> Said:
        return self.lives[-1]

    def start(self, seed: int) -> Said:
        cmd = [*RUM500, "join", TABLE, "--headless", "--name", self.name, "--timeout", "15"]
        cmd += ["--bot-level", "easy", "--bot-delay", "0.3", "--seed", str(seed)]
        said = Said(self.machine.run(cmd), f"{self.name} ({len(self.lives) + 1})")
        self.lives.append(said)
        said.wait("joined", 60)
        return said

    def kill(self) -> None:
        os.kill(self.now.proc.pid, signal.SIGKILL)
        self.now.proc.wait(10)

    def mark(self) -> int:
        return len(self.now.lines)

    def plays_on(self, after: int, events: int = 2, deadline: float = 90) -> None:
        """Wait until this player has seen ``events`` more events after line ``after``."""
        k = after
        for _ in range(events):
            k = self.now.wait(lambda ln: ln.startswith("event: "), deadline, k) + 1


class Lister(threading.Thread):
    """``rum500 list --json`` on its own machine, over and over: every listing it got."""

    def __init__(self, machine: Machine) -> None:
        super().__init__(daemon=True)
        self.machine = machine
        self.listings: list[list[dict]] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            done = self.machine.call([*RUM500, "list", "--json", "--timeout", "2"], timeout=30)
            if done.returncode == 0:
                self.listings.append(json.loads(done.stdout or "[]"))
            self.done.wait(0.5)


def runs(life: Said) -> list[list[str]]:
    """The events a process printed, in runs: a new run after each time it lost the host
    (it rejoins with the whole view, not the events it missed)."""
    found: list[list[str]] = [[]]
    for line in life.lines:
        if line.startswith("lost the host"):
            found.append([])
        elif line.startswith("event: ") and not line.endswith("is ready for the next hand"):
            found[-1].append(line[len("event: ") :])
    return [run for run in found if run]


def one_story(life: Said, logged: list[str]) -> int:
    """Each run of ``life``'s events is a slice of ``logged``, each after the one before:
    nothing it saw is missing from the log, out of order or there twice. Returns where
    its last run ends in ``logged``."""
    at = 0
    for run in runs(life):
        starts = [
            k for k in range(at, len(logged) - len(run) + 1) if logged[k : k + len(run)] == run
        ]
        assert starts, (life.name, run[:5], len(run))
        at = starts[0] + len(run)
    return at


def test_an_evening_of_faults_loses_nothing(tmp_path: Path):
    rng = random.Random(SEED)
    with Lan(5, tmp_path) as lan:
        a, b, c, d, e = lan.machines
        cmd = [*RUM500, "host", "--headless", "--name", TABLE, "--players", "4", "--bots", "0"]
        cmd += ["--failover", "auto", "--target", "200", "--bot-delay", "0.1"]
        cmd += ["--seed", str(SEED), "--bind", "0.0.0.0"]
        first_host = Said(a.run(cmd, stdin=subprocess.PIPE), "host on A")
        first_host.wait("hosting table", 60)
        lister = Lister(e)
        lister.start()
        people = {
            "Ann": Player(a, "Ann", 1),  # on the first host's machine
            "Bea": Player(b, "Bea", 2),
            "Cy": Player(c, "Cy", 3),
            "Di": Player(d, "Di", 4),
        }
        everyone = list(people.values())
        hosts: list[Machine] = [a]

        def settle(events: int = 3) -> None:
            marks = {p.name: p.mark() for p in everyone}
            for p in everyone:
                p.plays_on(marks[p.name], events)

        def standby() -> Player:
            """The standby every player's table says stands by now (the failover note)."""
            names = set()
            for p in everyone:
                notes = [ln for ln in p.now.lines if ln.startswith("failover: ")]
                armed = ARMED.match(notes[-1]) if notes else None
                assert armed, notes[-1:]
                names.add(armed.group(1))
            assert len(names) == 1, names
            return people[names.pop()]

        def wait_standby(excluding: Player | None = None) -> Player:
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    chosen = standby()
                except (AssertionError, StopIteration):
                    time.sleep(0.3)
                    continue
                if chosen is not excluding and settled_for(3.0):
                    return chosen
                time.sleep(0.3)
            raise AssertionError("no standby named to every player")

        def settled_for(seconds: float) -> bool:
            """No player heard of a new standby or failover note for ``seconds``: the
            epoch the clients hold is the standby's (a fault in the middle of a new epoch
            is the gap the closing note of issue 21 names, not what this test is about)."""
            now = time.monotonic()
            for p in everyone:
                news = [
                    t
                    for t, ln in zip(p.now.times, p.now.lines, strict=False)
                    if ln.startswith(("standby named", "failover: "))
                ]
                if news and now - news[-1] < seconds:
                    return False
            return True

        def host_now() -> Player | None:
            hosting = [
                (p.now.times[k], p)
                for p in everyone
                for k, ln in enumerate(p.now.lines)
                if HOSTING.match(ln)
            ]
            return max(hosting, key=lambda t: t[0])[1] if hosting else None

        settle()
        # 1. a laptop asleep for a few seconds
        sleeper = rng.choice(everyone)
        os.kill(sleeper.now.proc.pid, signal.SIGSTOP)
        time.sleep(rng.uniform(2.0, 4.0))
        os.kill(sleeper.now.proc.pid, signal.SIGCONT)
        settle()

        # 2. 10% of one laptop's packets lost for a while
        noisy = rng.choice([b, c, d])
        noisy.lossy(0.10)
        settle(6)
        noisy.reliable()

        # 3. a planned handoff to someone on another laptop
        taker = rng.choice([people["Bea"], people["Cy"], people["Di"]])
        marks = {p.name: p.mark() for p in everyone}
        first_host.write(f"handoff {taker.name}")
        taker.now.wait(HOSTING.match, 30, marks[taker.name])
        hosts.append(taker.machine)
        for p in everyone:
            p.now.wait("rejoined (moved)", 60, marks[p.name])
        assert first_host.proc.wait(30) == 0
        settle()

        # 4. the standby's link pulled: it must not take the table over
        sb = wait_standby(excluding=taker)
        marks = {p.name: p.mark() for p in everyone}
        sb.machine.block()
        time.sleep(rng.uniform(6.0, 10.0))
        sb.machine.unblock()
        assert not sb.now.said(HOSTING.match), sb.now.lines[-5:]
        assert host_now() is taker
        settle()

        # 5. a guest killed and started again on its own laptop: its own seat
        plain = rng.choice([p for p in everyone if p not in (taker, wait_standby())])
        plain.kill()
        time.sleep(rng.uniform(0.5, 2.0))
        assert seat_of(plain.start(10 + len(plain.lives))) == plain.seat
        settle()

        # 6. whoever hosts now is killed (its player's process hosts the table)
        sb = wait_standby()
        dead = host_now()
        assert dead is not None
        marks = {p.name: p.mark() for p in everyone}
        dead.kill()
        sb.now.wait(HOSTING.match, 60, marks[sb.name])
        hosts.append(sb.machine)
        for p in everyone:
            if p is not dead:
                p.now.wait("rejoined (standby)", 60, marks[p.name])

        # 7. that host's own player comes back on the same laptop: their own seat
        time.sleep(rng.uniform(1.0, 3.0))
        assert seat_of(dead.start(20 + len(dead.lives))) == dead.seat
        settle()

        # 8. the host's link pulled: it stops serving and the standby takes over
        host = host_now()
        assert host is sb
        nxt = wait_standby(excluding=host)
        marks = {p.name: p.mark() for p in everyone}
        host.machine.block()
        nxt.now.wait(HOSTING.match, 60, marks[nxt.name])
        hosts.append(nxt.machine)
        host.now.wait("lost the host", 30, marks[host.name])  # its own host stepped down
        time.sleep(max(0.0, rng.uniform(8.0, 14.0) - 5.0))
        host.machine.unblock()
        for p in everyone:
            p.now.wait("rejoined (standby)", 60, marks[p.name])
        settle()

        # 9. a laptop's cable out for a while (not the host's: its turn came)
        unplugged = rng.choice([p for p in everyone if p is not nxt]).machine
        unplugged.cut()
        time.sleep(rng.uniform(5.0, 12.0))
        unplugged.mend()

        for p in everyone:
            p.now.wait("game over", 400)
            assert p.now.proc.wait(30) == 0, p.now.lines[-5:]
        lister.done.set()
        lister.join(40)

        # exactly one table reached game over, and every laptop that hosted has the match
        matches = {m.ns: the_match(m) for m in set(hosts)}
        final = the_match(nxt.machine)
        assert final["status"] == "finished"
        finished = [ns for ns, m in matches.items() if m["status"] == "finished"]
        assert finished == [nxt.machine.ns]
        assert {m["uid"] for m in matches.values()} == {final["uid"]}
        for m in matches.values():  # each log goes on from the one before it
            same = 0
            while same < len(m["actions"]) and m["actions"][same] == final["actions"][same]:
                same += 1
            assert same >= len(m["actions"]) - 2  # a move applied as it died: told nobody
        # what every client printed is the final log's story, in order, each event once
        expected = logged_events(final)
        for p in everyone:
            for life in p.lives:
                end = one_story(life, expected)
            assert end == len(expected), p.name  # and the last one saw it to the end
        # listed once at every moment it was listed
        assert any(lister.listings), "the table was never listed"
        for listing in lister.listings:
            ours = [t for t in listing if t.get("name", "").startswith(TABLE)]
            assert len(ours) <= 1, ours
