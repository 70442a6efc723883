"""Handoff and failover: the table outlives its host (issue 13; docs/protocol.md §16).

A room beside the host, not inside it (:class:`rum500.hosting.Host` does not know it):

- :mod:`rum500.handoff.document` — the table document a host hands over, and
  :func:`host_from_document`, which hosts it on another machine;
- :mod:`rum500.handoff.planned` — :class:`TableMover`: the old host's side of a planned handoff;
- :mod:`rum500.handoff.guest` — :class:`Guest`: a seated player's machine that can take the
  table (a handoff) or stand by for it (failover).
"""

from rum500.handoff.document import DocumentError, host_from_document, table_document
from rum500.handoff.guest import Guest
from rum500.handoff.planned import FROZEN, HandoffError, TableMover

__all__ = [
    "FROZEN",
    "DocumentError",
    "Guest",
    "HandoffError",
    "TableMover",
    "host_from_document",
    "table_document",
]
