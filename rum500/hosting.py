"""The rum500 side of hosting: a :class:`rum500.rules.Game` behind :mod:`net.server`.

Public API (stable; the terminal client and the game log build on it)::

    from rum500.hosting import HostConfig, start_host

    host = await start_host(HostConfig(players=4, bots=3, host_player="Ann"))
    host.port, host.address        # where to connect (address is connectable, e.g. 127.0.0.1)
    host.addresses                 # ["192.168.1.5:5500", …]: where friends reach it by hand
    host.table_name                # as announced (made distinct if another table had it)
    host.token, host.seat          # the host player's seat and its token (None without one)
    # the host player joins like everyone else, over the network:
    #   await Client.connect(host.address, host.port, name="Ann", token=host.token)
    host.start_now()               # fill the empty seats with bots and start at once
    host.notice("log_failed", "…") # a notice message to every client
    await host.finished()          # wait for game over
    await host.close()             # goodbye ("shutdown") to every client, mDNS goodbye, stop

Seats: the host player (``host_player``) sits at seat 0, ``bots`` bots take the last seats,
and the others are free for players who join; the match starts when every seat is taken.
Bots play with a human-like pause (``bot_delay``) while a human seat is connected, at once
otherwise. A human seat that stays away longer than ``takeover_after`` seconds is played by
a bot until its player rejoins with the token; every view's ``takeover`` counts down to it.

The hand-end review: when a hand ends (phase ``hand_over``) every view carries ``review``
(``hand``, ``waiting``, ``seconds_left``). A seated player's ``{"type": "ready"}`` — or
``{"type": "deal"}``, which counts as ready — is a ``ready`` event; the host deals for the
next dealer as soon as no connected human player is waiting, or ``review_timeout`` seconds
after the hand ended. Bots never act while a review is open; a table with no human
connected deals at once. A table that moved here (a handoff, a failover) goes on with the
review or "Rummy!" claim window that was open (``HostConfig.resume_windows``, from
:meth:`GameTable.windows`): who said ready or passed, the time left, and it waits for the
players who were connected there until they rejoin or the deadline comes.

Take back: ``{"type": "take_back"}`` from the seat to move undoes its last meld or lay-off
of the turn (``Game.pop``), only at a table where every other seat is a bot.

The lobby message carries ``addresses`` (see :func:`lan_addresses`). Views are sent again
(``events: []``) when a player comes or goes during a review or while a seat is away.
See docs/protocol.md for every message and field.

Journal hook (``HostConfig.journal``), called synchronously, in this order:
``start_match(info)`` once the match starts — info: ``players`` (count), ``seed``,
``options`` (dict), ``deck`` (None), ``table`` (name), ``seats`` ([{name, token, bot}]);
also once when a resumed match is hosted (same info, the saved seats) —;
``record(seq, seat, action)`` after each applied action (``seq`` is its index in
``Game.actions``, ``action`` the engine's normalised form; ``seat`` is None for the host's own
``close_claims``, which ends a "Rummy!" claim window) and before anyone is told of it;
``take_back(seq)`` when the action with index ``seq`` (the last one) is taken back;
``seats(seats)`` when names, tokens or bots change; ``finish(winner, totals)`` at game over.
A journal with a ``follow`` method is first given the host's live ``Game`` (``follow(game)``,
before ``start_match``): it may read finished hands from it instead of keeping a copy.
A journal call that raises ``OSError`` or ``sqlite3.Error`` is logged as a warning and the
players get a ``log_failed`` notice (once, until a call succeeds); any other exception is a
bug, logged as an error with its traceback (and noticed too); either way the game carries
on. A journal with an ``on_warning`` attribute (:class:`rum500.store.journal.Journal`, which
never raises) has it chained so that its warnings become ``log_failed`` notices as well.

Resume: ``HostConfig.resume_game`` (a ``Game``, e.g. from ``Game.replay``) and
``resume_seats`` (``[{name, token, bot}]`` in seat order) host a restored position; players
rejoin with their saved tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import ipaddress
import json
import logging
import secrets
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack

from net.protocol import PROTOCOL_VERSION
from net.server import PLAYING, WILDCARDS, Limits, Server
from rum500.bots import make_bot
from rum500.claims import CLAIM_WINDOW, ClaimWindow
from rum500.rules import Game, IllegalMove, Options, Phase

log = logging.getLogger(__name__)

#: the table options every client knew before the house rules (a hello without "options")
SEED_OPTIONS = ("target", "decks", "top_card_free", "must_discard", "empty_stock")
MAX_RESULTS = 40  # finished hands' score sheets sent in a view (the frame limit is 64 KiB)


@dataclass
class HostConfig:
    """How to host a table. See the module docstring."""

    players: int = 4
    bots: int = 0
    bot_level: str = "medium"
    seed: int | None = None
    options: Options = field(default_factory=Options)
    table_name: str = "rum500"
    host_player: str | None = None
    bind: str = "127.0.0.1"
    port: int = 0
    password: str | None = None
    announce: bool = False
    bot_delay: float = 0.0  # seconds a bot waits before each action while humans are seated
    journal: object | None = None
    resume_game: Game | None = None
    resume_seats: list[dict] | None = None
    review_timeout: float = 30.0  # after a hand, deal anyway when not all are ready by then
    claim_window: float = CLAIM_WINDOW  # "Rummy!" calls: seconds after each discard
    deal_pause: float = 3.0  # unused since the hand-end review (kept for old callers)
    takeover_after: float | None = 60.0  # None: never play an away player's seat
    interfaces: list[str] | None = None  # addresses zeroconf uses (None: all)
    limits: Limits | None = None
    table_id: str | None = None  # None: a new random id (a table handed over keeps its own)
    #: who played each action of ``resume_game`` (None: the host's own); None: worked out
    resume_action_seats: list[int | None] | None = None
    chat: list[dict] = field(default_factory=list)  # chat that came with a handed-over table
    #: the review / claim window open when the table moved here (GameTable.windows())
    resume_windows: dict | None = None
    failover: str = "auto"  # "auto" | "on" | "off": a standby streams the log (handoff.py)
    announce_later: bool = False  # a handed-over table: announce when the old host is gone


class PackedSheet(Mapping):
    """A finished hand's score sheet kept packed (msgpack bytes, ~150 bytes instead of ~1.3 KB
    of dicts and lists): the host packs the sheets older than the last :data:`MAX_RESULTS`
    that its views send, so a long match holds little per hand. It reads like the sheet
    (``sheet["scores"]``, ``dict(sheet)``, ``==`` a dict), each read unpacking a fresh copy."""

    __slots__ = ("_packed",)

    def __init__(self, sheet: Mapping) -> None:
        self._packed = msgpack.packb(dict(sheet), use_bin_type=True)

    def _sheet(self) -> dict:
        return msgpack.unpackb(self._packed, raw=False)

    def __getitem__(self, key: str) -> Any:
        return self._sheet()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._sheet())

    def __len__(self) -> int:
        return len(self._sheet())

    def __repr__(self) -> str:
        return f"PackedSheet({self._sheet()!r})"


class GameTable:
    """A :class:`Game` behind the :class:`net.server.Table` protocol, with the journal hook."""

    def __init__(self, config: HostConfig, table_name: str) -> None:
        self.config = config
        self.table_name = table_name
        self.game: Game | None = config.resume_game
        self.seats = self.game.players if self.game else config.players
        self.names: list[str] = [f"seat {i}" for i in range(self.seats)]
        #: called with the events of every start and every applied action
        self.listeners: list[Callable[[list[dict]], None]] = []
        #: the server, once hosting: who is seated, connected, away (set by start_host)
        self.server: Server | None = None
        #: the hand-end review: seats that said ready, and when the host deals anyway
        self.ready: set[int] = set()
        self.review_until: float | None = None
        self._host_acts = False  # the host itself applies the action (its deal ends a review)
        #: "Rummy!" calls (option): the window after each discard (rum500/claims.py)
        self.claim_window = ClaimWindow(config.claim_window)
        #: after a move, the players who were here at the old host and have not rejoined
        #: yet: a carried window waits for them as if they were connected (_carry_windows)
        self.rejoining: set[int] = set()
        self._log_failed = False  # a notice about the game log was sent, no success since
        #: the seat that played each of ``game.actions`` (None: the host's own close_claims)
        self.action_seats: list[int | None] = []
        if self.game is not None:
            self.action_seats = list(config.resume_action_seats or [])
            if len(self.action_seats) != len(self.game.actions):
                self.action_seats = action_seats(self.game)
        if self.game is None:  # refuse impossible options now, not when the match starts
            (config.options or Options()).validate(self.seats)

    # -- Table protocol
    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.phase is Phase.GAME_OVER

    @property
    def to_move(self) -> int | None:
        return self.game.to_move if self.game is not None else None

    def start(self, seats: list[dict]) -> list[dict]:
        if self.game is None:
            self.game = Game(self.seats, self.config.seed, self.config.options)
        self.names = [s["name"] for s in seats]
        if getattr(self.config.journal, "follow", None) is not None:
            self._journal("follow", self.game)  # the log reads this game: no copy of its own
        self._journal("start_match", self.match_info(seats))
        if self.game.phase is Phase.HAND_OVER:  # a resumed match between two hands
            self._open_review()
        self.claim_window.follow(self.game)
        self._carry_windows(self.config.resume_windows)
        v = self.game.view(None)
        events = [
            {
                "type": "deal",
                "hand": v["hand_number"],
                "dealer": v["dealer"],
                "cutter": (v["dealer"] + 1) % self.seats,
                "cut": None,
                "upcard": v["discard_pile"][0] if v["discard_pile"] else None,
            }
        ]
        self._tell(events)
        return events

    def match_info(self, seats: list[dict]) -> dict:
        assert self.game is not None
        return {
            "players": self.game.players,
            "seed": self.game.seed,
            "options": self.game.options.to_dict(),
            "deck": self.game.first_deck,
            "table": self.table_name,
            "table_id": self.server.table_id if self.server is not None else "",
            "seats": [dict(s) for s in seats],
        }

    def apply(self, seat: int, action: dict) -> list[dict]:
        game = self.game
        if game is None:
            raise ValueError("the match has not started yet")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "ready" or (
            kind == "deal" and game.phase is Phase.HAND_OVER and not self._host_acts
        ):
            return self._ready(seat)  # a player's deal only says "ready": the host deals
        if kind == "take_back":
            return self._take_back(seat)
        if kind in ("pass", "rummy"):  # one that names its discard answers that one only
            self.claim_window.check_on(action)
        if kind == "pass":
            return self.claim_window.pass_(game, seat)
        if kind == "rummy":
            self.claim_window.check_call(seat)
        # the host closes the claim window itself (the engine refuses a seat's close_claims)
        by = None if kind == "close_claims" and self._host_acts else seat
        events = game.apply(action, seat=by)  # IllegalMove is a ValueError
        self.action_seats.append(by)
        self.rejoining.clear()  # the carried windows were of the position before
        self.claim_window.follow(game)
        # the seat as the engine took it: None for the host's own close_claims
        self._journal("record", len(game.actions) - 1, by, dict(game.actions[-1]))
        if game.phase is Phase.GAME_OVER:
            self._journal("finish", game.winner, list(game.totals))
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self._pack_sheets()
        if game.phase is Phase.HAND_OVER:
            self._open_review()
        else:
            self.ready.clear()
            self.review_until = None
        self._tell(events)
        return events

    def _pack_sheets(self) -> None:
        """Pack the score sheets older than the newest :data:`MAX_RESULTS` (those a view
        sends stay as they are): from the newest such back to the first already packed."""
        assert self.game is not None
        results = self.game.results
        i = len(results) - MAX_RESULTS - 1
        while i >= 0 and not isinstance(results[i], PackedSheet):
            results[i] = PackedSheet(results[i])
            i -= 1

    def host_apply(self, seat: int, action: dict) -> list[dict]:
        """Apply an action the host plays itself (a bot's, an away player's, the deal that
        ends a review) through the server, so that everyone is told."""
        assert self.server is not None
        self._host_acts = True
        try:
            return self.server.submit(seat, action)
        finally:
            self._host_acts = False

    # -- the windows that carry across a move (a handoff, a failover)

    def windows(self, timed: bool = True) -> dict:
        """The open hand-end review and "Rummy!" claim window, as the table document
        carries them (``windows``): ``review`` (``at``, ``ready``, ``seconds_left``) and
        ``claim`` (``at``, ``passed``, ``seconds_left``), each None when not open; ``at`` is
        the number of actions of the position it belongs to; and ``present``, the players
        connected now (the new host's windows wait for them to rejoin). ``timed=False``:
        without ``seconds_left`` (what changes only when someone says ready or passes)."""
        out: dict = {"review": None, "claim": None, "present": []}
        game = self.game
        if game is None:
            return out
        at = len(game.actions)
        if self.review_open or self.claim_open:
            out["present"] = self.humans()
        if self.review_open:
            out["review"] = {"at": at, "ready": sorted(self.ready)}
            if timed:
                out["review"]["seconds_left"] = round(self.review_left(), 3)
        if self.claim_open and self.claim_window.open:
            out["claim"] = {"at": at, "passed": sorted(self.claim_window.passed)}
            if timed:
                out["claim"]["seconds_left"] = round(self.claim_window.left(), 3)
        return out

    def _carry_windows(self, windows: object) -> None:
        """Go on with the review or claim window that was open where the table was before
        (:meth:`windows`): who said ready or passed, and the time left — if it is of this
        very position (as many actions); else each starts over."""
        game = self.game
        if not isinstance(windows, dict) or game is None:
            return
        at = len(game.actions)
        review, claim = windows.get("review"), windows.get("claim")
        if self.review_open and isinstance(review, dict) and review.get("at") == at:
            self.ready = _seats_in(review.get("ready"), self.seats)
            left = _seconds_in(review.get("seconds_left"), self.config.review_timeout)
            self.review_until = time.monotonic() + left
        carried = False
        if self.claim_open and isinstance(claim, dict) and claim.get("at") == at:
            left = _seconds_in(claim.get("seconds_left"), self.claim_window.length)
            self.claim_window.carry(_seats_in(claim.get("passed"), self.seats), left)
            carried = True
        if carried or (self.review_open and isinstance(review, dict) and review.get("at") == at):
            self.rejoining = _seats_in(windows.get("present"), self.seats)

    # -- the hand-end review

    def _open_review(self) -> None:
        self.ready.clear()
        self.review_until = time.monotonic() + max(0.0, self.config.review_timeout)

    @property
    def review_open(self) -> bool:
        return self.game is not None and self.game.phase is Phase.HAND_OVER

    def waiting(self) -> list[int]:
        """The seats the review waits for: connected human players who have not said ready."""
        if not self.review_open:
            return []
        return [s for s in self.humans() if s not in self.ready]

    def humans(self) -> list[int]:
        """The seats of the connected human players — and, while a window carried across a
        move is open, of those who were connected at the old host and are on their way here
        (:attr:`rejoining`): the window waits for them too, up to its deadline."""
        if self.server is None:
            return []
        seats = self.server.seats
        here = [s.index for s in seats if s.taken and not s.bot and s.conn is not None]
        if not self.rejoining:
            return here
        self.rejoining = {k for k in self.rejoining - set(here) if not seats[k].bot}
        return sorted({*here, *self.rejoining})

    # -- the "Rummy!" claim window

    @property
    def claim_open(self) -> bool:
        return self.game is not None and self.game.phase is Phase.CLAIM

    def claim_due(self) -> float:
        """Seconds until the host closes the claim window (0.0: now)."""
        if self.game is None:
            return 0.0
        return self.claim_window.due(self.game, self.humans())

    def review_left(self) -> float:
        """Seconds until the host deals anyway (0.0 when no review is open)."""
        if not self.review_open or self.review_until is None:
            return 0.0
        return max(0.0, self.review_until - time.monotonic())

    def _ready(self, seat: int) -> list[dict]:
        assert self.game is not None
        if self.game.phase is not Phase.HAND_OVER:
            raise IllegalMove("ready is only for the end of a hand")
        if seat in self.ready:
            return []  # said twice: nothing new
        self.ready.add(seat)
        return [{"type": "ready", "seat": seat}]

    # -- take back

    def _take_back(self, seat: int) -> list[dict]:
        game = self.game
        assert game is not None
        seats = self.server.seats if self.server is not None else []
        if any(s.index != seat and not s.bot for s in seats):
            raise IllegalMove("take back is only for a table with no other human")
        last = game.actions[-1] if game.actions else None
        if (
            game.phase is not Phase.PLAY
            or game.turn != seat
            or last is None
            or last.get("type") not in ("meld", "layoff")
        ):  # in the play phase, the actions since the draw are this turn's melds and lay-offs
            raise IllegalMove("nothing to take back this turn")
        undone = game.pop()
        del self.action_seats[len(game.actions) :]
        self._journal("take_back", len(game.actions))
        events = [{"type": "take_back", "seat": seat, "action": undone}]
        self._tell(events)
        return events

    def _tell(self, events: list[dict]) -> None:
        for listener in self.listeners:
            try:
                listener(events)
            except Exception:  # a bug (e.g. a bot's observe): logged as an error, not hidden
                log.exception("a listener of the table failed on %r", events)

    def view(self, seat: int | None) -> dict:
        if self.game is None:
            return {}
        # a very long match must not outgrow a frame, nor cost more per hand: the newest
        # score sheets only
        v = self.game.view(seat, MAX_RESULTS)
        v["names"] = list(self.names)
        v["results_start"] = len(self.game.results) - len(v["results"])
        v["review"] = (
            {
                "hand": self.game.hand_number,
                "waiting": self.waiting(),
                "seconds_left": round(self.review_left(), 2),
            }
            if self.review_open
            else None
        )
        if v.get("claim"):
            v["claim"].update(self.claim_window.view(self.game, self.humans()))
        v["takeover"] = self.takeover()
        return v

    def own_view(self, seat: int) -> dict:
        """The keys of ``view(seat)`` that differ from the spectators' ``view(None)``: with
        them a host builds the public part of an update once for every seat."""
        if self.game is None:
            return {}
        return self.game.own_view(seat)

    def takeover(self) -> list[float | None]:
        """Per seat: seconds until a bot plays the seat of an away player (0.0 while it does);
        None for a present player or a bot, and for every seat when takeover is off or the
        match is over."""
        after = self.config.takeover_after
        if self.server is None or after is None or self.finished:
            return [None] * self.seats
        now = time.monotonic()
        out: list[float | None] = []
        for s in self.server.seats:
            if s.taken and not s.bot and s.conn is None:
                since = s.away_since if s.away_since is not None else now
                out.append(round(max(0.0, since + after - now), 1))
            else:
                out.append(None)
        return out

    def seats_changed(self, seats: list[dict]) -> None:
        self.names = [s["name"] or f"seat {i}" for i, s in enumerate(seats)]
        self._journal("seats", [dict(s) for s in seats])

    def describe(self) -> dict:
        options = self.game.options if self.game else self.config.options
        d = {
            "options": options.to_dict(),
            "changed": options.changed(),
            "host": self.config.host_player,
        }
        if options.rummy_calls:
            d["claim_window"] = self.claim_window.length
        return d

    def refuse_hello(self, known: list[str] | None) -> str | None:
        """Why a client that knows the table options ``known`` (hello's ``options``; None:
        an older client, which knows the options of RULES.md §9) may not come in: an
        option in force that it does not know. None when it may."""
        options = self.game.options if self.game else self.config.options
        knows = set(SEED_OPTIONS if known is None else known)
        missing = sorted(k for k in options.changed() if k not in knows)
        if not missing:
            return None
        return (
            f"this table plays with {', '.join(missing)}, which your rum500 does not know: "
            "update rum500 to sit here"
        )

    def _journal(self, method: str, *args: Any) -> None:
        """Call the game log. Its I/O trouble (``OSError``, ``sqlite3.Error``) is expected:
        a warning and a ``log_failed`` notice, and the game goes on. Anything else it raises
        is a bug: logged as an error (with the traceback), and the players are told too."""
        journal = self.config.journal
        if journal is None:
            return
        try:
            getattr(journal, method)(*args)
        except (OSError, sqlite3.Error) as e:
            log.warning("the game log failed (%s: %s); the game goes on in memory", method, e)
            self.log_trouble(f"the game log could not be written ({e}); the match goes on")
            return
        except Exception as e:
            log.exception("the game log's %s failed", method)
            self.log_trouble(f"the game log failed ({type(e).__name__}); the match goes on")
            return
        self._log_failed = False

    def log_trouble(self, text: str) -> None:
        """Tell the players once (until the log works again) that the game log is failing."""
        if self._log_failed:
            return
        self._log_failed = True
        if self.server is not None:
            self.server.notice("log_failed", text)


def _seats_in(value: object, seats: int) -> set[int]:
    """The seat numbers listed in ``value`` (a carried window's), others dropped."""
    if not isinstance(value, list):
        return set()
    return {s for s in value if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats}


def _seconds_in(value: object, longest: float) -> float:
    """A carried window's ``seconds_left``, within 0 and ``longest`` (the window's length;
    not a number: the whole length)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return max(0.0, longest)
    return min(max(0.0, float(value)), max(0.0, longest))


def action_seats(game: Game) -> list[int | None]:
    """Who played each action of ``game`` as far as a replay tells: the seat to move, the
    caller of a "Rummy!" (its ``seat``), None for a ``close_claims``."""
    replay = Game(game.players, game.seed, game.options, game.first_deck)
    seats: list[int | None] = []
    for a in game.actions:
        kind = a.get("type")
        seat = None if kind == "close_claims" else a.get("seat", replay.to_move)
        seats.append(seat if isinstance(seat, int) else None)
        replay.apply(a, None if kind in ("rummy", "close_claims") else seat)
    return seats


class Host:
    """A running table. See the module docstring."""

    def __init__(self, config: HostConfig, table: GameTable, server: Server) -> None:
        self.config = config
        self.table = table
        self.server = server
        self.table_name = table.table_name
        self.address = _connectable(config.bind)
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


def lan_addresses(bind: str, port: int, interfaces: list[str] | None = None) -> list[str]:
    """Where friends can reach the table by hand: ``ADDRESS:PORT`` for each non-loopback
    address of this machine the host listens on — a wildcard bind listens on both families
    (:meth:`net.server.Server.start`): IPv4 first, then IPv6 as ``[ADDRESS]:PORT``
    (``[ADDRESS%IFACE]:PORT`` when link-local). A host bound to one address gives just that
    one; one that listens on loopback only, or finds no other address, ``127.0.0.1:PORT``."""
    return [_host_port(a, port) for a in lan_hosts(bind, interfaces)]


def lan_hosts(bind: str, interfaces: list[str] | None = None) -> list[str]:
    """The addresses of :func:`lan_addresses` without the port."""
    if bind not in WILDCARDS:
        return [bind]
    found: list[tuple[int, int, str]] = []
    try:
        import ifaddr  # zeroconf's own dependency

        adapters = list(ifaddr.get_adapters())
    except Exception as e:  # an odd platform: fall back to loopback below
        log.warning("cannot list this machine's addresses: %s", e)
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            text = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            try:
                addr = ipaddress.ip_address(text)
            except ValueError:
                continue
            if addr.is_loopback or addr.is_unspecified:
                continue
            if interfaces and text not in interfaces:
                continue
            if addr.version == 6 and addr.is_link_local:
                text = f"{text}%{adapter.name}"
            order = (addr.version, 1 if addr.is_link_local else 0)
            found.append((*order, text))
    out = list(dict.fromkeys(a for *_, a in sorted(found, key=lambda f: f[:2])))
    return out or ["127.0.0.1"]


def _host_port(address: str, port: int) -> str:
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def _connectable(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


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


def options_from_args(args: Any) -> Options:
    return Options(
        target=args.target,
        decks=args.decks,
        top_card_free=args.top_card_free,
        must_discard=args.must_discard,
        empty_stock=args.empty_stock,
        jokers=getattr(args, "jokers", False),
        rummy_calls=getattr(args, "rummy_calls", False),
        teams=getattr(args, "teams", None) or 0,
        ace_always_15=getattr(args, "ace_always_15", False),
    )


def config_from_args(args: Any) -> HostConfig:
    """A :class:`HostConfig` from the ``rum500 host`` arguments (may prompt for a password)."""
    password = args.password
    if password is True:
        password = getpass.getpass("table password: ")
    player = args.player
    name = args.name or player or socket.gethostname().split(".")[0] or "rum500"
    return HostConfig(
        players=args.players,
        bots=args.bots or 0,
        bot_level=args.bot_level,
        seed=args.seed,
        options=options_from_args(args),
        table_name=name,
        host_player=player,
        bind=args.bind,
        port=args.port,
        password=password or None,
        announce=not getattr(args, "no_announce", False),
        bot_delay=getattr(args, "bot_delay", 1.0),
        review_timeout=getattr(args, "review_timeout", 30.0),
        claim_window=getattr(args, "claim_window", None) or CLAIM_WINDOW,
        journal=None,
        failover=getattr(args, "failover", None) or "auto",
    )


def run_headless(args: Any) -> int:
    """``rum500 host --headless``: host a table with no screen, log what happens."""
    if args.verbose == 0:
        logging.getLogger().setLevel(logging.INFO)
    try:
        config = config_from_args(args)
    except (EOFError, KeyboardInterrupt):
        print("rum500: no password given", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"rum500: {e}", file=sys.stderr)
        return 2
    from rum500.store.resume import StoreError, attach_journal  # the game log (issue 6)

    try:
        note = attach_journal(config, args)
    except StoreError as e:
        print(f"rum500: {e.said()}", file=sys.stderr)
        return 2
    if note:
        print(note, flush=True)
    try:
        return asyncio.run(_headless(config))
    except KeyboardInterrupt:
        return 130


async def _headless(config: HostConfig) -> int:
    try:
        host = await start_host(config)
    except (ValueError, OSError) as e:
        print(f"rum500: cannot host: {e}", file=sys.stderr)
        return 2
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    where = f"{config.bind}:{host.port}"
    print(
        f"hosting table {host.table_name!r} on {where} "
        f"({'announced on the LAN' if config.announce else 'not announced'})",
        flush=True,
    )
    print(f"players join by hand at {', '.join(host.addresses)}", flush=True)
    log.info(
        "table %r: %d seats, bots in %d of them",
        host.table_name,
        len(host.server.seats),
        config.bots,
    )
    host.server.on_change.append(_logger(host))
    host.server.on_events.append(_event_logger(host))
    from rum500.handoff import Room  # handoff and failover: the room beside the host
    from rum500.handoff.headless import read_commands

    room = Room(host)
    moved = asyncio.Event()
    commands = read_commands(room.mover, lambda line: print(line, flush=True), moved)
    room.failover.on_cut_off.append(moved.set)  # the table goes on at the standby
    finished = asyncio.create_task(host.finished())
    stopping = asyncio.create_task(stop.wait())
    gone = asyncio.create_task(moved.wait())
    await asyncio.wait({finished, stopping, gone}, return_when=asyncio.FIRST_COMPLETED)
    commands.cancel()
    gone.cancel()
    room.close()
    if room.failover.cut_off:
        print(
            "cut off from the table: the standby takes it over; this host stopped serving",
            flush=True,
        )
    if moved.is_set():
        stopping.cancel()
        finished.cancel()
        await host.close()
        return 0
    if finished.done() and not stopping.done():
        game = host.table.game
        assert game is not None
        names = host.table.names
        winner = game.winner or 0
        totals = " / ".join(str(t) for t in game.totals)
        print(
            f"game over: {names[winner]} wins with {game.totals[winner]} (totals {totals})",
            flush=True,
        )
        await asyncio.sleep(1.0)  # let clients take in the last update
    stopping.cancel()
    finished.cancel()
    await host.close()
    print("table closed", flush=True)
    return 0


def describe_event(event: dict, names: list[str]) -> str:
    """One line of plain English for a public event (the headless host's log)."""

    def who(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event.get("type")
    name = who(event.get("seat"))
    if kind == "deal":
        return f"hand {event['hand']}: {who(event['dealer'])} deals, upcard {event['upcard']}"
    if kind == "draw" and event.get("source") == "stock":
        return f"{name} draws from the stock ({event.get('stock')} left)"
    if kind == "draw":
        cards = event.get("cards") or []
        above = len(cards) - 1
        more = f" and the {above} card{'s' if above > 1 else ''} above it" if above > 0 else ""
        return f"{name} takes {cards[0] if cards else '?'}{more} from the discard pile"
    if kind == "meld":
        jokers = event.get("jokers")
        named = f" (the joker as {' '.join(jokers)})" if jokers else ""
        return f"{name} melds {' '.join(event['cards'])}{named}"
    if kind == "layoff":
        named = f" as {event['joker']}" if event.get("joker") else ""
        return f"{name} lays off {event['card']}{named} on meld {event['meld']}"
    if kind == "rummy":
        named = f" as {event['joker']}" if event.get("joker") else ""
        return (
            f"{name} calls Rummy! on {who(event.get('from'))}'s {event.get('card')}{named} "
            f"and lays it off on meld {event.get('meld')}"
        )
    if kind == "pass":
        return f"{name} does not call Rummy!"
    if kind == "close_claims":
        return "nobody calls Rummy!"
    if kind == "discard":
        return f"{name} discards {event['card']}"
    if kind == "reshuffle":
        return f"the discard pile becomes a new stock of {event['stock']} cards"
    if kind == "end_hand":
        return f"{name} ends the hand: the stock is empty"
    if kind == "hand_end":
        scores = ", ".join(f"{who(i)} {s:+d}" for i, s in enumerate(event["scores"]))
        totals = ", ".join(f"{who(i)} {t}" for i, t in enumerate(event["totals"]))
        return f"hand {event['hand']} over: {scores}; totals {totals}"
    if kind == "tie":
        return f"tied at {event['total']}: another hand is played"
    if kind == "game_over" and event.get("winners"):  # partnerships: the whole team wins
        return f"game over: {', '.join(who(w) for w in event['winners'])} win"
    if kind == "game_over":
        return f"game over: {who(event['winner'])} wins"
    if kind == "ready":
        return f"{name} is ready for the next hand"
    if kind == "take_back":
        undone = event.get("action") or {}
        if undone.get("type") == "meld":
            return f"{name} takes back the meld {' '.join(undone.get('cards') or [])}"
        if undone.get("type") == "layoff":
            return f"{name} takes back the lay-off of {undone.get('card')}"
        return f"{name} takes back a play"
    return str(event)


def _logger(host: Host) -> Any:
    """Log the table's seats when they change."""
    seen = {"lobby": ""}

    def log_change() -> None:
        server = host.server
        lobby = ", ".join(
            f"{s.name or '-'}{'' if s.bot or s.conn or not s.taken else ' (away)'}"
            for s in server.seats
        )
        if lobby != seen["lobby"]:
            seen["lobby"] = lobby
            log.info("seats: %s [%s]", lobby, server.state)

    return log_change


def _event_logger(host: Host) -> Any:
    def log_events(by: int | None, events: list[dict]) -> None:
        for event in events:
            log.info("%s", describe_event(event, host.table.names))

    return log_events


def options_text(options: object) -> str:
    """A table's options that differ from the standard game (its TXT record's ``options``,
    ``welcome``'s ``table.changed``) as ``rum500 list``, the lobby and the waiting room show
    them: ``target=300 jokers=True teams=2``; "" when there are none."""
    if not isinstance(options, dict):
        return ""
    return " ".join(f"{k}={v}" for k, v in options.items())


def run_list(args: Any) -> int:
    """``rum500 list``: the tables announced on the LAN right now (in the language of
    ``--lang``, which the command line has set)."""
    from net.discovery import browse
    from rum500.i18n import _, pgettext

    try:
        tables = asyncio.run(browse(args.timeout))
    except KeyboardInterrupt:
        return 130
    except OSError as e:
        print("rum500: " + _("cannot look for tables: {why}").format(why=e), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([t.to_dict() for t in tables], indent=2))
        return 0
    if not tables:
        print(_("no tables found on the LAN (join by HOST:PORT if multicast is blocked)"))
        return 0
    states = {
        "lobby": pgettext("table state", "lobby"),
        "playing": pgettext("table state", "playing"),
        "finished": pgettext("table state", "finished"),
    }
    for t in tables:
        opts = options_text(t.options)
        lock = " " + _("[password]") if t.password else ""
        line = _("{table}  {where}  host {host}  seats {taken}/{seats}  {state}").format(
            table=t.name,
            where=t.where,
            host=t.host_player or "-",
            taken=t.seats_taken,
            seats=t.seats_total,
            state=states.get(t.state, t.state),
        )
        print(f"{line}{lock}{'  ' + opts if opts else ''}")
    return 0


__all__ = ["GameTable", "Host", "HostConfig", "describe_event", "options_text", "start_host"]
