"""A connection's handshake with the host: ``hello``, then ``challenge`` → ``auth`` when the
table has a password (docs/protocol.md §3), and the slow-down after wrong passwords.

:func:`read_hello` reads and checks the client's messages until the host may place it; the
host (:class:`net.server.Server`) then seats it and sends ``welcome``. :class:`PasswordGate`
answers one address's proofs one at a time, each after a wait that doubles per wrong one in a
row. Neither knows the server: they are handed a peer, a reader and the limits.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from net.framing import ConnectionClosed
from net.protocol import (
    NONCE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    auth_proof,
    check_client_message,
)

log = logging.getLogger("net.server")  # the server's log, as before the handshake moved

FORGET_AFTER = 3600.0  # seconds after which an address's wrong passwords are forgotten
KEPT_ADDRESSES = 4096  # addresses whose failures (and locks) are kept, newest first


class Peer(Protocol):
    """What the handshake needs of a connection (:class:`net.server.Connection`)."""

    address: str
    peer: str

    @property
    def closed(self) -> bool: ...

    def send(self, message: dict) -> None: ...

    def error(self, code: str, message: str) -> None: ...


class PasswordLimits(Protocol):
    """The limits the gate reads (:class:`net.server.Limits`)."""

    password_delay: float
    password_delay_max: float


class PasswordGate:
    """Wrong passwords slow their address down: after one, the next proof from that address
    waits ``password_delay`` seconds, doubling per failure in a row up to
    ``password_delay_max`` (forgotten after a right one, or an hour). One address is answered
    one proof at a time."""

    def __init__(self, limits: PasswordLimits) -> None:
        self.limits = limits
        #: per address: (wrong passwords in a row, when the next proof may be checked)
        self.failures: dict[str, tuple[int, float]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def wait(self, failures: int) -> float:
        """The wait before the next proof after ``failures`` wrong ones in a row."""
        if failures <= 0:
            return 0.0
        limits = self.limits
        return min(limits.password_delay * 2 ** min(failures - 1, 30), limits.password_delay_max)

    def delay(self, address: str) -> float:
        """Seconds the next password proof from ``address`` will wait (0: none)."""
        failures, not_before = self.failures.get(address, (0, 0.0))
        return max(0.0, not_before - time.monotonic()) if failures else 0.0

    async def check(self, conn: Peer, proof: str, password: str, nonce: str) -> None:
        """Return when ``proof`` answers ``nonce`` with ``password``; else raise
        ``ProtocolError("bad_password")`` (and ``ConnectionClosed`` when the host closed
        ``conn`` while its proof waited)."""
        address = conn.address
        lock = self._locks.setdefault(address, asyncio.Lock())
        async with lock:
            now = time.monotonic()
            failures, not_before = self.failures.get(address, (0, now))
            if now - not_before > FORGET_AFTER:
                failures, not_before = 0, now
            if not_before > now:
                await asyncio.sleep(not_before - now)
            if conn.closed:
                raise ConnectionClosed("closed by the host")
            if hmac.compare_digest(proof, auth_proof(password, nonce)):
                self.failures.pop(address, None)
                return
            failures += 1
            delay = self.wait(failures)
            self.failures.pop(address, None)
            self.failures[address] = (failures, time.monotonic() + delay)
            while len(self.failures) > KEPT_ADDRESSES:  # the oldest address is forgotten
                self.failures.pop(next(iter(self.failures)))
            while len(self._locks) > KEPT_ADDRESSES:
                self._locks.pop(next(iter(self._locks)))
        log.info("wrong password from %s (%d in a row)", conn.peer, failures)
        raise ProtocolError("bad_password", "wrong table password")


async def read_hello(
    conn: Peer,
    read: Callable[[float], Awaitable[dict]],
    *,
    timeout: float,
    password: str | None,
    gate: PasswordGate,
    refuse_hello: Callable[[object], str | None] | None = None,
) -> dict:
    """The checked ``hello`` of ``conn``, once it may be placed: ``read(seconds)`` gives the
    next message. A wrong type is fatal (``handshake``), so is another version; a bad field
    gets a non-fatal ``bad_message`` and the host waits for the corrected message, all within
    ``timeout`` seconds. ``refuse_hello(options)`` (the table's) may refuse a client that does
    not know an option in force: fatal (``options``), with its reason. With a ``password``
    the client is sent a ``challenge`` and must answer ``auth`` with the proof, checked by
    ``gate``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout

    async def next_message(kind: str, error: str) -> dict:
        while True:
            try:
                msg = await read(max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise ProtocolError(
                    "timeout", f"no valid '{kind}' within {timeout:g} s of connecting"
                ) from None
            if conn.closed:
                raise ConnectionClosed("closed by the host")
            if msg.get("type") != kind:
                raise ProtocolError("handshake", error)
            if kind == "hello" and msg.get("version") != PROTOCOL_VERSION:
                raise ProtocolError(
                    "version",
                    f"this host speaks rum500 protocol version {PROTOCOL_VERSION}, "
                    f"you sent {msg.get('version')!r}: update rum500",
                )
            try:
                return check_client_message(msg)
            except ProtocolError as e:
                conn.error(e.code, e.message)

    hello = await next_message("hello", "the first message must be 'hello'")
    why = refuse_hello(hello.get("options")) if refuse_hello is not None else None
    if why:
        raise ProtocolError("options", why)
    if password is not None:
        nonce = secrets.token_hex(NONCE_BYTES)
        conn.send({"type": "challenge", "nonce": nonce})
        answer = await next_message("auth", "expected 'auth' with the password proof")
        # a proof held back by the slow-down has still not said hello: it counts against
        # the limits on such sockets, and the handshake time runs on while it waits
        try:
            async with asyncio.timeout_at(deadline):
                await gate.check(conn, answer["proof"], password, nonce)
        except TimeoutError:
            raise ProtocolError(
                "timeout", f"the password was not checked within {timeout:g} s of connecting"
            ) from None
    return hello
