"""``rum500 join HOST:PORT --headless``: a seat played by a bot, one line per event, that takes
the table when the host hands it over and plays on at its own host to the end."""

from __future__ import annotations

import asyncio
import os
import sys

from rum500.handoff import TableMover
from rum500.host import HostConfig, start_host
from rum500.rules import Options
from tests.net.util import read_lines, wait_for


async def test_a_headless_guest_takes_the_table_and_plays_it_to_the_end(tmp_path):
    host = await start_host(
        HostConfig(players=2, bots=1, seed=4, bot_level="random", options=Options(target=100))
    )
    proc = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "rum500", "join", f"127.0.0.1:{host.port}", "--headless"),
        *("--name", "Bea", "--bind", "127.0.0.1", "--no-announce", "--bot-level", "random"),
        *("--bot-delay", "0.05", "--seed", "1"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "RUM500_HOME": str(tmp_path)},
    )
    lines, reading = read_lines(proc)
    try:
        await wait_for(lambda: any(line.startswith("joined ") for line in lines), 20)
        assert f"id {host.table_id} seat 0 as Bea" in lines[0]
        await wait_for(lambda: host.server.seats[0].can_host, 10)
        await TableMover(host).hand_over(0)
        assert await asyncio.wait_for(proc.wait(), 120) == 0
        await reading
        text = "\n".join(lines)
        assert "(handed over)" in text and "rejoined (moved) at 127.0.0.1:" in text
        assert lines[-1].startswith("game over: ")
        assert sum(line.startswith("event: ") for line in lines) > 10
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        reading.cancel()
        await host.close()


async def test_the_guests_bot_thinks_off_the_event_loop(make_host, clients, monkeypatch):
    """The headless guest may host the table it plays at (after a handoff or a failover): its
    own bot's search must not hold up that event loop, which then serves every player."""
    import time

    from rum500.handoff import headless

    ticks = 0
    seen: list[int] = []

    class SlowBot:
        def choose(self, view: dict) -> dict:
            before = ticks
            time.sleep(0.3)  # a search that takes a while
            seen.append(ticks - before)
            return view["legal_actions"][0]

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    monkeypatch.setattr(headless, "make_bot", lambda level, seed: SlowBot())
    host = await make_host(players=2, bots=1, seed=4, options=Options(target=100))
    bea = await clients(host, "Bea")
    ticking = asyncio.create_task(ticker())
    playing = asyncio.create_task(headless.play_seat(bea, "expert", 1, lambda line: None))
    try:
        await wait_for(lambda: len(seen) >= 2, 30)
    finally:
        playing.cancel()
        ticking.cancel()
    assert all(n > 0 for n in seen), seen  # the loop ran on while each search went on
