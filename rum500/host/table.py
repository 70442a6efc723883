"""The table adapter: a :class:`rum500.rules.Game` behind the :class:`net.server.Table` protocol
(apply, view, start, …), with the hand-end review, take-back, the takeover countdown, the
"Rummy!" claim window and the journal hook. See :mod:`rum500.host` for the contract."""

from __future__ import annotations

import logging
import math
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

import msgpack

from net.framing import pack
from net.server import Seat
from rum500.claims import ClaimWindow
from rum500.host.commit import DealCommits, committed
from rum500.host.config import MAX_RESULTS, SEED_OPTIONS, HostConfig
from rum500.host.gamelog import FollowingLog, GameLog
from rum500.host.review import ReviewWindow
from rum500.host.takeover import Takeover
from rum500.rules import Game, IllegalMove, Options, Phase
from rum500.rules.refusals import wrong_phase

log = logging.getLogger("rum500.host")


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


class HostPort(Protocol):
    """What the table asks of its host (:class:`rum500.host.Host` is one), given at
    construction: the table reads the seats and the table id and sends a notice through it,
    and never holds the server (no step from the table back up to the server)."""

    @property
    def table_id(self) -> str: ...

    def seats(self) -> Sequence[Seat]: ...

    def notice(self, code: str, text: str) -> None: ...


class GameTable:
    """A :class:`Game` behind the :class:`net.server.Table` protocol, with the journal hook.
    ``host``: who is seated, connected, away, and where notices go (None: a table alone, as
    in a test — no one is seated and a notice goes nowhere)."""

    def __init__(self, config: HostConfig, table_name: str, host: HostPort | None = None) -> None:
        self.config = config
        self.table_name = table_name
        self.game: Game | None = config.resume_game
        self.seats = self.game.players if self.game else config.players
        self.names: list[str] = [f"seat {i}" for i in range(self.seats)]
        #: called with the events of every start and every applied action
        self.listeners: list[Callable[[list[dict]], None]] = []
        #: the host's narrow port: the seats, the table id, notices
        self.host = host
        #: the hand-end review: seats that said ready, and when the host deals anyway
        self.review = ReviewWindow(config.review_timeout)
        #: the takeover countdown of away players' seats
        self.takeover_clock = Takeover(config.takeover_after)
        #: "Rummy!" calls (option): the window after each discard (rum500/claims.py)
        self.claim_window = ClaimWindow(config.claim_window)
        #: after a move, the players who were here at the old host and have not rejoined
        #: yet: a carried window waits for them as if they were connected (_carry_windows)
        self.rejoining: set[int] = set()
        self._log_failed = False  # a notice about the game log was sent, no success since
        #: packed_view's values by key, with the source each was packed from
        self._packed: dict[str, tuple[object, bytes]] = {}
        #: packed_own_view's last map per seat: the own keys, them packed, and the hand
        #: they were built from
        self._own: dict[int, tuple[dict, dict[str, bytes], list[int]]] = {}
        #: the seats that show their hand to a spectator now, as the views say it:
        #: ``{seat, spectator, name}`` each (rum500/host/shoulder.py keeps it)
        self.shoulders: list[dict] = []
        #: the seat that played each of ``game.actions`` (None: the host's own close_claims)
        self.action_seats: list[int | None] = []
        if self.game is not None:
            self.action_seats = list(config.resume_action_seats or [])
            if len(self.action_seats) != len(self.game.actions):
                self.action_seats = self.game.action_seats()
        if self.game is None:  # refuse impossible options now, not when the match starts
            (config.options or Options()).validate(self.seats)
        #: the next deal's commitment (rum500/host/commit.py); None: this table deals from
        #: the match's random state (a fixed seed, or a resumed match dealt so)
        self.commits: DealCommits | None = None
        if (self.game is None and config.seed is None) or committed(self.game):
            self.commits = DealCommits(self.seats, config.contribution_wait)
            if self.game is None:
                self.commits.begin(1)
            elif self.game.phase is Phase.HAND_OVER:
                self.commits.begin(self.game.hand_number + 1)

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

    def position(self) -> int:
        """How many actions the match has had (0 before it starts): changes with every
        applied action and every take-back."""
        return len(self.game.actions) if self.game is not None else 0

    def start(self, seats: list[dict]) -> list[dict]:
        first = None
        if self.game is None:
            self.game = Game(self.seats, self.config.seed, self.config.options)
            if self.commits is not None:  # the first hand, dealt again from its commitment
                first = self.commits.deal_action(self.host.seats() if self.host else [])
                self.game.apply(first)
                self.action_seats.append(self.game.dealer)
        self.names = [s["name"] for s in seats]
        game, info = self.game, self.match_info(seats)
        if isinstance(self.config.journal, FollowingLog):  # it reads this game: no copy
            self._journal("follow", lambda j: j.follow(game))  # type: ignore[attr-defined]
        self._journal("start_match", lambda j: j.start_match(info))
        if first is not None:
            dealt, dealer = dict(game.actions[0]), game.dealer
            self._journal("record", lambda j: j.record(0, dealer, dealt))
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
            "table_id": self.host.table_id if self.host is not None else "",
            "seats": [dict(s) for s in seats],
        }

    def apply(self, seat: int, action: dict, *, by_host: bool = False) -> list[dict]:
        """Apply ``seat``'s action; its events. ``by_host``: the host plays it itself (a
        bot's, an away player's, the deal that ends a review, the close of a claim window) —
        the caller then has the server tell everyone (``Server.applied``). Raises
        ``ValueError`` (an :class:`IllegalMove`) when refused."""
        game = self.game
        if game is None:
            raise ValueError("the match has not started yet")
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "ready" or (kind == "deal" and game.phase is Phase.HAND_OVER and not by_host):
            return self._ready(seat)  # a player's deal only says "ready": the host deals
        if kind == "take_back":
            return self._take_back(seat)
        if kind == "deal" and not by_host:  # only the host deals (a committed deal included)
            raise wrong_phase(game.phase, "deal")
        if kind == "deal" and self.commits is not None:
            action = self.commits.deal_action(self.host.seats() if self.host else [])
        if kind in ("pass", "rummy"):  # one that names its discard answers that one only
            self.claim_window.check_on(action)
        if kind == "pass":
            return self.claim_window.pass_(game, seat)
        if kind == "rummy":
            self.claim_window.check_call(seat)
        # the host closes the claim window itself (the engine refuses a seat's close_claims)
        by = None if kind == "close_claims" and by_host else seat
        events = game.apply(action, seat=by)  # IllegalMove is a ValueError
        self.action_seats.append(by)
        self.rejoining.clear()  # the carried windows were of the position before
        self.claim_window.follow(game)
        # the seat as the engine took it: None for the host's own close_claims
        seq, done = len(game.actions) - 1, dict(game.actions[-1])
        self._journal("record", lambda j: j.record(seq, by, done))
        if game.phase is Phase.GAME_OVER:
            winner, totals = game.winner, list(game.totals)
            self._journal("finish", lambda j: j.finish(winner, totals))
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self._pack_sheets()
        if game.phase is Phase.HAND_OVER:
            self._open_review()
            if self.commits is not None and kind != "take_back":
                self.commits.begin(game.hand_number + 1)
        else:
            self.review.close()
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
            left = self.review_left()
            if timed and math.isfinite(left):  # (no deadline: none to carry)
                out["review"]["seconds_left"] = round(left, 3)
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
            longest = self.config.review_timeout
            left = _seconds_in(review.get("seconds_left"), math.inf if longest is None else longest)
            self.review.carry(_seats_in(review.get("ready"), self.seats), left)
        carried = False
        if self.claim_open and isinstance(claim, dict) and claim.get("at") == at:
            left = _seconds_in(claim.get("seconds_left"), self.claim_window.length)
            self.claim_window.carry(_seats_in(claim.get("passed"), self.seats), left)
            carried = True
        if carried or (self.review_open and isinstance(review, dict) and review.get("at") == at):
            self.rejoining = _seats_in(windows.get("present"), self.seats)

    # -- the hand-end review (rum500/host/review.py)

    @property
    def ready(self) -> set[int]:
        """The seats that said ready in the open review."""
        return self.review.ready

    @property
    def review_until(self) -> float | None:
        """When the host deals anyway (``time.monotonic``), None with no review open."""
        return self.review.until

    @review_until.setter
    def review_until(self, value: float | None) -> None:
        self.review.until = value

    def _open_review(self) -> None:
        self.review.open()

    @property
    def review_open(self) -> bool:
        return self.game is not None and self.game.phase is Phase.HAND_OVER

    def waiting(self) -> list[int]:
        """The seats the review waits for: connected human players who have not said ready."""
        if not self.review_open:
            return []
        return self.review.waiting(self.humans())

    def humans(self) -> list[int]:
        """The seats of the connected human players — and, while a window carried across a
        move is open, of those who were connected at the old host and are on their way here
        (:attr:`rejoining`): the window waits for them too, up to its deadline."""
        if self.host is None:
            return []
        seats = self.host.seats()
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

    def deal_due(self) -> float:
        """Seconds the next deal still waits for the checking seats' contributions (0.0:
        none missing, or waited long enough; rum500/host/commit.py)."""
        if self.commits is None or self.host is None:
            return 0.0
        return self.commits.due(self.host.seats())

    def review_left(self) -> float:
        """Seconds until the host deals anyway (0.0 when no review is open)."""
        if not self.review_open:
            return 0.0
        return self.review.left()

    def _ready(self, seat: int) -> list[dict]:
        assert self.game is not None
        if self.game.phase is not Phase.HAND_OVER:
            raise IllegalMove("ready is only for the end of a hand")
        if not self.review.say_ready(seat):
            return []  # said twice: nothing new
        return [{"type": "ready", "seat": seat}]

    # -- take back

    def _take_back(self, seat: int) -> list[dict]:
        game = self.game
        assert game is not None
        seats = self.host.seats() if self.host is not None else []
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
        left = len(game.actions)
        self._journal("take_back", lambda j: j.take_back(left))
        events = [{"type": "take_back", "seat": seat, "action": undone}]
        self._tell(events)
        return events

    def _tell(self, events: list[dict]) -> None:
        for listener in self.listeners:
            try:
                listener(events)
            except Exception:  # a bug (e.g. a bot's observe): logged as an error, not hidden
                log.exception("a listener of the table failed on %r", events)

    def view(self, seat: int | None, known: frozenset[str] = frozenset()) -> dict:
        """What ``seat`` may see (None: a spectator). ``known``: keys whose values the caller
        has from before, None in the view (:meth:`Game.view`'s ``known``)."""
        if self.game is None:
            return {}
        # a very long match must not outgrow a frame, nor cost more per hand: the newest
        # score sheets only
        v = self.game.view(seat, MAX_RESULTS, known)
        v["names"] = list(self.names)
        v["results_start"] = max(0, len(self.game.results) - MAX_RESULTS)
        v["review"] = (
            {
                "hand": self.game.hand_number,
                "waiting": self.waiting(),
                "seconds_left": _seconds_out(self.review_left()),
            }
            if self.review_open
            else None
        )
        if v.get("claim"):
            v["claim"].update(self.claim_window.view(self.game, self.humans()))
        v["takeover"] = self.takeover()
        v["shoulders"] = [dict(s) for s in self.shoulders]
        return v

    def packed_view(self, seat: int | None) -> dict[str, bytes]:
        """``view(seat)`` with each top-level value packed (:func:`net.framing.pack`), as the
        server sends it (``packed_view`` of :class:`net.server.Table`). A value whose source
        did not change since the last call is not packed again: the melds and the table's
        points (the engine replaces its list of melds, never changes it in place), the score
        sheets and the last hand (a hand's end adds a sheet, a take-back removes it; a sheet
        is never changed), the options, the lot and the names. Those of the melds, the table's
        points, the score sheets and the options are not even built (``view``'s ``known``)."""
        game = self.game
        if game is None:
            return {}
        results = game.results
        sheets = (len(results), results[-1] if results else None)
        sources = {
            "melds": game.melds,
            "table_points": game.melds,
            "results": sheets,
            "last_hand": sheets,
            "options": game.options,
            "lot": game.lot,
            "names": self.names,
        }
        kept = self._packed
        same = {}
        for key, source in sources.items():
            got = kept.get(key)
            if got is not None and _same(got[0], source):
                same[key] = got[1]
        v = self.view(seat, frozenset(same))
        out = {key: same[key] if key in same else pack(value) for key, value in v.items()}
        for key, source in sources.items():
            if key not in same and key in out:
                kept[key] = (source, out[key])
        return out

    def own_view(self, seat: int) -> dict:
        """The keys of ``view(seat)`` that differ from the spectators' ``view(None)``: with
        them a host builds the public part of an update once for every seat."""
        if self.game is None:
            return {}
        return self.game.own_view(seat)

    def packed_own_view(self, seat: int) -> dict[str, bytes]:
        """``own_view(seat)`` with each value packed (:func:`net.framing.pack`), as the server
        sends it: the very same map as the last time while the seat's own keys are the same
        (the usual seat of an update, not the one that acted), so that the server sends such
        a seat the spectators' frame at once (``packed_own_view`` of
        :class:`net.server.Table`)."""
        game, kept = self.game, self._own.get(seat)
        if (
            kept is not None
            and game is not None
            and not game.may_act(seat)
            and not kept[0]["legal_actions"]
            and kept[2] == game.hands[seat]
        ):
            return kept[1]  # a seat that may not act, its hand as it was: not even built
        own = self.own_view(seat)
        if kept is not None and kept[0] == own:
            return kept[1]
        packed = {key: pack(value) for key, value in own.items()}
        self._own[seat] = (own, packed, list(game.hands[seat]) if game is not None else [])
        return packed

    def shown_view(self, seat: int) -> dict:
        """What a spectator that ``seat`` shows its hand to gets over the spectators' view:
        ``shoulder``, that seat's own keys (``seat``, ``hand``, ``legal_actions``)."""
        if self.game is None:
            return {}
        return {"shoulder": self.game.own_view(seat)}

    def takeover(self) -> list[float | None]:
        """Per seat: seconds until a bot plays the seat of an away player (0.0 while it does);
        None for a present player or a bot, and for every seat when takeover is off or the
        match is over."""
        if self.host is None or self.config.takeover_after is None or self.finished:
            return [None] * self.seats
        return self.takeover_clock.countdown(self.host.seats())

    def seats_changed(self, seats: list[dict]) -> None:
        self.names = [s["name"] or f"seat {i}" for i, s in enumerate(seats)]
        records = [dict(s) for s in seats]
        self._journal("seats", lambda j: j.seats(records))

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

    def _journal(self, method: str, call: Callable[[GameLog], object]) -> None:
        """Call the game log. Its I/O trouble (``OSError``, ``sqlite3.Error``) is expected:
        a warning and a ``log_failed`` notice, and the game goes on. Anything else it raises
        is a bug: logged as an error (with the traceback), and the players are told too."""
        journal = self.config.journal
        if journal is None:
            return
        try:
            call(journal)
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
        if self.host is not None:
            self.host.notice("log_failed", text)


def _same(kept: object, source: object) -> bool:
    """Whether the source of a packed value is the one it was packed from: the same object
    (for the score sheets: as many, the newest the same object)."""
    if isinstance(kept, tuple) and isinstance(source, tuple):
        return kept[0] == source[0] and kept[1] is source[1]
    return kept is source


def _seats_in(value: object, seats: int) -> set[int]:
    """The seat numbers listed in ``value`` (a carried window's), others dropped."""
    if not isinstance(value, list):
        return set()
    return {s for s in value if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats}


def _seconds_out(left: float) -> float | None:
    """A window's seconds left as the view says them: None with no deadline."""
    return round(left, 2) if math.isfinite(left) else None


def _seconds_in(value: object, longest: float) -> float:
    """A carried window's ``seconds_left``, within 0 and ``longest`` (the window's length;
    not a number: the whole length)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return max(0.0, longest)
    return min(max(0.0, float(value)), max(0.0, longest))
