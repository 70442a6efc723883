"""The host server: one table, 2–8 seats, any number of spectators, over TCP (asyncio).

The server knows nothing of the game's rules. It drives a *table* object (:class:`Table`):
seats take turns calling ``table.apply(seat, action)``, and after each accepted action every
connection gets its own ``table.view(seat)`` — a spectator ``table.view(None)`` — with the
public events the action caused. Only views ever leave the host.

Life of a connection (see ``docs/protocol.md``): ``hello`` → (``challenge`` → ``auth`` when the
table has a password) → ``welcome`` → ``lobby`` / ``state`` / ``chat`` messages, while the
client sends ``action``, ``chat``, ``pong`` … Bad input gets an ``error`` (fatal ones close the
connection); the table and the other connections carry on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from net.framing import ConnectionClosed, FrameError, encode, read_frame
from net.protocol import (
    NONCE_BYTES,
    PROTOCOL_VERSION,
    ProtocolError,
    auth_proof,
    check_client_message,
)

log = logging.getLogger(__name__)

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"


@runtime_checkable
class Table(Protocol):
    """What the server needs of a game. Rules live behind this; the server never looks inside
    a view or an action.

    * ``seats`` — the number of seats (fixed).
    * ``started`` / ``finished`` — whether the match has begun / is over.
    * ``to_move`` — the seat whose action is awaited (``None`` when nobody's is).
    * ``start(seats)`` — the match begins with these seats (``[{name, token, bot}]``, in seat
      order); returns the opening events.
    * ``apply(seat, action)`` — apply ``seat``'s action and return the public events it
      caused; raise ``ValueError`` with a message a player understands to refuse it (the
      table must then be unchanged).
    * ``view(seat)`` — what ``seat`` may see; ``None`` is a spectator.
    * ``seats_changed(seats)`` — names, tokens or bots changed (same shape as ``start``).
    * ``describe()`` — a small map of text for the LAN announcement (e.g. changed options).
    """

    seats: int

    @property
    def started(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def to_move(self) -> int | None: ...

    def start(self, seats: list[dict]) -> list[dict]: ...

    def apply(self, seat: int, action: dict) -> list[dict]: ...

    def view(self, seat: int | None) -> dict: ...

    def seats_changed(self, seats: list[dict]) -> None: ...

    def describe(self) -> dict: ...


@dataclass
class Seat:
    """One seat: who holds it. ``bot`` seats are played by the host; a human seat whose
    connection is gone (``conn is None``) is *away* since ``away_since``."""

    index: int
    name: str | None = None
    token: str | None = None
    bot: bool = False
    conn: Connection | None = None
    away_since: float | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None

    def public(self) -> dict:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot or self.conn is not None,
            "away": self.taken and not self.bot and self.conn is None,
        }

    def record(self) -> dict:
        return {"name": self.name, "token": self.token, "bot": self.bot}


@dataclass
class Limits:
    """Everything a peer may make the host spend, and how long it waits."""

    queue_bytes: int = 1 << 20  # bytes waiting to go out to a peer before it is dropped
    rate: float = 500.0  # messages per second a connection may send, sustained …
    burst: float = 1000.0  # … with bursts up to this many
    handshake_timeout: float = 10.0
    idle_timeout: float = 45.0  # nothing heard for this long: the connection is dropped
    ping_interval: float = 15.0
    max_connections: int = 100


def refusal(e: ValueError) -> dict:
    """The fields of a ``refused`` message for the table's refusal ``e``: the sentence, and
    when the table gives them, its English ``template`` and ``params`` for translation."""
    out: dict = {"message": str(e)}
    template, params = getattr(e, "template", None), getattr(e, "params", None)
    if isinstance(template, str) and isinstance(params, dict):
        out["template"] = template
        out["params"] = {
            str(k): v
            for k, v in params.items()
            if isinstance(v, (str, int)) and not isinstance(v, bool)
        }
    return out


class Connection:
    """One TCP connection. Frames go straight into the transport's buffer, which is bounded:
    when more than ``Limits.queue_bytes`` are waiting for a peer that does not read, the
    peer is dropped (``too_slow``) and nobody else waits for it."""

    def __init__(
        self, server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        self.transport = writer.transport
        self.peer = str(writer.get_extra_info("peername"))
        self.name = "?"
        self.seat: int | None = None
        self.joined = False
        self.closed = False
        self.reason: str | None = None  # the error code it was dropped with
        self.allowance = server.limits.burst
        self.last_check = time.monotonic()

    # ------------------------------------------------------------------ sending

    def send(self, message: dict) -> None:
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        if self.closed:
            return
        if self.transport.is_closing():
            self.closed = True
            return
        waiting = self.transport.get_write_buffer_size()
        if waiting + len(frame) > self.server.limits.queue_bytes:
            log.warning("dropping %s (%s): it does not read its messages", self.name, self.peer)
            self.drop("too_slow", "you did not read your messages fast enough", flush=False)
            return
        self.transport.write(frame)

    def error(self, code: str, message: str) -> None:
        self.send({"type": "error", "code": code, "message": message})

    def drop(self, code: str, message: str, *, flush: bool = True) -> None:
        """Send a fatal error and close; with ``flush``, what is buffered goes out first."""
        if self.closed:
            return
        frame = encode({"type": "error", "code": code, "message": message})
        self.closed = True
        self.reason = code
        with contextlib.suppress(Exception):
            self.transport.write(frame)
        if flush:
            self.transport.close()
        else:
            self.transport.abort()

    def allow(self) -> bool:
        """Token bucket: False when the peer sends faster than the limits allow."""
        now = time.monotonic()
        limits = self.server.limits
        self.allowance = min(limits.burst, self.allowance + (now - self.last_check) * limits.rate)
        self.last_check = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Server:
    """The host of one table. See the module docstring.

    ``on_change`` callbacks (no arguments, synchronous) run after every change a host may
    care about: a state update, a seat taken or left, the match starting or ending.
    """

    def __init__(
        self,
        table: Table,
        *,
        table_name: str,
        password: str | None = None,
        limits: Limits | None = None,
        seats: list[dict] | None = None,
    ) -> None:
        self.table = table
        self.table_name = table_name
        self.password = password or None
        self.limits = limits or Limits()
        self.seats = [Seat(i) for i in range(table.seats)]
        for seat, saved in zip(self.seats, seats or [], strict=False):
            if saved:
                seat.name, seat.token, seat.bot = saved["name"], saved["token"], saved["bot"]
                seat.away_since = None if seat.bot else time.monotonic()
        self.state = FINISHED if table.finished else PLAYING if table.started else LOBBY
        self.conns: set[Connection] = set()
        self.seq = 0
        self.on_change: list[Callable[[], None]] = []
        #: called with (seat that acted or None, events) after each update is sent
        self.on_events: list[Callable[[int | None, list[dict]], None]] = []
        #: more fields for the ``lobby`` message (the host's ``addresses``)
        self.lobby_extra: dict = {}
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()
        self._pinger: asyncio.Task | None = None
        self._port = 0

    # ------------------------------------------------------------------ life cycle

    async def start(self, bind: str = "127.0.0.1", port: int = 0) -> None:
        self._server = await asyncio.start_server(self._handle, bind, port, limit=1 << 16)
        self._port = self._server.sockets[0].getsockname()[1]
        self._pinger = asyncio.create_task(self._ping_loop())
        log.info("table %r listening on %s:%d", self.table_name, bind, self.port)

    @property
    def port(self) -> int:
        return self._port

    async def close(self) -> None:
        """Say goodbye to every connection and stop listening."""
        if self._server is not None:
            self._server.close()
        if self._pinger:
            self._pinger.cancel()
        for conn in list(self.conns):
            conn.drop("shutdown", "the host closed the table")
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def _changed(self) -> None:
        for callback in list(self.on_change):
            try:
                callback()
            except Exception:
                log.exception("on_change callback failed")

    # ------------------------------------------------------------------ seats

    def reserve(self, index: int, name: str, *, bot: bool) -> Seat:
        """Put a host-chosen player (a bot, or the host's own player) in a free seat."""
        seat = self.seats[index]
        if seat.taken:
            raise ValueError(f"seat {index} is taken")
        seat.name, seat.token, seat.bot = self._unique(name), secrets.token_urlsafe(16), bot
        seat.away_since = None if bot else time.monotonic()
        self._seats_changed()
        return seat

    def set_bot(self, index: int, bot: bool) -> None:
        self.seats[index].bot = bot
        self._seats_changed()

    def _unique(self, name: str) -> str:
        names = {s.name for s in self.seats}
        if name not in names:
            return name
        n = 2
        while f"{name} {n}" in names:
            n += 1
        return f"{name} {n}"

    def _seats_changed(self) -> None:
        if self.table.started:
            try:
                self.table.seats_changed([s.record() for s in self.seats])
            except Exception:
                log.exception("table.seats_changed failed")
        self.broadcast_lobby()
        self.maybe_start()

    def lobby_message(self) -> dict:
        return {
            "type": "lobby",
            "table": self.table_name,
            "state": self.state,
            "seats": [s.public() for s in self.seats],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            **self.lobby_extra,
        }

    def broadcast_lobby(self) -> None:
        frame = encode(self.lobby_message())
        for conn in list(self.conns):
            conn.send_frame(frame)
        self._changed()

    def maybe_start(self) -> None:
        if self.state == LOBBY and all(s.taken for s in self.seats):
            self.start_match()

    def start_match(self) -> None:
        """Begin the match now (every seat must be taken)."""
        if self.state != LOBBY:
            return
        if not all(s.taken for s in self.seats):
            raise ValueError("every seat must be taken before the match starts")
        events = self.table.start([s.record() for s in self.seats])
        self.state = PLAYING
        log.info("the match starts: %s", ", ".join(s.name or "?" for s in self.seats))
        self.broadcast_lobby()
        self._broadcast_state(events, None)

    # ------------------------------------------------------------------ playing

    def submit(self, seat: int, action: dict) -> list[dict]:
        """Apply ``seat``'s action and send everyone their update. Raises ``ValueError``
        (the table's message) when refused. Used for connections and host-played seats."""
        if self.state == LOBBY:
            raise ValueError("the match has not started yet")
        if self.state == FINISHED:
            raise ValueError("the match is over")
        events = self.table.apply(seat, action)
        self._broadcast_state(events, seat)
        if self.table.finished and self.state != FINISHED:
            self.state = FINISHED
            self.broadcast_lobby()
        return events

    def resend(self, events: list[dict] | None = None) -> None:
        """Send every connection its view again (with ``events``, none by default): for a
        change of the table's own, e.g. who the host waits for."""
        if self.state != LOBBY:
            self._broadcast_state(events or [], None)

    def notice(self, code: str, text: str) -> None:
        """Tell every connection about trouble at the host (a ``notice`` message)."""
        frame = encode({"type": "notice", "code": code, "text": text})
        for conn in list(self.conns):
            conn.send_frame(frame)

    def _broadcast_state(self, events: list[dict], by: int | None) -> None:
        self.seq += 1
        frames: dict[int | None, bytes] = {}
        for conn in list(self.conns):
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = self._state_frame(conn.seat, events, by)
            conn.send_frame(frame)
        for callback in list(self.on_events):
            try:
                callback(by, events)
            except Exception:
                log.exception("on_events callback failed")
        self._changed()

    def _state_frame(self, seat: int | None, events: list[dict], by: int | None) -> bytes:
        view = self.table.view(seat)
        try:
            return encode(
                {"type": "state", "seq": self.seq, "by": by, "view": view, "events": events}
            )
        except FrameError:  # the action stands; this update cannot travel whole
            log.error(
                "the update for seat %s is over the frame limit; its events are left out", seat
            )
            return encode({"type": "state", "seq": self.seq, "by": by, "view": view, "events": []})

    # ------------------------------------------------------------------ connections

    def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        full = len(self._tasks) >= self.limits.max_connections  # joined or shaking hands
        task = asyncio.create_task(self._serve(reader, writer, full))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, full: bool
    ) -> None:
        conn = Connection(self, reader, writer)
        try:
            if full:
                conn.drop("table_full", "the host has too many connections")
                return
            if await self._handshake(conn):
                await self._read_loop(conn)
        except ConnectionClosed:
            pass
        except FrameError as e:
            conn.drop("bad_frame", str(e))
        except ProtocolError as e:
            conn.drop(e.code, e.message)
        except TimeoutError:
            conn.drop("timeout", "nothing heard from you for too long")
        except asyncio.CancelledError:
            conn.drop("shutdown", "the host closed the table")
        except Exception:
            log.exception("connection %s failed", conn.peer)
            conn.drop("internal", "the host met an internal error")
        finally:
            conn.drop("closed", "connection closed")
            self._detach(conn)

    async def _read(self, conn: Connection, timeout: float) -> dict:
        msg = await asyncio.wait_for(read_frame(conn.reader), timeout)
        if not conn.allow():
            raise ProtocolError("flood", "too many messages too fast")
        return msg

    async def _handshake(self, conn: Connection) -> bool:
        timeout = self.limits.handshake_timeout
        msg = await self._read(conn, timeout)
        if msg.get("type") != "hello":
            raise ProtocolError("handshake", "the first message must be 'hello'")
        if msg.get("version") != PROTOCOL_VERSION:
            raise ProtocolError(
                "version",
                f"this host speaks rum500 protocol version {PROTOCOL_VERSION}, "
                f"you sent {msg.get('version')!r}: update rum500",
            )
        hello = check_client_message(msg)
        if self.password is not None:
            nonce = secrets.token_hex(NONCE_BYTES)
            conn.send({"type": "challenge", "nonce": nonce})
            answer = await self._read(conn, timeout)
            if answer.get("type") != "auth":
                raise ProtocolError("handshake", "expected 'auth' with the password proof")
            proof = check_client_message(answer)["proof"]
            if not hmac.compare_digest(proof, auth_proof(self.password, nonce)):
                log.info("wrong password from %s", conn.peer)
                raise ProtocolError("bad_password", "wrong table password")
        conn.name = hello["name"]
        seat = self._place(conn, hello)
        token = seat.token if seat else None
        conn.send(
            {
                "type": "welcome",
                "version": PROTOCOL_VERSION,
                "seat": seat.index if seat else None,
                "token": token,
                "name": seat.name if seat else conn.name,
                "table": {
                    "name": self.table_name,
                    "seats": len(self.seats),
                    "state": self.state,
                    **self.table.describe(),
                },
            }
        )
        conn.joined = True
        self.conns.add(conn)
        if self.table.started:
            conn.send_frame(self._state_frame(conn.seat, [], None))
        if seat is not None:
            log.info("%s sits at seat %d", seat.name, seat.index)
            self._seats_changed()
        else:
            log.info("%s watches", conn.name)
            self.broadcast_lobby()
        return True

    def _place(self, conn: Connection, hello: dict) -> Seat | None:
        token = hello["token"]
        if token:
            for seat in self.seats:
                if seat.token is not None and hmac.compare_digest(seat.token, token):
                    old = seat.conn
                    if old is not None and old is not conn:
                        old.seat = None
                        old.drop("replaced", "your seat connected again from elsewhere")
                    seat.conn, seat.away_since = conn, None
                    conn.seat = seat.index
                    return seat
            raise ProtocolError("bad_token", "no seat at this table has that token")
        if hello["spectate"]:
            return None
        if self.state != LOBBY:
            raise ProtocolError(
                "table_full", "the match has started: rejoin with your token or watch"
            )
        for seat in self.seats:
            if not seat.taken:
                seat.name, seat.token = self._unique(hello["name"]), secrets.token_urlsafe(16)
                seat.conn, seat.away_since, seat.bot = conn, None, False
                conn.seat = seat.index
                return seat
        raise ProtocolError("table_full", "every seat is taken: join as a spectator")

    def _detach(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if conn.seat is not None:
            seat = self.seats[conn.seat]
            if seat.conn is conn:
                seat.conn, seat.away_since = None, time.monotonic()
                log.info("%s left seat %d", seat.name, seat.index)
            conn.seat = None
        self.broadcast_lobby()

    async def _read_loop(self, conn: Connection) -> None:
        while not conn.closed:
            raw = await self._read(conn, self.limits.idle_timeout)
            try:
                msg = check_client_message(raw)
            except ProtocolError as e:
                if "id" in raw and raw.get("type") == "action":
                    conn.send({"type": "refused", "id": raw.get("id"), "message": e.message})
                conn.error(e.code, e.message)
                continue
            kind = msg["type"]
            if kind == "action":
                self._on_action(conn, msg)
            elif kind == "chat":
                seat = conn.seat
                frame = encode(
                    {"type": "chat", "seat": seat, "name": conn.name, "text": msg["text"]}
                )
                for other in list(self.conns):
                    other.send_frame(frame)
            elif kind == "ping":
                conn.send({"type": "pong"})
            elif kind == "leave":
                self._leave(conn)
                return
            elif kind in ("hello", "auth"):
                conn.error("bad_message", f"'{kind}' is only for the handshake")
            # pong: nothing to do, hearing from the peer is enough

    def _leave(self, conn: Connection) -> None:
        """A player leaves on purpose: in the lobby the seat is freed, later it stays theirs."""
        seat = self.seats[conn.seat] if conn.seat is not None else None
        conn.drop("closed", "goodbye")
        if seat is not None and seat.conn is conn and self.state == LOBBY:
            seat.name = seat.token = seat.conn = seat.away_since = None
            conn.seat = None
            self.conns.discard(conn)
            self._seats_changed()

    def _on_action(self, conn: Connection, msg: dict) -> None:
        ident = msg["id"]
        if conn.seat is None:
            conn.send({"type": "refused", "id": ident, "message": "spectators cannot act"})
            return
        if msg["seat"] is not None and msg["seat"] != conn.seat:
            conn.send(
                {
                    "type": "refused",
                    "id": ident,
                    "message": f"you may only act for your own seat ({conn.seat})",
                }
            )
            return
        try:
            self.submit(conn.seat, msg["action"])
        except ValueError as e:
            conn.send({"type": "refused", "id": ident, **refusal(e)})
            return
        except Exception:
            log.exception("the table failed on %r", msg["action"])
            conn.send({"type": "refused", "id": ident, "message": "the host met an internal error"})
            return
        conn.send({"type": "accepted", "id": ident, "seq": self.seq})

    async def _ping_loop(self) -> None:
        frame = encode({"type": "ping"})
        while True:
            await asyncio.sleep(self.limits.ping_interval)
            for conn in list(self.conns):
                conn.send_frame(frame)
