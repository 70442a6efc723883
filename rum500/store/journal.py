"""The host's journal: every match and every applied action, committed before anyone sees it.

The host calls, synchronously and in this order: :meth:`Journal.start_match` once,
:meth:`Journal.record` after each successful ``Game.apply`` and *before* it sends any update,
:meth:`Journal.take_back` when a player takes back actions of their turn (``Game.pop``),
:meth:`Journal.seats` when names, tokens or bots change, and :meth:`Journal.finish` at game
over. ``record`` commits (WAL, ``synchronous=NORMAL``) before it returns, so an action a player
has seen applied is written: it survives the host's death (``kill -9`` included); a
:class:`~rum500.store.flusher.Flusher` thread syncs it to the disk within 0.05 s (group
commit), so a power cut can cost the actions of that last moment only.

The journal never raises into the host. When the log cannot be written (a read-only or full
disk, a damaged or foreign file) it warns once — through ``logging`` and the ``on_warning``
callback, and in :attr:`Journal.warning` — keeps what it could not write in memory, and
writes it all in one transaction as soon as the log is writable again; the match goes on.
:meth:`Journal.close` (also run at interpreter exit) tries a few more times; if the log is
still behind it writes the whole match to a match file (``rum500 import`` takes it and
catches the log up) in the data folder or else the temporary folder, and says so in
:attr:`Journal.closing_note`.

A host hands it its own live game (:meth:`Journal.follow`): the journal then reads each
finished hand and the end of the match from that game, and keeps no copy of the match. A
journal used on its own keeps its own copy (a "shadow"), applying each recorded action to
it: this stores the engine's normalized form of the action, records each finished hand for
the statistics, and notices if the caller and the log ever disagree.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import sqlite3
import tempfile
import time
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path

from rum500.rules import Game, Options, Phase
from rum500.store.db import (
    MatchLock,
    StoreError,
    db_path,
    describe,
    home,
    now,
    open_db,
    transaction,
)
from rum500.store.flusher import Flusher
from rum500.store.matchfile import document, dumps

log = logging.getLogger("rum500.store")

Op = Callable[[sqlite3.Connection], None]


#: seconds :meth:`Journal.close` waits before each last try of a log that is behind
CLOSE_RETRIES = (0.2, 0.5, 1.0)


def seat_rows(
    seats: list[dict], bot_level: str = "bot"
) -> list[tuple[int, str, str | None, str | None]]:
    """(seat, name, token, bot) for each seat of a host's seat list; a seat whose ``bot`` is
    just ``True`` gets the table's ``bot_level`` (what ``rum500 stats`` shows)."""
    rows = []
    for i, s in enumerate(seats):
        s = s or {}
        seat = s.get("seat", i)
        name = s.get("name") or f"seat {seat}"
        bot = s.get("bot")
        if bot is True:
            bot = bot_level or "bot"
        rows.append((int(seat), str(name), s.get("token"), str(bot) if bot else None))
    return rows


class Journal:
    """Writes one match to the game log (see the module docstring). Never raises, except
    :class:`StoreError` from the constructor when the match to resume is being hosted by
    another live process (:class:`MatchLock`).

    ``Journal()`` starts a new match at :meth:`start_match`. To go on with a match of the log,
    ``Journal(resume_id=GAME_ID, game=GAME, match=INFO)`` with the position and info rebuilt
    by :func:`rum500.store.load_for_resume`: ``start_match`` then only refreshes the seats,
    and the actions are appended after those already logged. ``bot_level`` is recorded for
    the seats the host marks only as bots.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        resume_id: int | None = None,
        game: Game | None = None,
        match: dict | None = None,
        bot_level: str = "bot",
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        self.path = Path(path) if path is not None else db_path()
        self.bot_level = bot_level
        #: what a match file needs besides the actions: uid, created_at, table, seats
        self.meta: dict = {}
        if match is not None:
            self.meta = {
                "uid": match.get("uid"),
                "created_at": match.get("created_at"),
                "table": match.get("table") or "",
                "seats": [
                    (int(s.get("seat", k)), str(s.get("name")), None, s.get("bot"))
                    for k, s in enumerate(match.get("seats") or [])
                ],
            }
        #: set by :meth:`close` when the log was behind: what happened to the unsaved actions
        self.closing_note: str | None = None
        self._saved = len(game.actions) if game is not None else 0  # actions on disk
        self.match_id: int | None = resume_id
        self.resuming = resume_id is not None
        self.game: Game | None = game.copy() if game is not None else None
        self._n = len(game.actions) if game is not None else 0
        self._hands = len(game.results) if game is not None else 0
        self._live = False  # self.game is the host's own game (follow), not a copy
        self._pending: list[Op] = []
        self._conn: sqlite3.Connection | None = None
        #: syncs the committed actions to the disk, off the host's path (group commit)
        self.flusher: Flusher | None = None
        self._warned: set[str] = set()  # kinds of problem already reported
        self.warning: str | None = None
        self.on_warning = on_warning
        self.lock: MatchLock | None = None
        if resume_id is not None:
            lock = MatchLock(self.path, resume_id)
            if not lock.acquire():
                raise StoreError(
                    f"game {resume_id} is being hosted right now by another rum500 "
                    f"(process {lock.holder()}); stop that host first"
                )
            self.lock = lock
        if self.resuming and self.game is None:
            self._warn("shadow", "resuming without the rebuilt game: hands are not recorded")
        ref = weakref.ref(self)
        self._atexit = lambda: (j := ref()) is not None and j.close()
        atexit.register(self._atexit)  # a host that ends without close() still saves and unlocks

    # ------------------------------------------------------------------ the host's hook

    @property
    def game_id(self) -> int | None:
        """The match's id in the log (None until its first successful write)."""
        return self.match_id

    def follow(self, game: Game) -> None:
        """The host's own live ``game``: from now on the journal reads the finished hands
        and the end of the match from it (the host applies and takes back; ``record`` and
        ``take_back`` are then called after it did) and keeps no copy of the match — a long
        match costs the host's memory once, not twice. Call it before ``start_match``."""
        self.game = game
        self._live = True
        self._hands = len(game.results)

    def start_match(self, info: dict) -> None:
        """A match begins: players, seed, options, deck, table name and id, seats."""
        try:
            rows = seat_rows(list(info.get("seats") or []), self.bot_level)
            table = str(info.get("table") or info.get("table_name") or info.get("name") or "")
            table_id = str(info.get("table_id") or "")
            self.meta["seats"] = rows
            self.meta["table"] = table
            if self.resuming:
                self._pending.append(self._op_seats(rows, table, table_id))
            else:
                players = int(info["players"])
                seed = int(info["seed"])
                options = dict(info.get("options") or {})
                deck = info.get("deck")
                try:
                    if not self._live:
                        self.game = Game(players, seed, Options.from_dict(options), deck)
                except ValueError as e:
                    self.game = None
                    self._warn("shadow", f"the game log cannot follow this match ({e})")
                self._pending.append(
                    self._op_start(players, seed, options, deck, table, table_id, rows)
                )
        except Exception as e:  # a malformed info dict must not stop the host
            self._warn("input", f"the game log could not start this match: {e!r}")
            return
        self._flush()

    def record(self, seq: int, seat: int, action: dict) -> None:
        """One action the host has just applied; on disk when this returns (if it can be)."""
        try:
            stored = dict(action)
            results: list[dict] = []
            over: tuple[int | None, list[int]] | None = None
            if self.game is not None and self._live:  # the host applied it to this game
                results = self.game.results[self._hands :]
                self._hands = len(self.game.results)
                if self.game.phase is Phase.GAME_OVER:
                    over = (self.game.winner, list(self.game.totals))
            elif self.game is not None:
                try:
                    self.game.apply(action, seat)
                except Exception as e:
                    self._warn("shadow", f"the game log's copy of the match disagrees: {e}")
                    self.game = None
                else:
                    stored = dict(self.game.actions[-1])
                    results = self.game.results[self._hands :]
                    self._hands = len(self.game.results)
                    if self.game.phase is Phase.GAME_OVER:
                        over = (self.game.winner, list(self.game.totals))
            n = self._n
            self._n += 1
            self._pending.append(self._op_action(n, seq, seat, stored, results, over))
        except Exception as e:
            self._warn("input", f"the game log could not record an action: {e!r}")
            return
        self._flush()

    def take_back(self, seq: int) -> None:
        """The action with index ``seq`` (in ``Game.actions``) and any after it are taken
        back: they leave the log, which then replays to exactly the live game."""
        try:
            seq = int(seq)
            if seq < 0:
                raise ValueError(f"no action {seq}")
            if seq >= self._n:
                return  # nothing of ours to take back
            if self.game is not None and self._live:  # the host took it back already
                self._hands = len(self.game.results)
            elif self.game is not None:
                try:
                    g = self.game
                    self.game = Game.replay(
                        g.players, g.seed, g.actions[:seq], g.options, g.first_deck
                    )
                except Exception as e:
                    self._warn("shadow", f"the game log's copy of the match disagrees: {e}")
                    self.game = None
                else:
                    self._hands = len(self.game.results)
            self._n = seq
            self._saved = min(self._saved, seq)
            hands = self._hands if self.game is not None else None
            totals = list(self.game.totals) if self.game is not None else None
            self._pending.append(self._op_take_back(seq, hands, totals))
        except Exception as e:
            self._warn("input", f"the game log could not take back an action: {e!r}")
            return
        self._flush()

    def seats(self, seats: list[dict]) -> None:
        """Names, tokens or bots changed."""
        try:
            rows = seat_rows(list(seats), self.bot_level)
            self.meta["seats"] = rows
            self._pending.append(self._op_seats(rows, None))
        except Exception as e:
            self._warn("input", f"the game log could not record the seats: {e!r}")
            return
        self._flush()

    def note(self, text: str) -> None:
        """Something that happened to the match besides its actions, e.g. that the table was
        handed to another host (the ``notes`` table), after the actions logged so far."""
        try:
            text, at = str(text)[:500], now()

            def op(conn: sqlite3.Connection) -> None:
                if self.match_id is None:
                    return
                (n,) = conn.execute(
                    "SELECT COUNT(*) FROM notes WHERE match_id = ?", (self.match_id,)
                ).fetchone()
                conn.execute(
                    "INSERT INTO notes (match_id, n, at, text) VALUES (?, ?, ?, ?)",
                    (self.match_id, n, at, text),
                )

            self._pending.append(op)
        except Exception as e:
            self._warn("input", f"the game log could not record a note: {e!r}")
            return
        self._flush()

    def finish(self, winner: int | None, totals: list[int]) -> None:
        """Game over."""
        try:
            self._pending.append(self._op_finish(winner, [int(t) for t in totals]))
        except Exception as e:
            self._warn("input", f"the game log could not record the end of the match: {e!r}")
            return
        self._flush()

    def close(self) -> None:
        """Write what is still pending and close the database. A log that is behind gets a
        few more tries; then the match goes to a match file (see :attr:`closing_note`)."""
        atexit.unregister(self._atexit)
        self._flush()
        for pause in CLOSE_RETRIES:
            if not self._pending:
                break
            time.sleep(pause)
            if self._conn is not None:  # a fresh connection for each last try
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None
            self._flush()
        if self._pending:
            self.closing_note = self._save_elsewhere()
            log.warning("%s", self.closing_note)
        if self.flusher is not None:
            self.flusher.close()  # what was committed is synced before the log closes
            self.flusher = None
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pending(self) -> int:
        """How many journal calls wait in memory for the log to become writable."""
        return len(self._pending)

    @property
    def unsaved(self) -> int:
        """How many of the match's actions are not in the game log yet."""
        return self._n - self._saved if self._pending else 0

    # ------------------------------------------------------------------ the last resort

    def match_document(self) -> dict | None:
        """The whole match as a match file (docs/storage.md) from the journal's own copy of
        the game, or None when it has none."""
        game = self.game
        if game is None or self.meta.get("uid") is None:
            return None
        replay = Game(game.players, game.seed, game.options, game.first_deck)
        actions = []
        for a in game.actions[: self._n]:  # what the journal was told of
            seat = replay.to_move
            replay.apply(a, seat)
            actions.append({"seat": seat, "action": dict(a)})
        rows = {r[0]: r for r in self.meta.get("seats") or []}
        seats = []
        for k in range(game.players):
            _seat, name, _token, bot = rows.get(k, (k, f"seat {k}", None, None))
            seats.append({"seat": k, "name": str(name)[:64] or f"seat {k}", "bot": bot})
        over = game.phase is Phase.GAME_OVER
        match = {
            "uid": self.meta["uid"],
            "created_at": self.meta.get("created_at") or now(),
            "finished_at": now() if over else None,
            "table": self.meta.get("table") or "",
            "players": game.players,
            "seed": str(game.seed),
            "options": game.options.to_dict(),
            "deck": game.first_deck,
            "seats": seats,
            "actions": actions,
            "status": "finished" if over else "playing",
            "winner": game.winner if over else None,
            "totals": list(game.totals),
        }
        return document(match)

    def _save_elsewhere(self) -> str:
        """Write the match to a match file beside the log or in the temporary folder; the
        line that tells the user what happened."""
        total = self._n
        lost = self.unsaved
        head = (
            f"the game log {self.path} is behind: {lost} of {total} actions of this match "
            "could not be saved there"
        )
        try:
            doc = self.match_document()
        except Exception as e:  # the shadow cannot be replayed: nothing sound to write
            log.debug("no match file: %r", e)
            doc = None
        if doc is None:
            return f"{head}, and the match cannot be written elsewhere: they are lost."
        text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
        name = f"rum500-unsaved-{doc['match']['uid'][:12]}.json"
        folders = [self.path.parent, home(), Path(tempfile.gettempdir())]
        for folder in dict.fromkeys(folders):  # the log's folder, the data folder, temp
            file = folder / name
            try:
                fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError:
                with contextlib.suppress(OSError):
                    file.unlink()
                continue
            return (
                f"{head}. The whole match is saved in {file}: when the disk is fixed, "
                f"'rum500 import {file}' puts it back in the game log."
            )
        return f"{head}, and no match file could be written either: they are lost."

    # ------------------------------------------------------------------ writing

    def _flush(self) -> None:
        if not self._pending:
            return
        saved = self.match_id
        try:
            if self._conn is None:
                self._conn = open_db(self.path)
                # written before anyone is told (kill -9 loses nothing), synced to the disk
                # by the flusher a moment later (group commit: rum500/store/flusher.py)
                self._conn.execute("PRAGMA synchronous = NORMAL")
            with transaction(self._conn) as conn:
                for op in self._pending:
                    op(conn)
        except StoreError as e:
            self.match_id = saved
            self._warn(
                "write",
                f"{str(e).rstrip('.')}. The match goes on in memory and is saved if the log "
                "becomes usable again.",
            )
            return
        except (sqlite3.Error, OSError) as e:
            self.match_id = saved
            self._warn(
                "write",
                f"cannot write the game log {self.path}: {describe(e, self.path)}. The match "
                "goes on in memory and is saved when the log is writable again.",
            )
            return
        if self.lock is None and self.match_id is not None:
            self.lock = MatchLock(self.path, self.match_id)
            if not self.lock.acquire():  # cannot happen for a match we just created
                self.lock = None
        if self.flusher is None:
            self.flusher = Flusher(self.path)
        self.flusher.committed()
        caught_up = len(self._pending)
        self._pending.clear()
        self._saved = self._n
        if "write" in self._warned:
            self._warned.discard("write")
            self.warning = None
            log.warning("the game log is writable again (%d pending writes saved)", caught_up)

    def _warn(self, kind: str, message: str) -> None:
        """Report a problem once per kind: ``write`` (an outage, cleared when the log is
        writable again), ``input`` (a malformed host call) or ``shadow``."""
        if kind in self._warned:
            return
        self._warned.add(kind)
        self.warning = message
        log.warning("%s", message)
        if self.on_warning is not None:
            with contextlib.suppress(Exception):
                self.on_warning(message)

    def _op_start(
        self,
        players: int,
        seed: int,
        options: dict,
        deck: object,
        table: str,
        table_id: str,
        rows: list,
    ) -> Op:
        uid = uuid.uuid4().hex
        stamp = now()
        self.meta.update(uid=uid, created_at=stamp)

        def op(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "INSERT INTO matches (uid, created_at, updated_at, table_name, table_id, players,"
                " seed, options, deck, status, totals, source)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'playing', ?, 'host')",
                (
                    uid,
                    stamp,
                    stamp,
                    table,
                    table_id,
                    players,
                    str(seed),
                    dumps(options),
                    dumps(deck) if deck is not None else None,
                    dumps([0] * players),
                ),
            )
            self.match_id = cur.lastrowid
            _write_seats(conn, self.match_id, rows)

        return op

    def _op_seats(self, rows: list, table: str | None, table_id: str = "") -> Op:
        def op(conn: sqlite3.Connection) -> None:
            if self.match_id is None:
                return
            _write_seats(conn, self.match_id, rows)
            if table:
                conn.execute(
                    "UPDATE matches SET table_name = ? WHERE id = ?", (table, self.match_id)
                )
            if table_id:
                conn.execute(
                    "UPDATE matches SET table_id = ? WHERE id = ?", (table_id, self.match_id)
                )

        return op

    def _op_action(
        self,
        n: int,
        seq: int,
        seat: int,
        action: dict,
        results: list[dict],
        over: tuple[int | None, list[int]] | None,
    ) -> Op:
        stamp = now()
        text = dumps(action)

        def op(conn: sqlite3.Connection) -> None:
            if self.match_id is None:
                return
            conn.execute(
                "INSERT INTO actions (match_id, n, seq, seat, action, at) VALUES (?,?,?,?,?,?)",
                (self.match_id, n, seq, seat, text, stamp),
            )
            for r in results:
                conn.execute(
                    "INSERT OR REPLACE INTO hands (match_id, hand, result) VALUES (?, ?, ?)",
                    (self.match_id, r["hand"], dumps(r)),
                )
            if results:
                conn.execute(
                    "UPDATE matches SET totals = ?, hands_played = ? WHERE id = ?",
                    (dumps(results[-1]["totals"]), results[-1]["hand"], self.match_id),
                )
            if over is not None:
                _finish(conn, self.match_id, over[0], over[1], stamp)
            conn.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (stamp, self.match_id))

        return op

    def _op_take_back(self, n: int, hands: int | None, totals: list[int] | None) -> Op:
        stamp = now()

        def op(conn: sqlite3.Connection) -> None:
            if self.match_id is None:
                return
            conn.execute("DELETE FROM actions WHERE match_id = ? AND n >= ?", (self.match_id, n))
            if hands is not None and totals is not None:
                conn.execute(
                    "DELETE FROM hands WHERE match_id = ? AND hand > ?", (self.match_id, hands)
                )
                conn.execute(
                    "UPDATE matches SET totals = ?, hands_played = ?, status = 'playing',"
                    " winner = NULL, finished_at = NULL WHERE id = ?",
                    (dumps(totals), hands, self.match_id),
                )
            conn.execute("UPDATE matches SET updated_at = ? WHERE id = ?", (stamp, self.match_id))

        return op

    def _op_finish(self, winner: int | None, totals: list[int]) -> Op:
        stamp = now()

        def op(conn: sqlite3.Connection) -> None:
            if self.match_id is not None:
                _finish(conn, self.match_id, winner, totals, stamp)

        return op


def _write_seats(conn: sqlite3.Connection, match_id: int, rows: list) -> None:
    for seat, name, token, bot in rows:
        conn.execute(
            "INSERT INTO seats (match_id, seat, name, token, bot) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id, seat) DO UPDATE SET name = excluded.name,"
            " token = coalesce(excluded.token, seats.token), bot = excluded.bot",
            (match_id, seat, name, token, bot),
        )


def _finish(
    conn: sqlite3.Connection, match_id: int, winner: int | None, totals: list[int], stamp: str
) -> None:
    conn.execute(
        "UPDATE matches SET status = 'finished', winner = ?, totals = ?,"
        " finished_at = coalesce(finished_at, ?), updated_at = ? WHERE id = ?",
        (winner, dumps(totals), stamp, stamp, match_id),
    )
