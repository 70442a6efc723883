"""A running table: :class:`Host` (the seat driver, the TXT record, the public surface the
handoff room uses) and :func:`start_host`. See :mod:`rum500.host` for the contract."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
from collections.abc import Callable
from typing import Any

from net.protocol import PROTOCOL_VERSION
from net.server import ActionHandler, Connection, Seat, Server
from rum500.host.addresses import connectable, lan_addresses, lan_hosts
from rum500.host.commit import reveal
from rum500.host.config import HostConfig
from rum500.host.gamelog import GameLog, MatchLog, WarningLog
from rum500.host.seats import SeatDriver
from rum500.host.shoulder import Shoulders
from rum500.host.table import GameTable
from rum500.rules import Game, Phase

log = logging.getLogger("rum500.host")


class Host:
    """A running table. See the module docstring."""

    def __init__(self, config: HostConfig) -> None:
        """Build the table (which reads the seats and sends notices through this host's
        narrow port, :class:`~rum500.host.table.HostPort`) and its server; not yet
        listening (:func:`start_host` starts it)."""
        self.config = config
        name = config.table_name or "rum500"
        self.table = table = GameTable(config, name, host=self)
        self.server = server = Server(
            table,
            table_name=name,
            password=config.password,
            limits=config.limits,
            seats=_resume_seats(config) if config.resume_game else None,
            table_id=config.table_id,
            chat=config.chat,
        )
        self.table_name = table.table_name
        self.address = connectable(config.bind)
        self.seat: int | None = None
        self.token: str | None = None
        self.announcer: Any = None
        #: who plays the host's seats (bots, away players, the deal), bots in a worker
        self.driver = SeatDriver(config, table, server)
        self._done = asyncio.Event()
        self._closing = False
        self._closed = False  # close() done
        self._txt: dict | None = None
        table.listeners.append(self.driver.observe)
        self._txt_task: asyncio.Task | None = None
        self._sent: tuple | None = None  # waiting list and away seats in the last update
        #: _sent was just taken, for the update the server sent right now (the on_change
        #: after it has nothing new to compare; a change of seats made in between calls
        #: on_change again first, and the next call compares)
        self._fresh = False
        server.on_events.append(self._update_sent)
        server.on_events.append(self._reveal)
        server.on_change.append(self._changed)
        #: over the shoulder: seats that show their hand to a spectator (host/shoulder.py)
        self.shoulders = Shoulders(table, server)
        #: committed deals (rum500/host/commit.py): contributions, the start held for them
        self._start_timer: asyncio.TimerHandle | None = None
        if table.commits is not None:
            server.on_message["contribute"] = self._on_contribute
            server.hold_start = self._hold_start

    def notice(self, code: str, text: str, params: dict[str, str] | None = None) -> None:
        """Tell every player about trouble at the host (a ``notice`` message). With
        ``params``, ``text`` is an English template (marked with ``N_``): the message carries
        it and its ``params`` too, for each client to say in its player's language
        (docs/protocol.md §6), and ``text`` filled in for the others."""
        if params is None:
            self.server.notice(code, text)
            return
        self.server.broadcast(
            {
                "type": "notice",
                "code": code,
                "text": text.format(**params),
                "template": text,
                "params": params,
            }
        )

    def set_hint(self, on: bool) -> None:
        """The host player turns the hint (the ``h`` key: the expert bot's move) off or on for
        everyone at the table: the lobby message's ``hint``, sent to every player at once."""
        self.server.lobby_extra["hint"] = bool(on)
        self.server.broadcast_lobby()

    @property
    def table_id(self) -> str:
        """The table's id (the TXT record's ``id``, ``welcome``'s ``table.id``)."""
        return self.server.table_id

    def hosts(self) -> list[str]:
        """The addresses (no port) where clients can reach this host: :func:`lan_hosts`."""
        return lan_hosts(self.config.bind, self.config.interfaces)

    async def announce(self) -> None:
        """Announce the table on the LAN (``start_host`` does it unless ``announce_later``)."""
        if self.announcer is not None or self._closing:
            return
        from net.discovery import Announcer

        config = self.config
        wildcard = config.bind in ("", "0.0.0.0", "::")
        addresses = config.interfaces if wildcard else [config.bind]
        self.announcer = Announcer(interfaces=config.interfaces, addresses=addresses)
        txt = self.txt()
        self.table_name = await self.announcer.start(self.table_name, self.port, txt)
        self.server.table_name = self.table.table_name = self.table_name
        self._txt = None
        self._changed()

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def addresses(self) -> list[str]:
        """``ADDRESS:PORT`` where players can reach the table by hand (see
        :func:`lan_addresses`); also the lobby message's ``addresses``."""
        return list(self.server.lobby_extra.get("addresses") or [])

    def start_now(self) -> None:
        """Fill every free seat with a bot and start the match."""
        for seat in self.server.seats:
            if not seat.taken:
                self.server.reserve(seat.index, self.driver.bot_name(), bot=True)
        self.server.maybe_start()

    async def finished(self) -> None:
        """Return when the match is over."""
        await self._done.wait()

    async def close(self) -> None:
        """Stop the bots, say goodbye to every client and on the LAN, stop listening (once:
        closing again does nothing)."""
        if self._closed:
            return
        self._closed = True
        await self._stop()
        await self.server.close()

    async def abandon(self) -> None:
        """Stop serving without telling the clients the table closed (they follow it to its
        standby): a host cut off from its table (:mod:`rum500.handoff.failover`). The bots
        stop, the table leaves the LAN's lists, every connection is cut."""
        await self._stop()
        await self.server.abandon()

    async def _stop(self) -> None:
        self._closing = True
        if self._start_timer is not None:
            self._start_timer.cancel()
        await self.driver.stop()
        if self._txt_task:
            self._txt_task.cancel()
        if self.announcer is not None:
            announcer, self.announcer = self.announcer, None
            with contextlib.suppress(Exception):
                await announcer.close()

    # ------------------------------------------------------------------ the public surface
    # What the handoff room (rum500/handoff) and the runners build on: they never reach
    # into the server's or the table's fields.

    @property
    def state(self) -> str:
        """``lobby``, ``playing`` or ``finished`` (:mod:`net.server`)."""
        return self.server.state

    def seats(self) -> list[Seat]:
        """The seats in order (who sits, a bot or not, connected or away, can host)."""
        return list(self.server.seats)

    def connection_of(self, seat: int | None) -> Connection | None:
        """The connection of ``seat`` (None when away, a bot, or no such seat)."""
        return self.server.seat_conn(seat)

    def connections(self) -> set[Connection]:
        """Every connection identified now (seated players and spectators)."""
        return set(self.server.conns)

    @property
    def frozen(self) -> str | None:
        """Why the table takes no action now (a handoff under way), or None."""
        return self.server.frozen

    def freeze(self, reason: str) -> None:
        """Refuse every action (with ``reason``) and play no seat until :meth:`thaw`."""
        self.server.frozen = reason

    def thaw(self) -> None:
        """Take actions again (a handoff that failed) and play the host's seats on."""
        self.server.frozen = None
        self.driver.wake()

    def on_applied(self, callback: Callable[[list[dict]], None]) -> None:
        """Call ``callback(events)`` after each start and each applied action or take-back,
        before anyone is told of it."""
        self.table.listeners.append(callback)

    def on_told(self, callback: Callable[[int | None, list[dict]], None]) -> None:
        """Call ``callback(by, events)`` once every connection was sent an update."""
        self.server.on_events.append(callback)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after any change of the seats, the connections or the state."""
        self.server.on_change.append(callback)

    def wrap_actions(self, wrapper: Callable[[ActionHandler], ActionHandler]) -> None:
        """Have ``wrapper(handle)`` take every action a connection sends, calling ``handle``
        itself (:meth:`net.server.Server.wrap_actions`): how a benchmark times the host."""
        self.server.wrap_actions(wrapper)

    def on_message(self, kind: str, handler: Callable[[Connection, dict], None]) -> None:
        """Hand the client messages of type ``kind`` (declared in net.protocol) to
        ``handler(connection, message)``."""
        self.server.on_message[kind] = handler

    def broadcast(self, message: dict) -> None:
        """Send ``message`` to every connection."""
        self.server.broadcast(message)

    def tell_lobby(self) -> None:
        """Send everyone the lobby message again (after :meth:`set_in_lobby`)."""
        self.server.broadcast(self.server.lobby_message())

    def chat(self) -> list[dict]:
        """The chat said at this table so far (a handed-over table takes it along)."""
        return list(self.server.chat_log)

    def set_in_lobby(self, key: str, value: object) -> None:
        """Put ``key`` in the lobby message from now on (sent with the next one)."""
        self.server.lobby_extra[key] = value

    def hold(self, conn: Connection) -> None:
        """Hold every update but ``conn``'s until :meth:`release` (a standby's ack)."""
        self.server.hold(conn)

    def release(self) -> None:
        """Send the updates held since :meth:`hold`."""
        self.server.release()

    def ping_frame(self) -> bytes:
        """A ``ping`` frame, packed, to send to some connections."""
        return self.server.ping_frame()

    def move_to(self, addresses: list[str], port: int) -> None:
        """The table now lives at ``addresses``/``port``: tell every connection and stop
        listening (``moved``); :meth:`close` after."""
        self.server.move(addresses, port)

    def windows(self, timed: bool = True) -> dict:
        """The open review and claim windows, as a table document carries them
        (:meth:`GameTable.windows`)."""
        return self.table.windows(timed)

    def game(self) -> Game | None:
        """The match (None before it starts); read it, never apply to it."""
        return self.table.game

    def action_seat(self, k: int) -> int | None:
        """Who played the match's action ``k`` (None: the host's own, or no such action)."""
        seats = self.table.action_seats
        return seats[k] if 0 <= k < len(seats) else None

    def names(self) -> list[str]:
        """The players' names in seat order (``seat N`` for a seat nobody has taken yet)."""
        return list(self.table.names)

    def action_seats(self) -> list[int | None]:
        """Who played each of the match's actions (None: the host's own close_claims)."""
        return list(self.table.action_seats)

    def document(self) -> dict | None:
        """The table as it stands, as a table document carries it
        (:func:`rum500.handoff.document.table_document` adds its ``format`` and ``version``;
        the keys are described there): the match and who played each action, the seats with
        their tokens, the settings that move with the table, the chat, the game log's match
        and the open windows. None before the match starts."""
        game = self.table.game
        if game is None:
            return None
        config = self.config
        journal = config.journal
        meta = journal.meta if isinstance(journal, MatchLog) else {}
        return {
            "table": self.table_name,
            "table_id": self.table_id,
            "players": game.players,
            "seed": game.seed,
            "options": game.options.to_dict(),
            "deck": game.first_deck,
            "actions": [dict(a) for a in game.actions],
            "action_seats": self.action_seats(),
            "seats": [s.record() for s in self.seats()],
            "config": {
                "bot_level": config.bot_level,
                "password": config.password,
                "review_timeout": config.review_timeout,
                "claim_window": config.claim_window,
                "takeover_after": config.takeover_after,
                "bot_delay": config.bot_delay,
                "failover": config.failover,
                "announce": config.announce,
            },
            "chat": self.chat(),
            "match": {"uid": meta.get("uid"), "created_at": meta.get("created_at")},
            "windows": self.windows(),
        }

    def log_note(self, text: str) -> None:
        """Write ``text`` into the game log's record of the match (where the table went), when
        the log keeps such lines (a :class:`~rum500.host.gamelog.MatchLog`)."""
        journal = self.config.journal
        if isinstance(journal, MatchLog):
            journal.note(text)

    # ------------------------------------------------------------------ internals

    def _who_waits(self) -> tuple:
        """What views show of the players' presence: the review's waiting list, and the
        seats with a takeover countdown."""
        away = tuple(i for i, t in enumerate(self.table.takeover()) if t is not None)
        claim = tuple(self.table.claim_window.waiting(self.table.game, self.table.humans()))
        return tuple(self.table.waiting()), away, claim

    def _update_sent(self, by: int | None, events: list[dict]) -> None:
        self._sent = self._who_waits()
        self._fresh = True  # the server's on_change (_changed) comes next: nothing to compare

    # -- committed deals (rum500/host/commit.py, docs/protocol.md §17)

    def _tell_commitment(self) -> None:
        """Send the next deal's commitment to each checking connection not told yet."""
        commits, game = self.table.commits, self.table.game
        if commits is None or not commits.hand:
            return
        if game is not None and (
            game.phase is not Phase.HAND_OVER or commits.hand <= game.hand_number
        ):
            return  # the hand it was for is dealt: the next commitment comes at its end
        message = commits.message()
        for conn in commits.to_tell(list(self.server.conns)):
            conn.send(message)

    def _hold_start(self) -> bool:
        """Hold the match's start until every checking seat has given its contribution to
        the first hand (at most ``contribution_wait`` after it was sent the commitment)."""
        commits = self.table.commits
        if commits is None or self.table.game is not None:
            return False
        self._tell_commitment()
        due = commits.due(self.server.seats)
        if due <= 0:
            return False
        if self._start_timer is None or self._start_timer.cancelled():
            loop = asyncio.get_running_loop()
            self._start_timer = loop.call_later(due + 0.01, self._start_due)
        return True

    def _start_due(self) -> None:
        self._start_timer = None
        self.server.maybe_start()

    def _on_contribute(self, conn: Connection, msg: dict) -> None:
        commits = self.table.commits
        if commits is None or not commits.contribute(conn.seat, msg):
            return
        if self.server.state == "lobby":
            self.server.maybe_start()
        self.driver.wake()  # a deal waiting for it may go now

    def _reveal(self, by: int | None, events: list[dict]) -> None:
        """At a hand's end: the hand's reveal, then the next hand's commitment, to every
        checking connection (after everyone was sent the update with the hand's end)."""
        if not any(e.get("type") == "hand_end" for e in events) or self.table.game is None:
            return
        message = reveal(self.table.game)
        if message is not None:
            for conn in list(self.server.conns):
                if conn.deal_check:
                    conn.send(message)
        self._tell_commitment()

    def _changed(self) -> None:
        self.driver.wake()
        self._tell_commitment()  # a checking connection that came in
        if self.table.finished:
            self._done.set()
        fresh, self._fresh = self._fresh, False
        if self._sent is not None and not fresh and self._who_waits() != self._sent:
            self.server.resend()  # someone came or went: the views say so at once
        if self.announcer is not None:
            txt = self.txt()
            if txt != self._txt:
                self._txt = txt
                if self._txt_task is None or self._txt_task.done():
                    self._txt_task = asyncio.create_task(self._update_txt())

    async def _update_txt(self) -> None:
        await asyncio.sleep(0.2)  # gather a burst of changes into one announcement
        try:
            await self.announcer.update(self.txt())
        except Exception as e:
            log.warning("could not update the LAN announcement: %s", e)

    def txt(self) -> dict[str, str]:
        """The TXT record of the LAN announcement."""
        d = self.table.describe()
        taken = sum(1 for s in self.server.seats if s.taken)
        return {
            "v": str(PROTOCOL_VERSION),
            "table": self.table_name,
            "host": d["host"] or "",
            "seats": f"{taken}/{len(self.server.seats)}",
            "state": self.server.state,
            "options": json.dumps(d["changed"], separators=(",", ":"), sort_keys=True),
            "password": "1" if self.config.password else "0",
            "id": self.server.table_id,
        }


async def start_host(config: HostConfig, sock: socket.socket | None = None) -> Host:
    """Start hosting a table (listening, and announced on the LAN when ``config.announce``;
    with ``config.announce_later``, only at :meth:`Host.announce`). ``sock``: a socket
    already listening (a standby's). Raises ``ValueError`` for an impossible configuration
    and ``OSError`` when the address cannot be bound."""
    players = config.resume_game.players if config.resume_game else config.players
    if not 0 <= config.bots <= players:
        raise ValueError(f"between 0 and {players} bots at a table of {players}")
    if config.host_player and config.bots >= players and config.resume_game is None:
        raise ValueError("no seat is left for the host player")
    host = Host(config)
    table, server = host.table, host.server
    await server.start(config.bind, config.port, sock=sock)
    server.lobby_extra["addresses"] = lan_addresses(config.bind, server.port, config.interfaces)
    server.lobby_extra["coach"] = bool(config.coach)  # the review's coach line: the host's say
    _notice_log_warnings(config.journal, host)
    try:
        if config.resume_game is not None:
            table.start([s.record() for s in server.seats])
            # every seat is away until its player rejoins: the views a player is sent on
            # rejoining show that, so each seat coming back sends them again (_changed)
            host._sent = host._who_waits()
            host.driver.remind()
            for s in server.seats:
                if config.host_player and s.name == config.host_player and not s.bot:
                    host.seat, host.token = s.index, s.token
        else:
            if config.host_player:
                seat = server.reserve(0, config.host_player, bot=False)
                host.seat, host.token = 0, seat.token
            for i in range(players - config.bots, players):
                server.reserve(i, host.driver.bot_name(), bot=True)
        if config.announce and not config.announce_later:
            await host.announce()
    except BaseException:
        await host.close()
        raise
    host.driver.start()
    host._changed()
    return host


def _notice_log_warnings(journal: GameLog | None, host: Host) -> None:
    """A game log that reports its trouble through ``on_warning`` (a :class:`WarningLog`:
    :class:`Journal` never raises) tells the players too: a ``log_failed`` notice, after
    whatever it called before."""
    if not isinstance(journal, WarningLog):
        return
    before = journal.on_warning

    def warn(message: str) -> None:
        if before is not None:
            before(message)
        host.notice("log_failed", message)

    journal.on_warning = warn


def _resume_seats(config: HostConfig) -> list[dict]:
    assert config.resume_game is not None
    seats = list(config.resume_seats or [])
    out = []
    for i in range(config.resume_game.players):
        s = seats[i] if i < len(seats) and seats[i] else {}
        if s.get("name") and s.get("token"):
            out.append({"name": s["name"], "token": s["token"], "bot": bool(s.get("bot"))})
        else:
            out.append({"name": f"Bot {i + 1}", "token": secrets.token_urlsafe(16), "bot": True})
    return out
