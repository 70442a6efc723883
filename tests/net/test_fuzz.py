"""The host fuzzed with hypothesis-generated frames and byte strings: it stays up, the game
state is unchanged, and the seated players are unaffected."""

from __future__ import annotations

import asyncio
import contextlib
import struct
import threading

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net.client import Client
from net.framing import encode, read_frame
from net.protocol import CLIENT_TYPES
from rum500.hosting import HostConfig, start_host
from rum500.rules import Options


class LiveTable:
    """A host with two seated clients and a bot, in an event loop of its own thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.run(self._start())

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.host = await start_host(
            HostConfig(players=3, bots=1, bot_level="random", seed=3, options=Options(target=500))
        )
        self.ann = await Client.connect(self.host.address, self.host.port, name="Ann")
        self.bob = await Client.connect(self.host.address, self.host.port, name="Bob")
        while self.host.table.game is None or self.host.table.to_move not in (0, 1):
            await asyncio.sleep(0.01)  # the bot plays; then the table waits for Ann or Bob
        while self.ann.seq != self.host.server.seq or self.bob.seq != self.host.server.seq:
            await asyncio.sleep(0.01)
        self.position = self.host.table.game.to_dict()

    async def _stop(self) -> None:
        await self.ann.close()
        await self.bob.close()
        await self.host.close()

    def close(self) -> None:
        self.run(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def live():
    table = LiveTable()
    yield table
    table.close()


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=30)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=40,
)
messages = st.one_of(
    st.dictionaries(st.text(max_size=10) | st.integers(), values, max_size=6),
    st.fixed_dictionaries(
        {"type": st.sampled_from([*CLIENT_TYPES, "state", "welcome", "x"])},
        optional={
            "version": st.sampled_from([1, 0, "1", None]),
            "name": values,
            "token": values,
            "spectate": values,
            "id": values,
            "action": values,
            "text": values,
            "proof": values,
            "seat": values,
        },
    ),
    values,
)


def frame_of(obj: object) -> bytes:
    try:
        data = msgpack.packb(obj, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):
        data = b"\xc1"
    return struct.pack(">I", len(data)) + data


chunks = st.one_of(
    messages.map(frame_of),
    st.binary(max_size=300),
    st.tuples(st.integers(0, 2**32 - 1), st.binary(max_size=50)).map(
        lambda t: struct.pack(">I", t[0]) + t[1]
    ),
)


async def attack(live: LiveTable, say_hello: bool, spectate: bool, data: list[bytes]) -> None:
    host = live.host
    reader, writer = await asyncio.open_connection(host.address, host.port)
    try:
        if say_hello:
            writer.write(
                encode({"type": "hello", "version": 1, "name": "fuzz", "spectate": spectate})
            )
        for chunk in data:
            writer.write(chunk)
        with contextlib.suppress(Exception):
            await writer.drain()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(reader.read(1 << 16), 0.02)
    finally:
        writer.transport.abort()
    # the host still answers a newcomer …
    r2, w2 = await asyncio.open_connection(host.address, host.port)
    w2.write(encode({"type": "hello", "version": 1, "name": "check", "spectate": True}))
    welcome = await asyncio.wait_for(read_frame(r2), 5)
    w2.close()
    assert welcome["type"] == "welcome"
    # … the position is exactly as it was, and the seated players are still connected
    assert host.table.game.to_dict() == live.position
    assert not live.ann.lost and not live.bob.lost
    assert host.server.seats[0].conn is not None and host.server.seats[1].conn is not None


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(say_hello=st.booleans(), spectate=st.booleans(), data=st.lists(chunks, max_size=8))
def test_fuzzed_frames_change_nothing(live, say_hello, spectate, data):
    live.run(attack(live, say_hello, spectate, data))


def test_the_players_still_play_after_the_fuzzing(live):
    async def one_move() -> None:
        c = live.ann if live.host.table.to_move == 0 else live.bob
        await c.act(c.view["legal_actions"][0])

    live.run(one_move())
    assert len(live.host.table.game.actions) == len(live.position["actions"]) + 1
