"""The seat driver: who plays the seats the host plays — its bots, an away player's seat
after the takeover countdown, the deal that ends a hand-end review, the close of a "Rummy!"
claim window — and when.

The bots think in a WORKER (:class:`BotWorker`), never on the event loop: a bot's ``choose``
(an expert's search takes hundreds of milliseconds) runs there while the host goes on
answering its players. The worker is one thread per host that owns the bots, keyed by seat:
every ``observe`` (the events and the seat's new view) and every ``choose`` (the view in, the
action out) goes to it in order, so a bot keeps its memory across turns and a seeded bot
makes the same choices as it did on the event loop. A thread, not a process: no start-up
cost per host, and the bots stay reachable (tests put their own in :attr:`BotWorker.bots`);
the event loop then waits for the GIL at most :data:`SWITCH_INTERVAL` (set for the whole
process). bench/responsive.py, a seated player's ping from outside: p99 0.4 s with two
``expert`` bots on the loop, about 3 ms in the worker (random bots: about 1.5 ms).

Contract of :class:`SeatDriver`: :meth:`SeatDriver.wake` after anything that may change who
plays next (the host calls it on every change of the server); :meth:`SeatDriver.start`
runs the loop as a task; :meth:`SeatDriver.stop` ends it and the worker. A bot's choice
that comes back after the table moved on (another action, a freeze, a close) is dropped and
the driver decides again. A bot that raises, or chooses an illegal action, is a bug: logged
as an error, and the seat plays its first legal action so the table goes on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import math
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from net.server import PLAYING, Server
from rum500.bots import LEVELS, make_bot
from rum500.host.config import HostConfig
from rum500.host.table import GameTable
from rum500.rules import Game, Phase

log = logging.getLogger("rum500.host")
T = TypeVar("T")
#: seconds (the GIL switch interval) a host with a bot worker runs with at most
SWITCH_INTERVAL = 0.001


class BotWorker:
    """The bots of one host, keyed by seat, living in one worker thread: :meth:`observe`
    and :meth:`choose` run there in the order they are asked."""

    def __init__(self, level: str, seed: int | None) -> None:
        if level not in LEVELS:
            log.warning("no bot level %r; the bots are random", level)
            level = "random"
        self.level = level
        self.seed = seed
        #: the bots by seat (made on first use); touched by the worker thread only, once
        #: the match runs (a test may put its own bot here before)
        self.bots: dict[int, Any] = {}
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rum500-bots")
        # the event loop waits for the GIL at most this long while a bot searches (the
        # default 5 ms would be most of a seated player's round trip): bench/responsive.py
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self._closed = False

    def bot(self, seat: int) -> Any:
        """The bot of ``seat`` (made, seeded by the table's seed and the seat, if new)."""
        bot = self.bots.get(seat)
        if bot is None:
            seed = None if self.seed is None else self.seed * 31 + seat
            bot = self.bots[seat] = make_bot(self.level, seed)
        return bot

    def _observe(self, seat: int, events: list[dict], view: dict) -> None:
        observe = getattr(self.bot(seat), "observe", None)
        if observe is not None:
            observe(events, view)

    def observe(self, seat: int, events: list[dict], view: dict) -> None:
        """Show ``seat``'s bot what happened (queued: it runs in the worker, in order)."""
        if self._closed:
            return
        future = self._pool.submit(self._observe, seat, events, view)
        future.add_done_callback(functools.partial(_log_failure, seat))

    async def choose(self, seat: int, view: dict) -> dict:
        """``seat``'s bot's action from ``view``, computed in the worker (after every
        observe asked before it). Raises what the bot raises."""
        if self._closed:
            raise RuntimeError("the bots have stopped")
        future = self._pool.submit(lambda: self.bot(seat).choose(view))
        return await asyncio.wrap_future(future)

    async def call(self, fn: Callable[[], T]) -> T:
        """``fn()`` run in the worker after everything asked of it so far (e.g. a look at a
        bot's memory that no observe or choose touches at the same time)."""
        if self._closed:
            raise RuntimeError("the bots have stopped")
        return await asyncio.wrap_future(self._pool.submit(fn))

    def close(self) -> None:
        """Stop taking work; what is queued is dropped (a bot thinking finishes alone)."""
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)


def _log_failure(seat: int, future: concurrent.futures.Future) -> None:
    if future.cancelled():
        return
    error = future.exception()
    if error is not None:  # a bug in a bot's observe: logged as an error, not hidden
        log.error(
            "a listener of the table failed: the observe of seat %d's bot", seat, exc_info=error
        )


class SeatDriver:
    """Plays the host's seats (see the module docstring)."""

    def __init__(self, config: HostConfig, table: GameTable, server: Server) -> None:
        self.config = config
        self.table = table
        self.server = server
        self.worker = BotWorker(config.bot_level, config.seed)
        self._wake = asyncio.Event()
        self._plan: tuple[int, int, float] | None = None  # (seq, seat, when)
        self._closing = False
        self._task: asyncio.Task | None = None

    @property
    def bots(self) -> dict[int, Any]:
        """The bots by seat (:attr:`BotWorker.bots`)."""
        return self.worker.bots

    def wake(self) -> None:
        """Something changed: decide again who plays next, and when."""
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._drive())

    def halt(self) -> None:
        """Stop playing at once, without waiting for the loop to end (a host that dies)."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()

    async def stop(self) -> None:
        """End the loop and the worker (the host is closing or abandoning its table)."""
        # a flag as well as cancel(), for safety: a cancellation that arrives just as
        # the event it waits for is set must still end the loop
        self._closing = True
        self._wake.set()
        if self._task:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=5)
        self.worker.close()

    def bot_name(self) -> str:
        return f"Bot {sum(1 for s in self.server.seats if s.bot) + 1}"

    # -- what the bots see

    def observe(self, events: list[dict]) -> None:
        """Show every bot at the table what happened (the hard bot remembers the hand)."""
        for s in self.server.seats:
            if s.bot:
                self.worker.observe(s.index, events, self.table.view(s.index))

    def remind(self) -> None:
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
                    self.worker.observe(seat, events, again.view(seat))

    # -- who plays next, and when

    def _humans_seated(self) -> bool:
        return any(not s.bot and s.conn is not None for s in self.server.seats)

    def next(self) -> tuple[int, float] | None:
        """(seat, seconds to wait) of the next host-played action, or None."""
        server, table = self.server, self.table
        if server.state != PLAYING or table.to_move is None or server.frozen is not None:
            return None
        seat = server.seats[table.to_move]
        if table.review_open:  # the dealer deals when every connected human is ready, or at
            wait = table.review_left() if table.waiting() else 0.0  # the timeout — and not
            if math.isinf(wait):
                return None  # (no deadline: when they are ready)
            return seat.index, max(wait, table.deal_due())  # before the contributions
        if table.claim_open:  # "Rummy!" calls: bots' calls, then the host closes the window
            self._ask_bots()
            return seat.index, table.claim_due()
        if seat.bot:
            return seat.index, self.config.bot_delay if self._humans_seated() else 0.0
        wait = table.takeover_clock.wait(seat)
        if wait is not None:
            if wait > 0:
                return seat.index, wait
            return seat.index, self.config.bot_delay if self._humans_seated() else 0.0
        return None

    async def _drive(self) -> None:
        """Play the host's seats: bots, away players, and the deal between hands."""
        while not self._closing:
            self._wake.clear()
            nxt = self.next()
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
                    async with asyncio.timeout(left):
                        await self._wake.wait()
                continue  # whatever happened, decide again
            self._plan = None
            try:
                await self._play(seat)
            except Exception:  # a bug: say so loudly, and do not spin on it
                log.exception("the host could not play seat %d", seat)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self._wake.wait()
            await asyncio.sleep(0)

    def _ask_bots(self) -> None:
        """Once per claim phase: each bot seat says, from its view, whether and when it calls
        "Rummy!" (rum500/claims.py)."""
        table = self.table
        if table.game is None:
            return
        bots = {s.index: self.config.bot_level for s in self.server.seats if s.bot}
        table.claim_window.ask(table.game, bots, table.view, self.config.seed)

    def _apply(self, seat: int, action: dict) -> None:
        """Apply an action the host plays itself, then have the server tell everyone."""
        events = self.table.apply(seat, action, by_host=True)
        self.server.applied(seat, events)

    async def _play(self, seat: int) -> None:
        """Play one action for ``seat``: the deal that ends a review, a bot's "Rummy!" call
        or the close of the claim window, or its bot's choice (made in the worker)."""
        table = self.table
        if table.review_open:
            self._apply(seat, {"type": "deal"})
            return
        if table.claim_open:  # bots' calls due now (rum500/claims.py), else the close
            assert table.game is not None
            for by, action in table.claim_window.now(table.game, table.humans()):
                try:
                    self._apply(seat if by is None else by, action)
                    return
                except ValueError as e:
                    log.info("the call of seat %s was refused: %s", by, e)
            return
        view = table.view(seat)
        at = table.position()
        try:
            action = await self.worker.choose(seat, view)
        except Exception:
            if self._closing:
                return
            log.exception("the bot of seat %d failed; it plays the first legal action", seat)
            action = view["legal_actions"][0]
        if self._moved_on(at, seat):
            return  # the table moved on while the bot thought: decide again
        try:
            self._apply(seat, action)
        except ValueError as e:
            log.error("the bot of seat %d chose an illegal action %r: %s", seat, action, e)
            self._apply(seat, view["legal_actions"][0])

    def _moved_on(self, at: int, seat: int) -> bool:
        """Whether the table is no longer where the bot of ``seat`` was asked (``at``: the
        number of actions then), or that seat no longer the one the host plays now."""
        nxt = self.next() if not self._closing else None
        return self.table.position() != at or nxt is None or nxt[0] != seat
