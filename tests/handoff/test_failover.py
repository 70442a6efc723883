"""Failover on loopback (issue 13 §2): a standby keeps the match sealed under a key the other
players hold in shares; when the host vanishes, the clients send their shares, the standby
opens the log, serves, and every client rejoins at the same seat, hand and turn with every
action accounted for. The standby alone cannot read what it keeps."""

from __future__ import annotations

import asyncio
import contextlib

from net.client import Client
from net.framing import encode, read_frame
from net.vault import split
from rum500.handoff import Guest, Room
from rum500.host import Host, HostConfig, start_host
from rum500.rules import Options
from tests.handoff.test_handoff import lost, mine
from tests.net.util import wait_for
from tests.test_cli_headless import HOST


def stop(host: Host) -> None:
    """The host stops at once: no bot plays, no ping goes out, no connection is taken."""
    host.driver.halt()
    server = host.server
    if server._pinger is not None:
        server._pinger.cancel()
    if server._server is not None:
        server._server.close()


def crash(host: Host) -> None:
    """The host's process dies: every socket is cut at once, nothing more is sent."""
    stop(host)
    for conn in list(host.server.conns):
        conn.closed = True
        conn.transport.abort()


class Table:
    """A host with failover, an older client (Ann: no can_host) and guests that can host."""

    def __init__(self) -> None:
        self.host: Host | None = None
        self.room: Room | None = None
        self.clients: list[Client] = []
        self.guests: dict[str, Guest] = {}

    async def open(
        self, guests: list[str], ann: bool = True, bots: int = 1, olds: int = 0, **kw: object
    ):
        players = len(guests) + int(ann) + olds + bots
        self.host = await start_host(
            HostConfig(
                players=players,
                bots=bots,
                seed=21,
                bot_level="random",
                options=Options(target=200),
                **kw,  # type: ignore[arg-type]
            )
        )
        self.room = Room(self.host)
        host = self.host
        for name in ["Ann"] * ann + [f"Old {k}" for k in range(olds)]:
            self.clients.append(await Client.connect(host.address, host.port, name=name))
        for name in guests:
            c = await Client.connect(host.address, host.port, name=name, can_host=True)
            self.clients.append(c)
            self.guests[name] = Guest(c, bind="127.0.0.1", announce=False)
        await wait_for(lambda: all(c.view is not None for c in self.clients))
        return self

    def seat(self, seat: int) -> Client:
        return next(c for c in self.clients if c.seat == seat)

    def standby(self) -> Guest:
        seat = self.room.failover.standby_seat
        return next(g for g in self.guests.values() if g.client.seat == seat)

    async def armed(self) -> None:
        """Until every client knows the standby and the standby has the whole table."""
        fo = self.room.failover

        def ready() -> bool:
            epoch = fo.epoch
            return (
                fo.standby_seat is not None
                and fo._ready
                and all(c.standby and c.standby["epoch"] == epoch for c in self.clients)
                and self.standby().standby.records
            )

        await wait_for(ready)

    async def close(self) -> None:
        for c in self.clients:
            with contextlib.suppress(Exception):
                await c.close()
        for g in self.guests.values():
            await g.close()
        if self.host is not None:
            await self.host.close()


async def play_a_little(table: Table, moves: int = 6) -> None:
    """The clients to move play a draw or a discard from their legal actions (the bot plays
    its own turns at once)."""
    host = table.host
    made = 0
    end = asyncio.get_running_loop().time() + 30
    while made < moves and asyncio.get_running_loop().time() < end:  # the bot thinks apart
        seat = host.table.to_move
        if (
            seat is None
            or host.server.seats[seat].bot
            or host.table.game.phase.value
            not in (
                "draw",
                "play",
            )
        ):
            await asyncio.sleep(0.05)
            continue
        client = table.seat(seat)
        await wait_for(lambda c=client: c.seq == host.server.seq)
        actions = client.view["legal_actions"]
        pick = next((a for a in actions if a["type"] == "draw"), None) or next(
            (a for a in actions if a["type"] == "discard"), actions[0]
        )
        await client.act(pick)
        made += 1
    await wait_for(lambda: all(c.seq == host.server.seq for c in table.clients))


async def test_the_host_dies_the_standby_serves_every_client_follows():
    table = await Table().open(["Bea", "Cy", "Di"], takeover_after=None)
    try:
        await table.armed()
        fo = table.room.failover
        standby = table.standby()
        assert len(fo.holders) == 2 and standby.client.seat not in fo.holders
        assert table.clients[0].seat not in [*fo.holders, fo.standby_seat]  # Ann: older client
        await play_a_little(table)
        host = table.host
        await wait_for(
            lambda: (
                host.table.game.phase.value == "draw"
                and not host.server.seats[host.table.to_move].bot
            )
        )
        turn = host.table.to_move
        await table.seat(turn).act({"type": "draw", "source": "stock"})  # mid-turn
        await wait_for(lambda: all(c.seq == host.server.seq for c in table.clients))
        before = {c.seat: mine(c) for c in table.clients}
        actions = list(table.host.table.game.actions)

        crash(table.host)
        for c in table.clients:
            await lost(c)
        ways = await asyncio.gather(*(c.follow(timeout=20) for c in table.clients))
        assert ways == ["standby"] * len(table.clients)
        new = standby.host
        assert new is not None and new.table_id == table.host.table_id
        await wait_for(lambda: all(c.view is not None for c in table.clients))
        assert {c.seat: mine(c) for c in table.clients} == before
        assert new.table.game.actions == actions  # every action accounted for, none twice
        play = next(a for a in table.seat(turn).view["legal_actions"] if a["type"] == "discard")
        await table.seat(turn).act(play)
        assert new.table.game.actions[-1]["type"] == "discard"
        assert len(new.table.game.actions) == len(actions) + 1
    finally:
        await table.close()


async def test_the_standby_alone_cannot_open_what_it_keeps():
    table = await Table().open(["Bea", "Cy", "Di"])
    try:
        await table.armed()
        keeper = table.standby().standby
        assert keeper.own == [] and keeper.records
        keeper.host_lost = True  # even if it believed the host gone
        assert keeper.key() is None
        secrets = [s.token for s in table.host.server.seats]
        hands = [" ".join(table.host.table.game.view(s)["hand"]) for s in range(4)]
        text = " ".join(keeper.records.values())
        assert not any(t in text for t in secrets) and not any(h in text for h in hands)
        # one holder's share is not enough; a stranger's made-up shares do not fit
        holder = next(c for c in table.clients if c.share is not None)
        keeper.pool = [holder.share["share"], *split(b"\x01" * 32, 3, 2)]
        assert keeper.key() is None
        assert keeper.taking is False and table.host.server.state == "playing"
    finally:
        await table.close()


async def test_two_people_auto_is_off_and_says_so_on_hands_the_standby_the_key():
    host = await start_host(
        HostConfig(players=3, bots=1, host_player="Hal", seed=21, options=Options(target=200))
    )
    room = Room(host)
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:  # the host plays (Hal) and one guest: the standby would hold the key alone
        await wait_for(lambda: (bea.lobby or {}).get("failover"))
        note = bea.lobby["failover"]
        assert note["armed"] is False and "two people" in note["note"]
        assert room.failover.standby_seat is None and bea.standby is None
    finally:
        await bea.close()
        await guest.close()
        await host.close()

    table = await Table().open(["Bea"], bots=2, failover="on", takeover_after=None)
    try:
        await table.armed()
        keeper = table.standby().standby
        assert len(keeper.own) == 2 and keeper.key() is None  # not before its client lost the host
        actions = list(table.host.table.game.actions)
        crash(table.host)
        for c in table.clients:
            await lost(c)
        assert await asyncio.gather(*(c.follow(timeout=20) for c in table.clients)) == [
            "standby",
            "standby",
        ]
        assert table.guests["Bea"].host.table.game.actions[: len(actions)] == actions
    finally:
        await table.close()


async def test_a_stranger_cannot_become_standby_and_a_lost_standby_is_replaced():
    table = await Table().open(["Bea", "Cy", "Di"])
    try:
        await table.armed()
        fo = table.room.failover
        first = fo.standby_seat
        other = next(c for c in table.clients if c.seat not in (first, None) and c.can_host)
        await other.send_raw(
            {"type": "standby_ready", "id": fo.epoch, "addresses": ["x"], "port": 9}
        )
        await asyncio.sleep(0.1)
        assert fo.standby_seat == first and fo.standby_addresses != ["x"]
        # the standby's player leaves: another is chosen, with a new key
        epoch = fo.epoch
        await table.standby().client.close()
        await wait_for(lambda: fo._ready and fo.epoch > epoch and fo.standby_seat != first)
        # the door of a standby answers a share of another table with an error
        keeper = table.standby().standby
        reader, writer = await asyncio.open_connection("127.0.0.1", keeper.door.port)
        writer.write(encode({"type": "share", "table_id": "nope", "epoch": 1, "share": "1:00"}))
        assert (await asyncio.wait_for(read_frame(reader), 5))["code"] == "bad_message"
        writer.close()
        assert keeper.pool == []
        # made-up shares of this table and epoch are not taken: a stranger cannot fill the
        # standby's pool and keep the holders' shares out
        for fake in split(b"\x02" * 32, 20, 2):
            answer = await door_share(keeper, fo.epoch, fake)
            assert answer == {"type": "share_ok", "have": 0, "need": 2}
        shares = [c.share for c in table.clients if c.share and c.share["epoch"] == fo.epoch]
        assert len(shares) == 1 and len(keeper.own) == 1  # Bea left: one holder, one standby
        answer = await door_share(keeper, fo.epoch, shares[0]["share"])
        assert answer["have"] == 1
        keeper.host_lost = True
        assert keeper.key() is not None  # the holder's share and its own open it
    finally:
        await table.close()


async def door_share(keeper, epoch: int, share: str) -> dict:
    """Send a share to a standby's door as a client that lost the host does; its answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", keeper.door.port)
    table_id = keeper.table_id
    writer.write(encode({"type": "share", "table_id": table_id, "epoch": epoch, "share": share}))
    try:
        return await asyncio.wait_for(read_frame(reader), 5)
    finally:
        writer.close()


def pull_the_cable(host: Host) -> None:
    """The host's cable is pulled: nothing it sends arrives, nothing sent to it is read, and
    new connections find nobody; no socket is closed."""
    stop(host)
    for conn in list(host.server.conns):
        conn.transport.pause_reading()
        conn.send_frame = lambda frame: None  # type: ignore[method-assign]


async def test_a_silent_host_is_left_for_the_standby(monkeypatch):
    monkeypatch.setattr("net.client.ARMED_IDLE", 1.0)  # 4 s in real life: a quicker test
    table = await Table().open(["Bea", "Cy", "Di"], ann=False, takeover_after=None)
    try:
        await table.armed()
        standby = table.standby()
        actions = list(table.host.table.game.actions)
        pull_the_cable(table.host)
        for c in table.clients:
            assert (await lost(c)).code == "timeout"  # silence, not a reset
        ways = await asyncio.gather(*(c.follow(timeout=20) for c in table.clients))
        assert ways == ["standby"] * 3
        assert standby.host.table.game.actions[: len(actions)] == actions
    finally:
        await table.close()


async def test_sigkill_of_a_headless_host_process(tmp_path):
    """``rum500 host --headless`` in its own process, killed with SIGKILL mid-match: the
    standby (a guest of this test) serves and every client follows with every action."""
    import os
    import signal
    import socket
    import subprocess

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "RUM500_HOME": str(tmp_path)}
    proc = subprocess.Popen(
        [
            *HOST,
            "--port",
            str(port),
            "--players",
            "4",
            "--bots",
            "1",
            "--target",
            "1000",
            "--bot-delay",
            "0",
            "--seed",
            "9",
        ],  # fmt: skip
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    clients: list[Client] = []
    guests: list[Guest] = []
    try:
        for _ in range(100):  # the host listens
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        for name in ("Bea", "Cy", "Di"):
            c = await Client.connect("127.0.0.1", port, name=name, can_host=True)
            clients.append(c)
            guests.append(Guest(c, bind="127.0.0.1", announce=False))
        await wait_for(lambda: all(c.standby and c.standby.get("port") for c in clients))
        await wait_for(lambda: any(g.standby.records for g in guests))
        turn = clients[0].view["turn"]
        mover = next(c for c in clients if c.seat == turn)
        await mover.act(next(a for a in mover.view["legal_actions"] if a["type"] == "draw"))
        await wait_for(lambda: len({c.seq for c in clients}) == 1)
        before = {c.seat: mine(c) for c in clients}
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        for c in clients:
            await lost(c)
        assert await asyncio.gather(*(c.follow(timeout=20) for c in clients)) == ["standby"] * 3
        await wait_for(lambda: all(c.view is not None for c in clients))
        assert {c.seat: mine(c) for c in clients} == before
        new = next(g.host for g in guests if g.host is not None)
        assert new.table.game.actions[-1]["type"] == "draw"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for c in clients:
            await c.close()
        for g in guests:
            await g.close()


async def test_after_a_handoff_the_new_host_picks_a_standby_of_its_own():
    table = await Table().open(["Bea", "Cy", "Di"])
    try:
        await table.armed()
        old = table.standby()
        await table.room.mover.hand_over(old.client.seat)  # the standby itself takes the table
        for c in table.clients:
            await lost(c)
        await asyncio.gather(*(c.follow(timeout=10) for c in table.clients))
        assert old.standby.door is None  # no longer a standby: its port is closed
        new = old.room.failover
        others = [c for c in table.clients if c.seat not in (None, old.client.seat)]
        await wait_for(lambda: new._ready and all(c.standby for c in table.clients))
        assert new.standby_seat in [c.seat for c in others if c.can_host]
        assert len(new.holders) == 1  # Cy and Di: one stands by, the other holds a share
        assert {new.standby_seat, *new.holders} == {c.seat for c in others if c.can_host}
    finally:
        await table.close()


async def test_auto_arms_at_a_headless_host_with_two_guests_and_splits_the_key():
    table = await Table().open(["Bea", "Cy"], ann=False)  # no host player: two people
    try:
        await table.armed()
        fo = table.room.failover
        assert fo.armed and len(fo.holders) == 1
        keeper = table.standby().standby
        assert len(keeper.own) == 1  # one share of two: it cannot open the log alone
        keeper.host_lost = True
        assert keeper.key() is None
    finally:
        await table.close()


async def test_auto_waits_for_a_second_player_that_can_host():
    table = await Table().open(["Bea"], olds=1)  # Ann, Old 0 (older clients) and Bea
    try:
        await wait_for(lambda: (table.clients[0].lobby or {}).get("failover"))
        note = table.clients[0].lobby["failover"]["note"]
        assert "never hold the key alone" in note
        assert table.room.failover.standby_seat is None and table.clients[0].standby is None
    finally:
        await table.close()
