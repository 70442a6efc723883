"""Helpers for the net tests: a bot seated through the client library, and waits that always
have a deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from net.client import ActionRefused, Client
from rum500.bots import make_bot


def read_lines(proc: asyncio.subprocess.Process) -> tuple[list[str], asyncio.Task]:
    """What ``proc`` prints, one line at a time as it comes (its stdout, a pipe): the list,
    growing, and the task that fills it (await it for the end, cancel it to stop)."""
    lines: list[str] = []

    async def read() -> None:
        assert proc.stdout is not None
        async for raw in proc.stdout:
            lines.append(raw.decode().rstrip("\n"))

    return lines, asyncio.create_task(read())


def waiting_for_me(view: dict, seat: int | None) -> bool:
    """The hand-end review waits for ``seat`` to say ready."""
    review = view.get("review")
    return bool(review) and seat in (review.get("waiting") or [])


async def play_as_bot(client: Client, seed: int = 0, level: str = "random") -> dict:
    """Play ``client``'s seat with a bot until the match is over; return the last view.
    At a hand-end review the seat says ``ready`` (the dealer's ``deal`` counts as ready)."""
    bot = make_bot(level, seed)
    last: dict = {}
    readied: set[int] = set()  # hands we said ready for
    async for msg in client.messages():
        if msg["type"] != "state":
            continue
        view = msg["view"]
        last = view
        if view["phase"] == "game_over":
            return view
        if msg["seq"] != client.seq:  # an older update: a newer one is already queued
            continue
        if waiting_for_me(view, client.seat) and view["turn"] != client.seat:
            hand = view["review"]["hand"]
            if hand not in readied:
                readied.add(hand)
                try:
                    await client.act({"type": "ready"})
                except ActionRefused:
                    if client.view is view:  # refused while the review waits: a real failure
                        raise
            continue
        if view["turn"] == client.seat and view["legal_actions"]:
            try:
                await client.act(bot.choose(view))
            except ActionRefused:
                if view is client.view:  # refused on the newest view: a real failure
                    raise
    return last


async def wait_for(
    predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.01
) -> None:
    """Wait until ``predicate()`` is true (a liveness bound, not a speed assertion)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"condition not met in {timeout} s")
        await asyncio.sleep(step)


async def next_message(client: Client, kind: str, timeout: float = 10.0, **fields: object) -> dict:
    """The next message of type ``kind`` (with these ``fields``) from ``client``: the messages
    before it are consumed. Fails after ``timeout`` seconds."""

    async def find() -> dict:
        async for msg in client.messages():
            if msg.get("type") == kind and all(msg.get(k) == v for k, v in fields.items()):
                return msg
        raise AssertionError(f"the connection ended before a {kind!r} message")

    return await asyncio.wait_for(find(), timeout)


async def synced(client: Client, timeout: float = 10.0) -> None:
    """Wait until the host has handled everything ``client`` sent so far: a ping goes after
    it, and the host answers in order."""
    await client.send_raw({"type": "ping"})
    await next_message(client, "pong", timeout)
