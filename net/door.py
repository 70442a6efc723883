"""A standby's door: the port a standby listens on before it hosts the table.

A standby (docs/protocol.md §16) opens its port as soon as it is chosen, so that the host can
tell every client where it is. Until it takes the table over, each connection may send one
``share`` message (``table_id``, ``epoch``, ``share``: text or null); the door hands it to
``on_share`` (which answers ``share_ok`` with how many shares it holds and needs), and any
other first message gets the fatal error ``standby`` ("not hosting yet: try again"). Once
:meth:`Door.release` hands the listening socket to a :class:`net.server.Server`
(``Server.start(sock=…)``), new connections are the server's, with no gap in which a client
is refused.

The door knows nothing of keys or games: shares are opaque text for ``on_share``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable

from net.framing import FrameError, encode, read_frame
from net.protocol import MAX_ACTION_ID
from net.server import WILDCARDS, dual_stack_socket

log = logging.getLogger(__name__)

FIRST_FRAME_TIMEOUT = 5.0
MAX_SHARE = 200  # characters of a share ("x:hex", 135 with net/vault.py's)


class Door:
    """Listen on ``bind`` (any free port unless ``port``) for a table not hosted yet."""

    def __init__(
        self,
        table_id: str,
        on_share: Callable[[str | None, int], dict],
    ) -> None:
        self.table_id = table_id
        #: called with (share or None, epoch); returns the answer's fields (have, need)
        self.on_share = on_share
        self.sock: socket.socket | None = None
        self._listener: asyncio.AbstractServer | None = None
        self._handlers: set[asyncio.Task] = set()  # connections being answered
        self.port = 0

    async def open(self, bind: str = "127.0.0.1", port: int = 0) -> int:
        """Start listening; return the port."""
        sock = dual_stack_socket(port) if bind in WILDCARDS else None
        if sock is None:
            family = socket.AF_INET6 if ":" in bind else socket.AF_INET
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("0.0.0.0" if bind in WILDCARDS else bind, port))
            except OSError:
                sock.close()
                raise
            sock.setblocking(False)
        sock.listen(64)
        self.sock = sock
        # the door serves on a duplicate of the socket: closing the door leaves it listening
        self._listener = await asyncio.start_server(self._accept, sock=sock.dup())
        self.port = sock.getsockname()[1]
        return self.port

    async def release(self) -> socket.socket:
        """Close the door and give up its listening socket (still listening: connections
        wait in its backlog) for a :class:`net.server.Server` to start on."""
        assert self.sock is not None
        await self.close(keep_socket=True)
        sock, self.sock = self.sock, None
        return sock

    async def close(self, keep_socket: bool = False) -> None:
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        if self._listener is not None:
            self._listener.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self._listener.wait_closed()
            self._listener = None
        if self.sock is not None and not keep_socket:
            self.sock.close()
            self.sock = None

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._handle(reader, writer))
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(FIRST_FRAME_TIMEOUT):
                msg = await read_frame(reader)
            writer.write(encode(self._answer(msg)))
            await writer.drain()
        except (FrameError, TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:  # the door closes: the connection with it
            pass
        except Exception:
            log.exception("the standby's door failed on a connection")
        finally:
            with contextlib.suppress(Exception):
                if writer.can_write_eof():
                    writer.write_eof()
                await asyncio.sleep(0.05)
                writer.close()

    def _answer(self, msg: dict) -> dict:
        if msg.get("type") != "share":
            return {
                "type": "error",
                "code": "standby",
                "message": "this standby does not host the table yet: try again shortly",
            }
        share, epoch = msg.get("share"), msg.get("epoch")
        if (
            msg.get("table_id") != self.table_id
            or not isinstance(epoch, int)
            or isinstance(epoch, bool)
            or not 0 <= epoch <= MAX_ACTION_ID
            or not (share is None or (isinstance(share, str) and len(share) <= MAX_SHARE))
        ):
            return {"type": "error", "code": "bad_message", "message": "not a share of this table"}
        return {"type": "share_ok", **self.on_share(share, epoch)}
