"""Damaged game logs: which matches can still be read, and ``rum500 salvage`` that copies
every readable match into a new log.

A log whose file was damaged (a bad disk, a copy cut short, garbage written over some of its
pages) can still hold many good matches. :func:`check_match` reads one match the way replay
and export do and says what is wrong with it. :func:`salvage` reads the damaged file row by
row — one query per row, so a bad page costs only the rows on it — replays each match
through the rules, and writes into a new log every match that replays: whole, or the part
before the first unreadable or illegal action (then it is unfinished, and can be resumed).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from rum500.rules import Game, IllegalMove, Options, Phase
from rum500.store.db import StoreError, now, open_db, transaction
from rum500.store.matchfile import dumps

#: give up looking for more matches after this many ids in a row that are not there
MAX_GAP = 1000


def check_match(conn: sqlite3.Connection, mid: int) -> str | None:
    """What makes match ``mid`` unreadable (it cannot be replayed or exported), or None."""
    try:
        rows = conn.execute("SELECT n, action FROM actions WHERE match_id = ? ORDER BY n", (mid,))
        for k, (n, text) in enumerate(rows):
            if n != k:
                return f"action {k + 1} is missing"
            json.loads(text)
        for (text,) in conn.execute("SELECT result FROM hands WHERE match_id = ?", (mid,)):
            json.loads(text)
        conn.execute("SELECT count(*) FROM seats WHERE match_id = ?", (mid,)).fetchone()
    except sqlite3.DatabaseError as e:
        return f"its part of the file is damaged ({e})"
    except (TypeError, ValueError):
        return "an entry is damaged"
    return None


def _open_damaged(path: Path) -> sqlite3.Connection:
    """A read-only connection to a log that may be damaged (no checks beyond SQLite's)."""
    if not path.is_file():
        raise StoreError(f"there is no game log at {path}")
    if path.stat().st_size == 0:
        raise StoreError(f"the game log {path} is empty (0 bytes): there is nothing to salvage")
    uri = f"{path.resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        conn.execute("PRAGMA query_only = ON")
    except sqlite3.Error as e:
        raise StoreError(f"cannot open {path}: {e}") from None
    return conn


def _one(conn: sqlite3.Connection, sql: str, *params: object) -> tuple | None:
    """One row, or None when it is missing or cannot be read."""
    try:
        return conn.execute(sql, params).fetchone()
    except sqlite3.DatabaseError:
        return None


def _match_ids(conn: sqlite3.Connection) -> list[int]:
    try:
        return [int(r[0]) for r in conn.execute("SELECT id FROM matches ORDER BY id")]
    except sqlite3.DatabaseError:
        pass
    top = _one(conn, "SELECT seq FROM sqlite_sequence WHERE name = 'matches'")
    ids, gap, mid = [], 0, 1
    while gap < MAX_GAP and (top is None or mid <= int(top[0])):
        try:
            found = conn.execute("SELECT 1 FROM matches WHERE id = ?", (mid,)).fetchone()
            there = found is not None
        except sqlite3.DatabaseError:  # its row is on a damaged page: a match (ids are never
            there = top is not None  # reused) to report as lost, up to the last id given
        if there:
            ids.append(mid)
            gap = 0
        else:
            gap += 1
        mid += 1
    return ids


def _read_match(conn: sqlite3.Connection, mid: int) -> tuple[dict, list[dict], Game, int, str]:
    """(match row, seats, the replayed game, actions in the log (-1: cannot be counted),
    what stopped the replay)."""
    conn.row_factory = sqlite3.Row
    try:
        row = _one(conn, "SELECT * FROM matches WHERE id = ?", mid)
        if row is None:
            raise StoreError("its row cannot be read")
        match = dict(row)
        seats = []
        for seat in range(int(match["players"])):
            s = _one(conn, "SELECT * FROM seats WHERE match_id = ? AND seat = ?", mid, seat)
            seats.append(
                dict(s)
                if s is not None
                else {
                    "match_id": mid,
                    "seat": seat,
                    "name": f"seat {seat}",
                    "token": None,
                    "bot": None,
                }
            )
        try:
            options = Options.from_dict(json.loads(match["options"]))
            deck = json.loads(match["deck"]) if match["deck"] is not None else None
            game = Game(int(match["players"]), int(match["seed"]), options, deck)
        except (TypeError, ValueError) as e:
            raise StoreError(f"its settings cannot be read ({e})") from None
        total = _one(conn, "SELECT count(*) FROM actions WHERE match_id = ?", mid)
        logged = int(total[0]) if total is not None else -1
        stop = ""
        n = 0
        while True:
            r = _one(conn, "SELECT seat, action FROM actions WHERE match_id = ? AND n = ?", mid, n)
            if r is None:
                if logged < 0 or n < logged:
                    stop = f"action {n + 1} cannot be read"
                break
            try:
                game.apply(json.loads(r["action"]), r["seat"])
            except (ValueError, TypeError, IllegalMove) as e:
                stop = f"action {n + 1} is damaged ({e})"
                break
            n += 1
        return match, seats, game, logged if logged >= n else -1, stop
    finally:
        conn.row_factory = None


def salvage(source: Path, target: Path) -> list[dict]:
    """Copy every readable match of the log ``source`` into a new log ``target`` (which must
    not exist). One line of report per match: ``{game_id, new_id, actions, of, status,
    problem}`` (``new_id`` None: nothing of it could be saved)."""
    if not source.is_file():
        raise StoreError(f"there is no game log at {source}")
    if target.exists():
        raise StoreError(f"{target} already exists: name a new file with --out")
    if not target.parent.is_dir():
        raise StoreError(f"cannot write {target}: the folder {target.parent} does not exist")
    damaged = _open_damaged(source)
    report: list[dict] = []
    try:
        ids = _match_ids(damaged)
        out = open_db(target)
        try:
            for mid in ids:
                report.append(_salvage_one(damaged, out, mid))
        finally:
            out.close()
    finally:
        damaged.close()
    if not any(r["new_id"] for r in report):
        with contextlib.suppress(OSError):
            target.unlink()
    return report


def _salvage_one(damaged: sqlite3.Connection, out: sqlite3.Connection, mid: int) -> dict:
    try:
        match, seats, game, logged, stop = _read_match(damaged, mid)
    except StoreError as e:
        return {"game_id": mid, "new_id": None, "actions": 0, "of": None, "problem": str(e)}
    over = game.phase is Phase.GAME_OVER
    status = "finished" if over else "playing"
    stamp = now()
    with transaction(out):
        cur = out.execute(
            "INSERT INTO matches (uid, created_at, updated_at, finished_at, table_name, players,"
            " seed, options, deck, status, winner, totals, hands_played, source)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match["uid"],
                match["created_at"],
                stamp,
                match["finished_at"] if over else None,
                match["table_name"] or "",
                match["players"],
                str(match["seed"]),
                match["options"],
                match["deck"],
                status,
                game.winner if over else None,
                dumps(game.totals),
                len(game.results),
                match.get("source") or "host",
            ),
        )
        new_id = int(cur.lastrowid)
        for s in seats:
            out.execute(
                "INSERT INTO seats (match_id, seat, name, token, bot) VALUES (?, ?, ?, ?, ?)",
                (new_id, s["seat"], s["name"], s["token"], s["bot"]),
            )
        replay = Game(game.players, game.seed, game.options, game.first_deck)
        rows = []
        for n, action in enumerate(game.actions):
            seat = replay.to_move
            replay.apply(action, seat)
            rows.append((new_id, n, n, seat, dumps(action), stamp))
        out.executemany(
            "INSERT INTO actions (match_id, n, seq, seat, action, at) VALUES (?,?,?,?,?,?)", rows
        )
        out.executemany(
            "INSERT INTO hands (match_id, hand, result) VALUES (?, ?, ?)",
            [(new_id, r["hand"], dumps(r)) for r in game.results],
        )
    return {
        "game_id": mid,
        "new_id": new_id,
        "actions": len(game.actions),
        "of": logged if logged >= 0 else None,
        "status": status,
        "problem": stop or None,
    }
