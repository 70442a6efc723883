"""Whole games over loopback: a host and 2–8 seats of bots behind the client library,
spectators, rejoin, passwords, chat and the lobby."""

from __future__ import annotations

import asyncio

import pytest

from net.client import ActionRefused, Client, ConnectionLost, HandshakeError
from rum500.rules import Options
from tests.net.util import play_as_bot, wait_for


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
    assert late.view is None or late.view["hand"] is None


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


async def test_password_is_never_sent_in_the_clear(make_host):
    host = await make_host(players=2, bots=1, password="s3cret")
    frames: list[bytes] = []
    sent: list[bytes] = []
    c = await Client.connect(
        host.address, host.port, name="Ann", password="s3cret", trace=frames.append
    )
    assert c.seat == 0
    orig = c._writer.write  # check what we send from now on, too
    c._writer.write = lambda data: (sent.append(data), orig(data))[1]
    await c.chat("hello")
    await c.close()
    assert all(b"s3cret" not in f for f in frames + sent)


async def test_rejoin_mid_turn_keeps_the_position(make_host, clients):
    host = await make_host(players=2, bots=1, seed=3)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    # play until it is Ann's turn in the play phase (after a draw)
    while not (ann.view["turn"] == 0 and ann.view["phase"] == "play"):
        if ann.view["turn"] == 0 and ann.view["phase"] == "draw":
            await ann.act({"type": "draw", "source": "stock"})
        await asyncio.sleep(0.01)
    before = ann.view
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
    with pytest.raises(Exception):  # noqa: B017 - ConnectionLost, from messages()
        async for _ in ann.messages():
            pass
    await ann.reconnect()
    assert ann.seat == 0
    await wait_for(lambda: host.server.seats[0].conn is not None)


async def test_wrong_token_is_refused(make_host, clients):
    host = await make_host(players=2, bots=1)
    with pytest.raises(HandshakeError) as e:
        await clients(host, "Mallory", token="not-a-token")
    assert e.value.code == "bad_token"


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
    await asyncio.sleep(0.05)
    assert game.to_dict() == before
    await mover.act({"type": "draw", "source": "stock"})
    assert len(game.actions) == len(before["actions"]) + 1


async def test_chat_is_relayed_and_limited(make_host, clients):
    host = await make_host(players=2, bots=1)
    a = await clients(host, "Ann")
    w = await clients(host, "W", spectate=True)
    await a.chat("hello table")
    await w.chat("x" * 5000)  # too long: an error, not a disconnect
    await w.chat("from the rail")
    got: list[dict] = []

    async def collect(c: Client, n: int) -> None:
        async for msg in c.messages():
            if msg["type"] in ("chat", "error"):
                got.append(msg)
                n -= 1
                if n == 0:
                    return

    await asyncio.wait_for(collect(a, 2), 5)
    assert [(m["name"], m["text"]) for m in got] == [("Ann", "hello table"), ("W", "from the rail")]
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
