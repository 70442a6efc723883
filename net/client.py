"""The client library: connect to a host, hand-shake, read updates, act, chat, rejoin.

::

    from net.client import Client, ActionRefused, ConnectionLost

    c = await Client.connect(host, port, name="Ann", password=None, spectate=False)
    c.seat, c.token, c.table_info          # after the handshake (seat None: spectator)
    async for msg in c.messages():         # every message from the host, as dicts
        ...                                # {"type": "state", "seq", "by", "view", "events"},
                                           # {"type": "lobby", ...}, {"type": "chat", ...} …
    await c.act({"type": "draw", "source": "stock"})   # returns the ``accepted`` message once
                                                       # the host applied it; raises
                                                       # ActionRefused(message) if refused
    await c.chat("hi")
    await c.close()
    c = await Client.rejoin(host, port, token)         # same seat, same position
    await c.reconnect()                                # or: after a drop, on the same object

``c.view`` / ``c.lobby`` / ``c.seq`` always hold the newest ``state`` view and ``lobby``
message. What :meth:`messages` has not yet taken is bounded: beyond :data:`MAX_STATES` queued
updates the newer ones fold into one (a ``state`` with the newest view, whose ``skipped``
counts the updates folded into it and whose ``events`` are all of theirs, in order — up to
:data:`MAX_EVENTS`, beyond which the oldest are dropped and ``events_lost`` is true), only the
newest ``lobby`` is kept, and at most
:data:`MAX_OTHER` other messages (chat …), the oldest dropped first.

The client asks the host for deltas (``hello`` with ``deltas: true``, docs/protocol.md §6):
each update then carries only the view's keys that changed, and the client rebuilds the
whole view — every ``state`` that :meth:`messages` yields has the whole ``view``, as if the
host had sent it (treat it as read-only: unchanged keys are shared with the previous view).
A gap in ``seq`` makes the client ask the host for the whole view (``resync``); the events
of the updates that came meanwhile are handed on with it. Pings are answered automatically
and never reach :meth:`messages`; a ping (or pong) whose ``seq`` is newer than the last update
held says an update was lost — perhaps the last one — and the client resyncs, again at each
such ping while the answer does not come. When the connection is lost, :meth:`messages` raises
:class:`ConnectionLost` (after yielding what arrived before); after :meth:`close` it simply
ends.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import socket
import struct
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from net.framing import (
    HEADER,
    MAX_FRAME,
    FrameError,
    decode,
    encode,
)
from net.protocol import (
    PROTOCOL_VERSION,
    apply_state,
    auth_proof,
    check_addresses,
    check_port,
)
from net.share import give_share


class ClientError(Exception):
    """Base of the errors of this module; ``str()`` is a message for the player."""


class HandshakeError(ClientError):
    """The host refused us at the door: ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ActionRefused(ClientError):
    """The host refused an action; ``str()`` is the host's reason. ``template`` and
    ``params``, when the host sent them, let a client say it in the player's language."""

    def __init__(
        self, message: str, template: str | None = None, params: dict | None = None
    ) -> None:
        super().__init__(message)
        self.template = template
        self.params = params or {}


class ConnectionLost(ClientError):
    """The connection to the host is gone (``code``: the host's error code if it said one)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


_END = object()
MAX_STATES = 32  # queued states before the newest ones fold into one
MAX_OTHER = 256  # queued messages other than state and lobby (chat, notices …)
MAX_EVENTS = 1000  # events kept in one folded state


class Inbox:
    """The messages received and not yet taken by :meth:`Client.messages`, bounded (see the
    module docstring): at most ``MAX_STATES`` states, one ``lobby`` and ``MAX_OTHER`` others."""

    def __init__(self) -> None:
        self._items: collections.deque = collections.deque()
        self._ready = asyncio.Event()
        self.dropped = 0  # other messages dropped because too many waited

    def __len__(self) -> int:
        return sum(1 for m in self._items if m is not _END)

    def put(self, msg: object) -> None:
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "state":
            states = [m for m in self._items if isinstance(m, dict) and m["type"] == "state"]
            if len(states) >= MAX_STATES:  # a backlog: the newest queued one takes this in
                self._items.remove(states[-1])
                msg = fold(states[-1], msg)  # type: ignore[arg-type]
        elif kind == "lobby":  # a snapshot: only the newest means anything
            old = next((m for m in self._items if isinstance(m, dict) and m["type"] == kind), None)
            if old is not None:
                self._items.remove(old)
        elif msg is not _END:
            others = [m for m in self._items if isinstance(m, dict) and m["type"] != "state"]
            others = [m for m in others if m["type"] != "lobby"]
            if len(others) >= MAX_OTHER:
                self._items.remove(others[0])
                self.dropped += 1
        self._items.append(msg)
        self._ready.set()

    async def get(self) -> object:
        while not self._items:
            self._ready.clear()
            await self._ready.wait()
        return self._items.popleft()


def fold(old: dict, new: dict) -> dict:
    """One ``state`` standing for ``old`` then ``new``: the newer view, every event."""
    events = list(old.get("events") or []) + list(new.get("events") or [])
    merged = {**new, "skipped": int(old.get("skipped", 0)) + 1}
    if old.get("events_lost") or len(events) > MAX_EVENTS:
        merged["events_lost"] = True
        events = events[-MAX_EVENTS:]
    merged["events"] = events
    return merged


IDLE_TIMEOUT = 45.0  # seconds without a message from the host before it counts as gone
PING_EVERY = 15.0  # the host's ping interval (docs/protocol.md §13)
ARMED_IDLE = 4.0  # … while a standby is named (failover armed): a dead host is noticed soon
HOST_RETRIES = (0.0, 0.3)  # after a loss with a standby named: the host is tried again so …
SILENT_RETRY = 0.5  # … but once, this long, when it fell silent (it had its chance already)
FOLLOW_TIMEOUT = 30.0  # seconds follow() keeps trying the table's new place
STANDBY_RETRY = 0.2  # seconds between tries of a standby that does not host yet
HOST_AGAIN = 0.5  # seconds the old host is tried again between tries of the standby …
HOST_AGAIN_EVERY = 2.0  # … at most this often (the standby is tried every STANDBY_RETRY)
FIND_AFTER = 8.0  # seconds the given address may not answer before the table is looked up


class Client:
    """One connection to a host. Build with :meth:`connect` or :meth:`rejoin`."""

    #: the names of the table options this program knows, sent in hello (None: the field
    #: is left out, as older clients do); a program sets it on its subclass
    options: list[str] | None = None
    #: say in hello that this program checks deals (docs/protocol.md §17): the host then
    #: sends it ``commit`` and ``reveal``
    deal_check = False

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str,
        token: str | None,
        password: str | None,
        spectate: bool,
        trace: Callable[[bytes], None] | None = None,
        idle_timeout: float = IDLE_TIMEOUT,
        deltas: bool = True,
        can_host: bool = False,
    ) -> None:
        self.host, self.port = host, port
        self.can_host = can_host
        #: handlers of message types the program takes itself (not queued for messages()):
        #: ``handlers["handoff"] = fn`` calls ``fn(msg)`` in the read loop
        self.handlers: dict[str, Callable[[dict], None]] = {}
        #: the table's id (``welcome``'s ``table.id``)
        self.table_id: str | None = None
        #: where the host said the table went (``moved``): (addresses, port)
        self.moved: tuple[list[str], int] | None = None
        #: the standby the host named (the ``standby`` message), and our share of its key
        self.standby: dict | None = None
        self.share: dict | None = None
        #: called when follow() gives the host up for the standby (a standby's own role
        #: counts its own shares only then)
        self.on_leave_host: list[Callable[[], None]] = []
        #: called when follow() finds the host again after it gave the host up (the host is
        #: alive: a standby's own role must not take the table over)
        self.on_host_back: list[Callable[[], None]] = []
        #: the last connection to the host ended by an end of stream or a reset with no
        #: error frame before it (its process died), not by silence or our own link failing
        self.host_died = False
        #: called when follow() goes after a ``moved`` (the old host's standby is no more)
        self.on_moved: list[Callable[[], None]] = []
        #: finder(table_id, timeout) -> (addresses, port) or None: where the table with
        #: that id is announced now (e.g. by net.discovery.find); follow()'s last resort
        self.finder: Callable[[str, float], Awaitable[tuple[list[str], int] | None]] | None = None
        self.deltas = deltas
        self._held: list[dict] = []  # events of deltas that could not apply (a gap)
        self._awaiting = False  # a resync was asked for, the whole view not yet here
        self.resyncs = 0  # resyncs asked for because a delta could not apply
        self.name, self.token, self.password, self.spectate = name, token, password, spectate
        self.trace = trace
        self.idle_timeout = idle_timeout
        self._idle = idle_timeout  # as asked: a standby named shortens idle_timeout
        self._heard = time.monotonic()
        self._silent = False
        self._own_pings = 0
        self.pings = 0  # pings the client sent on its own (a short idle_timeout)
        self._watch: asyncio.Task | None = None
        self.seat: int | None = None
        self.table_info: dict = {}
        self.view: dict | None = None
        self.lobby: dict | None = None
        self.seq = 0
        self.closed = False
        self.lost: ConnectionLost | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._queue = Inbox()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task | None = None

    # ------------------------------------------------------------------ opening

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str = "player",
        token: str | None = None,
        password: str | None = None,
        spectate: bool = False,
        timeout: float = 10.0,
        trace: Callable[[bytes], None] | None = None,
        idle_timeout: float = IDLE_TIMEOUT,
        deltas: bool = True,
        can_host: bool = False,
    ) -> Client:
        """Connect and hand-shake. ``token`` rejoins a seat; ``spectate`` watches.
        ``idle_timeout``: a host silent this long counts as gone (it pings every 15 s).
        ``deltas``: the host sends what changed in the view and the client rebuilds the
        whole view (``False``: the host sends whole views). ``can_host``: say in hello that
        this program can take the table over (handoff, standby; rum500/handoff.py).
        ``trace`` gets every frame's bytes as they came. Raises :class:`HandshakeError` (refused) or
        :class:`ConnectionLost` (no host)."""
        client = cls(
            host,
            port,
            name=name,
            token=token,
            password=password,
            spectate=spectate,
            trace=trace,
            idle_timeout=idle_timeout,
            deltas=deltas,
            can_host=can_host,
        )
        await client._open(timeout)
        return client

    @classmethod
    async def rejoin(
        cls,
        host: str,
        port: int,
        token: str,
        name: str = "player",
        password: str | None = None,
        timeout: float = 10.0,
        trace: Callable[[bytes], None] | None = None,
    ) -> Client:
        """Take back the seat that ``token`` belongs to."""
        return await cls.connect(
            host, port, name=name, token=token, password=password, timeout=timeout, trace=trace
        )

    async def reconnect(self, timeout: float = 10.0) -> None:
        """After a drop: connect again with the seat's token (or as before, if none)."""
        await self._shutdown()
        self.closed = False
        self.lost = None
        self._silent = False
        self._own_pings = 0
        self._heard = time.monotonic()
        self._queue = Inbox()
        self.seq = 0  # a host that resumed its match from the log counts from 1 again
        self._awaiting = False
        self._held = []
        await self._open(timeout)

    async def _open(self, timeout: float) -> None:
        self.host_died = False
        try:
            async with asyncio.timeout(timeout):
                self._reader, self._writer = await asyncio.open_connection(
                    self.host, self.port, limit=MAX_FRAME + 16
                )
        except (OSError, TimeoutError) as e:
            raise ConnectionLost(f"cannot reach the host at {self.host}:{self.port}: {e}") from None
        try:
            async with asyncio.timeout(timeout):
                await self._handshake()
        except TimeoutError:
            await self._shutdown()
            raise ConnectionLost("the host did not answer the handshake") from None
        except BaseException:
            await self._shutdown()
            raise
        self._task = asyncio.create_task(self._read_loop())
        self._watch = asyncio.create_task(self._watchdog())

    async def _watchdog(self) -> None:
        """Silence for ``idle_timeout`` means the host is gone (a host that vanished without
        closing the connection, or a link that went down, would otherwise be awaited
        forever). The host pings every 15 s; a client with a shorter ``idle_timeout`` pings
        the host itself after a third of it in silence, so a healthy line is never taken
        for a dead one."""
        while self._writer is not None:
            # checked at least each second: a standby named shortens idle_timeout at once
            await asyncio.sleep(min(self.idle_timeout, ARMED_IDLE) / 4)
            if self._writer is None:
                return
            quiet = time.monotonic() - self._heard
            if quiet > self.idle_timeout:
                self._silent = True
                sock = self._writer.get_extra_info("socket")
                with contextlib.suppress(OSError, AttributeError):
                    # a reset, not a close: what still waits in the kernel (an action sent
                    # into a dead link) must never reach the host later
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self._writer.transport.abort()
                return
            if quiet > self.idle_timeout / 3 and self.idle_timeout < 3 * PING_EVERY:
                with contextlib.suppress(Exception):
                    self._writer.write(encode({"type": "ping"}))
                    self._own_pings += 1  # its pong is not handed to messages()
                    self.pings += 1

    async def _handshake(self) -> None:
        self._send(
            {
                "type": "hello",
                "version": PROTOCOL_VERSION,
                "name": self.name,
                "token": self.token,
                "spectate": self.spectate,
                **({"options": list(self.options)} if self.options is not None else {}),
                "deltas": self.deltas,
                **({"can_host": True} if self.can_host else {}),
                **({"deal_check": True} if self.deal_check else {}),
            }
        )
        while True:
            msg = await self._read()
            kind = msg.get("type")
            if kind == "challenge":
                if self.password is None:
                    raise HandshakeError("password", "this table needs a password")
                self._send(
                    {"type": "auth", "proof": auth_proof(self.password, str(msg.get("nonce")))}
                )
            elif kind == "error":
                raise HandshakeError(str(msg.get("code")), str(msg.get("message")))
            elif kind == "welcome":
                self.seat = msg.get("seat")
                self.token = msg.get("token") or self.token
                self.name = msg.get("name") or self.name
                self.table_info = msg.get("table") or {}
                table_id = self.table_info.get("id")
                self.table_id = table_id if isinstance(table_id, str) else None
                return

    async def _read(self) -> dict:
        assert self._reader is not None
        try:
            header = await self._reader.readexactly(HEADER.size)
            (length,) = HEADER.unpack(header)
            if length > MAX_FRAME:
                raise FrameError(f"the host sent a frame of {length} bytes")
            payload = await self._reader.readexactly(length)
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            self.host_died = True  # no goodbye, no silence: the host's process ended
            raise ConnectionLost(f"the host closed the connection ({e})") from None
        except OSError as e:  # our own side: the link is down, the network unreachable …
            raise ConnectionLost(f"the connection to the host failed ({e})") from None
        self._heard = time.monotonic()
        if self.trace is not None:
            self.trace(header + payload)
        return decode(payload)

    def _send(self, msg: dict) -> None:
        if self._writer is None or self.closed or self.lost is not None:
            raise self.lost or ConnectionLost("not connected")
        self._writer.write(encode(msg))

    # ------------------------------------------------------------------ reading

    async def _read_loop(self) -> None:
        error: ConnectionLost
        try:
            while True:
                msg = await self._read()
                kind = msg.get("type")
                if kind == "ping":
                    self._send({"type": "pong"})
                    self._check_behind(msg.get("seq"))
                    continue
                if kind == "pong":
                    self._check_behind(msg.get("seq"))
                    if self._own_pings:
                        self._own_pings -= 1
                        continue
                if kind in ("accepted", "refused"):
                    if kind == "accepted":
                        self._check_accepted(msg.get("seq"))
                    fut = self._pending.pop(msg.get("id"), None)  # type: ignore[arg-type]
                    if fut is not None and not fut.done():
                        if kind == "accepted":
                            fut.set_result(msg)
                        else:
                            template = msg.get("template")
                            params = msg.get("params")
                            fut.set_exception(
                                ActionRefused(
                                    str(msg.get("message")),
                                    template if isinstance(template, str) else None,
                                    params if isinstance(params, dict) else None,
                                )
                            )
                    continue
                if kind in self.handlers:
                    self.handlers[kind](msg)
                    continue
                if kind in ("moved", "standby", "share") and not self._on_table_news(msg):
                    continue
                if kind == "state":
                    if not self._on_state(msg):
                        continue
                elif kind == "lobby":
                    self.lobby = msg
                elif kind == "error" and msg.get("code") not in (
                    None,
                    "bad_message",
                    "unknown_type",
                    "shoulder",  # a refused 'shoulder' (docs/protocol.md §12): not fatal
                ):
                    self._queue.put(msg)
                    raise ConnectionLost(str(msg.get("message")), str(msg.get("code")))
                self._queue.put(msg)
        except ConnectionLost as e:
            error = e
            if self._silent:
                error = ConnectionLost("the host stopped answering", "timeout")
        except FrameError as e:
            error = ConnectionLost(f"the host sent a bad frame: {e}")
        except asyncio.CancelledError:
            error = ConnectionLost("closed")
        if not self.closed:
            self.lost = error
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(error)
        self._pending.clear()
        self._queue.put(_END)

    def _on_table_news(self, msg: dict) -> bool:
        """``moved``, ``standby`` and ``share`` from the host (docs/protocol.md §16): kept for
        :meth:`follow`. True when ``msg`` is for :meth:`messages` (a share is not: secret)."""
        kind = msg["type"]
        addresses, port = msg.get("addresses"), msg.get("port")
        try:
            addresses = check_addresses(addresses)
            port = check_port(port)
        except ValueError:
            addresses = None
        if kind == "moved" and addresses is not None:
            self.moved = (addresses, port)
        elif kind == "standby":
            if addresses is None:  # no standby any more
                self.standby = None
                self.idle_timeout = self._idle
                return True
            self.standby = {**msg, "addresses": addresses, "port": port}
            self.idle_timeout = min(self._idle, ARMED_IDLE)
            if self.share is not None and self.share.get("epoch") != msg.get("epoch"):
                self.share = None
        elif kind == "share":
            self.share = msg
            return False
        return True

    async def follow(self, timeout: float = FOLLOW_TIMEOUT) -> str:
        """After the connection was lost: rejoin the table with our token where it is now.
        After ``moved``: at the new host. With a standby named: the host is tried again
        briefly (:data:`HOST_RETRIES`), then the standby gets our share (if we hold one) and
        we rejoin there as soon as it hosts. Otherwise the host again, until ``timeout``.
        Returns ``"moved"``, ``"host"`` or ``"standby"``; raises :class:`HandshakeError`
        when refused for good, :class:`ConnectionLost` when nothing answered in time — or at
        once, without a share given, when the host closed the table (``shutdown``)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        lost = self.lost
        died = self.host_died and not (lost is not None and lost.code == "timeout")
        if lost is not None and lost.code == "shutdown":  # closed for everyone: nowhere to go
            raise ConnectionLost(str(lost), "shutdown")
        if lost is not None and lost.code == "moved" and self.moved is not None:
            self.standby = None
            for callback in list(self.on_moved):
                callback()
            addresses, port = self.moved
            await self._rejoin_or_find(addresses, port, end)
            self.moved = None
            return "moved"
        standby = self.standby
        if standby is not None:
            # a host silent for idle_timeout already had its chance: one quick try
            silent = lost is not None and lost.code == "timeout"
            for pause in HOST_RETRIES[:1] if silent else HOST_RETRIES:
                await asyncio.sleep(pause)
                wait = SILENT_RETRY if silent else 1.0
                with contextlib.suppress(ConnectionLost):
                    await self._rejoin_at([self.host], self.port, loop.time() + wait, once=True)
                    return "host"
            self.host_died = died  # for on_leave_host: how the host was lost
            for callback in list(self.on_leave_host):
                callback()
            await give_share(standby, self.share, end)  # ours of its key (or none)
            where = await self._standby_or_host(standby, (self.host, self.port), end)
            self.standby = None
            if where == "host":
                for callback in list(self.on_host_back):
                    callback()
            return where
        await self._rejoin_at([self.host], self.port, end)
        return "host"

    async def _standby_or_host(self, standby: dict, host: tuple[str, int], end: float) -> str:
        """Rejoin the table at the standby once it hosts — or at the old host, tried again
        between tries of the standby: a host that is alive (it was our own link that went
        down, and the standby could not take over without the others) keeps its table.
        After :data:`FIND_AFTER` seconds in which the standby's address did not answer at
        all, the table is looked up by its id (:attr:`finder`). Returns ``"standby"`` or
        ``"host"`` (``"standby"`` too where the finder led)."""
        loop = asyncio.get_running_loop()
        same = self.table_id
        find_at = loop.time() + FIND_AFTER
        host_at = loop.time() + HOST_AGAIN_EVERY  # it was just tried (HOST_RETRIES)
        error: ClientError = ConnectionLost("nowhere to go")
        while True:
            try:
                await self._rejoin_at(
                    standby["addresses"], standby["port"], min(end, loop.time() + 1.0), True, same
                )
                return "standby"
            except ConnectionLost as e:
                error = e
                if e.code == "standby":  # it answers, it just does not host yet
                    find_at = loop.time() + FIND_AFTER
            if loop.time() >= end:
                raise error
            if loop.time() >= host_at:
                host_at = loop.time() + HOST_AGAIN_EVERY
                with contextlib.suppress(ClientError):  # a host that is gone, another table
                    await self._rejoin_at([host[0]], host[1], loop.time() + HOST_AGAIN, True, same)
                    return "host"
            if self.finder is not None and same is not None and loop.time() >= find_at:
                found = await self.finder(same, max(0.1, min(3.0, end - loop.time())))
                if found is not None:
                    with contextlib.suppress(ConnectionLost):
                        await self._rejoin_at(*found, min(end, loop.time() + 2.0), True, same)
                        return "standby"
                find_at = loop.time() + FIND_AFTER
            if loop.time() >= end:
                raise error
            await asyncio.sleep(STANDBY_RETRY)

    async def _rejoin_or_find(self, addresses: list[str], port: int, end: float) -> None:
        """Rejoin the same table (its id) at ``addresses``; when they do not answer for
        :data:`FIND_AFTER` seconds and the program gave a :attr:`finder`, look the table up by
        its id (on the LAN)."""
        loop = asyncio.get_running_loop()
        same = self.table_id
        if self.finder is None or same is None:
            await self._rejoin_at(addresses, port, end, same=same)
            return
        try:
            await self._rejoin_at(addresses, port, min(end, loop.time() + FIND_AFTER), same=same)
            return
        except HandshakeError:
            raise
        except ConnectionLost as e:
            if loop.time() >= end:
                raise
            if e.code == "standby":  # it answers, it just does not host yet: keep at it
                await self._rejoin_at(addresses, port, end, same=same)
                return
        found = await self.finder(same, max(0.1, end - loop.time()))
        if found is None:
            raise ConnectionLost(f"the table {same} is nowhere to be found")
        await self._rejoin_at(*found, end, same=same)

    async def _rejoin_at(
        self,
        addresses: list[str],
        port: int,
        end: float,
        once: bool = False,
        same: str | None = None,
    ) -> None:
        """Reconnect at the first of ``addresses`` that takes us, trying again (a standby
        that does not host yet answers ``standby``) until ``end``. ``same``: the table id
        it must have (another table there is refused for good: ``other_table``)."""
        loop = asyncio.get_running_loop()
        error: ClientError = ConnectionLost("nowhere to go")
        while True:
            for address in addresses:
                left = end - loop.time()
                if left <= 0:
                    raise error
                self.host, self.port = address, port
                try:
                    await self.reconnect(timeout=min(left, 2.0))
                except HandshakeError as e:
                    if e.code != "standby":
                        raise
                    error = ConnectionLost(str(e), e.code)
                except ConnectionLost as e:
                    error = e
                else:
                    if same is not None and self.table_id != same:
                        await self._shutdown()
                        self.lost = ConnectionLost("another table is there", "other_table")
                        raise HandshakeError("other_table", "another table is at that address")
                    return
            if once or loop.time() >= end:
                raise error
            await asyncio.sleep(STANDBY_RETRY)

    def _check_accepted(self, seq: object) -> None:
        """``accepted`` comes after the ``state`` its action caused: a newer ``seq`` than the
        last update says that update was lost — ask for the whole view."""
        if isinstance(seq, int) and seq > self.seq and self.view is not None and not self._awaiting:
            self._awaiting = True
            self.resyncs += 1
            self._send({"type": "resync"})

    def _check_behind(self, seq: object) -> None:
        """A ``ping`` (or ``pong``) carries the host's newest ``seq``: when it is newer than
        the last update we hold, that update was lost — perhaps the last, which nothing
        else would reveal (the one making it our turn). Ask for the whole view; when the
        answer to an earlier ``resync`` was lost as well, the next ping asks again."""
        if not isinstance(seq, int) or isinstance(seq, bool) or seq <= self.seq:
            return
        self._awaiting = True
        self.resyncs += 1
        self._send({"type": "resync"})

    def _on_state(self, msg: dict) -> bool:
        """Take in a ``state``: rebuild the whole view from a delta, or ask for the whole
        view when a delta cannot apply (a gap in ``seq``) — its events wait, and come with
        the whole view. True when ``msg`` (now with the whole ``view``, never a ``delta``)
        is for :meth:`messages`."""
        seq = msg.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return False
        events = msg.get("events")
        events = events if isinstance(events, list) else []
        full = isinstance(msg.get("view"), dict)
        view = apply_state(self.view, self.seq, msg)
        if view is None or (self._awaiting and not full):
            self._held.extend(events)
            del self._held[:-MAX_EVENTS]
            if not self._awaiting:
                self._awaiting = True
                self.resyncs += 1
                self._send({"type": "resync"})  # updates went missing: the whole view
            return False
        if full and self.seq and seq > self.seq + 1 and not self._awaiting:
            self._send({"type": "resync"})  # whole views, but updates went missing
        if self._held:
            events = self._held + events
            self._held = []
        self._awaiting = False
        msg.pop("delta", None)
        msg.pop("gone", None)
        msg["view"], msg["events"] = view, events
        self.view, self.seq = view, seq
        return True

    async def messages(self) -> AsyncIterator[dict]:
        """Every message from the host, in order (pings and action answers excepted); when
        they pile up unread, updates fold into the newest (see the module docstring)."""
        while True:
            msg = await self._queue.get()
            if msg is _END:
                self._queue.put(_END)
                if self.lost is not None:
                    raise self.lost
                return
            yield msg

    def pending(self) -> int:
        """Messages received and not yet taken from :meth:`messages`."""
        return len(self._queue)

    # ------------------------------------------------------------------ sending

    async def act(self, action: dict, timeout: float = 30.0) -> dict:
        """Send an action for our seat; return the host's ``accepted`` message.
        Raises :class:`ActionRefused` with the host's reason, or :class:`ConnectionLost`."""
        ident = next(self._ids)
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending[ident] = fut
        try:
            self._send({"type": "action", "id": ident, "action": action})
            # asyncio.timeout, not wait_for: in Python 3.11 wait_for swallows a
            # cancellation that arrives as the answer does, and the caller plays on
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError:
            raise ConnectionLost("the host did not answer") from None
        finally:
            self._pending.pop(ident, None)

    async def chat(self, text: str) -> None:
        self._send({"type": "chat", "text": text})
        await self._drain()

    def send_now(self, msg: dict) -> None:
        """Queue any message at once, from a handler in the read loop (no waiting for the
        socket to drain); nothing happens when the connection is down."""
        with contextlib.suppress(ClientError):
            self._send(msg)

    async def send_raw(self, msg: dict) -> None:
        """Send any message as it is (for tests and tools)."""
        self._send(msg)
        await self._drain()

    async def _drain(self) -> None:
        if self._writer is not None:
            try:
                await self._writer.drain()
            except ConnectionError as e:
                raise ConnectionLost(str(e)) from None

    async def close(self) -> None:
        """Leave politely (the seat stays ours once the match has started) and close."""
        if self.closed:
            return
        if self._writer is not None and self.lost is None:
            with contextlib.suppress(Exception):
                self._writer.write(encode({"type": "leave"}))
        self.closed = True
        await self._shutdown()

    async def drop(self) -> None:
        """Close abruptly, without a word (tests: a laptop lid shut)."""
        self.closed = True
        if self._writer is not None:
            self._writer.transport.abort()
        await self._shutdown()

    async def _shutdown(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1):
                    await self._writer.wait_closed()
            self._writer = None

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
