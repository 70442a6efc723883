"""net.Client keeps what it has not handed out bounded, without losing meaning: updates fold
into the newest (every event kept, in order), a gap in ``seq`` asks the host for the whole
view."""

from __future__ import annotations

import asyncio

import net.client
from net.client import MAX_OTHER, MAX_STATES, Client
from net.framing import encode, read_frame
from rum500.rules import Options
from tests.net.util import wait_for


async def unread_spectator_of_a_whole_match(make_host, clients):
    """A bot-only match watched by a spectator that reads nothing until game over; returns
    (host, spectator, the events of every update in order, the most ever queued)."""
    host = await make_host(players=3, bots=2, options=Options(target=150), seed=11)
    broadcast: list[dict] = []
    host.server.on_events.append(lambda by, events: broadcast.extend(events))
    rail = await clients(host, "Rail", spectate=True)
    most = 0

    def sample() -> None:
        nonlocal most
        most = max(most, rail.pending())

    host.server.on_change.append(sample)
    host.start_now()
    await asyncio.wait_for(host.finished(), 120)
    await wait_for(lambda: rail.seq == host.server.seq)
    return host, rail, broadcast, most


async def read_queued(client: Client) -> list[dict]:
    out = []
    while client.pending():
        out.append(await asyncio.wait_for(anext(aiter(client.messages())), 5))
    return out


async def test_an_unread_client_holds_a_bounded_queue_and_ends_on_the_newest(make_host, clients):
    host, rail, broadcast, most = await unread_spectator_of_a_whole_match(make_host, clients)
    assert host.server.seq > 3 * MAX_STATES  # many updates went by unread …
    assert most <= MAX_STATES + 1  # … and no more than the states and one lobby ever waited
    got = await read_queued(rail)
    states = [m for m in got if m["type"] == "state"]
    assert len(states) == MAX_STATES
    # the first ones as they came, one per update; the newest fold into the last
    assert [m["seq"] for m in states[:-1]] == list(range(1, MAX_STATES))
    assert all("skipped" not in m for m in states[:-1])
    last = states[-1]
    assert last["seq"] == host.server.seq and last["view"]["phase"] == "game_over"
    assert last["skipped"] == host.server.seq - MAX_STATES  # every later update, folded
    assert [m for m in got if m["type"] == "lobby"][-1]["state"] == "finished"
    events = [e for m in states for e in m["events"]]
    if len(last["events"]) <= net.client.MAX_EVENTS and "events_lost" not in last:
        assert events == broadcast  # nothing lost: every event, in order
    else:
        assert last["events_lost"] and events[-10:] == broadcast[-10:]


async def test_too_many_events_to_keep_say_so(make_host, clients, monkeypatch):
    monkeypatch.setattr(net.client, "MAX_EVENTS", 10)
    host, rail, broadcast, _ = await unread_spectator_of_a_whole_match(make_host, clients)
    last = [m for m in await read_queued(rail) if m["type"] == "state"][-1]
    assert last["events_lost"] is True and last["events"] == broadcast[-10:]
    assert last["view"]["phase"] == "game_over"


async def test_unread_chat_is_bounded_and_the_newest_is_kept(make_host, clients):
    host = await make_host(players=2, bots=1)
    ann = await clients(host, "Ann")
    rail = await clients(host, "Rail", spectate=True)
    # the bot's turn, when it comes first, is over (and Rail has it) before the chat: no
    # update can come in between counting what waits and reading it
    await wait_for(lambda: host.game() is not None and host.game().to_move == ann.seat)
    await wait_for(lambda: rail.seq == host.server.seq)
    total = MAX_OTHER + 150
    for i in range(total):
        await ann.chat(f"line {i}")
    await ann.chat("last")
    await wait_for(lambda: rail._queue.dropped >= total + 1 - MAX_OTHER)
    pending = rail.pending()
    got = await read_queued(rail)
    chats = [m["text"] for m in got if m["type"] == "chat"]
    assert chats[-1] == "last" and len(chats) == MAX_OTHER
    # beside the chat only the table's own messages wait, bounded on their own: the lobby and
    # the states of the bot's turn (it thinks in a worker, so it may play after Rail sat down)
    assert pending == len(got) <= MAX_OTHER + 1 + MAX_STATES
    assert chats == [f"line {i}" for i in range(total + 1 - MAX_OTHER, total)] + ["last"]


async def test_a_gap_in_seq_asks_the_host_for_the_whole_view():
    """A host (speaking raw frames) that skips update 2: the client sends ``resync``."""
    asked: asyncio.Future = asyncio.get_running_loop().create_future()

    async def host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert (await read_frame(reader))["type"] == "hello"
        writer.write(encode({"type": "welcome", "seat": None, "token": None, "table": {}}))
        for seq in (1, 3):
            writer.write(encode({"type": "state", "seq": seq, "by": 0, "view": {"n": seq}}))
        while True:
            msg = await read_frame(reader)
            if msg["type"] == "resync":
                writer.write(
                    encode({"type": "state", "seq": 3, "by": None, "view": {"n": 3}, "events": []})
                )
                asked.set_result(msg)
                break
        await reader.read()  # until the client leaves

    server = await asyncio.start_server(host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = await Client.connect("127.0.0.1", port, name="Gap", spectate=True)
    try:
        assert await asyncio.wait_for(asked, 10) == {"type": "resync"}
        await wait_for(lambda: client.pending() == 3 and client.view == {"n": 3})
        seen = [m["seq"] for m in await read_queued(client)]
        assert seen == [1, 3, 3]
    finally:
        await client.close()
        server.close()
        await server.wait_closed()


async def test_a_short_idle_timeout_pings_the_host_and_keeps_a_quiet_line(make_host, clients):
    host = await make_host(players=3, bots=1)  # a lobby: nothing to say for a long while
    ann = await clients(host, "Ann", idle_timeout=0.4)
    await wait_for(lambda: ann.pings >= 10, timeout=20)
    assert ann.lost is None and host.server.seats[ann.seat].conn is not None
    kinds = [m["type"] for m in await read_queued(ann)]
    assert "pong" not in kinds  # the answers to its own pings are not handed out
