"""``handoff NAME --bot`` on the headless host's standard input (README, docs/protocol.md §16):
the table goes to that player's machine and the host's own player's seat (``--player``) is
played by a bot there at once; ``handoff NAME`` keeps the seat for its player."""

from __future__ import annotations

import asyncio
import re

from net.client import Client
from rum500.handoff import Guest
from tests.handoff.test_handoff import lost
from tests.net.util import read_lines, wait_for
from tests.test_cli_headless import HOST, env


async def test_handoff_name_bot_leaves_the_host_players_seat_to_a_bot_at_the_new_host(tmp_path):
    proc = await asyncio.create_subprocess_exec(
        *HOST,
        *("--player", "Ann", "--players", "3", "--bots", "1", "--name", "Kitchen"),
        *("--bot-level", "random", "--seed", "3", "--failover", "off"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env(tmp_path),  # type: ignore[arg-type]
    )
    lines, reading = read_lines(proc)
    bea: Client | None = None
    guest: Guest | None = None
    try:
        await wait_for(lambda: any("hosting table" in x for x in lines), 30)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", lines[0]).group(1))  # type: ignore[union-attr]
        bea = await Client.connect("127.0.0.1", port, name="Bea", can_host=True)
        guest = Guest(bea, bind="127.0.0.1", announce=False)
        await wait_for(lambda: bea.view is not None)  # every seat is taken: it started
        ann_seat = bea.view["names"].index("Ann")
        assert proc.stdin is not None
        proc.stdin.write(b"handoff Bea --bot\n")
        await proc.stdin.drain()
        await wait_for(lambda: any(x.startswith(("table handed over", "no player")) for x in lines))
        assert any(
            x.startswith("table handed over to Bea at 127.0.0.1 port ")
            and x.endswith("(the host's seat left to a bot)")
            for x in lines
        ), lines
        assert (await lost(bea)).code == "moved"
        assert await asyncio.wait_for(proc.wait(), 30) == 0  # the old host is done
        assert guest.host is not None
        assert guest.host.server.seats[ann_seat].bot  # a bot plays Ann's seat there
        await bea.follow(timeout=10)
        await wait_for(lambda: bea.view is not None and bea.port == guest.host.port)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        reading.cancel()
        if bea is not None:
            await bea.close()
        if guest is not None:
            await guest.close()
