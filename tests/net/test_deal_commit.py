"""A deal nobody can stack (docs/protocol.md §9): a real host and real clients on loopback.
Every hand's deal is committed before it and checked after it; a client that withholds its
contribution is dealt without and says so; a host that reveals a wrong secret is caught; the
secret never reaches a client before the hand's end; a malformed ``contribute`` is refused."""

from __future__ import annotations

import asyncio
import contextlib

import msgpack
import pytest

import rum500.host.host as hosting
from net.client import Client
from net.framing import HEADER, encode, read_frame
from rum500.client import RumClient
from rum500.rules import Options
from rum500.rules.shuffle import commitment
from tests.net.util import next_message, play_as_bot, synced, wait_for

pytestmark = pytest.mark.asyncio


async def _play(make_host, client_cls=RumClient, trace=None, **kw):  # type: ignore[no-untyped-def]
    host = await make_host(
        players=2,
        bots=1,
        seed=None,
        options=Options(target=100),
        review_timeout=0.2,
        contribution_wait=0.3,
        **kw,
    )
    client = await client_cls.connect(host.address, host.port, name="Ann", trace=trace)
    try:
        host.start_now()
        last = await play_as_bot(client)
    finally:
        await client.close()
    return host, client, last


async def test_every_deal_is_committed_and_checked(make_host) -> None:
    host, client, last = await _play(make_host)
    hands = len(last["results"])
    assert hands >= 1
    await wait_for(lambda: len(client.deals.verdicts) == hands)
    assert {h: v["reason"] for h, v in client.deals.verdicts.items()} == {
        h: "checked" for h in range(1, hands + 1)
    }
    deals = [a for a in host.game().actions if a["type"] == "deal"]
    assert len(deals) == hands  # the first hand's included (the match's first action)
    assert host.game().actions[0] is deals[0]
    for h, deal in enumerate(deals, 1):
        assert commitment(deal["secret"]) == deal["commitment"] == client.deals.commitments[h]
        assert deal["contributions"][client.seat] == client.deals.mine[h]
        assert deal["contributions"][1 - client.seat] is None  # the bot's seat adds nothing


class Withholding(RumClient):
    """Sees every commitment, never answers one."""

    def _on_commit(self, msg: dict) -> None:
        self.deals.on_commit(msg, None)  # noted as a spectator would: nothing to send


async def test_a_withheld_contribution_is_dealt_without_and_said(make_host) -> None:
    host, client, last = await _play(make_host, Withholding)
    await wait_for(lambda: len(client.deals.verdicts) == len(last["results"]))
    assert {v["reason"] for v in client.deals.verdicts.values()} == {"contribution_missing"}
    deals = [a for a in host.game().actions if a["type"] == "deal"]
    assert all(d["contributions"] == [None, None] for d in deals)


async def test_a_wrong_secret_is_caught(make_host, monkeypatch: pytest.MonkeyPatch) -> None:
    real = hosting.reveal

    def lying(game):  # type: ignore[no-untyped-def]
        message = real(game)
        if message is not None and message["deal"] is not None:
            message["deal"]["secret"] = "0" * 64  # not the committed one
        return message

    monkeypatch.setattr(hosting, "reveal", lying)
    _, client, last = await _play(make_host)
    await wait_for(lambda: len(client.deals.verdicts) == len(last["results"]))
    assert {v["reason"] for v in client.deals.verdicts.values()} == {"wrong_secret"}
    assert not any(v["ok"] for v in client.deals.verdicts.values())


async def test_the_secret_reaches_no_client_before_the_hands_end(make_host) -> None:
    frames: list[bytes] = []
    host, client, last = await _play(make_host, trace=frames.append)
    messages = [msgpack.unpackb(f[HEADER.size :], raw=False) for f in frames]
    deals = [a for a in host.game().actions if a["type"] == "deal"]
    for deal in deals:
        secret = deal["secret"].encode()
        first = next(i for i, f in enumerate(frames) if secret in f)
        assert messages[first]["type"] == "reveal"  # the first frame that holds it


async def test_a_malformed_contribution_is_refused(make_host) -> None:
    host = await make_host(players=2, bots=1, seed=None)
    client = await Client.connect(host.address, host.port, name="Raw")
    try:
        for bad in (
            {"type": "contribute", "hand": 1, "commitment": "zz", "contribution": "0" * 64},
            {"type": "contribute", "hand": 0, "commitment": "0" * 64, "contribution": "0" * 64},
            {"type": "contribute", "hand": 1, "commitment": "0" * 64, "contribution": "A" * 64},
            {"type": "contribute", "hand": True, "commitment": "0" * 64, "contribution": "0" * 64},
        ):
            await client.send_raw(bad)
            error = await next_message(client, "error")
            assert error["code"] == "bad_message"
        # a sound one for no commitment changes nothing, and the table goes on
        await client.send_raw(
            {"type": "contribute", "hand": 1, "commitment": "0" * 64, "contribution": "0" * 64}
        )
        await synced(client)
        assert host.table.commits.contributions == [None, None]
    finally:
        with contextlib.suppress(Exception):
            await client.close()


async def test_a_seeded_table_deals_from_its_seed_and_says_not_committed(make_host) -> None:
    host = await make_host(players=2, bots=1, seed=7, review_timeout=0.2)
    client = await RumClient.connect(host.address, host.port, name="Ann")
    try:
        host.start_now()
        last = await play_as_bot(client)
    finally:
        await client.close()
    await wait_for(lambda: len(client.deals.verdicts) == len(last["results"]))
    assert {v["reason"] for v in client.deals.verdicts.values()} == {"not_committed"}
    assert not any("secret" in a for a in host.game().actions)


async def test_a_seat_that_rejoins_before_the_deal_keeps_its_contribution(make_host) -> None:
    """The commitment is sent again on the new connection: the client answers with the
    contribution it already gave, and the deal uses it."""
    host = await make_host(players=2, bots=0, seed=None, review_timeout=0.2)
    ann = await RumClient.connect(host.address, host.port, name="Ann")
    await wait_for(lambda: host.table.commits.contributions[ann.seat] is not None)
    given = ann.deals.mine[1]
    await ann.reconnect()
    await synced(ann)
    bea = await RumClient.connect(host.address, host.port, name="Bea")
    try:
        await wait_for(lambda: host.table.game is not None)
        assert host.table.game.actions[0]["contributions"][ann.seat] == given
        plays = [asyncio.create_task(play_as_bot(c)) for c in (ann, bea)]
        await wait_for(lambda: 1 in ann.deals.verdicts and 1 in bea.deals.verdicts, 30)
        assert ann.deals.verdicts[1]["reason"] == bea.deals.verdicts[1]["reason"] == "checked"
        for t in plays:
            t.cancel()
        await asyncio.gather(*plays, return_exceptions=True)
    finally:
        for c in (ann, bea):
            await c.close()


async def test_a_hostile_commit_state_or_reveal_never_ends_the_client() -> None:
    """A host that sends a malformed ``commit``, a ``state`` whose hand cannot be counted and
    a ``reveal`` that makes no sense: the client says the deal was not checked, and reads on."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_frame(reader)  # hello
        for message in (
            {"type": "welcome", "version": 1, "seat": 0, "token": "t", "name": "Ann", "table": {}},
            {"type": "commit", "hand": 1, "commitment": "zz"},
            {"type": "commit", "hand": 1, "commitment": "ab" * 32},
            {
                "type": "state",
                "seq": 1,
                "by": None,
                "view": {"players": 2, "seat": 0, "hand_number": 1, "hand": [[1]]},
                "events": [
                    {"type": "deal", "hand": 1},
                    {"type": "draw", "source": "stock", "seat": 0},
                ],
            },
            {"type": "reveal", "hand": 1, "deal": {"secret": 5}, "actions": "x", "totals": {}},
            {"type": "reveal", "hand": [], "deal": "x"},
            {"type": "chat", "seat": 1, "name": "Bob", "text": "still here?"},
        ):
            writer.write(encode(message))
        await writer.drain()
        await asyncio.sleep(5)
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    client = await RumClient.connect("127.0.0.1", port, name="Ann")
    try:
        chat = await next_message(client, "chat", 5)
        assert chat["text"] == "still here?" and client.lost is None
        assert client.deals.verdicts[1]["ok"] is False
    finally:
        await client.close()
        server.close()
