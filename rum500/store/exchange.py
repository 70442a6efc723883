"""One match as one portable file (``rum500 export`` / ``rum500 import``); see docs/storage.md.

The file is UTF-8 JSON::

    {"format": "rum500-match", "version": 1, "sha256": "<hex>", "match": {...}}

``sha256`` is the SHA-256 of the ``match`` object written as canonical JSON (keys sorted, no
spaces, UTF-8). A truncated or edited file fails the checksum; a forged one with a recomputed
checksum fails the replay, because every action goes through the engine again on import.
Seat tokens are secrets and are never exported.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

from rum500.i18n import N_
from rum500.rules import Game, IllegalMove, Phase
from rum500.store.db import StoreError, describe, now, transaction
from rum500.store.deals import dealt_hands
from rum500.store.log import load_match, new_game
from rum500.store.matchfile import FORMAT, FORMAT_VERSION, checksum, document, dumps

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_ACTIONS = 200_000


def export_document(conn: sqlite3.Connection, mid: int) -> dict:
    """The export document of match ``mid``."""
    m = load_match(conn, mid)
    match = {
        "uid": m["uid"],
        "created_at": m["created_at"],
        "finished_at": m["finished_at"],
        "table": m["table"],
        "players": m["players"],
        "seed": str(m["seed"]),
        "options": m["options"],
        "deck": m["deck"],
        "seats": [{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in m["seats"]],
        "actions": m["actions"],
        "status": m["status"],
        "winner": m["winner"],
        "totals": m["totals"],
    }
    with contextlib.suppress(Exception):  # a match its actions cannot replay: no deals
        match["deals"] = dealt_hands(match)  # every hand as dealt (rum500 verify)
    return document(match)


def write_export(doc: dict, file: Path, overwrite: bool = False) -> None:
    """Write the export document ``doc`` (:func:`export_document`) to ``file`` atomically (a
    temporary file, then a rename). A file already there is refused unless ``overwrite``
    (``--force``)."""
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    file = Path(file)
    target_dir = file.parent if str(file.parent) else Path(".")
    if not target_dir.is_dir():
        raise StoreError(
            N_("cannot write {file}: the folder {folder} does not exist"),
            file=file,
            folder=target_dir,
        )
    if file.is_dir():  # (--force or not: a folder is not written over)
        raise StoreError(
            N_("cannot write {file}: it is a folder (name a file in it, e.g. {example})"),
            file=file,
            example=file / "match.json",
        )
    try:
        fd, tmp = tempfile.mkstemp(prefix=".rum500-export-", dir=target_dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
            if overwrite:
                os.replace(tmp, file)
            else:  # a link fails where a file is: never written over unasked, even in a race
                try:
                    os.link(tmp, file)
                except FileExistsError:
                    raise
                except OSError:  # no hard links here (a FAT stick): look, then rename
                    if os.path.lexists(file):
                        raise FileExistsError(file) from None
                    os.replace(tmp, file)
                else:
                    os.unlink(tmp)
        except FileExistsError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise StoreError(
                N_("{file} already exists: nothing was written (--force writes over it)"), file=file
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise StoreError(N_("cannot write {file}: {why}"), file=file, why=describe(e)) from None


def read_bounded(file: Path) -> bytes:
    """The bytes of ``file`` (``-``: the standard input), never more than
    :data:`MAX_FILE_BYTES` read from any source — a regular file, a pipe, a FIFO or a device
    such as ``/dev/zero`` —: a longer one is refused with a :class:`StoreError`."""
    try:
        if str(file) == "-":
            raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open(file, "rb") as f:
                raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise StoreError(N_("cannot read {file}: {why}"), file=file, why=e.strerror or e) from None
    if len(raw) > MAX_FILE_BYTES:
        raise StoreError(
            N_("{file} is too large to be a rum500 match (more than {n} bytes)"),
            file=file,
            n=MAX_FILE_BYTES,
        )
    return raw


def read_export(file: Path) -> dict:
    """Read and check an export file: format, checksum, fields, and a full replay.

    Returns the ``match`` dict with ``_game`` (the replayed :class:`Game`) added. Every
    problem is a :class:`StoreError` naming what is wrong."""
    file = Path(file)
    doc = read_document(file)
    match, digest = doc["match"], doc["sha256"]
    if checksum(match) != digest.lower():
        raise StoreError(
            N_("{file} fails its checksum: it was damaged or edited after export, and is refused"),
            file=file,
        )
    _check_fields(file, match)
    match["_game"] = _replay(file, match)
    return match


def read_document(file: Path) -> dict:
    """An export file's JSON document, its format and version known and its ``match`` (a
    dict) and ``sha256`` (a string) there — the checksum not checked (``rum500 verify`` says
    whether it holds). Every problem is a :class:`StoreError` naming what is wrong."""
    file = Path(file)
    raw = read_bounded(file)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise StoreError(
            N_("{file} is not a rum500 match file (not UTF-8 text)"), file=file
        ) from None
    except RecursionError:  # brackets nested thousands deep
        raise StoreError(
            N_("{file} is not a rum500 match file (nested too deeply)"), file=file
        ) from None
    except json.JSONDecodeError as e:
        # an unterminated string runs to the end of the text: the error names where it began
        if e.pos >= len(raw.rstrip()) - 1 or e.msg.startswith("Unterminated string"):
            shape = N_(
                "{file} is truncated or not a rum500 match file (JSON error at line {line}, "
                "column {column}: {detail})"
            )
        else:
            shape = N_(
                "{file} is damaged or not a rum500 match file (JSON error at line {line}, "
                "column {column}: {detail})"
            )
        raise StoreError(shape, file=file, line=e.lineno, column=e.colno, detail=e.msg) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise StoreError(
            N_('{file} is not a rum500 match file (no "format": "{format}")'),
            file=file,
            format=FORMAT,
        )
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise StoreError(N_("{file}: the format version is missing"), file=file)
    if version > FORMAT_VERSION:
        raise StoreError(
            N_(
                "{file} was written by a newer rum500 (format version {version}; this one "
                "reads up to {known}): upgrade rum500 to import it"
            ),
            file=file,
            version=version,
            known=FORMAT_VERSION,
        )
    match = doc.get("match")
    digest = doc.get("sha256")
    if not isinstance(match, dict) or not isinstance(digest, str):
        raise StoreError(
            N_("{file} is incomplete: the match or its checksum is missing"), file=file
        )
    return doc


def _check_fields(file: Path, m: dict) -> None:
    def bad(what: str) -> StoreError:
        return StoreError(f"{file}: {what}")

    uid = m.get("uid")
    if not (
        isinstance(uid, str)
        and 1 <= len(uid) <= 64
        and uid.isascii()
        and uid.replace("-", "").isalnum()
    ):
        raise bad("the match id (uid) is missing or malformed")
    if not isinstance(m.get("players"), int) or isinstance(m["players"], bool):
        raise bad("the number of players is missing")
    try:
        m["seed"] = int(str(m.get("seed")))
    except ValueError:
        raise bad("the seed is not a whole number") from None
    if not isinstance(m.get("options"), dict):
        raise bad("the table options are missing")
    if m.get("deck") is not None and not (
        isinstance(m["deck"], list) and all(isinstance(c, str) for c in m["deck"])
    ):
        raise bad("the deck is not a list of cards")
    for key in ("table", "created_at"):
        if not isinstance(m.get(key), str):
            raise bad(f"'{key}' is missing")
    if m.get("finished_at") is not None and not isinstance(m["finished_at"], str):
        raise bad("'finished_at' is not a date")
    seats = m.get("seats")
    if not isinstance(seats, list) or len(seats) != m["players"]:
        raise bad("the seats do not match the number of players")
    for k, s in enumerate(seats):
        if (
            not isinstance(s, dict)
            or s.get("seat") != k
            or not isinstance(s.get("name"), str)
            or not 1 <= len(s["name"]) <= 64
            or not (s.get("bot") is None or isinstance(s["bot"], str))
        ):
            raise bad(f"seat {k} is malformed")
    actions = m.get("actions")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise bad("the list of actions is missing or too long")
    for k, a in enumerate(actions):
        if (
            not isinstance(a, dict)
            or not isinstance(a.get("action"), dict)
            or not (  # no seat: the host's own action (close_claims, a "Rummy!" window)
                a.get("seat") is None
                or (isinstance(a["seat"], int) and not isinstance(a["seat"], bool))
            )
        ):
            raise bad(f"action {k + 1} is malformed")
    if m.get("status") not in ("playing", "finished"):
        raise bad("the match status is missing")
    if not isinstance(m.get("totals"), list):
        raise bad("the totals are missing")


def _replay(file: Path, m: dict) -> Game:
    try:
        game = new_game({**m, "id": m["uid"]})
    except StoreError as e:
        raise StoreError(f"{file}: {e}") from None
    for k, entry in enumerate(m["actions"]):
        try:
            game.apply(entry["action"], entry["seat"])
        except IllegalMove as e:
            raise StoreError(
                f"{file} is refused: action {k + 1} (seat {entry['seat']}: "
                f"{json.dumps(entry['action'])}) is not legal — {e}"
            ) from None
    finished = game.phase is Phase.GAME_OVER
    if (m["status"] == "finished") != finished:
        raise StoreError(
            f"{file} is refused: it says the match is {m['status']}, but its actions "
            f"{'finish' if finished else 'do not finish'} it"
        )
    if m["totals"] != game.totals or (finished and m.get("winner") != game.winner):
        raise StoreError(
            f"{file} is refused: its totals or winner differ from what its actions give "
            f"(replayed totals {game.totals}, winner {game.winner})"
        )
    return game


def import_match(conn: sqlite3.Connection, match: dict) -> int:
    """Store a match checked by :func:`read_export`; returns its game id. A match the log
    already holds as unfinished, with fewer actions (a host whose log fell behind wrote the
    file), is caught up in place; otherwise a match already in the log is refused."""
    row = conn.execute("SELECT id, status FROM matches WHERE uid = ?", (match["uid"],)).fetchone()
    if row is not None:
        mid, status = int(row[0]), row[1]
        if status == "playing" and catch_up(conn, mid, match):
            return mid
        raise StoreError(N_("this match is already in the game log as game {id}"), id=mid)
    game = match["_game"]
    stamp = now()
    with transaction(conn):
        cur = conn.execute(
            "INSERT INTO matches (uid, created_at, updated_at, finished_at, table_name, players,"
            " seed, options, deck, status, winner, totals, hands_played, source)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'import')",
            (
                match["uid"],
                match["created_at"],
                stamp,
                match["finished_at"],
                match["table"],
                match["players"],
                str(match["seed"]),
                dumps(match["options"]),
                dumps(match["deck"]) if match["deck"] is not None else None,
                match["status"],
                game.winner,
                dumps(game.totals),
                len(game.results),
            ),
        )
        mid = int(cur.lastrowid)
        for s in match["seats"]:
            conn.execute(
                "INSERT INTO seats (match_id, seat, name, token, bot) VALUES (?, ?, ?, NULL, ?)",
                (mid, s["seat"], s["name"], s["bot"]),
            )
        conn.executemany(
            "INSERT INTO actions (match_id, n, seq, seat, action, at) VALUES (?,?,?,?,?,?)",
            [
                (mid, n, n, e["seat"], dumps(normal), stamp)
                for n, (e, normal) in enumerate(zip(match["actions"], game.actions, strict=True))
            ],
        )
        conn.executemany(
            "INSERT INTO hands (match_id, hand, result) VALUES (?, ?, ?)",
            [(mid, r["hand"], dumps(r)) for r in game.results],
        )
    return mid


def catch_up(conn: sqlite3.Connection, mid: int, match: dict) -> bool:
    """Append the actions of ``match`` that unfinished game ``mid`` lacks, when its logged
    actions are the file's first ones; False (nothing written) when they are not."""
    have = load_match(conn, mid)
    game = match["_game"]
    logged = [a["action"] for a in have["actions"]]
    if len(logged) >= len(game.actions) or logged != game.actions[: len(logged)]:
        return False
    stamp = now()
    over = game.phase is Phase.GAME_OVER
    with transaction(conn):
        conn.executemany(
            "INSERT INTO actions (match_id, n, seq, seat, action, at) VALUES (?,?,?,?,?,?)",
            [
                (mid, n, n, match["actions"][n]["seat"], dumps(game.actions[n]), stamp)
                for n in range(len(logged), len(game.actions))
            ],
        )
        conn.executemany(
            "INSERT OR REPLACE INTO hands (match_id, hand, result) VALUES (?, ?, ?)",
            [(mid, r["hand"], dumps(r)) for r in game.results],
        )
        conn.execute(
            "UPDATE matches SET totals = ?, hands_played = ?, updated_at = ?, status = ?,"
            " winner = ?, finished_at = ? WHERE id = ?",
            (
                dumps(game.totals),
                len(game.results),
                stamp,
                "finished" if over else "playing",
                game.winner if over else None,
                match["finished_at"] if over else None,
                mid,
            ),
        )
    return True
