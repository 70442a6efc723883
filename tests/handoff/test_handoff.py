"""Planned handoff on loopback (issue 13 §1): the table moves to a seated player's machine
mid-turn; every client follows with its token to the same seat, hand and turn; nothing is
lost or applied twice; the game log goes on at the new host."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3

import pytest

from net.client import ActionRefused, Client, ConnectionLost
from rum500.handoff import FROZEN, Guest, HandoffError, TableMover
from rum500.handoff.document import decode_chunks, encode_chunks, table_document
from rum500.host import Host, HostConfig, start_host
from rum500.rules import Options
from rum500.store.journal import Journal
from tests.net.util import wait_for


async def lost(client: Client) -> ConnectionLost:
    """Read ``client``'s messages until its connection ends; the loss."""
    try:
        async for _msg in client.messages():
            pass
    except ConnectionLost as e:
        return e
    raise AssertionError("the connection ended without a loss")


async def the_table_goes_on(host: Host, clients: list[Client]) -> None:
    """After a handoff that failed: the table is not left frozen, and the seat to move plays."""
    assert host.server.frozen is None
    turn = clients[0].view["turn"]
    await {c.seat: c for c in clients}[turn].act({"type": "draw", "source": "stock"})


async def table_of_three(**kw: object):
    """A host and three seated clients: Ann (an older client: no can_host), Bea and Cy."""
    host = await start_host(
        HostConfig(
            players=3,
            seed=11,
            bot_level="random",
            options=Options(target=100),
            failover="off",
            **kw,  # type: ignore[arg-type]
        )
    )
    ann = await Client.connect(host.address, host.port, name="Ann")
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    cy = await Client.connect(host.address, host.port, name="Cy", can_host=True)
    clients = [ann, bea, cy]
    await wait_for(lambda: all(c.view is not None for c in clients))
    return host, clients


def mine(client: Client) -> tuple:
    view = client.view or {}
    return client.seat, view.get("hand"), view.get("turn"), view.get("phase")


async def test_a_handoff_mid_turn_every_client_follows_to_the_same_position(tmp_path):
    old_log = Journal(tmp_path / "host.sqlite3")
    host, clients = await table_of_three(journal=old_log)
    ann, bea, cy = clients
    guest = Guest(bea, bind="127.0.0.1", announce=False, log_path=tmp_path / "bea.sqlite3")
    try:
        turn = ann.view["turn"]
        by_seat = {c.seat: c for c in clients}
        await by_seat[turn].act({"type": "draw", "source": "stock"})  # mid-turn: drawn
        await wait_for(lambda: all(c.view["phase"] == "play" for c in clients))
        before = {c.seat: mine(c) for c in clients}
        actions = len(host.table.game.actions)

        mover = TableMover(host)
        assert sorted(s for s, _ in mover.successors()) == sorted([bea.seat, cy.seat])
        where = await mover.hand_over(bea.seat)
        assert where[1] == guest.host.port and guest.host.table_id == host.table_id
        for c in clients:
            assert (await lost(c)).code == "moved"
        assert await asyncio.gather(*(c.follow(timeout=10) for c in clients)) == ["moved"] * 3
        await wait_for(lambda: all(c.view is not None for c in clients))
        assert {c.seat: mine(c) for c in clients} == before
        assert len(guest.host.table.game.actions) == actions
        assert all(c.table_id == host.table_id for c in clients)

        # the match goes on at the new host: the player to move discards, once
        mover_client = by_seat[turn]
        discard = next(a for a in mover_client.view["legal_actions"] if a["type"] == "discard")
        await mover_client.act(discard)
        assert len(guest.host.table.game.actions) == actions + 1
        assert guest.host.table.game.actions[-1]["type"] == "discard"
        # the game log of the new host holds the whole match, the new action included
        guest.host.config.journal.close()
        with contextlib.closing(sqlite3.connect(tmp_path / "bea.sqlite3")) as db:
            (n,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
        assert n == actions + 1
        # the old host's log has the match up to the handoff, and says where it went
        old_log.close()
        with contextlib.closing(sqlite3.connect(tmp_path / "host.sqlite3")) as db:
            (n,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
            notes = [t for (t,) in db.execute("SELECT text FROM notes")]
        assert n == actions and notes == [f"handed over to Bea at 127.0.0.1 port {where[1]}"]
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()


async def test_an_action_in_flight_during_the_freeze_is_refused_or_never_applied():
    host, clients = await table_of_three()
    ann, bea, cy = clients
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:
        turn = ann.view["turn"]
        by_seat = {c.seat: c for c in clients}
        actions = len(host.table.game.actions)
        mover = TableMover(host)
        moving = asyncio.create_task(mover.hand_over(bea.seat))
        await asyncio.sleep(0)  # the table is frozen now
        assert host.server.frozen == FROZEN
        outcome = "applied"
        try:
            await by_seat[turn].act({"type": "draw", "source": "stock"})
        except ActionRefused as e:
            outcome = str(e)
        except ConnectionLost:
            outcome = "lost"
        assert outcome in (FROZEN, "lost")
        await moving
        for c in clients:
            await lost(c)
            await c.follow(timeout=10)
        await wait_for(lambda: all(c.view is not None for c in clients))
        assert len(guest.host.table.game.actions) == actions  # not applied, not twice
        await by_seat[turn].act({"type": "draw", "source": "stock"})  # now it is
        assert len(guest.host.table.game.actions) == actions + 1
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()


async def test_an_older_client_is_never_chosen_and_a_stranger_cannot_claim_the_table():
    host, clients = await table_of_three()
    ann, bea, cy = clients
    try:
        mover = TableMover(host)
        assert ann.seat not in dict(mover.successors())
        with pytest.raises(HandoffError):
            await mover.hand_over(ann.seat)
        assert host.server.frozen is None
        # Cy answers a handoff nobody asked of it: refused, the table stays
        await cy.send_raw({"type": "handoff_ready", "id": 1, "addresses": ["10.9.9.9"], "port": 9})
        await wait_for(lambda: host.server.frozen is None and cy.lost is None)
        # Bea has no guest role: she never answers, the handoff fails and the table goes on
        with pytest.raises(HandoffError):
            await mover.hand_over(bea.seat, timeout=0.5)
        await the_table_goes_on(host, clients)
    finally:
        for c in clients:
            await c.close()
        await host.close()


async def test_the_table_document_round_trips_through_chunks():
    host, clients = await table_of_three()
    try:
        document = table_document(host)
        chunks = encode_chunks(document)
        assert all(len(c) <= 12_000 for c in chunks)
        assert decode_chunks(chunks) == document
        assert [s["token"] for s in document["seats"]] == [s.token for s in host.server.seats]
        assert host.txt()["id"] == host.table_id == document["table_id"]  # TXT id=
        assert all(c.table_id == host.table_id for c in clients)  # welcome's table.id
    finally:
        for c in clients:
            await c.close()
        await host.close()


async def test_a_client_that_cannot_reach_the_given_address_finds_the_table_by_id(monkeypatch):
    monkeypatch.setattr("net.client.FIND_AFTER", 0.5)
    host, clients = await table_of_three()
    ann, bea, cy = clients
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    asked: list[str] = []

    async def finder(table_id: str, timeout: float):  # the LAN, as net.discovery.where
        asked.append(table_id)
        return ["127.0.0.1"], guest.host.port

    try:
        await TableMover(host).hand_over(bea.seat)
        await lost(cy)
        with socket.socket() as s:  # an address where nothing listens
            s.bind(("127.0.0.1", 0))
            cy.moved = (["127.0.0.1"], s.getsockname()[1])
        cy.finder = finder
        assert await cy.follow(timeout=10) == "moved"
        assert asked == [host.table_id] and cy.port == guest.host.port
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()


async def test_the_host_player_may_leave_the_seat_to_a_bot():
    host = await start_host(
        HostConfig(
            players=3, host_player="Hal", seed=3, bot_level="random", options=Options(target=100)
        )
    )
    hal = await Client.connect(host.address, host.port, name="Hal", token=host.token)
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    cy = await Client.connect(host.address, host.port, name="Cy", can_host=True)
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:
        await wait_for(lambda: all(c.view is not None for c in (hal, bea, cy)))
        await TableMover(host).hand_over(bea.seat, leave_to_bot=True)
        seats = guest.host.server.seats
        assert seats[host.seat].bot and seats[host.seat].name == "Hal"
        assert not seats[bea.seat].bot and not seats[cy.seat].bot
    finally:
        for c in (hal, bea, cy):
            await c.close()
        await guest.close()
        await host.close()


async def test_a_document_that_does_not_replay_is_refused_and_the_table_stays(monkeypatch):
    host, clients = await table_of_three()
    bea = clients[1]
    guest = Guest(bea, bind="127.0.0.1", announce=False)

    def forged(h):  # a host that hands over a match its rules never allowed
        document = table_document(h)
        document["actions"].append({"type": "discard", "card": "AS"})
        return document

    monkeypatch.setattr("rum500.handoff.planned.table_document", forged)
    try:
        with pytest.raises(HandoffError, match="does not replay"):
            await TableMover(host).hand_over(bea.seat)
        assert guest.host is None
        await the_table_goes_on(host, clients)
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()
