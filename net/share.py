"""A guest hands its share of the standby's key to the standby's door (docs/protocol.md §16).

When the host is lost and a standby was named, every guest tells the standby so, with its
share of the key the table's records are sealed with (or none): the standby takes the
table over once it holds enough (:mod:`net.door` answers ``share_ok``). Shares are opaque
text here.
"""

from __future__ import annotations

import asyncio

from net.framing import ConnectionClosed, FrameError, encode, read_frame


async def give_share(standby: dict, share: dict | None, end: float) -> None:
    """Send ``standby`` (the host's ``standby`` message: ``addresses``, ``port``,
    ``table_id``, ``epoch``) a ``share`` message with ``share`` (the host's ``share``
    message, or None) — none when it is of another epoch — at the first of its addresses
    that answers, before the loop time ``end``. Never raises for a standby that does not
    answer: the guest then simply rejoins where the table is."""
    if share is not None and share.get("epoch") != standby.get("epoch"):
        share = None
    message = {
        "type": "share",
        "table_id": standby.get("table_id"),
        "epoch": standby.get("epoch"),
        "share": share.get("share") if share else None,
    }
    loop = asyncio.get_running_loop()
    for address in standby["addresses"]:
        left = end - loop.time()
        if left <= 0:
            return
        try:
            async with asyncio.timeout(min(left, 2.0)):
                reader, writer = await asyncio.open_connection(address, standby["port"])
        except (OSError, TimeoutError):
            continue
        try:
            writer.write(encode(message))
            async with asyncio.timeout(min(max(left, 0.1), 2.0)):
                await read_frame(reader)
            return
        except (OSError, TimeoutError, FrameError, ConnectionClosed):
            continue
        finally:
            writer.close()
