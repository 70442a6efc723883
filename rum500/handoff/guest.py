"""A seated player's machine as a possible host: it takes a handed-over table, or stands by.

::

    client = await Client.connect(host, port, name="Bea", can_host=True)
    guest = Guest(client, bind="0.0.0.0", log_path=None, on_event=print)
    ...                                   # the client plays as usual; after a handoff or a
    guest.host                            # failover this process hosts the table (a Host)
    guest.on_hosting = screen_says_so     # called (no argument) once it starts hosting
    guest.on_cut_off = screen_says_so     # … and once it stopped, cut off (the standby hosts)
    await guest.hand_over(seat)           # hands the table it hosts on (TableMover.hand_over)
    await guest.close()                   # closes the table it hosts, if any

The guest takes the host's ``handoff`` chunks (docs/protocol.md §16) from its own connection,
starts a host from the table document (:func:`host_from_document`) and answers
``handoff_ready`` with where it listens (or ``handoff_failed`` with why not). It announces the
table on the LAN once the old host is gone. As a standby (:mod:`rum500.handoff.standby`) it
keeps the sealed log and takes the table over when enough players send their shares.
Only messages from the connection to our host reach it: nobody else can hand us a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net.client import Client
from rum500.handoff.document import DocumentError, config_from_document, decode_chunks
from rum500.handoff.planned import HANDOFF_TIMEOUT, HandoffError
from rum500.handoff.room import Room
from rum500.handoff.serving import serving
from rum500.handoff.standby import Standby
from rum500.host import Host

log = logging.getLogger(__name__)

MAX_PARTS = 4096
ANNOUNCE_WAIT = 15.0  # seconds the new host waits for the old one to go before announcing


class Guest:
    """The handoff/failover role of one seated client (see the module docstring)."""

    def __init__(
        self,
        client: Client,
        *,
        bind: str = "0.0.0.0",
        interfaces: list[str] | None = None,
        announce: bool = True,
        log_path: Path | str | None = None,
        on_event: Callable[[str], None] | None = None,
    ) -> None:
        self.client = client
        self.bind = bind
        self.interfaces = interfaces
        self.announce = announce
        self.log_path = log_path
        self.on_event = on_event
        #: the table this process hosts since a handoff or failover (None: none)
        self.host: Host | None = None
        self._parts: dict[int, list[str | None]] = {}
        self._tasks: set[asyncio.Task] = set()
        client.handlers["handoff"] = self._on_handoff
        self.standby = Standby(self)
        #: handoff and failover beside the table this process hosts
        self.room: Room | None = None
        #: what takes down the table this process hosts (rum500.handoff.serving)
        self._served: contextlib.AsyncExitStack | None = None
        #: called once this process hosts the table (handed over or failed over to it): the
        #: player's screen says so, and offers what a host may do (docs/protocol.md §16)
        self.on_hosting: Callable[[], None] | None = None
        #: called (no argument) when the table this process hosts was cut off from its
        #: players and went on at its standby
        self.on_cut_off: Callable[[], None] | None = None

    def say(self, line: str) -> None:
        log.info("%s", line)
        if self.on_event is not None:
            self.on_event(line)

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ planned handoff

    def _on_handoff(self, msg: dict) -> None:
        ident, part, parts, data = msg.get("id"), msg.get("part"), msg.get("parts"), msg.get("data")
        if not (
            isinstance(ident, int)
            and isinstance(part, int)
            and isinstance(parts, int)
            and 0 <= part < parts <= MAX_PARTS
            and isinstance(data, str)
        ):
            return
        got = self._parts.setdefault(ident, [None] * parts)
        if len(got) != parts:
            return
        got[part] = data
        if all(p is not None for p in got):
            del self._parts[ident]
            self.spawn(self._take_table(ident, [p for p in got if p is not None]))

    async def _take_table(self, ident: int, chunks: list[str]) -> None:
        try:
            if self.host is not None:
                raise DocumentError("this machine hosts a table already")
            document = decode_chunks(chunks)
            self.host = await self.start(document)
        except (ValueError, OSError) as e:
            self.say(f"could not take the table: {e}")
            with contextlib.suppress(Exception):
                await self.client.send_raw(
                    {"type": "handoff_failed", "id": ident, "message": str(e)[:300]}
                )
            return
        host = self.host
        self.say(f"hosting the table {host.table_name!r} on port {host.port} (handed over)")
        await self.client.send_raw(
            {"type": "handoff_ready", "id": ident, "addresses": host.hosts(), "port": host.port}
        )
        if host.config.announce:
            self.spawn(self._announce_when_alone())

    async def start(self, document: dict, sock: Any = None) -> Host:
        """Host ``document``'s table in this process, with handoff and failover beside it."""
        # announced on the LAN only if the old host announced it (and we may)
        announce = self.announce and document["config"].get("announce", True) is not False
        config = config_from_document(
            document,
            log_path=self.log_path,
            bind=self.bind,
            interfaces=self.interfaces,
            announce=announce,
            host_player=self.client.name,
        )
        stack = contextlib.AsyncExitStack()
        served = await stack.enter_async_context(serving(config, sock=sock))
        self._served, self.room, self.host = stack, served.room, served.host
        host = served.host
        self.room.failover.on_cut_off.append(self._cut_off)
        if self.on_hosting is not None:
            self.on_hosting()
        return host

    def _cut_off(self) -> None:
        """The table this process hosted went on at its standby (it stopped serving, cut
        off): let it go — our own client follows it like everyone's — and say so."""
        self.say("cut off from the table: the standby takes it over; this host stopped serving")
        self.spawn(self._let_go())
        if self.on_cut_off is not None:
            self.on_cut_off()

    async def hand_over(
        self, seat: int, timeout: float = HANDOFF_TIMEOUT, leave_to_bot: bool = False
    ) -> tuple[list[str], int]:
        """Hand the table this process hosts on to ``seat``'s machine, as its first host
        would (:meth:`TableMover.hand_over`: same arguments, same :class:`HandoffError`);
        once it has gone this role hosts nothing and may take a table again."""
        if self.room is None:
            raise HandoffError("this machine hosts no table")
        where = await self.room.mover.hand_over(seat, timeout, leave_to_bot)
        await self._let_go()
        return where

    async def _announce_when_alone(self) -> None:
        """Announce the table once the old host has gone (its goodbye sent), so the LAN
        never lists two hosts of one table."""
        loop = asyncio.get_running_loop()
        end = loop.time() + ANNOUNCE_WAIT
        while self.client.lost is None and loop.time() < end:
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # its goodbye on the LAN has gone out: no "NAME-2"
        if self.host is not None:
            try:
                await self.host.announce()
            except Exception as e:
                log.warning("could not announce the table: %s", e)

    async def close(self) -> None:
        """Stop what this role runs, and close the table it hosts."""
        for task in list(self._tasks):
            task.cancel()
        await self.standby.close()
        await self._let_go()

    async def _let_go(self) -> None:
        """Close the table this process hosts (if any), its room and its game log."""
        served, self._served = self._served, None
        self.room = self.host = None
        if served is not None:
            await served.aclose()
