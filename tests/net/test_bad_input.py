"""Bad input of every kind: each gets a clear error or a disconnect, and the table and the
other players carry on with nothing lost."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from net.framing import MAX_FRAME, ConnectionClosed, FrameError, decode, encode, read_frame
from net.server import Limits
from rum500.rules import Options
from tests.net.util import synced, wait_for


async def raw(host, hello: dict | None = None):
    reader, writer = await asyncio.open_connection(host.address, host.port)
    if hello is not None:
        writer.write(encode(hello))
    return reader, writer


def hello(name: str = "X", **kw: object) -> dict:
    return {"type": "hello", "version": 1, "name": name, **kw}


NOT_FATAL = ("bad_message", "unknown_type")


async def frames_until_close(reader: asyncio.StreamReader) -> list[dict]:
    """The frames the host sends until it hangs up, or until its fatal error (the last frame
    it sends: it may then wait a moment for us to read it before closing)."""
    out: list[dict] = []
    while True:
        try:
            out.append(await asyncio.wait_for(read_frame(reader), 5))
        except (ConnectionClosed, FrameError):
            return out
        if out[-1]["type"] == "error" and out[-1]["code"] not in NOT_FATAL:
            return out


async def playing_table(make_host, clients, **kw):
    """A 3-seat table: one bot, Ann (a client), and the seat under test taken by a raw socket."""
    host = await make_host(players=3, bots=1, **kw)
    ann = await clients(host, "Ann")
    return host, ann


def packed(obj: object) -> bytes:
    data = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(data)) + data


BAD_FRAMES = {
    "not msgpack": struct.pack(">I", 3) + b"\xc1\xc1\xc1",
    "not a map": packed([1, 2, 3]),
    "int keys": packed({1: "x", "type": "hello"}),
    "ext type": struct.pack(">I", 3) + b"\xd4\x05\x00",
    "binary": packed({"type": "hello", "name": b"bytes"}),
    "deep": packed({"type": "chat", "text": "x", "n": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}),
    "oversized header": struct.pack(">I", MAX_FRAME + 1) + b"\x80",
    "trailing bytes": struct.pack(">I", 2) + b"\x80\x80",
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
async def test_bad_frames_are_refused_and_others_carry_on(make_host, clients, name):
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host)
    writer.write(BAD_FRAMES[name])
    got = await frames_until_close(reader)
    assert got and got[0]["type"] == "error" and got[0]["code"] == "bad_frame"
    assert got[0]["message"]
    if name in ("int keys", "not msgpack"):  # msgpack's own reason, not just a class name
        assert "Error" not in got[0]["message"] and ": " in got[0]["message"]
    writer.close()
    # and the table works for the next one
    ann = await clients(host, "Ann")
    assert ann.seat == 0
    await wait_for(lambda: ann.view is not None)


async def test_bad_frame_mid_game_drops_only_that_connection(make_host, clients):
    host = await make_host(players=3, bots=1)
    reader, writer = await raw(host, hello("Mallory"))
    welcome = await read_frame(reader)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    before = host.table.game.to_dict()
    writer.write(BAD_FRAMES["ext type"])
    got = await frames_until_close(reader)
    assert got[-1]["code"] == "bad_frame"
    await wait_for(lambda: host.server.seats[0].conn is None)
    assert host.server.seats[0].name == "Mallory"  # the seat is kept for a rejoin
    assert host.table.game.to_dict() == before
    await ann.chat("still here")
    assert not ann.lost


@pytest.mark.parametrize(
    "msg,code",
    [
        ({"type": "warp"}, "unknown_type"),
        ({"type": 5}, "bad_message"),
        ({"type": "action", "id": "one", "action": {"type": "draw"}}, "bad_message"),
        ({"type": "action", "id": 1, "action": "draw"}, "refused"),  # a usable id: refused
        ({"type": "chat", "text": 42}, "bad_message"),
        ({"type": "hello", "version": 1, "name": "again"}, "bad_message"),
    ],
)
async def test_wrong_fields_get_an_error_and_the_connection_stays(make_host, msg, code):
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, hello("Bob"))
    assert (await read_frame(reader))["type"] == "welcome"
    writer.write(encode(msg))
    writer.write(encode({"type": "ping"}))
    seen = []
    while not seen or seen[-1]["type"] != "pong":
        seen.append(await asyncio.wait_for(read_frame(reader), 5))
    answers = [m for m in seen if m["type"] in ("error", "refused")]
    if code == "refused":  # answered once, for that id, and with no error as well
        assert [(m["type"], m.get("id")) for m in answers] == [("refused", msg["id"])]
    else:
        assert [(m["type"], m["code"]) for m in answers] == [("error", code)]
    writer.close()


async def test_first_message_must_be_hello(make_host):
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, {"type": "chat", "text": "hi"})
    got = await frames_until_close(reader)
    assert got[0]["code"] == "handshake"
    writer.close()


async def test_hello_with_bad_fields(make_host):
    """A hello with a bad field gets a non-fatal ``bad_message`` saying which; a good hello
    on the same connection then gets in."""
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, {"type": "hello", "version": 1, "name": ""})
    got = await asyncio.wait_for(read_frame(reader), 5)
    assert got["type"] == "error" and got["code"] == "bad_message" and "name" in got["message"]
    writer.write(encode(hello("Ann")))
    welcome = await asyncio.wait_for(read_frame(reader), 5)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    writer.close()


async def test_a_flood_is_cut_off_and_the_game_goes_on(make_host, clients):
    host = await make_host(players=3, bots=1, limits=Limits(rate=100, burst=200))
    reader, writer = await raw(host, hello("Flood"))
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    writer.write(encode({"type": "ping"}) * 5000)
    got = await frames_until_close(reader)
    assert got[-1]["type"] == "error" and got[-1]["code"] == "flood"
    await ann.chat("fine")
    await wait_for(lambda: host.server.seats[0].conn is None)
    assert not ann.lost and host.server.state == "playing"


async def test_half_open_connections_are_dropped(make_host, clients):
    limits = Limits(handshake_timeout=0.3, idle_timeout=0.5, ping_interval=0.1)
    host = await make_host(players=3, bots=1, limits=limits)
    silent_reader, silent = await raw(host)  # never says hello
    got = await frames_until_close(silent_reader)
    assert got[-1]["code"] == "timeout"
    assert got[-1]["message"] == "no valid 'hello' within 0.3 s of connecting"
    mute_reader, mute = await raw(host, hello("Mute"))  # says hello, then never a word
    pings: list[bytes] = []
    ann = await clients(host, "Ann", trace=pings.append)  # answers pings (the library does)
    got = await frames_until_close(mute_reader)
    assert got[-1]["code"] == "timeout"
    # Ann has been pinged (and answered) for well over the idle timeout: still seated
    await wait_for(lambda: sum(decode(f[4:])["type"] == "ping" for f in pings) >= 12)
    assert not ann.lost and host.server.seats[ann.seat].conn is not None
    silent.close()
    mute.close()


async def test_a_client_that_never_reads_is_dropped(make_host, clients):
    limits = Limits(queue_bytes=64 * 1024, rate=1e6, burst=1e6)
    host = await make_host(players=2, bots=0, limits=limits, options=Options(target=5000))
    # the sleeper: a seat whose socket buffers we keep tiny and never read
    import socket

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host.address, host.port))
    sock.sendall(encode(hello("Sleeper", spectate=True)))
    ann = await clients(host, "Ann")
    bob = await clients(host, "Bob")
    await wait_for(lambda: ann.view is not None)
    sleeper = next(c for c in host.server.conns if c.name == "Sleeper")
    for i in range(100_000):  # chat until the kernel buffers and the sleeper's queue are full
        await ann.chat(f"message {i} " + "x" * 280)
        if sleeper.closed:
            break
        await asyncio.sleep(0)
    await wait_for(lambda: sleeper.closed)
    assert sleeper.reason == "too_slow"
    sock.close()  # (the host would cut it after a while; the sleeper wakes up first)
    await wait_for(lambda: sleeper not in host.server.conns)
    assert not ann.lost and not bob.lost
    await ann.chat("done")
    await synced(ann)


async def test_out_of_turn_flood_of_actions_changes_nothing(make_host, clients):
    host = await make_host(players=3, bots=1, seed=4)
    a = await clients(host, "A")
    b = await clients(host, "B")
    game = host.table.game
    await wait_for(lambda: game is not None or host.table.game is not None)
    game = host.table.game
    await wait_for(lambda: game.to_move in (0, 1))
    other = b if game.to_move == 0 else a
    before = game.to_dict()
    for i in range(50):
        await other.send_raw(
            {"type": "action", "id": i, "action": {"type": "draw", "source": "stock"}}
        )
    await synced(other)  # every one of them answered: now look
    assert game.to_dict() == before
    assert not other.lost
