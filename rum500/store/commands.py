"""``rum500 history | stats | replay | export | import``: the game log from the command line.

Each ``run_*(args) -> int`` returns the exit status; every problem a user can meet is one
line on stderr (``rum500: …``) and status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rum500.store import exchange
from rum500.store import log as L
from rum500.store.db import StoreError, db_path, describe, open_db, reading


def _fail(message: str) -> int:
    print(f"rum500: {message}", file=sys.stderr)
    return 1


def _local(stamp: str | None) -> str:
    """An ISO UTC stamp of the log shown in local time, to the minute."""
    if not stamp:
        return ""
    try:
        return dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def _table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.rjust(widths[k]) if k in right else c.ljust(widths[k]) for k, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _read_log(args: argparse.Namespace, query: Callable[[Any], Any]) -> tuple[Any, int | None]:
    """``(query(conn), None)`` on the game log, or ``(None, exit code)`` after saying why;
    with ``--json`` a missing game log reads as an empty list."""
    try:
        with reading() as conn:
            return query(conn), None
    except StoreError as e:
        if getattr(args, "json", False) and "no game log yet" in str(e):
            return [], None
        return None, _fail(str(e))


def run_history(args: argparse.Namespace) -> int:
    """Past matches, newest first: date, table, players, winner, totals."""
    limit = getattr(args, "limit", 50) or 50
    everything = bool(getattr(args, "all", False))
    found, code = _read_log(
        args, lambda conn: (L.history(conn, limit, everything), L.not_played(conn))
    )
    if code is not None:
        return code
    matches, hidden = found if isinstance(found, tuple) else (found, 0)
    if getattr(args, "json", False):
        print(json.dumps(matches, ensure_ascii=False, indent=1))
        return 0
    note = ""
    if hidden and not everything:
        note = (
            f"({hidden} match{'es' if hidden != 1 else ''} left before the first hand ended "
            f"{'are' if hidden != 1 else 'is'} not listed: --all lists them)"
        )
    if not matches:
        print("No matches in the game log yet.")
        if note:
            print(note)
        return 0
    rows = [["game", "date", "table", "players", "winner", "totals", "state"]]
    damaged = 0
    for m in matches:
        if m["status"] == "finished":
            state = f"finished, {m['hands']} hand{'s' if m['hands'] != 1 else ''}"
        else:
            state = f"unfinished, {m['hands']} hand{'s' if m['hands'] != 1 else ''} played"
        if m["source"] == "import":
            state += " (imported)"
        if m.get("damaged"):
            state = f"DAMAGED: {m['damaged']}"
            damaged += 1
        rows.append(
            [
                str(m["id"]),
                _local(m["date"]),
                m["table"] or "-",
                ", ".join(m["players"]),
                m["winner"] or "-",
                " / ".join(str(t) for t in m["totals"]),
                state,
            ]
        )
    print(_table(rows, right={0}))
    if note:
        print(note)
    if damaged:
        print(
            f"{damaged} match{'es' if damaged != 1 else ''} cannot be replayed or exported: "
            "the game log is damaged. 'rum500 salvage' copies every match that can still be "
            "read into a new log."
        )
    return 0


def run_salvage(args: argparse.Namespace) -> int:
    """Copy every match of a damaged game log that can still be read into a new log."""
    from rum500.store.salvage import salvage

    source = db_path()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = (
        Path(args.out)
        if getattr(args, "out", None)
        else (source.with_name(f"games-salvaged-{stamp}.sqlite3"))
    )
    try:
        report = salvage(source, target)
    except StoreError as e:
        return _fail(str(e))
    except (sqlite3.Error, OSError) as e:
        return _fail(f"cannot write {target}: {describe(e, target)}")
    saved = [r for r in report if r["new_id"]]
    for r in report:
        if r["new_id"] is None:
            print(f"game {r['game_id']}: lost — {r['problem']}")
        elif r["problem"]:
            of = f"{r['actions']} of {r['of']}" if r["of"] else f"the first {r['actions']}"
            print(
                f"game {r['game_id']}: {of} actions saved as game {r['new_id']} "
                f"(unfinished: it can be resumed) — {r['problem']}"
            )
        else:
            print(f"game {r['game_id']}: whole ({r['actions']} actions) as game {r['new_id']}")
    if not saved:
        print(f"nothing could be read from {source}: no new log written")
        return 1
    print(
        f"{len(saved)} of {len(report)} matches written to {target}. To use it as your game "
        f"log: move {source} aside, then move {target} to {source}."
    )
    return 0


def run_stats(args: argparse.Namespace) -> int:
    """Per player name: matches, wins, win rate, mean hand score, best match, longest run."""
    player = getattr(args, "player", None)
    table, code = _read_log(args, lambda conn: L.stats(conn, player))
    if code is not None:
        return code
    if getattr(args, "json", False):
        print(json.dumps(table, ensure_ascii=False, indent=1))
        return 0
    if not table:
        if player:
            return _fail(f"no finished match of a player named {player!r} in the game log")
        print("No finished matches in the game log yet.")
        return 0
    rows = [["player", "matches", "wins", "win rate", "hands", "mean hand", "best", "run"]]
    for s in table:
        best = s["best_match"]
        mean = s["mean_hand_score"]
        rows.append(
            [
                s["name"] + _bot_mark(s["bot"]),
                str(s["matches"]),
                str(s["wins"]),
                f"{100 * s['win_rate']:.0f}%",
                str(s["hands"]),
                f"{mean:.1f}" if mean is not None else "-",
                f"{best['total']} (game {best['game_id']})" if best else "-",
                str(s["longest_win_run"]),
            ]
        )
    print(_table(rows, right={1, 2, 3, 4, 5, 7}))
    print("best: highest final total in one match; run: longest run of wins in a row")
    return 0


def _bot_mark(bot: str | None) -> str:
    """ " (bot: hard)" for a bot of a known level; " (bot)" when the log only says bot."""
    if not bot:
        return ""
    return " (bot)" if bot in ("bot", "True", "1") else f" (bot: {bot})"


def run_replay(args: argparse.Namespace) -> int:
    """Step through a finished match in a full-screen viewer."""
    try:
        with reading() as conn:
            mid = L.resolve(conn, args.game_id)
            match = L.load_match(conn, mid)
        if match["status"] != "finished":
            raise StoreError(
                f"game {mid} is not finished: a replay shows every hand face up, so only "
                f"finished matches can be replayed (resume it with 'rum500 host --resume {mid}')"
            )
        from rum500.store.replay import ReplayModel, run_viewer

        model = ReplayModel(match)
    except StoreError as e:
        return _fail(str(e))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return _fail("the replay viewer needs a terminal")
    run_viewer(model, ascii_only=bool(getattr(args, "ascii", False)))
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write one match to a portable file (docs/storage.md)."""
    try:
        with reading() as conn:
            mid = L.resolve(conn, args.game_id)
            if args.file == "-":
                doc = exchange.export_document(conn, mid)
                print(json.dumps(doc, ensure_ascii=False, indent=1))
                return 0
            exchange.write_export(
                conn, mid, Path(args.file), overwrite=bool(getattr(args, "force", False))
            )
    except StoreError as e:
        return _fail(str(e))
    print(f"game {mid} written to {args.file}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Read a match file, check it by replaying it, and add it to the game log."""
    try:
        match = exchange.read_export(Path(args.file))
    except StoreError as e:
        return _fail(str(e))
    try:
        conn = open_db()
        try:
            mid = exchange.import_match(conn, match)
        finally:
            conn.close()
    except StoreError as e:
        return _fail(f"{e} (nothing was imported)")
    except (sqlite3.Error, OSError) as e:  # while writing: the transaction rolled back
        why = describe(e, db_path())
        return _fail(f"cannot write the game log: {why}; nothing was imported")
    names = ", ".join(s["name"] for s in match["seats"])
    game = match["_game"]
    if game.winner is not None:
        outcome = f"winner {match['seats'][game.winner]['name']}"
    else:
        outcome = "unfinished"
    print(f"imported as game {mid} ({names}; {outcome}; totals {game.totals})")
    return 0
