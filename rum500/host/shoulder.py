"""Over the shoulder: a seated player lets one spectator see their hand, for teaching
(docs/protocol.md §12).

A seat sends ``shoulder`` naming a spectator (its ``id`` in the lobby's ``watchers``, or its
name) and ``shoulder_end`` to stop. While it lasts, that spectator's connection is shown the
seat's own keys (:meth:`GameTable.shown_view`: ``shoulder`` in its view, a frame of its own)
and every view says who shows their hand to whom (``shoulders``). Nobody else is ever sent
that hand. It ends by itself when the spectator or the seat's player leaves, at the match's
end, and at a change of host (nothing of it is carried: the new host starts with none).

Every refusal is an ``error`` with code ``shoulder`` (not fatal), its English ``message``
with the ``template`` and ``params`` to translate; nothing changes.
"""

from __future__ import annotations

import logging

from net.server import Connection, Server
from rum500.host.table import GameTable
from rum500.i18n import N_

log = logging.getLogger("rum500.host")


class Shoulders:
    """Who shows their hand to whom at one table: seat → the spectator's connection."""

    def __init__(self, table: GameTable, server: Server) -> None:
        self.table = table
        self.server = server
        self.shown: dict[int, Connection] = {}
        server.on_message["shoulder"] = self._on_shoulder
        server.on_message["shoulder_end"] = self._on_end
        server.on_change.append(self._check)

    # -- messages

    def _on_shoulder(self, conn: Connection, msg: dict) -> None:
        seat = self._own_seat(conn, msg)
        if seat is None:
            return
        if seat in self.shown:
            name = self.shown[seat].name
            self._refuse(
                conn, N_("you already show your hand to {name}: end that first"), name=name
            )
            return
        watcher = self._spectator(conn, msg)
        if watcher is None:
            return
        if watcher.shown is not None:
            self._refuse(
                conn,
                N_("{name} already looks over another player's shoulder"),
                name=watcher.name,
            )
            return
        self.shown[seat] = watcher
        watcher.shown = seat
        log.info("seat %d shows its hand to %s", seat, watcher.name)
        self._publish()

    def _on_end(self, conn: Connection, msg: dict) -> None:
        seat = self._own_seat(conn, msg)
        if seat is None:
            return
        if seat not in self.shown:
            self._refuse(conn, N_("you show your hand to no one"))
            return
        self._end(seat)
        self._publish()

    def _own_seat(self, conn: Connection, msg: dict) -> int | None:
        """The seat of ``conn`` when it may show its hand now (else refused, None)."""
        if conn.seat is None:
            self._refuse(conn, N_("only a seated player can show their hand"))
            return None
        if msg.get("seat") is not None and msg["seat"] != conn.seat:
            self._refuse(conn, N_("you may only show your own hand (seat {seat})"), seat=conn.seat)
            return None
        if not self.table.started or self.table.finished:
            self._refuse(conn, N_("a hand can only be shown while a match is on"))
            return None
        return conn.seat

    def _spectator(self, conn: Connection, msg: dict) -> Connection | None:
        """The spectator ``msg`` names (by ``spectator`` id or by ``name``), else refused."""
        watching = [c for c in self.server.conns if c.seat is None and not c.closed]
        ident, name = msg.get("spectator"), msg.get("name")
        if ident is not None:
            found = [c for c in watching if c.ident == ident]
            if not found:
                self._refuse(conn, N_("no spectator has the number {id}"), id=str(ident))
                return None
            return found[0]
        found = [c for c in watching if c.name == name]
        if len(found) > 1:
            self._refuse(
                conn, N_("more than one spectator is called {name}: give the number"), name=name
            )
            return None
        if not found:
            self._refuse(conn, N_("no spectator is called {name}"), name=str(name))
            return None
        return found[0]

    @staticmethod
    def _refuse(conn: Connection, template: str, **params: object) -> None:
        values = {k: str(v) for k, v in params.items()}
        conn.send(
            {
                "type": "error",
                "code": "shoulder",
                "message": template.format(**values),
                "template": template,
                "params": values,
            }
        )

    # -- the end of it by itself, and what the views say

    def _check(self) -> None:
        """After any change at the host: end what may no longer go on — the spectator left,
        the seat's player left (or another connection took the seat), the match is over."""
        over = self.table.finished
        gone = [
            seat
            for seat, watcher in self.shown.items()
            if over
            or watcher.closed
            or watcher not in self.server.conns
            or self.server.seats[seat].conn is None
        ]
        if not gone:
            return
        for seat in gone:
            self._end(seat)
        self._publish()

    def _end(self, seat: int) -> None:
        watcher = self.shown.pop(seat)
        watcher.shown = None
        log.info("seat %d no longer shows its hand to %s", seat, watcher.name)

    def _publish(self) -> None:
        """The views' ``shoulders`` as it is now, sent to everyone at once."""
        self.table.shoulders = [
            {"seat": seat, "spectator": c.ident, "name": c.name}
            for seat, c in sorted(self.shown.items())
        ]
        self.server.resend()
