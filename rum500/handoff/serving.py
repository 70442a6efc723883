"""The one place a table is served: :func:`serving` assembles the host, its game log and the
handoff room beside it, and takes them down in order.

::

    async with serving(config, keep_log=True, resume=ask, on_note=say) as served:
        # the game log attached (rum500.store.resume.attach_journal: a new match, or the
        # match ``ask.resume`` names, rebuilt), then rum500.host.start_host + Room(host)
        served.host, served.room            # the running table; handoff and failover
        ...
    # on the way out: the room closes, the host says goodbye and stops, the log closes

Used by all three that host: the terminal client's own table (:mod:`rum500.tui.main`), the
headless host (:mod:`rum500.runners`) — both with ``keep_log`` — and a guest that takes a
table over (:class:`rum500.handoff.guest.Guest`, through an
:class:`contextlib.AsyncExitStack`; its match goes on in its game log, imported from the
table document by :func:`rum500.handoff.document.config_from_document`: ``config.journal``
is set already).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

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


def attach_game_log(config: HostConfig, resume: Any = None) -> str:
    """Give ``config`` its game log (:func:`rum500.store.resume.attach_journal`: a new match,
    or the one ``resume.resume`` names — ``resume`` is a ``PlayConfig``, ``HostingConfig`` or
    ``ResumeAsk``); the line to say about it ("" when none). Raises
    :class:`rum500.store.StoreError` when that match cannot be resumed. A build without the
    game log attaches none."""
    try:
        from rum500.store.resume import attach_journal
    except ImportError:  # a build without the game log
        return ""
    return attach_journal(config, resume)


@contextlib.asynccontextmanager
async def serving(
    config: HostConfig,
    *,
    sock: socket.socket | None = None,
    keep_log: bool = False,
    resume: Any = None,
    on_note: Callable[[str], None] | None = None,
) -> AsyncIterator[Served]:
    """Host ``config``'s table (:func:`rum500.host.start_host`, on ``sock`` if given) with the
    handoff room beside it (:class:`Room`); on exit close the room, then the host (goodbye
    to every client), then the game log (:func:`close_log`).

    ``keep_log``: first attach the game log (:func:`attach_game_log`, with ``resume``: the match
    to go on with); its line for the user (a resumed match, a log that cannot be written) is
    given to ``on_note`` before the host starts. Without it ``config.journal`` is used as it
    is. Raises :class:`rum500.store.StoreError` when the match to resume cannot be loaded
    (nothing started). When the host cannot start the log is closed too (a resumed match is
    unlocked) and the error raised: ``ValueError`` for an impossible configuration,
    ``OSError`` when the address cannot be bound."""
    if keep_log:
        note = attach_game_log(config, resume)
        if note and on_note is not None:
            on_note(note)
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


__all__ = ["ClosingLog", "Served", "attach_game_log", "close_log", "serving"]
