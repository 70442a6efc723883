"""Over the shoulder as docs/protocol.md §12 words it, in raw msgpack frames over a real
socket: the lobby's ``watchers``, ``shoulder`` and ``shoulder_end``, the views' ``shoulders``
and the shown spectator's ``shoulder``, and every refusal (an ``error`` with code
``shoulder``, nothing changed)."""

from __future__ import annotations

import asyncio

from net.framing import encode
from tests.net.test_docs_agree import DOC, frame, hello, raw, until


async def state(reader: asyncio.StreamReader, shown: bool) -> dict:
    """The whole view of the next ``state`` frame whose ``shoulders`` is not empty (``shown``)
    or is (these connections ask for no deltas; the bot's moves come in between)."""
    while True:
        view = (await until(reader, "state"))[-1]["view"]
        if bool(view["shoulders"]) == shown:
            return view


async def refused(reader: asyncio.StreamReader, shown: tuple[str, ...] = ()) -> dict:
    """The next ``error``; the ``state`` frames before it (the bot plays on) show a hand to
    the spectators named ``shown`` and to no one else (none by default)."""
    msg = await frame(reader)
    while msg["type"] != "error":
        if msg["type"] == "state":
            assert tuple(s["name"] for s in msg["view"]["shoulders"]) == shown, msg
        msg = await frame(reader)
    return msg


async def table(make_host):
    """A match of Ann and a bot, watched by Bea and Cid (raw connections, whole views)."""
    host = await make_host(players=2, bots=1)
    ann = await raw(host, hello("Ann"))
    await until(ann[0], "state")
    bea = await raw(host, hello("Bea", spectate=True))
    await until(bea[0], "state")
    cid = await raw(host, hello("Cid", spectate=True))
    await until(cid[0], "state")
    lobby = host.server.lobby_message()
    return host, ann, bea, cid, {w["name"]: w["id"] for w in lobby["watchers"]}


async def test_the_lobby_lists_the_spectators_by_number(make_host):
    assert "`watchers`" in DOC and "`shoulder`" in DOC and "`shoulder_end`" in DOC
    host = await make_host(players=2, bots=1)
    bea = await raw(host, hello("Bea", spectate=True))
    lobby = (await until(bea[0], "lobby"))[-1]
    assert lobby["spectators"] == 1 and [w["name"] for w in lobby["watchers"]] == ["Bea"]
    assert isinstance(lobby["watchers"][0]["id"], int)
    cid = await raw(host, hello("Cid", spectate=True))
    lobby = (await until(bea[0], "lobby"))[-1]
    assert [w["name"] for w in lobby["watchers"]] == ["Bea", "Cid"]
    cid[1].close()
    lobby = (await until(bea[0], "lobby"))[-1]
    assert [w["name"] for w in lobby["watchers"]] == ["Bea"]
    bea[1].close()


async def test_a_seat_shows_its_hand_to_one_spectator_until_it_ends_it(make_host):
    host, (ann_r, ann_w), (bea_r, bea_w), (cid_r, cid_w), ids = await table(make_host)
    ann_w.write(encode({"type": "shoulder", "spectator": ids["Bea"]}))
    mine, bea, cid = [await state(r, True) for r in (ann_r, bea_r, cid_r)]
    on = [{"seat": 0, "spectator": ids["Bea"], "name": "Bea"}]
    assert mine["shoulders"] == bea["shoulders"] == cid["shoulders"] == on
    assert bea["shoulder"] == {
        "seat": 0,
        "hand": mine["hand"],
        "legal_actions": mine["legal_actions"],
    }
    assert bea["hand"] is None and "shoulder" not in cid and "shoulder" not in mine
    ann_w.write(encode({"type": "shoulder_end", "seat": 0}))
    mine, bea, cid = [await state(r, False) for r in (ann_r, bea_r, cid_r)]
    assert mine["shoulders"] == bea["shoulders"] == cid["shoulders"] == []
    assert "shoulder" not in bea
    for w in (ann_w, bea_w, cid_w):
        w.close()


async def test_every_refusal_is_an_error_and_changes_nothing(make_host):
    host, (ann_r, ann_w), (bea_r, bea_w), (cid_r, cid_w), ids = await table(make_host)
    cases = [
        ((bea_w, bea_r), {"type": "shoulder", "name": "Ann"}, "only a seated player"),
        ((ann_w, ann_r), {"type": "shoulder", "name": "Zed"}, "no spectator is called Zed"),
        ((ann_w, ann_r), {"type": "shoulder", "spectator": 999}, "no spectator has the number"),
        ((ann_w, ann_r), {"type": "shoulder", "name": "Bea", "seat": 1}, "your own hand (seat 0)"),
        ((ann_w, ann_r), {"type": "shoulder_end"}, "you show your hand to no one"),
        ((bea_w, bea_r), {"type": "shoulder_end"}, "only a seated player"),
    ]
    for (w, r), msg, words in cases:
        w.write(encode(msg))
        error = await refused(r)
        assert error["code"] == "shoulder" and words in error["message"], error
        assert error["template"].format(**error["params"]) == error["message"]
        assert host.table.shoulders == [] and all(c.shown is None for c in host.server.conns)
    for msg in (
        {"type": "shoulder"},  # neither a spectator nor a name
        {"type": "shoulder", "spectator": 1, "name": "Bea"},  # both
        {"type": "shoulder", "spectator": "Bea"},
        {"type": "shoulder", "name": 7},
        {"type": "shoulder_end", "seat": "0"},
    ):
        ann_w.write(encode(msg))
        assert (await refused(ann_r))["code"] == "bad_message", msg
    # two at once: a second spectator for the same seat is refused, the first stays
    ann_w.write(encode({"type": "shoulder", "name": "Bea"}))
    await state(ann_r, True)
    ann_w.write(encode({"type": "shoulder", "name": "Cid"}))
    error = await refused(ann_r, shown=("Bea",))  # the bot's moves may come first: Bea's on
    assert error["code"] == "shoulder" and "already show your hand to Bea" in error["message"]
    assert [s["name"] for s in host.table.shoulders] == ["Bea"]
    for w in (ann_w, bea_w, cid_w):
        w.close()


async def test_a_spectator_looks_over_one_shoulder_at_a_time(make_host):
    host = await make_host(players=3, bots=1)
    ann = await raw(host, hello("Ann"))
    dan = await raw(host, hello("Dan"))
    await until(ann[0], "state")
    await until(dan[0], "state")
    bea = await raw(host, hello("Bea", spectate=True))
    await until(bea[0], "state")
    ann[1].write(encode({"type": "shoulder", "name": "Bea"}))
    await state(dan[0], True)
    dan[1].write(encode({"type": "shoulder", "name": "Bea"}))
    error = await refused(dan[0], shown=("Bea",))
    assert error["code"] == "shoulder" and "Bea already looks over" in error["message"]
    assert [s["seat"] for s in host.table.shoulders] == [0]
    for c in (ann, dan, bea):
        c[1].close()


async def test_it_ends_when_the_seats_player_leaves(make_host):
    host, (ann_r, ann_w), (bea_r, bea_w), (cid_r, cid_w), ids = await table(make_host)
    ann_w.write(encode({"type": "shoulder", "name": "Bea"}))
    assert "shoulder" in await state(bea_r, True)
    ann_w.write(encode({"type": "leave"}))
    view = await state(bea_r, False)
    assert "shoulder" not in view and host.table.shoulders == []
    for w in (bea_w, cid_w):
        w.close()
