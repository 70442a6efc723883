"""The one place a table is served: :func:`serving` assembles the host, its game log and the
handoff room beside it, and takes them down in order.

::

    config.journal = …                      # the game log, attached beforehand (or None)
    async with serving(config) as served:   # rum500.host.start_host + Room(host)
        served.host, served.room            # the running table; handoff and failover
        ...
    # on the way out: the room closes, the host says goodbye and stops, the log closes

Used by all three that host: the terminal client's own table (:mod:`rum500.tui.main`), the
headless host (:mod:`rum500.runners`) and a guest that takes a table over
(:class:`rum500.handoff.guest.Guest`, through an :class:`contextlib.AsyncExitStack`).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rum500.handoff.room import Room
from rum500.host import Host, HostConfig, start_host


@runtime_checkable
class ClosingLog(Protocol):
    """A game log that must be closed (:class:`rum500.store.journal.Journal`: it writes what
    is pending and unlocks the match)."""

    def close(self) -> None: ...


def close_log(config: HostConfig) -> None:
    """Close ``config``'s game log, if it has one that closes; never raises (a log's own
    trouble is its ``closing_note``)."""
    journal = config.journal
    if isinstance(journal, ClosingLog):
        with contextlib.suppress(Exception):
            journal.close()


@dataclass(frozen=True)
class Served:
    """A table being served: the host and the room beside it."""

    host: Host
    room: Room


@contextlib.asynccontextmanager
async def serving(
    config: HostConfig, *, sock: socket.socket | None = None
) -> AsyncIterator[Served]:
    """Host ``config``'s table (:func:`rum500.host.start_host`, on ``sock`` if given) with the
    handoff room beside it (:class:`Room`); on exit close the room, then the host (goodbye
    to every client), then the game log (:func:`close_log`). When the host cannot start the
    log is closed too (a resumed match is unlocked) and the error raised: ``ValueError`` for
    an impossible configuration, ``OSError`` when the address cannot be bound."""
    try:
        host = await start_host(config, sock=sock)
    except BaseException:
        close_log(config)
        raise
    room = Room(host)
    try:
        yield Served(host, room)
    finally:
        room.close()
        try:
            await host.close()
        finally:
            close_log(config)


__all__ = ["ClosingLog", "Served", "close_log", "serving"]
