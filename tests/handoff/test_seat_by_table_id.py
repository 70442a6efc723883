"""A seat's saved token finds its table wherever the table went (issue: "the host's own
player can't get back in after a failover", "a guest restarted on its own machine cannot
get its seat back"): a player joins a real host on loopback, the table then moves to another
port under the same table id (its document hosted again there, as a handoff or a failover
does) while the player is gone, and the player comes back — by that address, by the table's
id (as the lobby and ``rum500 join NAME`` know it), and with ``join --headless`` — to the
seat saved under the old address."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from rum500 import tokens
from rum500.handoff.document import host_config, replay, table_document
from rum500.host import Host, HostConfig, start_host
from rum500.host.addresses import address_key
from rum500.rules import Options
from rum500.tui.connection import NetSession, SessionError
from tests.net.util import read_lines, wait_for


async def a_match_bea_left() -> tuple[Host, str]:
    """A match of Bea and a bot on loopback that Bea joined and left; (its host, Bea's
    token, saved under that host's address)."""
    host = await start_host(
        HostConfig(players=2, bots=1, seed=4, bot_level="random", options=Options(target=500))
    )
    bea = NetSession("127.0.0.1", host.port, name="Bea")
    await bea.open()
    assert bea.client is not None and bea.client.seat == 0
    token = bea.client.token
    await bea.close()
    await wait_for(lambda: host.server.state == "playing")
    return host, token


async def moved(host: Host, **document: object) -> Host:
    """The table of ``host`` hosted again at another port, same id (``host`` closed)."""
    doc = {**table_document(host), **document}
    await host.close()
    game = replay(doc)
    return await start_host(host_config(doc, game, bind="127.0.0.1", port=0, announce=False))


@pytest.mark.parametrize("how", ["by address", "by table id"])
async def test_a_player_takes_back_the_seat_at_the_tables_new_address(how: str) -> None:
    old, token = await a_match_bea_left()
    old_address, table_id = address_key("127.0.0.1", old.port), old.table_id
    assert tokens.get(old_address, "Bea")["table_id"] == table_id
    new = await moved(old)
    bea = NetSession(
        "127.0.0.1", new.port, name="Bea", table_id=table_id if how == "by table id" else None
    )
    try:
        await bea.open()  # before: "Every seat is taken: join with --spectate to watch."
        assert bea.client is not None
        assert (bea.client.seat, bea.client.token, bea.client.table_id) == (0, token, table_id)
        assert new.server.seats[0].conn is not None and not new.server.seats[0].bot
        # the entry moved with the table: one for Bea, at the new address, same id
        saved = [e for e in tokens.load_all().values() if e.get("name") == "Bea"]
        assert len(saved) == 1
        assert saved[0]["address"] == address_key("127.0.0.1", new.port)
        assert saved[0]["table_id"] == table_id
    finally:
        await bea.close()
        await new.close()


async def test_join_headless_takes_back_the_seat_at_the_tables_new_address() -> None:
    old, token = await a_match_bea_left()
    new = await moved(old)
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "rum500", "join", f"127.0.0.1:{new.port}", "--headless"),
        *("--name", "Bea", "--bind", "127.0.0.1", "--no-announce", "--bot-level", "random"),
        *("--bot-delay", "0.05", "--seed", "1", "--no-log"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=os.environ.copy(),  # the same RUM500_HOME: the same tokens.json
    )
    lines, reading = read_lines(proc)
    try:
        # before: "refused: the match has started: rejoin with your token or watch", exit 2
        await wait_for(lambda: bool(lines) and ("joined " in lines[0] or proc.returncode), 20)
        assert f"id {new.table_id} seat 0 as Bea" in lines[0], lines
        await wait_for(lambda: new.server.seats[0].conn is not None, 10)
        assert new.server.seats[0].token == token
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
        reading.cancel()
        await new.close()


async def test_a_guest_restarted_with_join_headless_saves_its_token_and_gets_its_seat_back() -> (
    None
):
    host = await start_host(
        HostConfig(players=2, bots=1, seed=4, bot_level="random", options=Options(target=500))
    )
    cmd = [sys.executable, "-m", "rum500", "join", f"127.0.0.1:{host.port}", "--headless"]
    cmd += ["--name", "Cy", "--bind", "127.0.0.1", "--no-announce", "--bot-level", "random"]
    cmd += ["--bot-delay", "0.05", "--seed", "1", "--no-log"]
    try:
        for _ in range(2):  # joined, killed, and again: the same seat (before: refused)
            proc = await asyncio.create_subprocess_exec(
                *cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
            )
            assert proc.stdout is not None
            first = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
            assert f"id {host.table_id} seat 0 as Cy at" in first
            await wait_for(lambda: host.server.seats[0].conn is not None, 10)
            proc.kill()
            await proc.wait()
            await wait_for(lambda: host.server.seats[0].conn is None, 10)
    finally:
        await host.close()


async def test_a_token_refused_by_its_own_table_is_forgotten_but_not_by_another_table() -> None:
    old, token = await a_match_bea_left()
    table_id, port = old.table_id, old.port
    tokens.put("127.0.0.1:1", "den-token", "Bea", 1, table_id="bbbbbbbbbbbbbbbb")
    # the same table (same id) at another port, where Bea's seat has another token
    doc = table_document(old)
    seats = [{**s, "token": "someone-else"} if i == 0 else s for i, s in enumerate(doc["seats"])]
    new = await moved(old, seats=seats)
    try:
        with pytest.raises(SessionError, match="Every seat is taken"):
            await NetSession("127.0.0.1", new.port, name="Bea", table_id=table_id).open()
        assert tokens.get(address_key("127.0.0.1", port), "Bea", table_id) is None
        assert tokens.get("127.0.0.1:1", "Bea")["token"] == "den-token"  # only that entry
    finally:
        await new.close()
    # another table (another id) at the address Bea's seat was saved at keeps it
    tokens.put(address_key("127.0.0.1", port), token, "Bea", 0, table_id=table_id)
    other = await start_host(HostConfig(players=2, bots=1, seed=5, bot_level="random", port=port))
    try:
        bea = NetSession("127.0.0.1", other.port, name="Bea")
        await bea.open()  # that table is in its lobby: a new seat there
        assert bea.client is not None and bea.client.table_id == other.table_id
        await bea.close()
        assert tokens.get("127.0.0.1:0", "Bea", table_id)["token"] == token
    finally:
        await other.close()


async def test_the_host_players_own_token_is_saved_with_the_table_id() -> None:
    host = await start_host(
        HostConfig(players=2, bots=1, seed=4, bot_level="random", host_player="Ann")
    )
    try:
        assert host.token is not None
        ann = NetSession(host.address, host.port, name="Ann", token=host.token)
        await ann.open()
        await ann.close()
        found = tokens.get("192.0.2.1:9", "Ann", table_id=host.table_id)
        assert found is not None and found["token"] == host.token
    finally:
        await host.close()
