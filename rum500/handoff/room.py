"""The room beside a host: planned handoff and failover for one table."""

from __future__ import annotations

from rum500.handoff.failover import Failover
from rum500.handoff.planned import TableMover
from rum500.host import Host


class Room:
    """``Room(host)``: ``room.mover`` (:class:`TableMover`) and ``room.failover``
    (:class:`Failover`, by ``host.config.failover``) beside ``host``."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.mover = TableMover(host)
        self.failover = Failover(host)
        self.closed = False

    def close(self) -> None:
        """Stop the failover's work (once; closing again does nothing)."""
        if self.closed:
            return
        self.closed = True
        self.failover.close()
