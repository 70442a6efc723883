"""A lost last update is found by the host's ``ping``, which carries the newest ``seq``
(docs/protocol.md §13): when the update that makes it your turn is lost, nothing else follows
it — the host waits for you, its pings keep the line alive — and only the ping shows the gap.
``net.Client`` then asks for the whole view (``resync``), and asks again at the next ping when
the answer to that was lost too.

A relay on 127.0.0.1 between the client and a real host loses the frames, as a broken
middlebox would."""

from __future__ import annotations

import asyncio
import struct

import pytest

from net.client import ActionRefused, Client
from net.framing import decode
from net.server import Limits
from rum500.bots import make_bot
from rum500.rules import Options
from tests.net.util import wait_for


class Loser:
    """A TCP relay that loses the first update by seat 1 that makes it seat 0's turn to draw
    — and, with ``answer``, the whole view that answers the client's first ``resync``."""

    def __init__(self, port: int, answer: bool) -> None:
        self.upstream = port
        self.answer = answer
        self.lost: list[dict] = []
        self.port = 0
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> Loser:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def _loses(self, msg: dict) -> bool:
        if msg.get("type") != "state":
            return False
        if not self.lost:
            changed = msg.get("delta") or msg.get("view") or {}
            return msg["by"] == 1 and changed.get("turn") == 0 and changed.get("phase") == "draw"
        # the resync's answer: the whole view, by nobody, no events
        whole = "view" in msg and msg["by"] is None and msg["events"] == []
        return self.answer and len(self.lost) == 1 and whole

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)

        async def up() -> None:
            while data := await reader.read(1 << 16):
                up_writer.write(data)
                await up_writer.drain()
            up_writer.close()

        async def down() -> None:
            while True:
                try:
                    header = await up_reader.readexactly(4)
                    payload = await up_reader.readexactly(struct.unpack(">I", header)[0])
                except (asyncio.IncompleteReadError, ConnectionError):
                    writer.close()
                    return
                msg = decode(payload)
                if self._loses(msg):
                    self.lost.append(msg)
                    continue
                writer.write(header + payload)
                await writer.drain()

        await asyncio.gather(up(), down(), return_exceptions=True)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()


@pytest.mark.parametrize("answer_lost", [False, True])
async def test_a_lost_last_update_is_found_by_the_next_ping(make_host, answer_lost):
    limits = Limits(ping_interval=0.2)
    host = await make_host(players=2, bots=1, seed=5, limits=limits, options=Options(target=500))
    relay = await Loser(host.port, answer=answer_lost).start()
    ann = await Client.connect("127.0.0.1", relay.port, name="Ann")
    bot = make_bot("random", 3)

    async def play_until_the_loss_is_mended() -> None:
        async for msg in ann.messages():
            if msg["type"] != "state" or msg["seq"] != ann.seq:
                continue
            view = msg["view"]
            lost = relay.lost[0]["seq"] if relay.lost else None
            if lost is not None and ann.seq >= lost and view["turn"] == 0:
                return  # the update that was lost is known now: our turn
            if view["turn"] == 0 and view["legal_actions"] and not relay.lost:
                try:
                    await ann.act(bot.choose(view))
                except ActionRefused:
                    if view is ann.view:
                        raise

    try:
        await asyncio.wait_for(play_until_the_loss_is_mended(), 30)
        assert ann.view is not None and ann.view["phase"] == "draw" and ann.view["turn"] == 0
        assert ann.view == host.table.view(0) and ann.seq == host.server.seq
        assert len(relay.lost) == (2 if answer_lost else 1)
        # a resync; another when its answer was lost (asked at the next ping)
        assert ann.resyncs >= len(relay.lost)
        # and the match goes on from there: our draw is taken
        await ann.act({"type": "draw", "source": "stock"})
        await wait_for(lambda: ann.view is not None and ann.view["phase"] == "play")
    finally:
        await ann.close()
        await relay.close()
