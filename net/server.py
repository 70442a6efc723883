"""The host server: one table, 2–8 seats, any number of spectators, over TCP (asyncio).

The server knows nothing of the game's rules. It drives a *table* object (:class:`Table`):
seats take turns calling ``table.apply(seat, action)``, and after each accepted action every
connection gets its own ``table.view(seat)`` — a spectator ``table.view(None)`` — with the
public events the action caused: the whole view, or for a connection that asked for deltas
(``hello`` with ``deltas: true``) the view's top-level keys whose value changed since the view
it was last sent. Only views ever leave the host.

Life of a connection (see ``docs/protocol.md``): ``hello`` → (``challenge`` → ``auth`` when the
table has a password) → ``welcome`` → ``lobby`` / ``state`` / ``chat`` messages, while the
client sends ``action``, ``chat``, ``pong`` … Bad input gets an ``error`` (fatal ones close the
connection); the table and the other connections carry on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import hmac
import logging
import secrets
import socket
import struct
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from net.fanout import Held, Update, held_view
from net.framing import ConnectionClosed, FrameError, encode, pack, read_frame
from net.handshake import PasswordGate, read_hello
from net.protocol import PROTOCOL_VERSION, ProtocolError, action_id, check_client_message

log = logging.getLogger(__name__)

LOBBY, PLAYING, FINISHED = "lobby", "playing", "finished"
CHAT_KEPT = 50  # chat messages a table keeps (they move with it to another host)
WILDCARDS = ("", "0.0.0.0", "::")


def dual_stack_socket(port: int) -> socket.socket | None:
    """A TCP socket on ``[::]:port`` that takes IPv4 too, or None where there is no IPv6."""
    if not socket.has_ipv6:
        return None
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    except OSError:
        return None
    try:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("::", port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise
        return None
    sock.setblocking(False)
    return sock


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

    # optional: ``own_view(seat)`` — the keys of ``view(seat)`` that differ from
    # ``view(None)`` (``view(seat)`` is ``view(None)`` updated with them): the server then
    # builds and packs the public part once per update, and only these keys per seat
    # optional: ``packed_view(seat)`` — ``view(seat)`` with each top-level value already
    # packed (net.framing.pack): the server then uses it in place of ``view`` (a table can
    # keep what did not change packed from one update to the next)
    # optional: ``packed_own_view(seat)`` — ``own_view(seat)`` with each value packed, the
    # very same map while those keys stay the same: such a seat gets the spectators' frame
    # without its own keys being compared again
    # optional: ``refuse_hello(options)`` — hello's ``options`` (a list of names, or None);
    # returns why this client may not come in (an ``options`` error), or None
    # optional: ``shown_view(seat)`` — the keys a spectator connection whose ``shown`` is
    # ``seat`` gets over the spectators' view (a seat that lets it see its hand)


#: how the server handles an ``action`` message a connection sent (:meth:`Server.wrap_actions`)
ActionHandler = Callable[["Connection", dict], None]


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

    @property
    def can_host(self) -> bool:
        """A connected human whose client said it can host (``hello``'s ``can_host``)."""
        return not self.bot and self.conn is not None and self.conn.can_host

    def public(self) -> dict:
        return {
            "seat": self.index,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot or self.conn is not None,
            "away": self.taken and not self.bot and self.conn is None,
            "can_host": self.can_host,
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
    #: connections that said hello: every seat keeps a slot, spectators share the rest
    max_connections: int = 100
    max_spectators_per_peer: int = 40  # spectators from one address
    max_unidentified: int = 32  # sockets that have not said hello yet, from everyone …
    max_unidentified_per_peer: int = 8  # … and from one address (then the oldest is closed)
    password_delay: float = 0.25  # after a wrong password, the next proof from that address
    password_delay_max: float = 8.0  # waits this long, doubling per failure up to this
    linger: float = 2.0  # after a fatal error, time the peer has to read it before the close


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


def peer_address(peername: object) -> str:
    """The address part of a peer's socket name, IPv4 addresses mapped into IPv6 unmapped
    (``::ffff:10.0.0.2`` is ``10.0.0.2``) and without a link-local scope."""
    host = peername[0] if isinstance(peername, tuple) and peername else str(peername)
    host = str(host).partition("%")[0]
    if host.startswith("::ffff:") and "." in host:
        host = host[len("::ffff:") :]
    return host


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
        self.address = peer_address(writer.get_extra_info("peername"))
        self.opened = time.monotonic()
        self.name = "?"
        self.seat: int | None = None
        #: the connection asked for deltas (``hello`` with ``deltas: true``)
        self.deltas = False
        #: the client can take the table over (``hello`` with ``can_host: true``)
        self.can_host = False
        #: the client checks deals: it is sent ``commit`` and ``reveal`` (``deal_check``)
        self.deal_check = False
        #: the view this connection holds (from the last ``state`` it was sent), its keys
        #: packed; connections sent the same view share it (net/fanout.py)
        self.base: Held | None = None
        self.joined = False
        self.closed = False
        self.reason: str | None = None  # the error code it was dropped with
        self.allowance = server.limits.burst
        self.last_check = time.monotonic()
        #: when the last frame came from the peer (monotonic): a failover host counts the
        #: silence of the players who could vote for its standby (rum500/handoff/failover.py)
        self.heard = self.opened
        #: the peer left the table on purpose (``leave``): its silence means nothing
        self.left = False
        #: frames waiting while the server holds its output (Server.hold)
        self.held: list[bytes] = []
        self.held_bytes = 0
        #: the task serving this connection (Server._serve)
        self.task: asyncio.Task | None = None
        #: the connection's number at this host (the ``lobby``'s ``watchers`` name
        #: spectators by it); set when it says hello
        self.ident = 0
        #: for a spectator: the seat whose own keys it is shown too (the table's
        #: ``shown_view``; rum500's "over the shoulder"), else None
        self.shown: int | None = None

    # ------------------------------------------------------------------ sending

    def send(self, message: dict) -> None:
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        write = self.outlet(frame)
        if write is not None:
            write(frame)

    def outlet(self, frame: bytes) -> Callable[[bytes], None] | None:
        """Where ``frame`` goes now: the transport's ``write`` (the caller writes it, maybe
        after building other frames — nothing else is written to this connection in
        between), or None when it is taken care of here — held (:meth:`Server.hold`), or
        not sent: the connection is closed, or dropped for the bytes waiting to go out."""
        if self.closed:
            return None
        transport = self.transport
        if transport.is_closing():
            self.closed = True
            return None
        server = self.server
        if server.holding is not None and self is not server.holding:
            self.held.append(frame)  # sent on Server.release(), in order
            self.held_bytes += len(frame)
            if self.held_bytes > server.limits.queue_bytes:
                self.held, self.held_bytes = [], 0
                self.drop("too_slow", "too many messages waited for you", flush=False)
            return None
        if transport.get_write_buffer_size() + len(frame) > server.limits.queue_bytes:
            log.warning("dropping %s (%s): it does not read its messages", self.name, self.peer)
            self.drop("too_slow", "you did not read your messages fast enough", linger=10.0)
            return None
        return transport.write

    def error(self, code: str, message: str) -> None:
        self.send({"type": "error", "code": code, "message": message})

    def drop(
        self, code: str, message: str, *, flush: bool = True, linger: float | None = None
    ) -> None:
        """Send a fatal error and close. The error is the last frame the peer gets: the
        sending side is shut (FIN) after it, and the socket itself closed ``Limits.linger``
        seconds later (or as soon as the host closes), so that the peer reads the error
        before any reset. Without ``flush`` the socket is cut at once."""
        if self.closed:
            return
        frame = encode({"type": "error", "code": code, "message": message})
        self.closed = True
        self.reason = code
        if not flush:
            self.transport.abort()
            return
        with contextlib.suppress(Exception):
            for waiting in self.held:  # what was held goes before the last word
                self.transport.write(waiting)
            self.held, self.held_bytes = [], 0
            self.transport.write(frame)
            if self.transport.can_write_eof():
                self.transport.write_eof()
        self.server._linger(self.transport, linger)

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
        table_id: str | None = None,
        chat: Iterable[dict] = (),
    ) -> None:
        self.table = table
        self.table_name = table_name
        #: the table's id: random, kept when the table moves to another host
        self.table_id = table_id or secrets.token_hex(8)
        #: why actions are refused for now (a table on its way to another host), or None
        self.frozen: str | None = None
        #: while not None, every frame for any connection but this one waits (hold())
        self.holding: Connection | None = None
        #: the newest chat messages, oldest first (they move with the table)
        self.chat_log: collections.deque[dict] = collections.deque(chat, maxlen=CHAT_KEPT)
        #: handlers of the client messages a host adds (``handoff_ready`` …): called with
        #: the connection and the checked message; a type without one is ignored
        self.on_message: dict[str, Callable[[Connection, dict], None]] = {}
        #: asked when every seat is taken: True holds the match's start a moment (the
        #: host waits to hear its players first) and calls maybe_start again later
        self.hold_start: Callable[[], bool] | None = None
        self.password = password or None
        self.limits = limits or Limits()
        self.seats = [Seat(i) for i in range(table.seats)]
        for seat, saved in zip(self.seats, seats or [], strict=False):
            if saved:
                seat.name, seat.token, seat.bot = saved["name"], saved["token"], saved["bot"]
                seat.away_since = None if seat.bot else time.monotonic()
        self.state = FINISHED if table.finished else PLAYING if table.started else LOBBY
        #: the connections that said hello, in the order they joined (updates go out in it)
        self.conns: dict[Connection, None] = {}
        self._idents = 0  # the last connection number given (Connection.ident)
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
        #: sockets closed with a fatal error, waiting for the peer to read it (oldest first)
        self._lingering: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}
        #: sockets that have not said hello yet, oldest first
        self._unidentified: dict[Connection, None] = {}
        #: wrong passwords slow their address down (net/handshake.py)
        self._gate = PasswordGate(self.limits)

    # ------------------------------------------------------------------ life cycle

    async def start(
        self, bind: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None
    ) -> None:
        """Listen on ``bind``. A wildcard (``0.0.0.0``, ``::`` or empty) listens on every
        address of both families on one dual-stack socket (IPv4 alone where the machine has
        no IPv6). ``sock``: a socket already listening (a standby's, :mod:`net.door`)."""
        if sock is not None:
            self._server = await asyncio.start_server(self._handle, sock=sock, limit=1 << 16)
        elif bind in WILDCARDS:
            sock = dual_stack_socket(port)
            if sock is not None:
                self._server = await asyncio.start_server(self._handle, sock=sock, limit=1 << 16)
        if self._server is None:
            host = "0.0.0.0" if bind in WILDCARDS else bind
            self._server = await asyncio.start_server(self._handle, host, port, limit=1 << 16)
        self._port = self._server.sockets[0].getsockname()[1]
        self._pinger = asyncio.create_task(self._ping_loop())
        log.info("table %r listening on %s:%d", self.table_name, bind, self.port)

    @property
    def port(self) -> int:
        return self._port

    async def close(self) -> None:
        """Say goodbye to every connection and stop listening."""
        self._stop_listening()
        for conn in list(self.conns):
            conn.drop("shutdown", "the host closed the table")
        await self._closed()

    def _stop_listening(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._pinger:
            self._pinger.cancel()

    async def _closed(self) -> None:
        """Once every connection was told (or cut): end their tasks and the listener."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for transport in list(self._lingering):
            self._end(transport)
        if self._server is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await self._server.wait_closed()

    def hold(self, but: Connection) -> None:
        """Keep every frame for every connection but ``but`` until :meth:`release`: a host
        with a standby tells nobody of an action before the standby has it (its
        ``standby_ack``, rum500/handoff/failover.py), so that no client ever sees what a
        failover would lose."""
        self.holding = but

    def release(self) -> None:
        """Send what :meth:`hold` kept, in order, and stop holding."""
        if self.holding is None:
            return
        self.holding = None
        for conn in list(self.conns) + list(self._unidentified):
            frames, conn.held, conn.held_bytes = conn.held, [], 0
            for frame in frames:
                conn.send_frame(frame)

    async def abandon(self) -> None:
        """Stop serving without a goodbye: stop listening and cut every connection at once
        (a reset), as a host whose process died would. For a host cut off from its table
        while a standby takes it over: no ``shutdown`` may reach a client, which would then
        leave the table instead of following it."""
        self._stop_listening()
        for conn in list(self.conns) + list(self._unidentified):
            conn.closed = True
            sock = conn.writer.get_extra_info("socket")
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.transport.abort()
        await self._closed()

    def _linger(self, transport: asyncio.BaseTransport, delay: float | None = None) -> None:
        """Close ``transport`` in ``delay`` seconds (``Limits.linger`` by default); at most
        64 wait at once (the oldest is closed at once to make room)."""
        if transport in self._lingering:
            return
        while len(self._lingering) >= 64:
            self._end(next(iter(self._lingering)))
        delay = self.limits.linger if delay is None else delay
        loop = asyncio.get_running_loop()
        self._lingering[transport] = loop.call_later(delay, self._end, transport)

    def _end(self, transport: asyncio.BaseTransport) -> None:
        handle = self._lingering.pop(transport, None)
        if handle is not None:
            handle.cancel()
        if isinstance(transport, asyncio.WriteTransport) and transport.get_write_buffer_size():
            transport.abort()  # a peer that never read: what is left is thrown away
        else:
            transport.close()

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
            "table_id": self.table_id,
            "state": self.state,
            "seats": [s.public() for s in self.seats],
            "spectators": len(watching := self._watching()),
            "watchers": [{"id": c.ident, "name": c.name} for c in watching],
            **self.lobby_extra,
        }

    def _watching(self) -> list[Connection]:
        """The spectators connected now: not a seat's connection, not closed (a seat's
        connection replaced by its rejoin is closed while its last bytes go out)."""
        return [c for c in self.conns if c.seat is None and not c.closed]

    def broadcast_lobby(self) -> None:
        frame = encode(self.lobby_message())
        for conn in list(self.conns):
            conn.send_frame(frame)
        self._changed()

    def maybe_start(self) -> None:
        if self.state == LOBBY and all(s.taken for s in self.seats):
            if self.hold_start is not None and self.hold_start():
                return  # not yet: the holder calls maybe_start again
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
        if self.frozen is not None:
            raise ValueError(self.frozen)
        events = self.table.apply(seat, action)
        self.applied(seat, events)
        return events

    def applied(self, seat: int | None, events: list[dict]) -> None:
        """The table applied an action (``seat``'s) of its own accord — one its host plays:
        send everyone their update, as :meth:`submit` does after applying."""
        self._broadcast_state(events, seat)
        if self.table.finished and self.state != FINISHED:
            self.state = FINISHED
            self.broadcast_lobby()

    def resend(self, events: list[dict] | None = None) -> None:
        """Send every connection its view again (with ``events``, none by default): for a
        change of the table's own, e.g. who the host waits for."""
        if self.state != LOBBY:
            self._broadcast_state(events or [], None)

    def notice(self, code: str, text: str) -> None:
        """Tell every connection about trouble at the host (a ``notice`` message)."""
        self.broadcast({"type": "notice", "code": code, "text": text})

    def broadcast(self, message: dict) -> None:
        """Send ``message`` to every connection."""
        frame = encode(message)
        for conn in list(self.conns):
            conn.send_frame(frame)

    def seat_conn(self, index: int | None) -> Connection | None:
        """The connection of seat ``index`` (None when away, a bot, or no such seat)."""
        if index is None or not 0 <= index < len(self.seats):
            return None
        return self.seats[index].conn

    def move(self, addresses: list[str], port: int) -> None:
        """The table now lives at ``addresses``/``port``: tell every connection (``moved``)
        and close each with the fatal ``moved``; stop listening."""
        where = {"type": "moved", "table_id": self.table_id, "addresses": addresses, "port": port}
        for conn in list(self.conns):
            conn.send(where)
            conn.drop("moved", "the table moved to another host")
        if self._server is not None:
            self._server.close()

    def _broadcast_state(self, events: list[dict], by: int | None) -> None:
        """Send every connection its update: the events with the view of its seat — whole,
        or for a connection that asked for deltas, the view's keys whose value changed since
        the view it holds. Each view is built and packed once per seat (for a table with
        ``own_view``, the public part once and each seat's own keys on it), each distinct
        frame once (:class:`net.fanout.Update`: the spectators, and every seat whose own
        keys did not change, get the same bytes).

        Every frame is built before the first is written: the writes then go out back to
        back, as fast as a relay's, and no peer woken by an early write competes for the
        CPU with the building of the frames still to come. They go out in the order the
        connections joined (the connections of one peer, which joined together, one after
        another: the peer is woken once, not again for each)."""
        self.seq += 1
        update = Update(self.seq, by, pack(events))
        views: dict[int | None, Held] = {}  # built when a connection needs them
        #: (seat, the view it holds) → (its new view, its frame): once for each audience (a
        #: spectator shown a seat's hand is an audience of its own, as a connection)
        frames: dict[tuple[object, Held | None], tuple[Held, bytes]] = {}
        writes: list[tuple[Callable[[bytes], None], bytes]] = []
        for conn in list(self.conns):
            seat = conn.seat
            shown = getattr(conn, "shown", None) if seat is None else None
            audience = (seat if shown is None else conn, conn.base if conn.deltas else None)
            sent = frames.get(audience)
            if sent is None:
                if shown is not None:
                    view = held_view(self.table, None, views, shown)
                else:
                    view = views.get(seat)
                    if view is None:
                        view = views[seat] = held_view(self.table, seat, views)
                sent = frames[audience] = (view, update.frame(view, audience[1]))
            conn.base, frame = sent
            write = conn.outlet(frame)
            if write is not None:
                writes.append((write, frame))
        for write, frame in writes:
            write(frame)
        for callback in list(self.on_events):
            try:
                callback(by, events)
            except Exception:
                log.exception("on_events callback failed")
        self._changed()

    def _send_view(self, conn: Connection) -> None:
        """The whole view to ``conn`` (on joining, and on ``resync``), events none."""
        view = held_view(self.table, conn.seat, None, conn.shown if conn.seat is None else None)
        conn.send_frame(Update(self.seq, None, pack([])).frame(view, None))
        conn.base = view

    # ------------------------------------------------------------------ connections

    def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(self, reader, writer)
        self._admit_unidentified(conn)
        task = conn.task = asyncio.create_task(self._serve(conn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _admit_unidentified(self, conn: Connection) -> None:
        """Make room for a new socket among those that have not said hello: when its address
        already has ``max_unidentified_per_peer`` of them, or everyone ``max_unidentified``,
        the oldest of that address (or of the address holding most) is closed with ``busy``.
        A new socket always gets its chance to say hello."""
        limits = self.limits
        mine = [c for c in self._unidentified if c.address == conn.address]
        victim: Connection | None = None
        if len(mine) >= limits.max_unidentified_per_peer:
            victim = mine[0]
        elif len(self._unidentified) >= limits.max_unidentified:
            counts: dict[str, int] = {}
            for c in self._unidentified:
                counts[c.address] = counts.get(c.address, 0) + 1
            greedy = max(counts, key=lambda a: counts[a])
            victim = next(c for c in self._unidentified if c.address == greedy)
        if victim is not None:
            self._unidentified.pop(victim, None)
            log.info("closing %s: too many sockets that have not said hello", victim.peer)
            victim.drop("busy", "too many connections are waiting to say hello: try again")
            if victim.task is not None:  # it may be waiting on its password proof: end it
                victim.task.cancel()
        self._unidentified[conn] = None

    async def _serve(self, conn: Connection) -> None:
        try:
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
            self._unidentified.pop(conn, None)
            conn.drop("closed", "connection closed")
            self._detach(conn)

    async def _read(self, conn: Connection, timeout: float) -> dict:
        # a deadline on this very task (no task per message, as wait_for would make: an
        # action is handled in the loop's turn its bytes come in)
        async with asyncio.timeout(timeout):
            msg = await read_frame(conn.reader)
        conn.heard = time.monotonic()
        if not conn.allow():
            raise ProtocolError("flood", "too many messages too fast")
        return msg

    async def _handshake(self, conn: Connection) -> bool:
        """``hello`` (then ``auth``), read and checked by :func:`net.handshake.read_hello`
        within ``Limits.handshake_timeout`` of the connection; then the connection is placed,
        sent ``welcome``, and joins (the lobby to everyone, then its view)."""
        hello = await read_hello(
            conn,
            lambda timeout: self._read(conn, timeout),
            timeout=self.limits.handshake_timeout,
            password=self.password,
            gate=self._gate,
            refuse_hello=getattr(self.table, "refuse_hello", None),
        )
        self._unidentified.pop(conn, None)
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
                    "id": self.table_id,
                    "seats": len(self.seats),
                    "state": self.state,
                    **self.table.describe(),
                },
            }
        )
        conn.joined = True
        self._idents += 1
        conn.ident = self._idents
        conn.deltas = hello["deltas"]
        conn.can_host = hello.get("can_host", False)
        conn.deal_check = hello.get("deal_check", False)
        self.conns[conn] = None
        started = self.table.started
        # always welcome, lobby, state (docs/protocol.md §3): the lobby goes to everyone …
        if seat is not None:
            log.info("%s sits at seat %d", seat.name, seat.index)
            self._seats_changed()
        else:
            log.info("%s watches", conn.name)
            self.broadcast_lobby()
        # … then the whole view, unless an update already brought it (the match starting
        # as this seat filled the table, or a host-played move the lobby set off)
        if started and conn.base is None:
            self._send_view(conn)
        return True

    def password_wait(self, failures: int) -> float:
        """The wait before the next proof after ``failures`` wrong ones in a row."""
        return self._gate.wait(failures)

    def password_delay(self, address: str) -> float:
        """Seconds the next password proof from ``address`` will wait (0: none)."""
        return self._gate.delay(address)

    @property
    def _failures(self) -> dict[str, tuple[int, float]]:
        """Per address: (wrong passwords in a row, when the next proof may be checked)."""
        return self._gate.failures

    def _place(self, conn: Connection, hello: dict) -> Seat | None:
        """A seat for the token (always: every seat keeps its slot), a spectator's place, or a
        free seat in the lobby. Spectators share ``max_connections`` minus the seats, at most
        ``max_spectators_per_peer`` from one address; beyond that ``busy``."""
        token = hello["token"]
        if hello["spectate"]:
            self._room_for_spectator(conn)
            return None
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

    def _room_for_spectator(self, conn: Connection) -> None:
        watching = self._watching()
        if sum(1 for c in watching if c.address == conn.address) >= (
            self.limits.max_spectators_per_peer
        ):
            raise ProtocolError("busy", "too many connections from your address")
        if len(watching) >= max(0, self.limits.max_connections - len(self.seats)):
            raise ProtocolError("busy", "the host has too many connections: try again later")

    def _detach(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.pop(conn, None)
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
            if conn.closed:
                return
            try:
                msg = check_client_message(raw)
            except ProtocolError as e:
                ident = action_id(raw) if raw.get("type") == "action" else None
                if ident is not None:  # answered once: the client awaits this id
                    conn.send({"type": "refused", "id": ident, "message": e.message})
                else:
                    conn.error(e.code, e.message)
                continue
            kind = msg["type"]
            if kind == "action":
                self._on_action(conn, msg)
            elif kind == "chat":
                said = {"type": "chat", "seat": conn.seat, "name": conn.name, "text": msg["text"]}
                self.chat_log.append(said)
                self.broadcast(said)
            elif kind == "ping":
                conn.send({"type": "pong", "seq": self.seq})
            elif kind == "resync":
                if self.table.started:
                    self._send_view(conn)
                else:
                    conn.send(self.lobby_message())
            elif kind == "leave":
                self._leave(conn)
                return
            elif kind in ("hello", "auth"):
                conn.error("bad_message", f"'{kind}' is only for the handshake")
            elif kind in self.on_message:
                try:
                    self.on_message[kind](conn, msg)
                except Exception:
                    log.exception("the handler of %r failed", kind)
            # pong: nothing to do, hearing from the peer is enough

    def _leave(self, conn: Connection) -> None:
        """A player leaves on purpose: in the lobby the seat is freed, later it stays theirs."""
        seat = self.seats[conn.seat] if conn.seat is not None else None
        conn.left = True
        conn.drop("closed", "goodbye")
        if seat is not None and seat.conn is conn and self.state == LOBBY:
            seat.name = seat.token = seat.conn = seat.away_since = None
            conn.seat = None
            self.conns.pop(conn, None)
            self._seats_changed()

    def wrap_actions(self, wrapper: Callable[[ActionHandler], ActionHandler]) -> None:
        """Have ``wrapper(handle)`` take every ``action`` a connection sends, in place of
        ``handle`` (the server's own handling: apply, every update sent, ``accepted`` or
        ``refused``); it should call ``handle(conn, message)``. For a benchmark that times
        or profiles the host's work on each action (bench/net.py)."""
        self._on_action = wrapper(self._on_action)  # type: ignore[method-assign]

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

    def ping_frame(self) -> bytes:
        """A ``ping`` with the newest ``seq``: every connection that joined was sent that
        update (or is sent it first: held frames keep their order), so a client whose last
        update is older knows it lost one — the last, which nothing else would show."""
        return encode({"type": "ping", "seq": self.seq})

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.ping_interval)
            frame = self.ping_frame()
            for conn in list(self.conns):
                conn.send_frame(frame)
