"""A spectator the host turns away with ``busy`` (a full host) is told so and stops: the
terminal client does not retry the rejoin forever (``busy`` is in its FINAL_CODES)."""

from __future__ import annotations

import asyncio

from net.server import Limits
from rum500.tui.connection import NetSession
from rum500.tui.model import TableModel
from tests.net.util import wait_for


async def test_a_refused_spectator_stops_rejoining(make_host, tmp_path, monkeypatch):
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    host = await make_host(players=2, bots=1, limits=Limits(max_connections=3))
    session = NetSession(host.address, host.port, name="Wat", spectate=True)
    client = await session.open()
    assert client.seat is None
    model = TableModel(name="Wat")
    pump = asyncio.create_task(session.pump(model))
    await wait_for(lambda: any(c.seat is None for c in host.server.conns))
    # the host fills up: no room for a spectator any more; then the spectator's line drops
    host.server.limits.max_connections = 2
    attempts = 0
    place = host.server._place

    def counted(conn, hello):
        nonlocal attempts
        attempts += 1
        return place(conn, hello)

    host.server._place = counted  # counts the host's answers to hellos: nothing else changes
    watcher = next(c for c in host.server.conns if c.seat is None)
    watcher.drop("timeout", "nothing heard from you for too long")
    await asyncio.wait_for(pump, 10)  # the pump ends: no endless retries
    assert attempts == 1
    assert "too many connections" in model.feed.banner
    await session.close()
