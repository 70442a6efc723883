"""The server's delta promise (docs/protocol.md §6 "Deltas") for views whose keys come and go.

``GameTable``'s views always have the same keys, so ``gone`` and keys that appear are never
exercised by a match. Here a table that knows no rules (it implements ``net.server.Table``:
each action moves it to the next view of a script) makes its views gain, lose and regain
top-level keys, change a nested map inside, hold ``null`` and empty values; a real
``net.server.Server`` on 127.0.0.1 serves it to raw connections that asked for deltas.

For every update, on every connection: ``delta`` holds exactly the top-level keys whose value
is not the one last sent (new ones included), each value whole; ``gone`` exactly the keys the
view no longer has, and only when there are some; the held view with ``delta`` set and
``gone`` removed is exactly the whole view a ``resync`` then returns — and the table's view.
"""

from __future__ import annotations

import asyncio
import copy
import json

import pytest

from net.framing import encode, read_frame
from net.server import Server

NESTED = {"x": 1, "y": {"z": 1, "w": [1, 2]}}

#: the spectators' view, step by step
PUBLIC: list[dict] = [
    {"a": 1, "b": [1, 2], "m": NESTED},
    {"a": 1, "b": [1, 2, 3], "c": "new"},  # m goes, c comes, b changes
    {"a": 2, "c": "new", "m": NESTED},  # b goes, m comes back as it was before it went
    {"a": 2, "c": "new", "m": {"x": 1, "y": {"z": 2, "w": [1, 2]}}},  # deep in m: m whole
    {"a": 2, "c": "new", "m": {"x": 1}},  # a key of m goes: m whole, nothing gone
    {},  # every key goes
    {"a": 1, "b": [1, 2], "m": NESTED},  # and every key comes back
    {"a": 1, "b": [1, 2], "m": NESTED},  # nothing changed: an empty delta, no gone
    {"a": None, "b": [], "m": {}},  # null and empty values
    {"b": [], "m": {}},  # a null key goes
    {"a": None, "b": [], "m": {}, "n": 0, "s": ""},  # and comes back null; 0 and ""
    {"a": 0, "b": None, "m": {}, "n": False, "s": ""},  # 0 for null, null for [], False for 0
]

#: seat 0's own keys on top of the public view, step by step (own_view): they come, go, and
#: hide a public key for a while
OWN: list[dict] = [
    {"hand": ["AS", "2C"]},
    {},
    {"hand": ["AS", "2C"], "a": "mine"},
    {"a": "mine"},  # the hand goes, a stays the seat's own
    {"hand": []},  # a is the public one again
    {},
    {"hand": ["AS", "2C"]},
    {"hand": ["AS", "2C"]},
    {"hand": None},
    {},
    {"hand": ["KD"], "a": None},
    {"hand": ["KD"], "a": 0},
]


class Scripted:
    """A ``net.server.Table`` that knows no rules: one seat, whose every action (``next``)
    moves the table to the next step of :data:`PUBLIC` and :data:`OWN`."""

    seats = 1

    def __init__(self) -> None:
        self.step = 0
        self._started = False

    @property
    def started(self) -> bool:
        return self._started

    @property
    def finished(self) -> bool:
        return False

    @property
    def to_move(self) -> int | None:
        return 0

    def start(self, seats: list[dict]) -> list[dict]:
        self._started = True
        return [{"type": "step", "n": 0}]

    def apply(self, seat: int, action: dict) -> list[dict]:
        if action.get("type") != "next" or self.step + 1 >= len(PUBLIC):
            raise ValueError("there is no next step")
        self.step += 1
        return [{"type": "step", "n": self.step}]

    def view(self, seat: int | None) -> dict:
        out = copy.deepcopy(PUBLIC[self.step])
        if seat is not None:
            out.update(copy.deepcopy(OWN[self.step]))
        return out

    def seats_changed(self, seats: list[dict]) -> None:
        pass

    def describe(self) -> dict:
        return {}


class ScriptedOwn(Scripted):
    """The same table telling a seat's own keys apart (``own_view``): the server builds the
    public part once and adds these."""

    def own_view(self, seat: int) -> dict:
        return copy.deepcopy(OWN[self.step])


class Raw:
    """A connection speaking raw frames, that asked for deltas."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def join(cls, server: Server, name: str, spectate: bool) -> Raw:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        raw = cls(reader, writer)
        raw.send(
            {"type": "hello", "version": 1, "name": name, "spectate": spectate, "deltas": True}
        )
        assert (await raw.next("welcome"))["type"] == "welcome"
        return raw

    def send(self, msg: dict) -> None:
        self.writer.write(encode(msg))

    async def next(self, *kinds: str) -> dict:
        """The next message of one of ``kinds`` (lobby, chat and pings skipped; a ``state``
        or ``error`` of another kind is a failure)."""
        while True:
            msg = await asyncio.wait_for(read_frame(self.reader), 10)
            if msg["type"] in kinds:
                return msg
            assert msg["type"] not in ("state", "error", "accepted", "refused"), msg

    def close(self) -> None:
        self.writer.close()


def check_delta(held: dict, msg: dict, seq: int) -> dict:
    """The view after ``msg`` (a delta for the view ``held`` of update ``seq - 1``), checking
    it says exactly what changed: every key whose value is not the held one (new ones too),
    each whole, and ``gone`` — only when not empty — the keys that went."""
    assert msg["seq"] == seq and "view" not in msg, msg
    delta = msg["delta"]
    assert isinstance(delta, dict)
    gone = msg.get("gone")
    assert gone is None or (isinstance(gone, list) and gone), msg
    return {**{k: v for k, v in held.items() if k not in (gone or [])}, **delta}


def exact(value: object) -> str:
    """``value`` written so that equal means the same on the wire (``0`` is not ``false``)."""
    return json.dumps(value, sort_keys=True)


def changed(old: dict, new: dict) -> tuple[dict, list[str]]:
    """What the delta from ``old`` to ``new`` must hold: (delta, gone)."""
    delta = {k: v for k, v in new.items() if k not in old or exact(old[k]) != exact(v)}
    return delta, sorted(k for k in old if k not in new)


@pytest.mark.parametrize("table", [Scripted, ScriptedOwn], ids=["view", "own_view"])
async def test_deltas_and_gone_rebuild_exactly_the_whole_view_as_keys_come_and_go(table):
    t = table()
    server = Server(t, table_name="Keys")
    await server.start("127.0.0.1")
    conns: list[Raw] = []
    try:
        # a spectator that asks for the whole view after every update, one that never does,
        # and the seat, which does
        asking = await Raw.join(server, "Sam", spectate=True)
        quiet = await Raw.join(server, "Quinn", spectate=True)
        ann = await Raw.join(server, "Ann", spectate=False)
        conns += [asking, quiet, ann]
        if not t.started:
            server.start_match()
        seats = {id(asking): None, id(quiet): None, id(ann): 0}
        held: dict[int, dict] = {}
        for c in conns:  # the first state: the whole view
            first = await c.next("state")
            assert first["seq"] == 1 and "delta" not in first
            assert exact(first["view"]) == exact(t.view(seats[id(c)]))
            held[id(c)] = first["view"]
        for step in range(1, len(PUBLIC)):
            seq = step + 1
            ann.send({"type": "action", "id": step, "action": {"type": "next"}})
            for c in conns:
                where = f"step {step}, seat {seats[id(c)]}"
                msg = await c.next("state")
                assert msg["events"] == [{"type": "step", "n": step}]
                before = held[id(c)]
                view = check_delta(before, msg, seq)
                want = t.view(seats[id(c)])
                delta, gone = changed(before, want)
                assert exact(msg["delta"]) == exact(delta), where
                assert sorted(msg.get("gone", [])) == gone, where
                assert exact(view) == exact(want), where
                held[id(c)] = view
            assert (await ann.next("accepted"))["seq"] == seq
            for c in (asking, ann):  # the whole view a resync returns is the one rebuilt
                where = f"step {step}, seat {seats[id(c)]}"
                c.send({"type": "resync"})
                whole = await c.next("state")
                assert whole["seq"] == seq and whole["by"] is None and whole["events"] == []
                assert "delta" not in whole and "gone" not in whole
                assert exact(whole["view"]) == exact(held[id(c)]), where
        # the connection that never asked: a resync at the end returns what it rebuilt
        quiet.send({"type": "resync"})
        whole = await quiet.next("state")
        assert exact(whole["view"]) == exact(held[id(quiet)]) == exact(PUBLIC[-1])
        assert exact(held[id(ann)]) == exact({**PUBLIC[-1], **OWN[-1]})
    finally:
        for c in conns:
            c.close()
        await server.close()
