"""A table has one host at every moment (issue 21 §1, split brain), on machines in network
namespaces with real zeroconf and the real command lines (``rum500 host --headless``,
``rum500 join NAME --headless``):

* **The host cut off.** A headless host on A with a player (Ann) on A itself — she keeps
  reaching it over A's loopback while A's cable is out — and Bea, Cy, Di on B, C, D (Bea the
  standby, Cy, Di and Ann holding shares). A's traffic is dropped for 18 s: the host hears
  nothing from the standby and the holders, says it is cut off and stops serving, so Ann
  follows the table to the standby like everyone else; Bea takes over with Cy's and Di's
  shares; when A's link comes back, nobody plays at the old host: one table reaches game
  over, and its log goes on from the old host's.
* **The standby cut off.** A headless host on A, Bea (the standby) and Cy (holding the
  other share), ``--failover on``. B's traffic is dropped for 12 s: Bea's own client lost
  the host, but Cy did not, so Bea's standby never takes the table over; the host serves Cy
  throughout, and Bea comes back to it when her link does.

Needs root, ``ip`` and ``iptables``; skipped with the reason otherwise, failed in CI.
Addresses (10.78.0.0/24) exist only inside the namespaces made here.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.lan import Lan, Said
from tests.e2e.test_failover_netns import (
    TABLE,
    game_over,
    join,
    joined,
    logged_events,
    printed_events,
    rejoined,
    seat_of,
    start_host,
    the_match,
)

pytestmark = [pytest.mark.e2e, pytest.mark.netns]


def never_said(who: Said, text: str, seconds: float) -> None:
    """``who`` does not say ``text`` for ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert not who.said(text), who.lines[-5:]
        time.sleep(0.2)


def one_story(seen: list[str], logged: list[str]) -> bool:
    """Whether ``seen`` (what a client printed) is ``logged``'s beginning and then its end:
    a client may miss events while it moves, never see one the log does not hold."""
    for k in range(len(seen) + 1):
        head, tail = seen[:k], seen[k:]
        start = len(logged) - len(tail)
        if logged[:k] == head and start >= k and logged[start:] == tail:
            return True
    return False


def test_a_host_cut_off_stops_serving_and_the_table_goes_on_at_the_standby(tmp_path: Path):
    with Lan(4, tmp_path) as four:
        a, b, c, d = four.machines
        host = start_host(a, players=5, failover="auto", seed=41)
        bea, cy, di = join(b, "Bea", 11), join(c, "Cy", 12), join(d, "Di", 13)
        ann = join(a, "Ann", 14)  # on the host's own machine
        table_id = joined(bea)[0]
        guests = [bea, cy, di, ann]
        bea.wait("standby for the table: port ", 30)  # the first seat stands by
        for g in guests:
            g.wait(f"standby named: seat {seat_of(bea)} at port ", 30)
        ann.wait(lambda ln: ln.startswith("event: "), 60)

        a.block()  # A's cable: every packet in or out dropped; A's loopback still works
        host.wait("cut off from the table", 30)
        bea.wait(f"hosting the table '{TABLE}' on port ", 30)
        for g in (bea, cy, di):
            assert rejoined(g)[0] == "standby", g.name
        lost = ann.wait("lost the host", 10)  # the old host cut her off too
        assert host.proc.wait(30) == 0, host.lines[-5:]  # and it is gone
        never_said(ann, "rejoined", 12)  # A's cable is still out: she waits, nowhere else
        a.unblock()
        assert rejoined(ann, lost) == ("standby", seat_of(ann))
        game_over(guests)

        old, new = the_match(a), the_match(b)
        assert not host.said("game over")
        assert new["uid"] == old["uid"] and new["status"] == "finished"
        assert old["status"] != "finished"  # the old host's copy stopped where it was cut off
        # the old host's copy is where the new one began, but for a move or two it applied
        # as it was cut off: told to nobody (every event a client saw is in the new log)
        same = 0
        while same < len(old["actions"]) and old["actions"][same] == new["actions"][same]:
            same += 1
        assert same >= len(old["actions"]) - 2, (same, len(old["actions"]))
        assert {g.name: joined(g)[0] for g in guests} == dict.fromkeys(
            (g.name for g in guests), table_id
        )
        # what each client saw is one table's story: the log's beginning, then (after a
        # gap of at most the last events the old host sent before it was cut off) its end
        expected = logged_events(new)
        for g in guests:
            assert one_story(printed_events(g), expected), g.name


def test_a_standby_cut_off_alone_never_takes_the_table_over(tmp_path: Path):
    with Lan(3, tmp_path) as three:
        a, b, c = three.machines
        host = start_host(a, players=3, failover="on", seed=42)
        bea, cy = join(b, "Bea", 21), join(c, "Cy", 22)
        bea.wait("standby for the table: port ", 30)
        for g in (bea, cy):
            g.wait(f"standby named: seat {seat_of(bea)} at port ", 30)
        cy.wait(lambda ln: ln.startswith("event: "), 60)

        b.block()  # the standby's own cable out for 12 s
        lost = bea.wait("lost the host", 20)
        end = time.monotonic() + 12.0
        while time.monotonic() < end:
            assert not bea.said("hosting the table"), bea.lines[-5:]
            assert not host.said("cut off"), host.lines[-5:]
            assert not cy.said("lost the host"), cy.lines[-5:]
            time.sleep(0.2)
        b.unblock()
        assert rejoined(bea, lost) == ("host", seat_of(bea))  # back where the table is
        game_over([bea, cy], host)
        assert not bea.said("hosting the table")
        assert host.said("game over")
