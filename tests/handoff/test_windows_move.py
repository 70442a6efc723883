"""The hand-end review and the "Rummy!" claim window go on across a move (docs/protocol.md
§16): after a planned handoff or a failover the review still counts who said ready and keeps
its time left, and a claim window keeps its passes and its time left, instead of starting
over. Real hosts on 127.0.0.1, real clients following the table.

To tell "goes on" from "starts over" without a stopwatch, the test moves the old host's
deadline earlier (a review open for 500 of its 600 s, a claim window with 6 of its 10 s left):
a window that starts over at the new host shows its whole length again."""

from __future__ import annotations

import asyncio

from net.client import Client
from rum500.handoff import Guest, TableMover
from rum500.host import Host, HostConfig, start_host
from rum500.rules import Options
from tests.handoff.test_failover import Table, crash
from tests.handoff.test_handoff import lost
from tests.host.claim_tables import KnowsAll
from tests.host.test_review import play_to_review
from tests.net.util import wait_for

REVIEW = 600.0
SPENT = 500.0  # seconds of the review gone before the move


async def follow_all(clients: list[Client]) -> None:
    for c in clients:
        await lost(c)
    await asyncio.gather(*(c.follow(timeout=20) for c in clients))
    await wait_for(lambda: all(c.view is not None for c in clients))


async def to_review_with_cy_ready(host: Host, clients: list[Client], cy: Client) -> None:
    """Every client plays (random bots) until the hand ends; the review has been open 500 s;
    Cy says ready."""
    await asyncio.gather(*(play_to_review(c, k) for k, c in enumerate(clients)))
    assert host.table.review_open
    host.table.review_until -= SPENT
    await cy.act({"type": "ready"})
    assert host.table.ready == {cy.seat}


def review_goes_on(clients: list[Client], cy: Client) -> None:
    for c in clients:
        review = c.view["review"]
        assert review is not None and cy.seat not in review["waiting"], review
        assert review["waiting"], review  # the others still have to say it
        assert review["seconds_left"] <= REVIEW - SPENT, review  # not the whole 600 s again


async def test_a_review_goes_on_after_a_planned_handoff():
    host = await start_host(
        HostConfig(
            players=3,
            seed=11,
            bot_level="random",
            options=Options(target=5000),
            failover="off",
            review_timeout=REVIEW,
        )
    )
    ann = await Client.connect(host.address, host.port, name="Ann")
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    cy = await Client.connect(host.address, host.port, name="Cy", can_host=True)
    clients = [ann, bea, cy]
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:
        await wait_for(lambda: all(c.view is not None for c in clients))
        await to_review_with_cy_ready(host, clients, cy)
        await TableMover(host).hand_over(bea.seat)
        await follow_all(clients)
        new = guest.host
        assert new is not None and new.table.ready == {cy.seat}
        review_goes_on(clients, cy)
        # and it ends as a review does: the others say ready, the next hand is dealt
        hand = new.table.game.hand_number
        await asyncio.gather(ann.act({"type": "ready"}), bea.act({"type": "ready"}))
        await wait_for(lambda: new.table.game.hand_number == hand + 1)
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()


async def test_a_review_goes_on_after_a_failover():
    table = await Table().open(["Bea", "Cy", "Di"], review_timeout=REVIEW, takeover_after=None)
    try:
        await table.armed()
        cy = table.guests["Cy"].client
        await to_review_with_cy_ready(table.host, table.clients, cy)
        fo, standby = table.room.failover, table.standby()
        await wait_for(lambda: len(standby.standby.records) == fo._seq)  # the ready streamed
        crash(table.host)
        await follow_all(table.clients)
        new = standby.host
        assert new is not None and new.table.ready == {cy.seat}
        review_goes_on(table.clients, cy)
    finally:
        await table.close()


async def test_a_claim_window_goes_on_after_a_planned_handoff():
    host = await start_host(
        HostConfig(
            players=3,
            seed=5,
            bot_level="random",
            options=Options(target=5000, rummy_calls=True),
            claim_window=10.0,
            failover="off",
        )
    )
    ann = await KnowsAll.connect(host.address, host.port, name="Ann")
    bea = await KnowsAll.connect(host.address, host.port, name="Bea", can_host=True)
    cy = await KnowsAll.connect(host.address, host.port, name="Cy", can_host=True)
    clients = [ann, bea, cy]
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:
        await wait_for(lambda: all(c.view is not None for c in clients))
        turn = ann.view["turn"]
        by_seat = {c.seat: c for c in clients}
        await by_seat[turn].act({"type": "draw", "source": "stock"})
        view = by_seat[turn].view
        discard = next(a for a in view["legal_actions"] if a["type"] == "discard")
        await by_seat[turn].act(discard)
        assert host.table.claim_open
        window = host.table.claim_window
        window.until = window.clock() + 6.0  # 4 of its 10 s gone
        passer = next(c for c in (cy, ann) if c.seat != turn)
        await passer.act({"type": "pass"})
        await TableMover(host).hand_over(bea.seat)
        await follow_all(clients)
        new = guest.host
        assert new is not None and new.table.claim_open
        assert new.table.claim_window.passed == {passer.seat}
        for c in clients:
            claim = c.view["claim"]
            assert claim["passed"] == [passer.seat] and passer.seat not in claim["waiting"]
            assert claim["seconds_left"] <= 6.0, claim  # not the whole 10 s again
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()
