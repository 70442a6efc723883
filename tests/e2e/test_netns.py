"""The LAN for real: a host in one network namespace, ``rum500 list`` and a client in
another, joined by a veth pair; zeroconf discovery on loopback in a namespace of its own.

Needs root and ``ip`` (iproute2); skipped with the reason otherwise (failed in CI). Every
address used (10.77.x.y, 127.0.0.1) exists only inside the namespaces these tests create."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from tests import capability
from tests.e2e.lan import RUM500, in_ns, list_tables, run_in_ns, sh, wait_listed
from tests.e2e.lan import need_root_and_ip as _need_root_and_ip

pytestmark = [pytest.mark.e2e, pytest.mark.netns]


@pytest.fixture
def lan(tmp_path, monkeypatch) -> Iterator[tuple[str, str, str, str]]:
    """Two namespaces joined by a veth pair: (ns_a, addr_a, ns_b, addr_b)."""
    _need_root_and_ip()
    tag = f"{os.getpid() % 10000}"
    a, b = f"r5a{tag}", f"r5b{tag}"
    net = 10 + os.getpid() % 200
    addr_a, addr_b = f"10.77.{net}.1", f"10.77.{net}.2"
    try:
        sh("ip", "netns", "add", a)
        sh("ip", "netns", "add", b)
        sh("ip", "link", "add", f"v{a}", "type", "veth", "peer", "name", f"v{b}")
        sh("ip", "link", "set", f"v{a}", "netns", a)
        sh("ip", "link", "set", f"v{b}", "netns", b)
        for ns, dev, addr in ((a, f"v{a}", addr_a), (b, f"v{b}", addr_b)):
            sh("ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev)
            sh("ip", "-n", ns, "link", "set", dev, "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
    except subprocess.CalledProcessError as e:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        capability.missing(f"cannot make network namespaces here: {e.stderr.strip()}")
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))  # a game log, if any, goes there
    yield a, addr_a, b, addr_b
    for ns in (a, b):
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


CLIENT = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import Client
    from tests.net.util import play_as_bot

    async def main(host, port):
        c = await Client.connect(host, port, name="Bea")
        print(json.dumps({"seat": c.seat, "token": bool(c.token)}), flush=True)
        sys.stdin.readline()  # the test looks at the LAN listing first
        view = await play_as_bot(c, seed=4)
        print(json.dumps({"phase": view["phase"], "totals": view["totals"],
                          "winner": view["winner"]}), flush=True)
        await c.close()

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
""")


def test_a_table_is_found_and_played_across_namespaces(lan):
    ns_a, addr_a, ns_b, _ = lan
    host = in_ns(
        ns_a,
        [
            *RUM500,
            "host",
            "--headless",
            "--name",
            "Den",
            "--players",
            "2",
            "--bots",
            "1",
            "--bot-level",
            "random",
            "--bot-delay",
            "0",
            "--target",
            "100",
            "--seed",
            "3",
            "--bind",
            "0.0.0.0",
        ],
    )
    try:
        tables = wait_listed(ns_b, lambda ts: any(t["name"] == "Den" for t in ts))
        den = next(t for t in tables if t["name"] == "Den")
        text = run_in_ns(ns_b, [*RUM500, "list", "--timeout", "2"])
        assert f"Den  {addr_a}:{den['port']}  host -  seats 1/2  lobby  target=100" in text.stdout
        assert den["address"] == addr_a and den["version"] == 1
        assert (den["seats_taken"], den["seats_total"], den["state"]) == (1, 2, "lobby")
        assert den["host_player"] == "" and den["options"] == {"target": 100}

        client = in_ns(
            ns_b,
            [sys.executable, "-c", CLIENT, den["address"], str(den["port"])],
            stdin=subprocess.PIPE,
        )
        hello = json.loads(client.stdout.readline())
        assert hello == {"seat": 0, "token": True}
        # the announcement follows the table: both seats taken, playing
        wait_listed(
            ns_b,
            lambda ts: any(
                t["name"] == "Den" and t["state"] == "playing" and t["seats_taken"] == 2 for t in ts
            ),
        )
        client.stdin.write("go\n")
        client.stdin.flush()
        out, err = client.communicate(timeout=120)
        assert client.returncode == 0, err
        final = json.loads(out.strip().splitlines()[-1])
        assert final["phase"] == "game_over" and max(final["totals"]) >= 100
        host_out, host_err = host.communicate(timeout=30)
        assert host.returncode == 0, host_err
        assert "game over" in host_out and "table closed" in host_out
        assert f"(totals {' / '.join(map(str, final['totals']))})" in host_out
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


def test_sigterm_stops_cleanly_and_says_goodbye(lan):
    ns_a, _, ns_b, _ = lan
    host = in_ns(
        ns_a,
        [*RUM500, "host", "--headless", "--name", "Porch", "--players", "3", "--bind", "0.0.0.0"],
    )
    try:
        wait_listed(ns_b, lambda ts: any(t["name"] == "Porch" for t in ts))
        host.send_signal(signal.SIGTERM)
        out, err = host.communicate(timeout=30)
        assert host.returncode == 0, err
        assert "table closed" in out and "Traceback" not in err
        # the goodbye removed it at once: no waiting for a record to expire (TTL 75 s)
        assert not any(t["name"] == "Porch" for t in list_tables(ns_b, 2.0))
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


LOOPBACK = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import Client
    from net.discovery import watch
    from rum500.host import HostConfig, start_host

    async def main():
        lo = ["127.0.0.1"]
        events = []

        async def browse():
            async for event, t in watch(lo):
                events.append((event, t.name, t.seats_taken, t.state, t.port, t.host_player))

        async def seen(what, deadline=20.0):
            # wait for the browser to report ``what`` (event, name, seats taken), with a deadline
            loop = asyncio.get_running_loop()
            end = loop.time() + deadline
            while not any(e[:3] == what for e in events):
                if loop.time() > end:
                    sys.exit(f"never saw {what} in {deadline} s; saw {events}")
                await asyncio.sleep(0.05)

        browser = asyncio.create_task(browse())
        one = await start_host(HostConfig(players=2, table_name="Attic", announce=True,
                                          interfaces=lo, host_player="Kay"))
        two = await start_host(HostConfig(players=3, table_name="Attic", announce=True,
                                          interfaces=lo))
        await seen(("added", "Attic", 1))
        await seen(("added", "Attic-2", 0))
        c = await Client.connect(one.address, one.port, name="Lou")
        await seen(("updated", "Attic", 2))
        await two.close()
        await seen(("removed", "Attic-2", 0))
        await c.close()
        await one.close()
        browser.cancel()
        print(json.dumps({"names": [one.table_name, two.table_name],
                          "ports": [one.port, two.port], "events": events}))

    asyncio.run(main())
""")


def test_discovery_on_loopback(tmp_path, monkeypatch):
    """Announce, update and goodbye, seen by a browser, all on 127.0.0.1 in a namespace."""
    _need_root_and_ip()
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    ns = f"r5l{os.getpid() % 10000}"
    try:
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("ip", "-n", ns, "link", "set", "lo", "multicast", "on")
        sh("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", "lo")
    except subprocess.CalledProcessError as e:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        capability.missing(f"cannot make a network namespace here: {e.stderr.strip()}")
    try:
        done = run_in_ns(ns, [sys.executable, "-c", LOOPBACK], timeout=60)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
    assert result["names"] == ["Attic", "Attic-2"]  # the second table got a distinct name
    events = [tuple(e) for e in result["events"]]
    port_one, port_two = result["ports"]
    assert ("added", "Attic", 1, "lobby", port_one, "Kay") in events
    assert ("added", "Attic-2", 0, "lobby", port_two, "") in events
    # Lou sat down: the TXT record was updated
    assert ("updated", "Attic", 2, "playing", port_one, "Kay") in events
    assert ("removed", "Attic-2", 0, "lobby", port_two, "") in events  # goodbye on close
