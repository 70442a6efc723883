"""Planned handoff, the old host's side: hand the table to a seated player's machine.

::

    mover = TableMover(host)                 # beside the host (start_host does not know it)
    mover.successors()                       # seats that may take the table: [(seat, name)]
    where = await mover.hand_over(seat)      # (addresses, port) of the new host
    # every client got ``moved`` and was closed with ``moved``; the old host is closed

Sequence (docs/protocol.md §16): the host freezes the table (every action is refused with
:data:`FROZEN`, bots wait), sends the table document in ``handoff`` chunks over the chosen
seat's own connection, and waits for ``handoff_ready`` (``id``, ``addresses``, ``port``) —
the new host is then listening with the same table. It tells every connection ``moved`` and
closes them with the fatal ``moved``, records the handoff in its game log, and closes. If the
successor answers ``handoff_failed``, goes away or does not answer within ``timeout``, the
table is unfrozen, everyone gets a ``handoff_failed`` notice and :class:`HandoffError` is raised.
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from net.server import Connection
from rum500.handoff.document import encode_chunks, table_document
from rum500.host import Host
from rum500.i18n import N_

log = logging.getLogger(__name__)

FROZEN = "the table is moving to another host: play again in a moment"
HANDOFF_TIMEOUT = 15.0
_ids = itertools.count(1)


class HandoffError(Exception):
    """The handoff did not happen; the table goes on here. ``str()`` says why."""


class TableMover:
    """The handoff room of one host (see the module docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._waiting: dict[int, tuple[int, asyncio.Future]] = {}  # id -> (seat, answer)
        host.on_message("handoff_ready", self._answer)
        host.on_message("handoff_failed", self._answer)
        self.moved_to: tuple[list[str], int] | None = None

    def successors(self) -> list[tuple[int, str]]:
        """The seats whose player can take the table: connected humans whose client can host,
        the host's own player excepted."""
        return [
            (s.index, s.name or "")
            for s in self.host.seats()
            if s.can_host and s.index != self.host.seat
        ]

    def seat_named(self, name: str) -> int | None:
        """The seat of the player called ``name`` (case does not matter), or None."""
        for s in self.host.seats():
            if s.name is not None and s.name.lower() == name.strip().lower():
                return s.index
        return None

    async def hand_over(
        self, seat: int, timeout: float = HANDOFF_TIMEOUT, leave_to_bot: bool = False
    ) -> tuple[list[str], int]:
        """Hand the table to ``seat``'s machine (see the module docstring); returns where
        the table went. ``leave_to_bot``: the host's own player leaves, a bot plays the seat
        at the new host (else the player keeps it and follows as a guest). Raises
        :class:`HandoffError` (the table goes on here)."""
        host = self.host
        if self.moved_to is not None or host.frozen is not None:
            raise HandoffError("a handoff is already under way")
        if seat not in dict(self.successors()):
            raise HandoffError(
                f"seat {seat} cannot take the table: choose a connected player whose "
                "rum500 can host"
            )
        conn = host.connection_of(seat)
        assert conn is not None
        try:
            document = table_document(host)
        except ValueError as e:
            raise HandoffError(str(e)) from None
        if leave_to_bot and host.seat is not None:
            document["seats"][host.seat]["bot"] = True
        ident = next(_ids)
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting[ident] = (seat, answer)
        host.freeze(FROZEN)
        try:
            chunks = encode_chunks(document)
            for k, chunk in enumerate(chunks):
                conn.send(
                    {"type": "handoff", "id": ident, "part": k, "parts": len(chunks), "data": chunk}
                )
            async with asyncio.timeout(timeout):
                reply = await self._until_answer(answer, conn)
            if reply["type"] == "handoff_failed":
                raise HandoffError(f"{conn.name} could not take the table: {reply['message']}")
        except BaseException as e:
            host.thaw()
            why = "no answer" if isinstance(e, TimeoutError) else str(e)
            host.notice(
                "handoff_failed",
                N_("the table stays here: the handoff failed ({why})"),
                {"why": N_("no answer") if isinstance(e, TimeoutError) else str(e)},
            )
            if isinstance(e, (TimeoutError, HandoffError)):
                raise HandoffError(f"the handoff failed: {why}") from None
            raise
        finally:
            self._waiting.pop(ident, None)
        where = (reply["addresses"], reply["port"])
        self.moved_to = where
        host.log_note(f"handed over to {conn.name} at {', '.join(where[0])} port {where[1]}")
        log.info("the table moved to %s (port %d)", ", ".join(where[0]), where[1])
        host.move_to(*where)
        await host.close()
        return where

    async def _until_answer(self, answer: asyncio.Future, conn: Connection) -> dict:
        """The successor's answer; a :class:`HandoffError` if its connection goes first."""
        while not answer.done():
            if conn.closed:
                raise HandoffError(f"{conn.name} went away")
            await asyncio.wait({answer}, timeout=0.1)
        return answer.result()

    def _answer(self, conn: Connection, msg: dict) -> None:
        waiting = self._waiting.get(msg["id"])
        if waiting is None or conn.seat != waiting[0] or waiting[1].done():
            conn.error("bad_message", "no handoff of yours is under way")
            return
        waiting[1].set_result(msg)
