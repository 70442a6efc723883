"""A committed deal survives a move (docs/protocol.md §17): after a planned handoff mid-hand
and after a failover mid-hand, the new host reveals the hand under way from the match it was
given (the secret is in the hand's deal action), every client still ends the hand with "deal
checked", and the next hand — committed afresh by the new host — checks too."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

from net.client import ConnectionLost
from rum500.client import RumClient
from rum500.handoff import Guest, Room, TableMover
from rum500.host import HostConfig, start_host
from rum500.rules import Options
from tests.handoff.test_failover import Table, crash, play_a_little
from tests.handoff.test_handoff import lost
from tests.net.util import play_as_bot, read_lines, wait_for


async def _play_on(client: RumClient) -> None:
    """Play the seat with a bot, following the table when the connection drops."""
    while True:
        try:
            await play_as_bot(client)
            return
        except ConnectionLost:
            await client.follow(timeout=20)


async def _checked_through(clients: list[RumClient], hands: int) -> None:
    """Every client plays its seat on until it has a verdict for each of ``hands`` hands
    (or the match ends); each verdict must be "checked"."""
    tasks = [asyncio.create_task(_play_on(c)) for c in clients]
    try:
        await wait_for(
            lambda: all(
                all(h in c.deals.verdicts for h in range(1, hands + 1))
                or (c.view or {}).get("phase") == "game_over"
                for c in clients
            ),
            timeout=60,
        )
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for c in clients:
        assert c.deals.verdicts, c.name
        assert {v["reason"] for v in c.deals.verdicts.values()} == {"checked"}, c.name
    assert any(2 in c.deals.verdicts for c in clients)  # a hand the new host committed


async def test_a_handoff_mid_hand_ends_with_deal_checked(tmp_path):
    host = await start_host(
        HostConfig(
            players=3,
            bots=1,
            bot_level="random",
            options=Options(target=500),
            failover="off",
            review_timeout=0.2,
            contribution_wait=0.5,
        )
    )
    ann = await RumClient.connect(host.address, host.port, name="Ann", can_host=True)
    bea = await RumClient.connect(host.address, host.port, name="Bea", can_host=True)
    clients = [ann, bea]
    guest = Guest(bea, bind="127.0.0.1", announce=False, log_path=tmp_path / "bea.sqlite3")
    try:
        await wait_for(lambda: all((c.view or {}).get("hand_number") == 1 for c in clients))
        assert "secret" in host.table.game.actions[0]  # hand 1 was committed
        turn = host.table.to_move
        if not host.server.seats[turn].bot:
            await next(c for c in clients if c.seat == turn).act(
                {"type": "draw", "source": "stock"}
            )
        await TableMover(host).hand_over(bea.seat)
        for c in clients:
            assert (await lost(c)).code == "moved"
        await asyncio.gather(*(c.follow(timeout=10) for c in clients))
        assert guest.host is not None and guest.host.table.commits is not None
        await _checked_through(clients, 2)
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                await c.close()
        await guest.close()
        await host.close()


async def test_a_failover_mid_hand_ends_with_deal_checked():
    table = Table()
    table.host = await start_host(
        HostConfig(
            players=4,
            bots=1,
            bot_level="random",
            options=Options(target=500),
            takeover_after=None,
            review_timeout=0.2,
            contribution_wait=0.5,
        )
    )
    table.room = Room(table.host)
    try:
        for name in ("Bea", "Cy", "Di"):
            c = await RumClient.connect(
                table.host.address, table.host.port, name=name, can_host=True
            )
            table.clients.append(c)
            table.guests[name] = Guest(c, bind="127.0.0.1", announce=False)
        await wait_for(lambda: all(c.view is not None for c in table.clients))
        await table.armed()
        await play_a_little(table, moves=4)
        assert table.host.table.game.hand_number == 1  # mid-hand
        standby = table.standby()
        crash(table.host)
        for c in table.clients:
            await lost(c)
        ways = await asyncio.gather(*(c.follow(timeout=20) for c in table.clients))
        assert ways == ["standby"] * 3
        assert standby.host is not None and standby.host.table.commits is not None
        await _checked_through(table.clients, 2)  # type: ignore[arg-type]
    finally:
        await table.close()


async def test_the_headless_guest_says_each_deal_checked(tmp_path):
    host = await start_host(
        HostConfig(
            players=2,
            bots=1,
            bot_level="random",
            options=Options(target=150),
            review_timeout=0.2,
            contribution_wait=0.5,
        )
    )
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "rum500", "join", f"127.0.0.1:{host.port}", "--headless"),
        *("--name", "Bea", "--bind", "127.0.0.1", "--no-announce", "--bot-level", "random"),
        *("--bot-delay", "0", "--seed", "1"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "RUM500_HOME": str(tmp_path)},
    )
    lines, reading = read_lines(proc)
    try:
        assert await asyncio.wait_for(proc.wait(), 120) == 0
        await reading
        checks = [line for line in lines if line.startswith("deal check: ")]
        hands = len(host.table.game.results)
        assert checks == [
            f"deal check: hand {k}: Deal checked: it follows from the commitment and every "
            "contribution."
            for k in range(1, hands + 1)
        ]
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        reading.cancel()
        await host.close()
