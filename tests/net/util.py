"""Helpers for the net tests: a bot seated through the client library."""

from __future__ import annotations

import asyncio

from net.client import ActionRefused, Client
from rum500.bots import make_bot


async def play_as_bot(client: Client, seed: int = 0, level: str = "random") -> dict:
    """Play ``client``'s seat with a bot until the match is over; return the last view."""
    bot = make_bot(level, seed)
    last: dict = {}
    async for msg in client.messages():
        if msg["type"] != "state":
            continue
        view = msg["view"]
        last = view
        if view["phase"] == "game_over":
            return view
        if msg["seq"] != client.seq:  # an older update: a newer one is already queued
            continue
        if view["turn"] == client.seat and view["legal_actions"]:
            try:
                await client.act(bot.choose(view))
            except ActionRefused:
                if view is client.view:  # refused on the newest view: a real failure
                    raise
    return last


async def wait_for(predicate, timeout: float = 10.0, step: float = 0.01) -> None:
    """Wait until ``predicate()`` is true (a liveness bound, not a speed assertion)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(step)
