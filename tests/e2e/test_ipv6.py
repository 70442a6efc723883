"""IPv6: the host listens dual-stack; a table is discovered and played over IPv6 link-local
addresses alone, between two network namespaces with no IPv4 address on their link.

The namespaces and their veth pair exist only for the test (see test_netns.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import pytest

from net.client import Client
from rum500.host import HostConfig, start_host
from rum500.host.addresses import parse_address
from tests.e2e.test_netns import RUM500, _need_root_and_ip, in_ns, run_in_ns, sh

pytestmark = [pytest.mark.e2e, pytest.mark.netns]


def link_local(ns: str, dev: str, deadline: float = 20.0) -> str:
    """The link-local address of ``dev`` once duplicate address detection let it be used."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        out = subprocess.run(
            ["ip", "-n", ns, "-j", "-6", "addr", "show", "dev", dev],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for link in json.loads(out or "[]"):
            for a in link.get("addr_info", []):
                if a.get("scope") == "link" and not a.get("tentative"):
                    return a["local"]
        time.sleep(0.1)
    raise AssertionError(f"{dev} in {ns} got no usable link-local address")


@pytest.fixture
def v6lan(tmp_path, monkeypatch) -> Iterator[tuple[str, str, str, str]]:
    """Two namespaces joined by a veth pair with IPv6 link-local addresses only:
    (ns_a, dev_a, ns_b, dev_b)."""
    _need_root_and_ip()
    tag = f"{os.getpid() % 10000}"
    a, b = f"r6a{tag}", f"r6b{tag}"
    try:
        sh("ip", "netns", "add", a)
        sh("ip", "netns", "add", b)
        sh("ip", "link", "add", f"v{a}", "type", "veth", "peer", "name", f"v{b}")
        for ns, dev in ((a, f"v{a}"), (b, f"v{b}")):
            sh("ip", "link", "set", dev, "netns", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "-n", ns, "link", "set", dev, "up")
    except subprocess.CalledProcessError as e:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        pytest.skip(f"cannot make network namespaces here: {e.stderr.strip()}")
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    yield a, f"v{a}", b, f"v{b}"
    for ns in (a, b):
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


PLAYER = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import Client
    from net.discovery import watch
    from rum500.host.addresses import parse_address
    from tests.net.util import play_as_bot

    async def main(dev):
        async for event, t in watch():
            if event == "added" and t.name == "Six":
                break
        ipv4 = [a for a in t.addresses if ":" not in a]
        # what `rum500 join [fe80::…%dev]:port` does: the zone by interface name
        bare = t.address.partition("%")[0]
        host, port = parse_address(f"[{bare}%{dev}]:{t.port}")
        c = await Client.connect(host, port, name="Bea")
        print(json.dumps({"address": t.address, "ipv4": ipv4, "host": host,
                          "seat": c.seat}), flush=True)
        view = await play_as_bot(c, seed=4)
        print(json.dumps({"phase": view["phase"], "totals": view["totals"]}), flush=True)
        await c.close()

    asyncio.run(main(sys.argv[1]))
""")


def test_a_table_is_found_and_played_over_ipv6_link_local_only(v6lan):
    ns_a, dev_a, ns_b, dev_b = v6lan
    host_address = link_local(ns_a, dev_a)
    link_local(ns_b, dev_b)
    host = in_ns(
        ns_a,
        [
            *RUM500,
            *("host", "--headless", "--name", "Six", "--players", "2", "--bots", "1"),
            *("--bot-level", "random", "--bot-delay", "0", "--target", "100", "--seed", "5"),
            *("--bind", "::"),
        ],
    )
    procs = [host]
    try:
        # `rum500 list` shows it as `rum500 join` takes it: [fe80::…%interface]:port
        shown = ""
        for _ in range(10):
            shown = run_in_ns(ns_b, [*RUM500, "list", "--timeout", "10"]).stdout
            if shown.startswith("Six  "):
                break
        assert shown.startswith(f"Six  [{host_address}%{dev_b}]:"), shown
        player = in_ns(ns_b, [sys.executable, "-c", PLAYER, dev_b])
        procs.append(player)
        out, err = player.communicate(timeout=120)
        assert player.returncode == 0, err
        first, last = (json.loads(line) for line in out.strip().splitlines()[-2:])
        address, _, zone = first["address"].partition("%")
        assert address == host_address and zone == dev_b  # link-local, heard on dev_b
        assert first["ipv4"] == [] and first["host"] == f"{host_address}%{dev_b}"
        assert first["seat"] == 0
        assert last["phase"] == "game_over" and max(last["totals"]) >= 100
        host_out, host_err = host.communicate(timeout=30)
        assert host.returncode == 0, host_err
        assert "game over" in host_out
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.parametrize("text", ["[::1]:{port}", "127.0.0.1:{port}"])
async def test_a_wildcard_host_takes_ipv6_and_ipv4(text):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    host = await start_host(HostConfig(players=2, bots=1, bind="::", bot_level="random"))
    try:
        parsed = parse_address(text.format(port=host.port))
        assert parsed is not None
        c = await Client.connect(*parsed, name="Ann")
        assert c.seat == 0 and host.server.seats[0].conn is not None
        await c.close()
    finally:
        await host.close()
