"""A running table: :class:`Host` (the seat driver, the TXT record, the public surface the
handoff room uses) and :func:`start_host`. See :mod:`rum500.host` for the contract."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
import time
from typing import Any

from net.protocol import PROTOCOL_VERSION
from net.server import PLAYING, Server
from rum500.bots import make_bot
from rum500.host.addresses import connectable, lan_addresses, lan_hosts
from rum500.host.config import HostConfig
from rum500.host.table import GameTable
from rum500.rules import Game, Phase

log = logging.getLogger("rum500.host")


class Host:
    """A running table. See the module docstring."""

    def __init__(self, config: HostConfig, table: GameTable, server: Server) -> None:
        self.config = config
        self.table = table
        self.server = server
        self.table_name = table.table_name
        self.address = connectable(config.bind)
        self.seat: int | None = None
        self.token: str | None = None
        self.announcer: Any = None
        self._bots: dict[int, Any] = {}
        self._wake = asyncio.Event()
        self._plan: tuple[int, int, float] | None = None  # (seq, seat, when)
        self._done = asyncio.Event()
        self._closing = False
        self._driver: asyncio.Task | None = None
        self._txt: dict | None = None
        table.listeners.append(self._observe)
        self._txt_task: asyncio.Task | None = None
        self._sent: tuple | None = None  # waiting list and away seats in the last update
        table.server = server
        server.on_events.append(self._update_sent)

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
                self.server.reserve(seat.index, self._bot_name(), bot=True)
        self.server.maybe_start()

    async def finished(self) -> None:
        """Return when the match is over."""
        await self._done.wait()

    async def close(self) -> None:
        """Stop the bots, say goodbye to every client and on the LAN, stop listening."""
        await self._stop()
        await self.server.close()

    async def abandon(self) -> None:
        """Stop serving without telling the clients the table closed (they follow it to its
        standby): a host cut off from its table (:mod:`rum500.handoff.failover`). The bots
        stop, the table leaves the LAN's lists, every connection is cut."""
        await self._stop()
        await self.server.abandon()

    async def _stop(self) -> None:
        # a flag as well as cancel(): asyncio.wait_for in Python 3.11 may swallow a
        # cancellation that arrives just as the event it waits for is set
        self._closing = True
        self._wake.set()
        if self._driver:
            self._driver.cancel()
            await asyncio.wait({self._driver}, timeout=5)
        if self._txt_task:
            self._txt_task.cancel()
        if self.announcer is not None:
            announcer, self.announcer = self.announcer, None
            with contextlib.suppress(Exception):
                await announcer.close()

    # ------------------------------------------------------------------ internals

    def _bot_name(self) -> str:
        return f"Bot {sum(1 for s in self.server.seats if s.bot) + 1}"

    def _bot(self, seat: int) -> Any:
        bot = self._bots.get(seat)
        if bot is None:
            seed = None if self.config.seed is None else self.config.seed * 31 + seat
            try:
                bot = make_bot(self.config.bot_level, seed)
            except ValueError as e:
                log.warning("%s; seat %d gets a random bot", e, seat)
                bot = make_bot("random", seed)
            self._bots[seat] = bot
        return bot

    def _remind_bots(self) -> None:
        """A resumed match (``--resume``, a handoff, a failover): show the bots the public
        events of the hand under way again, from its deal, so that they remember it as if
        they had watched it here (what each opponent took from the discard pile and threw)."""
        game = self.table.game
        bots = [s.index for s in self.server.seats if s.bot]
        if game is None or not bots or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return
        again = Game(game.players, game.seed, game.options, game.first_deck)
        for action in game.actions:
            events = again.apply(action)
            if again.hand_number == game.hand_number:
                for seat in bots:
                    observe = getattr(self._bot(seat), "observe", None)
                    if observe is not None:
                        observe(events, again.view(seat))

    def _observe(self, events: list[dict]) -> None:
        """Show every bot at the table what happened (the hard bot remembers the hand)."""
        for s in self.server.seats:
            if s.bot:
                bot = self._bot(s.index)
                observe = getattr(bot, "observe", None)
                if observe is not None:
                    observe(events, self.table.view(s.index))

    def _who_waits(self) -> tuple:
        """What views show of the players' presence: the review's waiting list, and the
        seats with a takeover countdown."""
        away = tuple(i for i, t in enumerate(self.table.takeover()) if t is not None)
        claim = tuple(self.table.claim_window.waiting(self.table.game, self.table.humans()))
        return tuple(self.table.waiting()), away, claim

    def _update_sent(self, by: int | None, events: list[dict]) -> None:
        self._sent = self._who_waits()

    def _changed(self) -> None:
        self._wake.set()
        if self.table.finished:
            self._done.set()
        if self._sent is not None and self._who_waits() != self._sent:
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

    def _humans_seated(self) -> bool:
        return any(not s.bot and s.conn is not None for s in self.server.seats)

    def _next(self) -> tuple[int, float] | None:
        """(seat, seconds to wait) of the next host-played action, or None."""
        server, table = self.server, self.table
        if server.state != PLAYING or table.to_move is None or server.frozen is not None:
            return None
        seat = server.seats[table.to_move]
        now = time.monotonic()
        if table.review_open:  # the dealer deals when every connected human is ready, or at
            return seat.index, table.review_left() if table.waiting() else 0.0  # the timeout
        if table.claim_open:  # "Rummy!" calls: bots' calls, then the host closes the window
            self._ask_bots()
            return seat.index, table.claim_due()
        if seat.bot:
            return seat.index, self.config.bot_delay if self._humans_seated() else 0.0
        if seat.conn is None and self.config.takeover_after is not None:
            since = seat.away_since if seat.away_since is not None else now
            wait = max(0.0, since + self.config.takeover_after - now)
            if wait > 0:
                return seat.index, wait
            return seat.index, self.config.bot_delay if self._humans_seated() else 0.0
        return None

    async def _drive(self) -> None:
        """Play the host's seats: bots, away players, and the deal between hands."""
        while not self._closing:
            self._wake.clear()
            nxt = self._next()
            if nxt is None:
                self._plan = None
                await self._wake.wait()
                continue
            seat, wait = nxt
            key = (self.server.seq, seat)
            # a review's deadline is the table's own: no plan of ours to keep
            own = self.table.review_open or self.table.claim_open
            if own or self._plan is None or self._plan[:2] != key:
                self._plan = (*key, time.monotonic() + wait)
            left = self._plan[2] - time.monotonic()
            if left > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), left)
                continue  # whatever happened, decide again
            self._plan = None
            try:
                self._play(seat)
            except Exception:  # a bug: say so loudly, and do not spin on it
                log.exception("the host could not play seat %d", seat)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), 1.0)
            await asyncio.sleep(0)

    def _ask_bots(self) -> None:
        """Once per claim phase: each bot seat says, from its view, whether and when it calls
        "Rummy!" (rum500/claims.py)."""
        table = self.table
        if table.game is None:
            return
        bots = {s.index: self.config.bot_level for s in self.server.seats if s.bot}
        table.claim_window.ask(table.game, bots, table.view, self.config.seed)

    def _play(self, seat: int) -> None:
        """Play one action for ``seat``: the deal that ends a review, or its bot's choice.
        A bot that raises or chooses an illegal action is a bug: logged as an error (tests
        fail on it), and the seat plays its first legal action so the table goes on."""
        table = self.table
        if table.review_open:
            table.host_apply(seat, {"type": "deal"})
            return
        if table.claim_open:  # bots' calls due now (rum500/claims.py), else the close
            assert table.game is not None
            for by, action in table.claim_window.now(table.game, table.humans()):
                try:
                    table.host_apply(seat if by is None else by, action)
                    return
                except ValueError as e:
                    log.info("the call of seat %s was refused: %s", by, e)
            return
        view = table.view(seat)
        try:
            action = self._bot(seat).choose(view)
        except Exception:
            log.exception("the bot of seat %d failed; it plays the first legal action", seat)
            action = view["legal_actions"][0]
        try:
            table.host_apply(seat, action)
        except ValueError as e:
            log.error("the bot of seat %d chose an illegal action %r: %s", seat, action, e)
            table.host_apply(seat, view["legal_actions"][0])


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
    name = config.table_name or "rum500"
    table = GameTable(config, name)
    server = Server(
        table,
        table_name=name,
        password=config.password,
        limits=config.limits,
        seats=_resume_seats(config) if config.resume_game else None,
        table_id=config.table_id,
        chat=config.chat,
    )
    host = Host(config, table, server)
    server.on_change.append(host._changed)
    await server.start(config.bind, config.port, sock=sock)
    server.lobby_extra["addresses"] = lan_addresses(config.bind, server.port, config.interfaces)
    _notice_log_warnings(config.journal, host)
    try:
        if config.resume_game is not None:
            table.start([s.record() for s in server.seats])
            # every seat is away until its player rejoins: the views a player is sent on
            # rejoining show that, so each seat coming back sends them again (_changed)
            host._sent = host._who_waits()
            host._remind_bots()
            for s in server.seats:
                if config.host_player and s.name == config.host_player and not s.bot:
                    host.seat, host.token = s.index, s.token
        else:
            if config.host_player:
                seat = server.reserve(0, config.host_player, bot=False)
                host.seat, host.token = 0, seat.token
            for i in range(players - config.bots, players):
                server.reserve(i, host._bot_name(), bot=True)
        if config.announce and not config.announce_later:
            await host.announce()
    except BaseException:
        await host.close()
        raise
    host._driver = asyncio.create_task(host._drive())
    host._changed()
    return host


def _notice_log_warnings(journal: object, host: Host) -> None:
    """A game log that reports its trouble through ``on_warning`` (:class:`Journal` never
    raises) tells the players too: a ``log_failed`` notice."""
    if journal is None or not hasattr(journal, "on_warning"):
        return
    before = getattr(journal, "on_warning", None)

    def warn(message: str) -> None:
        if before is not None:
            before(message)
        host.notice("log_failed", message)

    setattr(journal, "on_warning", warn)  # noqa: B010


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


# ---------------------------------------------------------------------- command line
