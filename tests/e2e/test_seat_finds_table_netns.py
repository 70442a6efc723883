"""After a failover every seat finds its table again, and the table is listed once (the
issue: "the host's own player can't get back in after a failover", "a guest restarted on its
own machine cannot get its seat back", "after a failover the table is listed twice").

Three machines in network namespaces, real zeroconf. On A, ``rum500 host --name Kitchen
--player Ann --players 4 --bots 1`` runs in tmux (the real terminal client: Ann's token is
saved in A's data folder); Bob (B) and Cy (C) join with ``join Kitchen --headless``.
Mid-match the host's process is killed (SIGKILL); the standby takes the table over and
both guests follow. Then:

* ``rum500 list --json`` on every machine shows the table once, named ``Kitchen``, at the
  new host's address, with its id;
* on A (same data folder) ``rum500 join Kitchen --name Ann`` — the terminal client, in tmux
  at 80×24 — gets Ann's seat back and shows her hand (it said "Every seat is taken: join
  with --spectate to watch"), and so does ``join Kitchen --name Ann --headless`` after it;
* the guest that does not host is killed (SIGKILL) and started again on its own machine:
  it gets its own seat back.

Needs root, ``ip``, ``iptables`` and ``tmux``; skipped with the reason otherwise, failed in
CI. Addresses (10.78.0.0/24) exist only inside the namespaces made here.
"""

from __future__ import annotations

import re
import shutil
import signal
import sys

import pytest

from tests import capability
from tests.e2e import lan
from tests.e2e.lan import ROOT, RUM500, Lan, Machine, Said
from tests.e2e.tmux import Tmux

pytestmark = [pytest.mark.e2e, pytest.mark.netns]
lan3 = lan.lan3  # the fixture: three machines on one LAN

JOINED = re.compile(r"joined Kitchen id (\S+) seat (\d+) as (\S+) at ")


def join(machine: Machine, name: str, seed: int) -> Said:
    """A headless guest that finds Kitchen by its name on the LAN; once it is seated."""
    cmd = [*RUM500, "join", "Kitchen", "--headless", "--name", name, "--timeout", "10"]
    cmd += ["--bot-level", "easy", "--bot-delay", "0.3", "--seed", str(seed)]
    guest = Said(machine.run(cmd), name)
    guest.wait("joined", 60)
    return guest


def seated(guest: Said) -> tuple[str, int]:
    """(table id, seat) of the guest's last ``joined`` line."""
    line = [ln for ln in guest.lines if ln.startswith("joined ")][-1]
    found = JOINED.match(line)
    assert found is not None, line
    return found.group(1), int(found.group(2))


def listed_once(machine: Machine, where: Machine, table_id: str) -> None:
    """``rum500 list --json`` on ``machine``: one table with that id, named Kitchen, at
    ``where`` — and no other entry of that id."""

    def once(tables: list[dict]) -> bool:
        same = [t for t in tables if t["table_id"] == table_id]
        return len(same) == 1 and (same[0]["name"], same[0]["address"]) == ("Kitchen", where.addr)

    machine.wait_listed(once)


def test_after_a_failover_every_seat_finds_the_table_listed_once(lan3: Lan) -> None:
    if shutil.which("tmux") is None:
        capability.missing("tmux is not installed")
    a, b, c = lan3.machines
    term = Tmux(a.home, width=100, height=30)
    back = Tmux(a.home, width=80, height=24)  # Ann again, once her first terminal died
    try:
        term.start(
            f"ip netns exec {a.ns} env PYTHONPATH={ROOT} {sys.executable} -m rum500 host "
            "--name Kitchen --player Ann --players 4 --bots 1 --bind 0.0.0.0 "
            "--seed 5 --target 5000 --lang en"
        )
        term.wait_text("Press g", 60)
        bob, cy = join(b, "Bob", 1), join(c, "Cy", 2)
        table_id, _ = seated(bob)
        seats = {"Bob": seated(bob)[1], "Cy": seated(cy)[1]}
        term.wait_text("Your hand", 30)  # every seat taken: the match runs
        standby = bob.wait(lambda ln: ln.startswith("standby named: seat "), 60)
        standby_seat = int(bob.lines[standby].split()[3])
        taker, other = (bob, cy) if standby_seat == seats["Bob"] else (cy, bob)
        new_host, other_machine = (b, c) if taker is bob else (c, b)
        bob.wait("event: ", 30)

        a.signal_all(signal.SIGKILL)  # the host's process (Ann's terminal) dies
        taker.wait("hosting the table 'Kitchen' on port ", 60)
        for g in (bob, cy):
            g.wait("rejoined (standby) at ", 60)

        for m in (a, b, c):  # one table, under its name, where it is served now
            listed_once(m, new_host, table_id)

        # Ann, on her own machine (same data folder), with the terminal client at 80×24:
        # `rum500 join Kitchen --name Ann` gives her seat back, not "every seat is taken"
        back.start(
            f"ip netns exec {a.ns} env PYTHONPATH={ROOT} {sys.executable} -m rum500 join "
            "Kitchen --name Ann --lang en"
        )
        screen = back.wait_text("Your hand", 60)
        assert "Every seat is taken" not in screen and "spectat" not in screen.lower(), screen
        assert "Ann" in screen, screen
        back.close()  # she goes; then back with `join --headless`, whose bot plays her seat
        ann = Said(
            a.run([*RUM500, "join", "Kitchen", "--headless", "--name", "Ann", "--timeout", "10"]),
            "Ann",
        )
        ann.wait("joined", 60)
        assert seated(ann) == (table_id, 0), ann.lines

        # the guest that does not host, killed and started again on its machine: its seat
        other.proc.send_signal(signal.SIGKILL)
        other.proc.wait(10)
        again = join(other_machine, other.name, 3)
        assert seated(again) == (table_id, seats[other.name]), again.lines
        again.wait("event: ", 60)  # and it plays on there
    finally:
        term.close()
        back.close()
