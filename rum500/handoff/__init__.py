"""Handoff and failover: the table outlives its host (issue 13; docs/protocol.md §16).

A room beside the host, not inside it (:class:`rum500.host.Host` does not know it):

- :mod:`rum500.handoff.document` — the table document a host hands over, and
  :func:`host_from_document`, which hosts it on another machine;
- :mod:`rum500.handoff.planned` — :class:`TableMover`: the old host's side of a planned handoff;
- :mod:`rum500.handoff.failover` — :class:`Failover`: the host picks a standby, splits the key
  among the players and streams the sealed log;
- :mod:`rum500.handoff.guest` — :class:`Guest`: a seated player's machine that can take the
  table (a handoff) or stand by for it (:mod:`rum500.handoff.standby`);
- :class:`Room` — both of the host's sides beside one host (``Room(host)``).
"""

from rum500.handoff.document import DocumentError, host_from_document, table_document
from rum500.handoff.failover import Failover
from rum500.handoff.guest import Guest
from rum500.handoff.planned import FROZEN, HandoffError, TableMover
from rum500.handoff.room import Room

__all__ = [
    "FROZEN",
    "DocumentError",
    "Failover",
    "Guest",
    "HandoffError",
    "Room",
    "TableMover",
    "host_from_document",
    "table_document",
]
