"""Failover, the host's side: a standby keeps the match sealed, the players hold its key.

::

    failover = Failover(host)      # beside the host; host.config.failover: auto | on | off
    failover.armed, failover.standby_seat, failover.holders, failover.epoch

While armed, the host picks a standby among the seated players whose client can host
(``hello``'s ``can_host``), its own player excepted — with ``auto`` only when at least two
such players are there, so that the standby never holds the key alone — and
(docs/protocol.md §16):

1. asks it (``standby_ask``: ``id`` — the epoch —, ``table_id``); the standby opens its port
   and answers ``standby_ready`` (``id``, ``addresses``, ``port``);
2. makes a fresh key (:func:`net.vault.new_key`) and splits it: the *holders* are the other
   connected players whose client can host. Two holders or more: one share each, any two
   give the key, the standby gets none. One holder: two shares, one to the holder, one to
   the standby. None (two people at the table): both shares to the standby — it holds the
   key, which is why ``auto`` arms only with two people or more besides the host's own
   player. The standby gets
   ``standby_key`` (``id``, ``threshold``, ``check`` — :func:`net.vault.key_check` —, its
   ``shares``), each holder a ``share`` (``epoch``, ``table_id``, ``share``);
3. tells every connection ``standby`` (``epoch``, ``seat``, ``name``, ``table_id``,
   ``addresses``, ``port``);
4. streams the table to it, sealed (:class:`net.vault.Sealer`, table id ``"<id>/<epoch>"``):
   ``standby_log`` (``id``, ``seq``, ``data``) records, each the sealed JSON of
   ``{"k": "doc", "part", "parts", "data"}`` (the table document, :mod:`document`),
   ``{"k": "act", "seat", "action"}`` (one applied action, sent before anyone is told of it),
   ``{"k": "trim", "n"}`` (a take-back: the actions after the first ``n`` are gone),
   ``{"k": "seats", "seats"}`` (names, tokens, bots) or ``{"k": "win", "windows"}`` (the
   review / claim window, as the document's ``windows``: they go on after a failover).

When the standby goes, or the set of holders changes, it starts again with a new epoch (a new
key, a new snapshot); when failover disarms (``off``, or ``auto`` with fewer than two people
besides the host's own player) the old standby gets ``standby_end`` and everyone ``standby``
with ``seat`` null. The lobby message
carries ``failover`` (``mode``, ``armed``, ``note``: a sentence for the players).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable

from net.server import Connection
from net.vault import Sealer, key_check, new_key, share_digest, split
from rum500.handoff.document import encode_chunks, table_document
from rum500.host import Host
from rum500.i18n import N_

log = logging.getLogger(__name__)

#: seconds of silence from the standby and from enough holders to make its key (the clients
#: count a host silent for 4 s as gone, docs/protocol.md §16): this host is cut off from its
#: table and stops serving, before the standby can take it over
STEP_DOWN_AFTER = 3.0
ARMED_PING = 1.0  # seconds between the host's pings to the standby and the holders
#: seconds the clients' updates may wait for the standby's ``standby_ack``: past that, with
#: the holders still answering, the standby alone is cut off and another is chosen
HOLD_MAX = 2.0
SUSPECT_AFTER = 1.5  # seconds of silence after which a holder may be cut off too
WATCH_EVERY = 0.25
STANDBY_CHUNK = 8000  # characters of the document per sealed record (a frame string: 16 KiB)
MODES = ("auto", "on", "off")
#: the lobby's ``failover.note``, sent in English with its ``template`` and ``params`` so
#: that each client says it in its player's language (docs/protocol.md §6)
NOTES = {
    "off": N_("failover is off: if this host goes, the match waits for it"),
    "two": N_(
        "failover is off: with two people at the table the standby would hold the key to "
        "every hand, so if this host goes the match waits for it (host with --failover on to "
        "allow it)"
    ),
    "two_on": N_(
        "failover is on, and nobody else holds a share: the standby's machine holds the key, "
        "and could read every hand"
    ),
    "alone": N_(
        "failover waits for a second player whose rum500 can host: the standby must never "
        "hold the key alone"
    ),
    "armed": N_("failover is on: if this host goes, {name}'s machine takes the table over"),
    "waiting": N_("failover is on: waiting for a player whose rum500 can host to stand by"),
}


class Failover:
    """The failover room of one host (see the module docstring)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.mode = host.config.failover if host.config.failover in MODES else "auto"
        self.epoch = 0
        self.standby_seat: int | None = None
        self.holders: list[int] = []
        self.standby_addresses: list[str] = []
        self.standby_port = 0
        self._ready = False  # the standby answered standby_ready for this epoch
        self._conn: Connection | None = None  # the standby's connection
        self._sealer: Sealer | None = None
        self._seq = 0
        self._sent = 0  # actions of the game the standby has
        self._seats: list[dict] = []
        self._windows: dict | None = None  # the review / claim window the standby has
        self._told: set[Connection] = set()  # connections told of the current standby
        self._note = ""
        self.closed = False
        #: the standby and the holders of the newest epoch told to the clients, and how many
        #: holders' shares the standby needs: they may take the table over if they lose us
        self._voters: tuple[Connection, list[Connection], int] | None = None
        #: this host found itself cut off from its table and stopped serving
        self.cut_off = False
        #: called (no arguments) once this host has stopped serving, cut off
        self.on_cut_off: list[Callable[[], None]] = []
        self._watcher: asyncio.Task | None = None
        with contextlib.suppress(RuntimeError):  # no event loop: nothing to watch
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        host.on_message("standby_ready", self._on_ready)
        host.on_message("standby_ack", self._on_ack)
        self._held_since: float | None = None  # the clients' updates wait for an ack since
        #: a standby dropped for not answering (its connection, when): passed over until
        #: that connection is heard from again
        self._passed_over: tuple[Connection, float] | None = None
        host.on_change(self.check)
        host.on_applied(lambda events: self.sync())  # before anyone is told
        host.on_told(lambda by, events: self.sync())  # a ready, a pass
        self.check()

    # ------------------------------------------------------------------ choosing

    @property
    def armed(self) -> bool:
        """Whether this table wants a standby now (mode and people seated)."""
        if self.closed or self.host.state != "playing" or self.mode == "off":
            return False
        if self.mode == "on":
            return self.people() >= 2
        return self.others() >= 2  # auto: a standby and someone else to hold a share

    def people(self) -> int:
        """Seats taken by people (not bots), the host's own player included."""
        return sum(1 for s in self.host.seats() if s.taken and not s.bot)

    def others(self) -> int:
        """People seated besides the host's own player (a headless host has none)."""
        seats = self.host.seats()
        mine = self.host.seat
        own = mine is not None and seats[mine].taken and not seats[mine].bot
        return self.people() - (1 if own else 0)

    def candidates(self) -> list[int]:
        """Seats that may stand by: connected players whose client can host, the host's own
        player excepted, and not a standby dropped for not answering, on the same connection,
        until it is heard from again."""
        passed = self._passed_over
        return [
            s.index
            for s in self.host.seats()
            if s.can_host
            and s.index != self.host.seat
            and not (passed is not None and s.conn is passed[0] and s.conn.heard <= passed[1])
        ]

    def check(self) -> None:
        """Choose (again) when needed: on every change at the table."""
        if self.closed or self.host.frozen is not None:
            return
        if not self.armed:
            if self.standby_seat is not None:
                self._drop("failover is off now")
            self._say_note()
            return
        seats = self.candidates()
        if self.mode == "auto" and len(seats) < 2:  # the standby would hold the key alone
            if self.standby_seat is not None:
                self._drop("nobody else can hold a share")
            self._say_note()
            return
        conn = self.host.connection_of(self.standby_seat)
        if not seats and self.standby_seat is None:
            pass  # nobody can stand by yet
        elif self.standby_seat not in seats or conn is not self._conn:
            self._ask(seats[0] if seats else None)
        elif self._ready and self._holders_now() != self.holders:
            self._ask(self.standby_seat)  # the holders changed: a new key
        elif self._ready:
            self._tell_newcomers()
            self.sync()
        self._say_note()

    def _holders_now(self) -> list[int]:
        return [s for s in self.candidates() if s != self.standby_seat]

    def _ask(self, seat: int | None) -> None:
        if self.standby_seat is not None and seat != self.standby_seat:
            self._drop("another standby is chosen")
        self.epoch += 1
        self._ready = False
        self._sealer = None
        self._release()
        self.standby_seat = seat
        self._conn = self.host.connection_of(seat) if seat is not None else None
        if self._conn is None:
            self.standby_seat = None
            return
        log.info("asking seat %d to stand by (epoch %d)", seat, self.epoch)
        self._conn.send({"type": "standby_ask", "id": self.epoch, "table_id": self.host.table_id})

    def _drop(self, why: str) -> None:
        """The standby of now is no longer: tell it and everyone."""
        if self._conn is not None and not self._conn.closed:
            self._conn.send({"type": "standby_end", "id": self.epoch})
        self.host.broadcast({"type": "standby", "epoch": self.epoch, "seat": None})
        log.info("no standby (%s)", why)
        self._release()
        if self.host.state != "playing":
            self._voters = None  # the match is over: nothing left to take over
        self.standby_seat, self._conn, self._ready, self._sealer = None, None, False, None
        self.holders, self._told = [], set()

    # ------------------------------------------------------------------ arming

    def _on_ready(self, conn: Connection, msg: dict) -> None:
        if conn is not self._conn or msg["id"] != self.epoch or self._ready:
            conn.error("bad_message", "no standby request of yours is open")
            return
        self._ready = True
        self.standby_addresses, self.standby_port = msg["addresses"], msg["port"]
        self.holders = self._holders_now()
        host = self.host
        key = new_key()
        holders = len(self.holders)
        shares = split(key, max(2, holders), 2)
        quorum = holders_needed(holders)
        conn.send(
            {
                "type": "standby_key",
                "id": self.epoch,
                "threshold": 2,
                "quorum": quorum,
                "check": key_check(key),
                # the holders' shares, hashed: the standby takes no other share
                "expect": [share_digest(s) for s in shares[:holders]],
                # two holders or more: none; one: a share; none at all: the key, as two shares
                "shares": [] if holders >= 2 else shares[holders:],
            }
        )
        for seat, share in zip(self.holders, shares, strict=False):
            holder = host.connection_of(seat)
            if holder is not None:
                holder.send(
                    {
                        "type": "share",
                        "epoch": self.epoch,
                        "table_id": host.table_id,
                        "share": share,
                    }
                )
        self._told = set()
        self._tell_newcomers()
        holder_conns = [c for c in map(host.connection_of, self.holders) if c is not None]
        self._voters = (conn, holder_conns, quorum)
        self._sealer = Sealer(key, f"{host.table_id}/{self.epoch}")
        self._seq = 0
        document = table_document(self.host)
        chunks = encode_chunks(document, STANDBY_CHUNK)
        for k, chunk in enumerate(chunks):
            self._record({"k": "doc", "part": k, "parts": len(chunks), "data": chunk})
        self._sent = len(document["actions"])
        self._seats = document["seats"]
        self._windows = self.host.windows(timed=False)
        log.info(
            "seat %d stands by at port %d (epoch %d, %d holders)",
            self.standby_seat,
            self.standby_port,
            self.epoch,
            holders,
        )
        self._say_note()  # "if this host goes, Bea's machine takes the table over"

    def _tell_newcomers(self) -> None:
        host = self.host
        seat = self.standby_seat
        if seat is None:
            return
        message = {
            "type": "standby",
            "epoch": self.epoch,
            "seat": seat,
            "name": host.seats()[seat].name,
            "table_id": host.table_id,
            "addresses": self.standby_addresses,
            "port": self.standby_port,
        }
        conns = host.connections()
        for conn in conns:
            if conn not in self._told:
                self._told.add(conn)
                conn.send(message)
        self._told &= conns

    # ------------------------------------------------------------------ the stream

    def sync(self) -> None:
        """Send the standby what changed since the last record: applied actions (called by
        the table before anyone is told of them), take-backs, seats, and the review / claim
        window (``win``: one opened or closed, or a ready or a pass — those just after the
        players are told of them)."""
        if self._sealer is None or self._conn is None or self._conn.closed:
            return
        host = self.host
        game = host.game()
        if game is None:
            return
        n = len(game.actions)
        if n < self._sent:
            self._record({"k": "trim", "n": n})
            self._sent = n
        for k in range(self._sent, n):
            seat = host.action_seat(k)
            self._record({"k": "act", "seat": seat, "action": dict(game.actions[k])})
        self._sent = n
        seats = [s.record() for s in self.host.seats()]
        if seats != self._seats:
            self._seats = seats
            self._record({"k": "seats", "seats": seats})
        windows = host.windows(timed=False)
        if windows != self._windows:  # a window opened or closed, a ready, a pass
            self._windows = windows
            self._record({"k": "win", "windows": host.windows()})

    def _record(self, record: dict) -> None:
        """Send the standby one sealed record; nobody else hears from the host until the
        standby says it has it (``standby_ack``)."""
        assert self._sealer is not None and self._conn is not None
        data = json.dumps(record, separators=(",", ":")).encode()
        sealed = self._sealer.seal(self._seq, data)
        self._conn.send({"type": "standby_log", "id": self.epoch, "seq": self._seq, "data": sealed})
        self._seq += 1
        self.host.hold(self._conn)
        if self._held_since is None:
            self._held_since = time.monotonic()

    def _on_ack(self, conn: Connection, msg: dict) -> None:
        if conn is not self._conn or msg["id"] != self.epoch:
            return  # an old epoch's, or not the standby's: nothing to release
        if msg["seq"] >= self._seq - 1:
            self._release()

    def _release(self) -> None:
        self._held_since = None
        self.host.release()

    # ------------------------------------------------------------------ one host at a time

    async def _watch(self) -> None:
        """Ping every seated player who can host each second — the standby and the holders
        among them — (they answer at once), and stop serving when they could be taking the
        table over: see :meth:`cut_off_now`."""
        pinged = 0.0
        while not self.closed:
            await asyncio.sleep(WATCH_EVERY)
            if self.closed or (self._voters is None and not self.armed):
                continue
            now = time.monotonic()
            if now - pinged >= ARMED_PING:
                pinged = now  # a voter's connection is a seat's, or closed (sends nothing)
                ping = self.host.ping_frame()
                for seat in self.host.seats():
                    if seat.can_host and seat.conn is not None:
                        seat.conn.send_frame(ping)
            if self.standby_seat is None and self.armed and self._passed_over is not None:
                self.check()  # the player passed over may stand by again once heard
            if self.cut_off_now(now):
                await self._step_down()
                return
            held = self._held_since
            if held is not None and now - held > HOLD_MAX and not self._maybe_with_standby(now):
                if self._conn is not None:  # not again until it answers
                    self._passed_over = (self._conn, now)
                self._drop("the standby does not answer")  # it alone is cut off
                self.check()  # another, if any

    def cut_off_now(self, now: float) -> bool:
        """True when nothing came for :data:`STEP_DOWN_AFTER` seconds from the standby and
        from as many holders as its key needs (the newest epoch the clients were told of):
        they may have lost this host and be taking the table over. A player who left on
        purpose (``leave``) does not count. With no holder (``quorum`` 0) the standby takes
        over only when it saw this host's process die, never on silence: no step-down."""
        return self._quiet_quorum(now, STEP_DOWN_AFTER, with_standby=True)

    def _maybe_with_standby(self, now: float) -> bool:
        """Whether enough holders have gone quiet that they and the standby may have lost
        this host together (then wait for :meth:`cut_off_now`, the clients' updates held)."""
        return self._quiet_quorum(now, SUSPECT_AFTER, with_standby=False)

    def _quiet_quorum(self, now: float, after: float, with_standby: bool) -> bool:
        """Whether ``quorum`` holders of the newest epoch told (and the standby, if
        ``with_standby``) have sent nothing for ``after`` seconds; never with no holder."""
        if self._voters is None or self._voters[2] == 0:
            return False
        standby, holders, quorum = self._voters

        def quiet(conn: Connection) -> bool:
            return not conn.left and now - conn.heard > after

        return (quiet(standby) or not with_standby) and sum(map(quiet, holders)) >= quorum

    async def _step_down(self) -> None:
        """Cut off: stop serving without a goodbye (a client told "closed" would leave the
        table), so that the table never has two hosts; every client still here follows it
        to the standby."""
        host = self.host
        name = host.seats()[self.standby_seat].name if self.standby_seat is not None else "?"
        log.warning(
            "cut off from the table: no word from the standby (%s) and the share holders "
            "for %.0f s; this host stops serving and the standby takes the table over",
            name,
            STEP_DOWN_AFTER,
        )
        self.cut_off = True
        self.closed = True
        self._sealer = None
        host.freeze("this host was cut off from the table: it moves to the standby")
        await host.abandon()
        for callback in list(self.on_cut_off):
            callback()

    # ------------------------------------------------------------------ the lobby's note

    def _say_note(self) -> None:
        host = self.host
        people = self.people()
        params: dict[str, str] = {}
        if people < 2:
            template = ""  # one person at the table: nothing to say
        elif self.mode == "off":
            template = NOTES["off"]
        elif self.others() < 2 and self.mode == "auto":
            template = NOTES["two"] if people == 2 else NOTES["off"]
        elif self.standby_seat is not None and self._ready:
            params = {"name": host.seats()[self.standby_seat].name or "?"}
            template = NOTES["armed"] if self.holders else NOTES["two_on"]
        elif self.mode == "auto" and len(self.candidates()) == 1:
            template = NOTES["alone"]
        else:
            template = NOTES["waiting"]
        note = template.format(**params) if "{" in template else template
        host.set_in_lobby(
            "failover",
            {
                "mode": self.mode,
                "armed": self.armed,
                "note": note,
                "template": template,
                "params": params if "{" in template else {},
            },
        )
        if note != self._note:
            self._note = note
            host.tell_lobby()

    def close(self) -> None:
        self.closed = True
        self._sealer = None
        if not self.cut_off:
            self._release()
        if self._watcher is not None and self._watcher is not asyncio.current_task():
            self._watcher.cancel()


def holders_needed(holders: int) -> int:
    """How many holders must have lost the host, besides the standby, before the standby may
    take over: a majority of the standby and the holders, and never fewer than its key needs
    (two shares: the standby holds two with no holder, one with one holder, none with two or
    more)."""
    majority = (holders + 1) // 2  # with the standby: a majority of the holders and it
    own = 2 if holders == 0 else 1 if holders == 1 else 0
    return max(majority, 2 - own)
