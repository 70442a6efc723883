"""How the server reads a connection (net/server.py): the idle deadline is kept on the
connection's own task, not by a task made for every message (``asyncio.wait_for``) — a
message is then handled in the event loop's turn its bytes come in, without a hop through a
task of its own (bench/net.py measures the host from an action's send to the last update).
Real sockets on 127.0.0.1; the idle timeout still drops a silent peer."""

from __future__ import annotations

import asyncio

from net.framing import ConnectionClosed, encode, read_frame
from net.server import Limits, Server
from tests.net.test_fanout import Table


async def join(server: Server, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    hello = {"type": "hello", "version": 1, "name": name, "spectate": True}
    writer.write(encode(hello))
    assert (await asyncio.wait_for(read_frame(reader), 5))["type"] == "welcome"
    return reader, writer


async def settle(server: Server, connections: int) -> None:
    for _ in range(200):
        if len(server.conns) == connections:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # each connection's task is now waiting for its next message


async def test_a_connection_waiting_for_its_next_message_is_one_task() -> None:
    server = Server(Table([]), table_name="Reads")  # type: ignore[arg-type]
    await server.start("127.0.0.1")
    peers = []
    try:
        await settle(server, 0)
        before = len(asyncio.all_tasks())
        for k in range(4):
            peers.append(await join(server, f"W{k}"))
        await settle(server, 4)
        assert len(asyncio.all_tasks()) - before == 4  # one task for each connection
        # and each still reads: a ping is answered
        for reader, writer in peers:
            writer.write(encode({"type": "ping"}))
            while (await asyncio.wait_for(read_frame(reader), 5))["type"] != "pong":
                pass
    finally:
        for _, writer in peers:
            writer.close()
        await server.close()


async def test_a_silent_peer_is_still_dropped_after_the_idle_timeout() -> None:
    limits = Limits(idle_timeout=0.3, ping_interval=60.0)
    server = Server(Table([]), table_name="Reads", limits=limits)  # type: ignore[arg-type]
    await server.start("127.0.0.1")
    try:
        reader, writer = await join(server, "Quiet")
        codes = []
        try:
            while True:
                msg = await asyncio.wait_for(read_frame(reader), 5)
                if msg["type"] == "error":
                    codes.append(msg["code"])
        except ConnectionClosed:
            pass
        assert codes == ["timeout"]
        writer.close()
    finally:
        await server.close()


async def test_connections_are_kept_and_sent_to_in_the_order_they_joined() -> None:
    server = Server(Table([]), table_name="Order")  # type: ignore[arg-type]
    await server.start("127.0.0.1")
    peers: dict[str, asyncio.StreamWriter] = {}
    joined: list[str] = []
    try:
        for k in range(12):  # some leave on the way: new ones take their memory
            name = f"W{k}"
            peers[name] = (await join(server, name))[1]
            joined.append(name)
            if k % 3 == 1:
                gone = joined.pop(0)
                peers.pop(gone).close()
                await settle(server, len(joined))
        await settle(server, len(joined))
        assert [c.name for c in server.conns] == joined
        sent: list[str] = []
        for conn in server.conns:  # what each is written, in the order it is written
            conn.outlet = lambda frame, name=conn.name: lambda _: sent.append(name)  # type: ignore[method-assign]
        server.resend()
        assert sent == joined
    finally:
        for writer in peers.values():
            writer.close()
        await server.close()
