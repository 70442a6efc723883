"""Deltas on the wire (docs/protocol.md §6): a connection that asks for them gets, after its
first whole view, only the view's keys that changed — and net.Client rebuilds the whole view.

Checked over whole matches on real sockets: after every update, the view each seat and each
spectator rebuilt is the very view the host built for it; a gap (a frame lost on the way,
dropped by a relay) makes the client resync and end equal; spectators share one frame."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import AsyncIterator

import msgpack
import pytest

from net.client import ActionRefused, Client
from net.framing import HEADER, decode, encode
from net.protocol import apply_state
from rum500.bots import make_bot
from rum500.rules import Options
from tests.net.util import play_as_bot, wait_for, waiting_for_me


def test_apply_state_follows_the_delta_rule():
    held = {"a": 1, "b": [1, 2], "c": None}
    assert apply_state(held, 4, {"seq": 5, "view": {"x": 1}}) == {"x": 1}  # whole: replaces
    out = apply_state(held, 4, {"seq": 5, "delta": {"b": [3]}, "gone": ["c", 7, ["x"]]})
    assert out == {"a": 1, "b": [3]}
    assert held == {"a": 1, "b": [1, 2], "c": None}  # the held view is left as it was
    assert apply_state(held, 4, {"seq": 6, "delta": {"a": 2}}) is None  # a gap
    assert apply_state(held, 4, {"seq": 4, "delta": {"a": 2}}) is None  # not newer
    assert apply_state(None, 0, {"seq": 1, "delta": {"a": 2}}) is None  # nothing held
    assert apply_state(held, 4, {"seq": 5, "delta": "junk"}) is None


def recording(host) -> dict:
    """Every view the host's table builds, by (seq of the update it goes in, seat): a copy
    taken at once (what was packed into that update's frames)."""
    seen: dict = {}
    table = host.table
    build = table.view

    def view(seat, known=frozenset()):
        v = build(seat, known)
        # the keys the host had packed already (``known``) come out None: theirs are taken
        # from a whole view built now (they are the same objects; the rest, e.g. a
        # countdown, as they went out)
        whole = {**v, **{k: x for k, x in build(seat).items() if k in known}} if known else v
        seen[(host.server.seq, seat)] = msgpack.unpackb(msgpack.packb(whole))
        return v

    table.view = view  # the host's own view, watched: nothing a player touches is changed
    own = table.packed_own_view

    def own_view(seat):
        # the server builds a seat's view as view(None) plus these keys (packed, or the
        # kept map while they stay the same): what it must equal is the seat's whole view
        # built at the same moment
        whole = msgpack.unpackb(msgpack.packb(build(seat)))
        public = seen.get((host.server.seq, None), {})
        for key in ("review", "claim"):  # a countdown, read once for the whole update
            if whole.get(key) and public.get(key):
                whole[key]["seconds_left"] = public[key]["seconds_left"]
        seen[(host.server.seq, seat)] = whole
        return own(seat)

    table.packed_own_view = own_view
    return seen


async def rebuilt(client: Client, into: list) -> None:
    async for msg in client.messages():
        if msg["type"] == "state":
            into.append((msg["seq"], msg["view"], list(msg["events"])))
            if msg["view"].get("phase") == "game_over":
                return


@pytest.mark.parametrize("players,bots", [(2, 0), (4, 1)])
async def test_every_rebuilt_view_is_the_hosts_view_over_whole_matches(make_host, players, bots):
    host = await make_host(
        players=players, bots=bots, seed=11 + players, options=Options(target=300)
    )
    seen = recording(host)
    raws: dict = {}
    humans = []
    for i in range(players - bots):
        raw: list[bytes] = []
        c = await Client.connect(host.address, host.port, name=f"P{i}", trace=raw.append)
        raws[c.seat] = raw
        humans.append(c)
    watchers = []
    for i in range(2):
        raw = []
        w = await Client.connect(
            host.address, host.port, name=f"W{i}", spectate=True, trace=raw.append
        )
        raws[("spectator", i)] = raw
        watchers.append(w)
    got = {id(w): [] for w in watchers}
    watching = [asyncio.create_task(rebuilt(w, got[id(w)])) for w in watchers]
    await wait_for(lambda: host.table.game is not None)
    # the humans play; their own views are checked from the frames they received
    await asyncio.wait_for(asyncio.gather(*(play_as_bot(c, seed=c.seat) for c in humans)), 120)
    await asyncio.wait_for(asyncio.gather(*watching), 30)
    assert host.table.game.phase.value == "game_over"
    last = host.server.seq
    assert last > 100  # a real match: many updates

    checked = 0
    for key, frames in raws.items():
        seat = None if isinstance(key, tuple) else key
        view, seq, deltas = None, 0, 0
        for frame in frames:
            msg = decode(frame[HEADER.size :])
            if msg["type"] != "state":
                continue
            deltas += "delta" in msg
            view = apply_state(view, seq, msg)
            assert view is not None, f"{key}: state {msg['seq']} could not be rebuilt"
            seq = msg["seq"]
            assert view == seen[(seq, seat)], f"{key}: the view rebuilt at {seq} differs"
            checked += 1
        assert seq == last, f"{key} did not get every update"
        assert deltas >= seq - 2, f"{key}: only {deltas} of {seq} updates came as deltas"
    assert checked >= len(raws) * last
    for w in watchers:  # and what net.Client handed on is that view too, every update
        updates = got[id(w)]
        assert [s for s, _, _ in updates] == list(range(updates[0][0], last + 1))
        for seq, view, _ in updates:
            assert view == seen[(seq, None)]
        assert w.view == seen[(last, None)]
    for c in [*humans, *watchers]:
        await c.close()


async def test_spectators_share_one_frame_and_seats_get_small_updates(make_host):
    host = await make_host(players=3, bots=2, seed=5, options=Options(target=200))
    frames: dict = {}
    first = await Client.connect(
        host.address, host.port, name="W1", spectate=True, trace=frames.setdefault("w1", []).append
    )
    ann = await Client.connect(
        host.address, host.port, name="Ann", trace=frames.setdefault("ann", []).append
    )
    await wait_for(lambda: ann.seq >= 3)
    later = await Client.connect(
        host.address, host.port, name="W2", spectate=True, trace=frames.setdefault("w2", []).append
    )
    await asyncio.wait_for(play_as_bot(ann, seed=3), 120)
    await wait_for(lambda: first.seq == later.seq == host.server.seq)

    def states(name: str) -> dict[int, bytes]:
        out = {}
        for f in frames[name]:
            msg = decode(f[HEADER.size :])
            if msg["type"] == "state":
                out[msg["seq"]] = f
        return out

    one, two = states("w1"), states("w2")
    joined = min(two)  # the later spectator's whole view, then the same frames as the first
    assert "view" in decode(two[joined][HEADER.size :])
    shared = [s for s in two if s > joined]
    assert len(shared) > 50 and all(one[s] == two[s] for s in shared)
    # a delta is much smaller than the whole view it stands for
    view, seq, small, whole = None, 0, [], []
    for f in sorted(states("ann").items()):
        msg = decode(f[1][HEADER.size :])
        view, seq = apply_state(view, seq, msg), msg["seq"]
        if "delta" in msg:
            small.append(len(f[1]))
            full = {k: v for k, v in msg.items() if k not in ("delta", "gone")}
            whole.append(len(encode({**full, "view": view})))
    assert len(small) > 50
    assert sum(small) < sum(whole) / 3
    for c in (first, ann, later):
        await c.close()


class Dropper:
    """A TCP relay between one client and the host that loses one ``state`` frame, as a
    broken middlebox would: the first one from the ``drop``-th on that seat ``by``'s action
    caused. For seat 0 (the client's own) the client learns of the gap from what follows it
    (the ``accepted`` of that action, or the next update); for another seat, from the next
    update. With ``hold``, the client's ``resync`` waits in the relay until ``hold`` more
    updates have gone down to the client after the lost one (kept in :attr:`during`): they
    arrive while the client is in the gap."""

    def __init__(self, port: int, drop: int, by: int = 0, hold: int = 0) -> None:
        self.upstream = port
        self.drop = drop
        self.by = by
        self.hold = hold
        self.dropped: dict | None = None
        self.during: list[dict] = []  # states sent down after the lost one, before the resync
        self.resynced = False  # the client's resync went up to the host
        self._enough = asyncio.Event()
        self.port = 0
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> Dropper:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        states = 0

        async def frames(r: asyncio.StreamReader) -> AsyncIterator[tuple[bytes, dict]]:
            while True:
                try:
                    header = await r.readexactly(4)
                    payload = await r.readexactly(struct.unpack(">I", header)[0])
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                yield header + payload, decode(payload)

        async def up() -> None:
            async for frame, msg in frames(reader):
                if msg["type"] == "resync" and self.dropped is not None and not self.resynced:
                    await self._enough.wait()  # later frames wait behind it, in order
                    self.resynced = True
                up_writer.write(frame)
                await up_writer.drain()
            up_writer.close()

        async def down() -> None:
            nonlocal states
            async for frame, msg in frames(up_reader):
                if msg["type"] == "state":
                    states += 1
                    if self.dropped is None:
                        if states >= self.drop and msg["by"] == self.by:
                            self.dropped = msg
                            if self.hold == 0:
                                self._enough.set()
                            continue
                    elif not self.resynced and "delta" in msg:
                        self.during.append(msg)
                        if len(self.during) >= self.hold:
                            self._enough.set()
                writer.write(frame)
                await writer.drain()
            writer.close()

        await asyncio.gather(up(), down(), return_exceptions=True)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()


async def play_through(ann: Client) -> tuple[dict, list[dict], list[tuple[int, dict]], list[int]]:
    """play_as_bot's loop for seat 0, keeping what the client hands on: (the game-over view,
    every event, every (seq, view), the seqs of the updates whose actions were refused)."""
    bot = make_bot("random", 4)
    events: list[dict] = []
    views: list[tuple[int, dict]] = []
    refused: list[int] = []
    readied: set[int] = set()
    async for msg in ann.messages():
        if msg["type"] != "state":
            continue
        view = msg["view"]
        events.extend(msg["events"])
        views.append((msg["seq"], view))
        if view["phase"] == "game_over":
            return view, events, views, refused
        if msg["seq"] != ann.seq:
            continue
        if view["phase"] == "hand_over":  # the review: say ready once
            if waiting_for_me(view, 0) and view["review"]["hand"] not in readied:
                readied.add(view["review"]["hand"])
                await ann.act({"type": "ready"})
        elif view["turn"] == 0 and view["legal_actions"]:
            try:
                await ann.act(bot.choose(view))
            except ActionRefused:  # chosen on the view held while the frame was lost
                refused.append(msg["seq"])
    raise AssertionError("the connection ended before game over")


@pytest.mark.parametrize("drop", [2, 40])
async def test_a_gap_makes_the_client_resync_and_end_equal(make_host, drop):
    host = await make_host(players=2, bots=1, seed=9, options=Options(target=200))
    seen = recording(host)
    told: dict[int, list[dict]] = {}
    host.server.on_events.append(lambda by, events: told.update({host.server.seq: events}))
    relay = await Dropper(host.port, drop=drop).start()
    try:
        ann = await Client.connect("127.0.0.1", relay.port, name="Ann")
        last, events, views, refused = await asyncio.wait_for(play_through(ann), 120)
        assert last["phase"] == "game_over"
        assert relay.dropped is not None and "delta" in relay.dropped
        assert ann.resyncs == 1  # the gap was seen once, and one resync mended it
        assert len(refused) <= 1 and all(s < relay.dropped["seq"] for s in refused)
        for seq, view in views:  # every view handed on is the host's, before and after
            assert view == seen[(seq, 0)]
        assert ann.seq == host.server.seq and ann.view == seen[(ann.seq, 0)]
        # the events handed on are the host's, in order, only the lost frame's missing
        lost = relay.dropped["seq"]
        assert events == [e for seq in sorted(told) if seq != lost for e in told[seq]]
        assert len(events) >= 100
        await ann.close()
    finally:
        await relay.close()


async def test_events_of_updates_that_come_during_a_gap_reach_the_application_once(make_host):
    """Ann with two bots: the relay loses an update of seat 1 (a bot's action, not Ann's),
    and holds Ann's ``resync`` until three more of the bots' updates have reached her client:
    they arrive while it waits for the whole view. Their events are handed on with that whole
    view — every event the host told, exactly once and in order, only the lost frame's
    missing — and each view handed on is the host's."""
    host = await make_host(players=3, bots=2, seed=9, options=Options(target=200))
    seen = recording(host)
    told: dict[int, list[dict]] = {}
    host.server.on_events.append(lambda by, events: told.update({host.server.seq: events}))
    relay = await Dropper(host.port, drop=10, by=1, hold=3).start()
    try:
        ann = await Client.connect("127.0.0.1", relay.port, name="Ann")
        last, events, views, refused = await asyncio.wait_for(play_through(ann), 120)
        assert last["phase"] == "game_over"
        assert relay.dropped is not None and "delta" in relay.dropped
        lost = relay.dropped["seq"]
        # the updates that came during the gap: the bots', right after the lost one, with events
        during = relay.during
        assert [m["seq"] for m in during] == [lost + 1, lost + 2, lost + 3]
        assert all(m["by"] in (1, 2) and told[m["seq"]] for m in during)
        assert ann.resyncs == 1 and refused == []
        # the whole view that mended the gap comes next, with those updates' events
        after = [(seq, v) for seq, v in views if seq > lost]
        assert after[0][0] >= lost + 3
        for seq, view in views:
            assert view == seen[(seq, 0)]
        assert events == [e for seq in sorted(told) if seq != lost for e in told[seq]]
        assert len(events) >= 100
        await ann.close()
    finally:
        await relay.close()


async def test_a_client_that_does_not_ask_gets_whole_views(make_host):
    host = await make_host(players=2, bots=1)
    reader, writer = await asyncio.open_connection(host.address, host.port)
    writer.write(encode({"type": "hello", "version": 1, "name": "Old", "token": None}))
    seen = 0
    while seen < 3:
        header = await asyncio.wait_for(reader.readexactly(4), 10)
        msg = decode(await reader.readexactly(struct.unpack(">I", header)[0]))
        if msg["type"] == "welcome":
            host.start_now()
        if msg["type"] == "state":
            assert "view" in msg and "delta" not in msg
            seen += 1
            if msg["view"]["turn"] == 0 and msg["view"]["legal_actions"]:
                action = msg["view"]["legal_actions"][0]
                writer.write(encode({"type": "action", "id": seen, "action": action}))
    writer.close()


async def test_deltas_must_be_a_boolean(make_host):
    host = await make_host(players=2, bots=1)
    reader, writer = await asyncio.open_connection(host.address, host.port)
    writer.write(encode({"type": "hello", "version": 1, "name": "X", "deltas": "yes"}))
    header = await asyncio.wait_for(reader.readexactly(4), 10)
    msg = decode(await reader.readexactly(struct.unpack(">I", header)[0]))
    assert msg == {
        "type": "error",
        "code": "bad_message",
        "message": "'deltas' must be true or false",
    }
    writer.close()
