"""SIGTERM of a headless host with failover armed (README "Hosting a table on the LAN": it
stops cleanly): every client is told ``shutdown`` and the table is closed for everyone — the
standby does not take it over, no guest follows it anywhere (docs/protocol.md §16)."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import sys

import pytest

from net.client import ConnectionLost
from tests.handoff.test_failover import Table
from tests.handoff.test_handoff import lost
from tests.net.util import wait_for
from tests.test_cli_headless import HOST, env, host_errors


class Proc:
    """A rum500 process whose output lines are gathered as they come."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode().rstrip("\n"))

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def end(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.reading.cancel()


async def start(*args: str, tmp: str) -> Proc:
    proc = await asyncio.create_subprocess_exec(
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env(tmp),  # type: ignore[arg-type]
    )
    return Proc(proc)


def refused(port: int) -> bool:
    """Nothing listens on 127.0.0.1:``port``."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


async def test_sigterm_with_failover_armed_closes_the_table_for_everyone(tmp_path):
    host = await start(
        *HOST,
        *("--failover", "on", "--players", "3", "--bots", "1", "--bot-level", "random"),
        *("--bot-delay", "0.05", "--target", "5000", "--seed", "3"),
        tmp=str(tmp_path / "host"),
    )
    guests: list[Proc] = []
    try:
        await wait_for(lambda: host.said("hosting table"), 30)
        port = re.search(r"127\.0\.0\.1:(\d+)", host.lines[0]).group(1)  # type: ignore[union-attr]
        for name in ("Bea", "Cy"):
            guests.append(
                await start(
                    *(sys.executable, "-m", "rum500", "join", f"127.0.0.1:{port}", "--headless"),
                    *("--name", name, "--bind", "127.0.0.1", "--no-announce", "--no-log"),
                    *("--bot-level", "random", "--bot-delay", "0.05", "--seed", "1"),
                    tmp=str(tmp_path / name),
                )
            )
        # armed: both guests know the standby, which holds the sealed table and a share
        await wait_for(lambda: all(g.said("standby named: seat") for g in guests), 30)
        standby = next(g for g in guests if g.said("standby for the table: port"))
        line = next(x for x in standby.lines if "standby for the table: port" in x)
        standby_port = int(line.rsplit(" ", 1)[1])
        await wait_for(
            lambda: all(sum(x.startswith("event: ") for x in g.lines) > 3 for g in guests)
        )

        host.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(host.proc.wait(), 30) == 0
        await host.reading
        assert host.said("table closed") and host_errors("\n".join(host.lines)) == []
        # each guest either ends (told the table closed) or — the bug — follows the table to
        # the standby, which takes it over
        await wait_for(
            lambda: (
                all(g.proc.returncode is not None for g in guests)
                or any(g.said("hosting the table") or g.said("rejoined") for g in guests)
            ),
            30,
        )
        for g in guests:
            assert not g.said("hosting the table") and not g.said("rejoined"), g.lines
            assert not g.said("following"), g.lines
            assert g.said("the host closed the table"), g.lines
            assert await asyncio.wait_for(g.proc.wait(), 30) == 0
        assert refused(standby_port)  # nobody hosts the table any more
    finally:
        await host.end()
        for g in guests:
            await g.end()


async def test_after_shutdown_follow_gives_no_share_and_goes_nowhere():
    """A client (the terminal client's too) that is told ``shutdown`` with a standby named
    does not follow: no share goes to the standby, which never takes the table over."""
    table = await Table().open(["Bea", "Cy", "Di"], takeover_after=None, failover="on")
    try:
        await table.armed()
        keeper = table.standby().standby
        assert any(c.share is not None for c in table.clients)  # the holders hold shares
        left: list[str] = []
        for c in table.clients:
            c.on_leave_host.append(lambda c=c: left.append(c.name))
        table.room.close()
        await table.host.close()  # the clean stop of SIGTERM
        for c in table.clients:
            assert (await lost(c)).code == "shutdown"
            with pytest.raises(ConnectionLost) as closed:
                await c.follow(timeout=5)
            assert closed.value.code == "shutdown"
        assert left == [] and keeper.pool == [] and not keeper.host_lost
        assert keeper.taking is False and table.standby().host is None
    finally:
        await table.close()
