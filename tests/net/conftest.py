from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

from net.client import Client
from net.server import Limits
from rum500.host import Host, HostConfig, start_host
from rum500.rules import Options


@pytest.fixture
async def make_host() -> AsyncIterator[Callable]:
    """``await make_host(players=.., bots=.., **config)``: a host on 127.0.0.1, closed after."""
    hosts: list[Host] = []

    async def make(**kw: object) -> Host:
        kw.setdefault("bot_level", "random")
        kw.setdefault("seed", 7)
        kw.setdefault("options", Options(target=100))
        host = await start_host(HostConfig(bind="127.0.0.1", **kw))  # type: ignore[arg-type]
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        await host.close()


@pytest.fixture
async def clients() -> AsyncIterator[Callable]:
    """``await clients(host, name, **kw)``: a connected client, closed after the test."""
    made: list[Client] = []

    async def connect(host: Host, name: str = "player", **kw: object) -> Client:
        c = await Client.connect(host.address, host.port, name=name, **kw)  # type: ignore
        made.append(c)
        return c

    yield connect
    for c in made:
        with contextlib.suppress(Exception):
            await c.close()


def quick_limits(**kw: float) -> Limits:
    return Limits(**kw)  # type: ignore[arg-type]


@pytest.fixture
async def hosts() -> AsyncIterator[list]:
    """(host, players) pairs a test appends; closed after it."""
    made: list = []
    yield made
    for host, players in made:
        for c in players:
            await c.close()
        await host.close()
