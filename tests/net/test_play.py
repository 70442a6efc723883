"""Whole games over loopback: a host and 2–8 seats of bots behind the client library,
spectators, rejoin, passwords, chat and the lobby."""

from __future__ import annotations

import asyncio
import contextlib
import struct

import pytest

from net.client import ActionRefused, Client, ConnectionLost, HandshakeError
from net.framing import ConnectionClosed, decode, encode, read_frame
from net.protocol import auth_proof
from rum500.rules import Options
from tests.net.util import next_message, play_as_bot, synced, wait_for


@pytest.mark.parametrize("players,bots", [(2, 0), (4, 1), (5, 2), (8, 0)])
async def test_whole_games_with_spectators(make_host, clients, players, bots):
    host = await make_host(
        players=players, bots=bots, seed=players * 10 + bots, options=Options(target=60)
    )
    humans = [await clients(host, f"P{i}") for i in range(players - bots)]
    assert [c.seat for c in humans] == list(range(players - bots))
    assert len({c.token for c in humans}) == len(humans)
    watcher = await clients(host, "Watcher", spectate=True)
    assert watcher.seat is None and watcher.token is None
    finals = await asyncio.wait_for(
        asyncio.gather(*(play_as_bot(c, seed=i) for i, c in enumerate(humans))), 60
    )
    game = host.table.game
    assert game is not None and game.winner is not None
    for c, view in zip(humans, finals, strict=True):
        assert view["phase"] == "game_over"
        assert view["totals"] == game.totals
        assert view["hand"] == game.view(c.seat)["hand"]
        assert view["names"][c.seat] == f"P{c.seat}"
    await wait_for(lambda: watcher.seq == host.server.seq)
    assert watcher.view["hand"] is None and watcher.view["legal_actions"] == []
    assert watcher.view["totals"] == game.totals
    assert host.server.state == "finished"
    await asyncio.wait_for(host.finished(), 1)


async def test_lobby_seats_start_and_table_full(make_host, clients):
    host = await make_host(players=3, bots=1, host_player="Ann")
    assert host.seat == 0 and host.token
    ann = await clients(host, "Ann", token=host.token)
    assert ann.seat == 0
    await wait_for(lambda: ann.lobby is not None)
    assert ann.lobby["state"] == "lobby"
    assert [s["name"] for s in ann.lobby["seats"]] == ["Ann", None, "Bot 1"]
    bob = await clients(host, "Ann")  # same name: made distinct
    assert bob.seat == 1 and bob.name == "Ann 2"
    await wait_for(lambda: ann.view is not None and bob.view is not None)
    assert host.server.state == "playing"
    with pytest.raises(HandshakeError) as e:
        await clients(host, "Late")
    assert e.value.code == "table_full" and "watch" in str(e.value)
    late = await clients(host, "Late", spectate=True)
    await wait_for(lambda: late.view is not None)  # a late joiner is caught up at once …
    assert late.view["hand"] is None and late.view["legal_actions"] == []  # … as a spectator
    assert late.view["hand_sizes"] == host.table.game.view(None)["hand_sizes"]


async def test_leaving_the_lobby_frees_the_seat(make_host, clients):
    host = await make_host(players=3, bots=1)
    a = await clients(host, "A")
    await a.close()
    await wait_for(lambda: not host.server.seats[0].taken)
    b = await clients(host, "B")
    assert b.seat == 0


async def test_version_mismatch_says_which_version(make_host):
    host = await make_host(players=2, bots=1)
    reader, writer = await asyncio.open_connection(host.address, host.port)
    from net.framing import encode, read_frame

    writer.write(encode({"type": "hello", "version": 99, "name": "Old"}))
    msg = await read_frame(reader)
    assert msg["type"] == "error" and msg["code"] == "version"
    assert "version 1" in msg["message"]
    assert await reader.read() == b""  # closed by the host
    writer.close()


async def test_password_right_wrong_and_missing(make_host, clients):
    host = await make_host(players=2, bots=1, password="s3cret")
    with pytest.raises(HandshakeError) as e:
        await clients(host, "Eve", password="guess")
    assert e.value.code == "bad_password"
    with pytest.raises(HandshakeError) as e:
        await clients(host, "Eve")
    assert "password" in str(e.value)
    assert not any(s.taken and not s.bot for s in host.server.seats)
    ann = await clients(host, "Ann", password="s3cret")
    assert ann.seat == 0
    await wait_for(lambda: ann.view is not None)


class Tap:
    """A TCP relay on 127.0.0.1 between a client and the host that records every byte each
    way, from the first: what really leaves the client, whatever code path wrote it."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.sent: list[bytes] = []  # client -> host
        self.received: list[bytes] = []  # host -> client
        self.port = 0
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> Tap:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, log: list) -> None:
            try:
                while data := await src.read(1 << 16):
                    log.append(data)
                    dst.write(data)
                    await dst.drain()
            except ConnectionError:
                pass
            finally:
                dst.close()

        await asyncio.gather(
            pipe(reader, up_writer, self.sent), pipe(up_reader, writer, self.received)
        )

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()


def frames(data: bytes) -> list[dict]:
    """Split a recorded byte stream into its messages; every byte must belong to a frame."""
    out = []
    while data:
        (length,) = struct.unpack(">I", data[:4])
        assert len(data) >= 4 + length, "a cut frame"
        out.append(decode(data[4 : 4 + length]))
        data = data[4 + length :]
    return out


async def test_password_is_never_sent_in_the_clear(make_host):
    """Every byte the client sends, from the first, recorded on the wire: the password is not
    among them in any form, only the HMAC proof for this connection's nonce."""
    password = "s3cret-пароль"
    host = await make_host(players=2, bots=1, password=password)
    tap = await Tap(host.address, host.port).start()
    try:
        c = await Client.connect("127.0.0.1", tap.port, name="Ann", password=password)
        assert c.seat == 0
        await wait_for(lambda: c.view is not None)
        await c.chat("hello")
        await synced(c)
        await c.close()
    finally:
        await tap.close()
    await wait_for(lambda: host.server.seats[0].conn is None)
    sent = b"".join(tap.sent)
    for form in (password.encode(), password.encode("utf-16-le"), password.encode().hex().encode()):
        assert form not in sent
    assert b"s3cret" not in sent
    out, back = frames(sent), frames(b"".join(tap.received))
    # the first message is the hello: no field of it holds the password in any form
    assert out[0]["type"] == "hello" and out[0]["name"] == "Ann"
    assert set(out[0]) <= {"type", "version", "name", "token", "spectate", "deltas"}
    assert not any(password in str(v) or "s3cret" in str(v) for v in out[0].values())
    challenge = next(m for m in back if m["type"] == "challenge")
    assert out[1] == {"type": "auth", "proof": auth_proof(password, challenge["nonce"])}
    assert [m["type"] for m in out[2:]].count("auth") == 0


async def test_rejoin_mid_turn_keeps_the_position(make_host, clients):
    host = await make_host(players=2, bots=1, seed=3)
    ann = await clients(host, "Ann")

    async def draw_and_stop() -> dict:
        """Until it is Ann's turn in the play phase (after her draw): that view."""
        async for msg in ann.messages():
            v = msg.get("view") if msg["type"] == "state" and msg["seq"] == ann.seq else None
            if v and v["turn"] == 0 and v["phase"] == "draw":
                await ann.act({"type": "draw", "source": "stock"})
            elif v and v["turn"] == 0 and v["phase"] == "play":
                return v
        raise AssertionError("the connection ended")

    before = await asyncio.wait_for(draw_and_stop(), 20)
    token = ann.token
    await ann.drop()
    await wait_for(lambda: host.server.seats[0].conn is None)
    back = await Client.rejoin(host.address, host.port, token, name="whatever")
    try:
        assert back.seat == 0 and back.name == "Ann"
        await wait_for(lambda: back.view is not None)
        assert back.view["hand"] == before["hand"]
        assert back.view["phase"] == "play" and back.view["turn"] == 0
        card = back.view["hand"][0]
        await back.act({"type": "discard", "card": card})
        assert back.view["discard_pile"][-1] == card
    finally:
        await back.close()


async def test_reconnect_after_a_drop(make_host, clients):
    host = await make_host(players=2, bots=1)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    host.server.seats[0].conn.writer.transport.abort()  # the network goes away
    with pytest.raises(ConnectionLost):
        async for _ in ann.messages():
            pass
    await ann.reconnect()
    assert ann.seat == 0
    await wait_for(lambda: host.server.seats[0].conn is not None)


async def seated_table(make_host, clients):
    """A playing table: Ann at seat 0, Bob at seat 1, a bot at seat 2."""
    host = await make_host(players=3, bots=1, seed=5)
    ann = await clients(host, "Ann")
    bob = await clients(host, "Bob")
    await wait_for(lambda: ann.view is not None and bob.view is not None)
    return host, ann, bob


def untouched(host, *players: Client) -> None:
    """Each player still holds its seat on its own connection, and is still connected."""
    for c in players:
        seat = host.server.seats[c.seat]
        assert not c.lost and seat.conn is not None and seat.conn.name == c.name
        assert seat.token == c.token


@pytest.mark.parametrize("name", ["Mallory", "Ann", "Bob"])
async def test_a_wrong_token_is_refused_whatever_the_name(make_host, clients, name):
    """A seated player's name with a wrong token takes nothing (not even with the name)."""
    host, ann, bob = await seated_table(make_host, clients)
    conns = [s.conn for s in host.server.seats]
    with pytest.raises(HandshakeError) as e:
        await clients(host, name, token="not-" + ann.token)
    assert e.value.code == "bad_token"
    assert [s.conn for s in host.server.seats] == conns
    untouched(host, ann, bob)


async def test_a_wrong_token_in_the_lobby_is_refused_too(make_host, clients):
    host = await make_host(players=3, bots=1)
    ann = await clients(host, "Ann")
    with pytest.raises(HandshakeError) as e:
        await clients(host, "Ann", token=ann.token[:-1])
    assert e.value.code == "bad_token"
    assert [s.name for s in host.server.seats] == ["Ann", None, "Bot 1"]  # no seat given
    untouched(host, ann)


async def test_an_empty_token_is_no_token(make_host, clients):
    """``token: ""`` is no token: after the start it gets no seat, whatever the name."""
    host, ann, bob = await seated_table(make_host, clients)
    for name in ("Ann", "Bob", "Eve"):
        with pytest.raises(HandshakeError) as e:
            await clients(host, name, token="")
        assert e.value.code == "table_full"
    untouched(host, ann, bob)


async def test_another_seats_token_gives_that_seat_only(make_host, clients):
    """Bob's token with Ann's name is Bob's seat (and name), never Ann's; acting for Ann
    from it is refused."""
    host, ann, bob = await seated_table(make_host, clients)
    game = host.table.game
    eve = await clients(host, "Ann", token=bob.token)
    assert (eve.seat, eve.name) == (1, "Bob")
    with pytest.raises(ConnectionLost) as lost:
        await next_message(bob, "never")  # Bob's old connection is closed …
    assert lost.value.code == "replaced"
    untouched(host, ann)  # … and Ann's is not
    before = game.to_dict()
    await eve.send_raw(
        {"type": "action", "id": 7, "action": {"type": "draw", "source": "stock"}, "seat": 0}
    )
    await synced(eve)
    assert game.to_dict() == before


async def test_a_replaced_connection_can_do_nothing_more(make_host, clients):
    """Ann's token used again elsewhere: her old connection is told ``replaced`` and closed;
    whatever it still sends (an action, a chat, its token again in a hello) is never read."""
    host, ann, bob = await seated_table(make_host, clients)
    game = host.table.game
    reader, writer = await asyncio.open_connection(host.address, host.port)
    writer.write(
        encode(
            {"type": "hello", "version": 1, "name": "Ann", "token": ann.token, "spectate": False}
        )
    )
    welcome = await asyncio.wait_for(read_frame(reader), 5)
    assert welcome["seat"] == 0
    with pytest.raises(ConnectionLost) as lost:
        await next_message(ann, "never")
    assert lost.value.code == "replaced"
    # the real Ann takes the seat back with her token: the raw connection is the old one now
    back = await clients(host, "Ann", token=ann.token)
    got = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            got.append(await asyncio.wait_for(read_frame(reader), 5))
    assert got and got[-1]["type"] == "error" and got[-1]["code"] == "replaced"
    before = game.to_dict()
    with contextlib.suppress(ConnectionError):
        writer.write(encode({"type": "action", "id": 1, "action": {"type": "ready"}}))
        writer.write(encode({"type": "chat", "text": "I am Ann"}))
        writer.write(encode({"type": "hello", "version": 1, "name": "Ann", "token": ann.token}))
        await writer.drain()
    writer.close()
    await synced(back)
    await synced(bob)
    assert game.to_dict() == before
    assert host.server.seats[0].conn is not None and host.server.seats[0].conn.name == "Ann"
    assert not back.lost and not bob.lost
    assert back.view["hand"] == game.view(0)["hand"]


async def test_a_spectator_never_gets_a_seat(make_host, clients):
    """A spectator's hello with a token — forged, or a seat's own — watches: it takes no
    seat and replaces nobody. A watching connection that sends a seat's token afterwards
    (a second hello) stays a spectator and cannot act."""
    host, ann, bob = await seated_table(make_host, clients)
    game = host.table.game
    for token in ("forged", ann.token, bob.token):
        w = await clients(host, "W", spectate=True, token=token)
        assert w.seat is None
        await wait_for(lambda: w.view is not None)  # noqa: B023
        assert w.view["hand"] is None
        untouched(host, ann, bob)
    watcher = await clients(host, "W", spectate=True)
    assert watcher.seat is None and watcher.token is None
    await watcher.send_raw(
        {"type": "hello", "version": 1, "name": "Ann", "token": ann.token, "spectate": False}
    )
    error = await next_message(watcher, "error")
    assert error["code"] == "bad_message"
    before = game.to_dict()
    seat = game.to_move
    with pytest.raises(ActionRefused, match="spectators"):
        await watcher.act({"type": "draw", "source": "stock"})
    await watcher.send_raw(
        {"type": "action", "id": 9, "action": {"type": "draw", "source": "stock"}, "seat": seat}
    )
    await synced(watcher)
    assert game.to_dict() == before
    assert watcher.view["hand"] is None
    untouched(host, ann, bob)


async def test_refusals_leave_the_game_unchanged(make_host, clients):
    host = await make_host(players=3, bots=1, seed=11)
    a = await clients(host, "A")
    b = await clients(host, "B")
    watcher = await clients(host, "W", spectate=True)
    await wait_for(lambda: a.view is not None and b.view is not None)
    game = host.table.game
    await wait_for(lambda: game.to_move in (a.seat, b.seat))  # the bot plays at once
    mover, other = (a, b) if game.to_move == a.seat else (b, a)
    before = game.to_dict()
    with pytest.raises(ActionRefused, match="not your turn"):
        await other.act({"type": "draw", "source": "stock"})
    with pytest.raises(ActionRefused, match="spectators"):
        await watcher.act({"type": "draw", "source": "stock"})
    with pytest.raises(ActionRefused) as refused:
        await mover.act({"type": "discard", "card": "AS"})  # must draw first
    # the refusal comes with the rules' template and parameters, to translate
    assert refused.value.template == "draw first: from the stock or the discard pile"
    assert refused.value.template.format(**refused.value.params) == str(refused.value)
    with pytest.raises(ActionRefused):
        await mover.act({"type": "fly"})
    # an action for another seat, sent by hand
    await other.send_raw(
        {
            "type": "action",
            "id": 999,
            "action": {"type": "draw", "source": "stock"},
            "seat": mover.seat,
        }
    )
    await synced(other)  # the host has handled it: wait for its answer, then look
    assert game.to_dict() == before
    await mover.act({"type": "draw", "source": "stock"})
    assert len(game.actions) == len(before["actions"]) + 1


async def test_chat_is_relayed_and_limited(make_host, clients):
    host = await make_host(players=2, bots=1)
    a = await clients(host, "Ann")
    w = await clients(host, "W", spectate=True)
    await a.chat("hello table")
    await w.chat("x" * 5000)  # too long: an error, not a disconnect
    await w.chat("from the rail: привет, 東京 ♠ 🂡")
    got: list[dict] = []

    async def collect(c: Client, n: int) -> None:
        async for msg in c.messages():
            if msg["type"] in ("chat", "error"):
                got.append(msg)
                n -= 1
                if n == 0:
                    return

    await asyncio.wait_for(collect(a, 2), 5)
    assert [(m["name"], m["text"]) for m in got] == [
        ("Ann", "hello table"),
        ("W", "from the rail: привет, 東京 ♠ 🂡"),
    ]
    got.clear()
    await asyncio.wait_for(collect(w, 3), 5)
    assert got[1]["type"] == "error" and got[1]["code"] == "bad_message"
    assert not w.lost


async def test_a_silent_host_counts_as_gone():
    """A host that vanished without closing the connection (a pulled cable) is noticed."""

    async def mute_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from net.framing import encode, read_frame

        await read_frame(reader)
        writer.write(
            encode(
                {
                    "type": "welcome",
                    "version": 1,
                    "seat": 0,
                    "token": "t",
                    "name": "Ann",
                    "table": {},
                }
            )
        )
        await asyncio.sleep(5)  # then not another word (for longer than the timeout)

    server = await asyncio.start_server(mute_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        c = await Client.connect("127.0.0.1", port, name="Ann", idle_timeout=0.3)
        with pytest.raises(ConnectionLost) as lost:
            async for _ in c.messages():
                pass
        assert lost.value.code == "timeout" and "stopped answering" in str(lost.value)
        with pytest.raises(ConnectionLost):
            await c.act({"type": "draw", "source": "stock"})
        await c.close()
    finally:
        server.close()


async def test_a_replaced_connection_is_no_spectator(make_host, clients):
    """A seat's connection replaced by a rejoin (closed while its last bytes go out) is
    never listed as a spectator: the lobby that follows the rejoin counts none."""
    host, ann, bob = await seated_table(make_host, clients)
    reader, writer = await asyncio.open_connection(host.address, host.port)
    writer.write(
        encode(
            {"type": "hello", "version": 1, "name": "Ann", "token": ann.token, "spectate": False}
        )
    )
    assert (await asyncio.wait_for(read_frame(reader), 5))["type"] == "welcome"
    lobby = await asyncio.wait_for(read_frame(reader), 5)
    assert lobby["type"] == "lobby"
    assert (lobby["spectators"], lobby["watchers"]) == (0, [])
    assert host.server.lobby_message()["watchers"] == []
    await synced(bob)
    assert (bob.lobby["spectators"], bob.lobby["watchers"]) == (0, [])
    writer.close()
