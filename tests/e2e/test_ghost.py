"""No ghost tables: a host killed with SIGKILL (no goodbye on the LAN) leaves a running lobby's
list within seconds, and ``rum500 list`` returns once answers stop coming.

A host in one network namespace, a browser in another, joined by a veth pair (see
test_netns.py); every address exists only inside the namespaces the test makes."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import textwrap

import pytest

from net.discovery import TableInfo, alive
from tests.e2e import test_netns
from tests.e2e.lan import Lines
from tests.e2e.test_netns import RUM500, in_ns, run_in_ns

pytestmark = [pytest.mark.e2e, pytest.mark.netns]
lan = test_netns.lan  # the fixture: two namespaces joined by a veth pair

WATCH = textwrap.dedent("""
    import asyncio, json
    from net.discovery import watch

    async def main():
        async for event, t in watch():
            print(json.dumps({"event": event, "name": t.name, "port": t.port}), flush=True)

    asyncio.run(main())
""")


def test_a_killed_host_leaves_the_lobby(lan):
    ns_a, addr_a, ns_b, _ = lan
    host = in_ns(
        ns_a,
        [*RUM500, "host", "--headless", "--name", "Ghost", "--players", "3", "--bind", "0.0.0.0"],
    )
    browser = in_ns(ns_b, [sys.executable, "-c", WATCH])
    try:
        lines = Lines(browser)
        added = lines.wait(lambda e: e["event"] == "added" and e["name"] == "Ghost", 60)
        # rum500 list finds it, and returns once answers stop coming (far before its cap)
        listed = run_in_ns(ns_b, [*RUM500, "list", "--json", "--timeout", "120"], timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert [t["port"] for t in json.loads(listed.stdout) if t["name"] == "Ghost"] == [
            added["port"]
        ]
        host.send_signal(signal.SIGKILL)  # no goodbye: the records stay in every cache
        host.wait(timeout=10)
        lines.wait(lambda e: e["event"] == "removed" and e["name"] == "Ghost", 30)
        listed = run_in_ns(ns_b, [*RUM500, "list", "--json", "--timeout", "120"], timeout=60)
        assert listed.returncode == 0 and json.loads(listed.stdout) == []
    finally:
        for proc in (host, browser):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


async def test_alive_is_a_tcp_connect_to_the_port():
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    table = TableInfo(name="T", address="127.0.0.1", port=port, addresses=["127.0.0.1"])
    assert await alive(table)
    server.close()
    await server.wait_closed()
    assert not await alive(table)
