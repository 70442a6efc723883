"""The plain mode at one table: the host's messages pumped into a
:class:`~rum500.plain.model.PlainModel` (which says them), standard input read line by line
with asyncio, each line a command (:mod:`rum500.plain.commands`), until the player leaves
(``quit``, answered yes) or the input ends — then the seat is left as the terminal client's
``q`` leaves it (the connection closes; the host's bot takes the seat after its grace).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

from rum500.plain import commands
from rum500.plain.model import PlainModel
from rum500.tui import hint as hints

#: the longest line read (a longer one is cut; a chat line is 200 characters at most)
MAX_LINE = 4096


async def lines(stream: Any = None) -> AsyncIterator[str]:
    """The lines of ``stream`` (standard input), read without blocking the event loop: as a
    pipe (a pipe, a socket), else — a terminal, a regular file — by a reader thread."""
    stream = stream or sys.stdin
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE * 4)
    try:
        if stream.isatty():  # non-blocking would reach the terminal's output too
            raise ValueError("a terminal")
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stream)
    except (ValueError, OSError):
        async for line in _threaded(stream):
            yield line
        return
    while True:
        try:
            raw = await reader.readline()
        except (ValueError, asyncio.LimitOverrunError):
            raw = (await reader.read(MAX_LINE)) or b"\n"
        if not raw:
            return
        yield raw[:MAX_LINE].decode("utf-8", errors="replace").rstrip("\r\n")


async def _threaded(stream: Any) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        for line in iter(stream.readline, ""):
            loop.call_soon_threadsafe(queue.put_nowait, line[:MAX_LINE].rstrip("\r\n"))
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=read, daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line


class Inbox:
    """Standard input's lines for the whole process (the lobby, then each table): read by one
    task, kept in a queue; None once the input has ended (and ever after)."""

    def __init__(self, stream: Any = None) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False
        self.task = asyncio.create_task(self._read(stream))

    async def _read(self, stream: Any) -> None:
        try:
            async for line in lines(stream):
                self.queue.put_nowait(line)
        finally:
            self.queue.put_nowait(None)

    async def get(self) -> str | None:
        if self.ended:
            return None
        line = await self.queue.get()
        self.ended = line is None
        return line

    def close(self) -> None:
        self.task.cancel()


async def _read_commands(model: PlainModel, inbox: Inbox, done: asyncio.Event) -> None:
    while (line := await inbox.get()) is not None:
        while model.busy or model.settling:  # the next line reads the table a move leaves
            await asyncio.sleep(0.02)
        commands.run(model, line)
        if done.is_set():
            return
    done.set()  # the end of the input: leave, as q does


async def _tick(model: PlainModel) -> None:
    while True:
        await asyncio.sleep(0.5)
        model.tick()


async def run_session(session: Any, model: PlainModel, inbox: Inbox) -> int:
    """Play at ``session``'s table until the player leaves (the commands read from
    ``inbox``); the session closes after."""
    model.send = session.act
    model.send_chat = session.chat
    model.shoulder.send = getattr(session, "message", None)  # over the shoulder's messages
    done = asyncio.Event()
    model.exit = done.set
    tasks = [
        asyncio.create_task(session.pump(model)),
        asyncio.create_task(_tick(model)),
        asyncio.create_task(_read_commands(model, inbox, done)),
    ]
    model.out(_welcome(model))
    try:
        await done.wait()
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await session.close()
        hints.shut_down()
    return 0


def _welcome(model: PlainModel) -> str:
    from rum500.i18n import _

    return _("Plain mode: type help for the commands.")


def say(line: str) -> None:
    """A line on standard output, at once (a screen reader reads it as it comes)."""
    print(line, flush=True)


def plain_model(name: str, inbox: Inbox) -> PlainModel:
    """A speaking model whose table runs the line loop (:func:`rum500.tui.main.play_at`
    calls its ``run_session`` in place of the screen)."""
    model = PlainModel(name=name, out=say)
    model.run_session = lambda session: run_session(session, model, inbox)  # type: ignore[attr-defined]
    return model
