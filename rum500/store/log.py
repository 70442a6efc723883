"""Reading the game log: one match, the match to resume, history and statistics."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from rum500.i18n import N_
from rum500.rules import Game, IllegalMove, Options
from rum500.store.db import StoreError, reading
from rum500.store.salvage import check_match

#: the game id that names the newest unfinished solo match (``rum500 play --resume``)
SOLO = "solo"


def newest_solo(conn: sqlite3.Connection) -> int | None:
    """The newest unfinished match a host played with one human and bots in every other
    seat (what ``rum500 play`` starts), or None."""
    row = conn.execute(
        "SELECT m.id FROM matches m WHERE m.status = 'playing' AND m.source = 'host'"
        " AND (SELECT count(*) FROM seats s WHERE s.match_id = m.id AND s.bot IS NULL) = 1"
        " AND (SELECT count(*) FROM seats s WHERE s.match_id = m.id AND s.bot IS NOT NULL)"
        " = m.players - 1"
        " ORDER BY m.id DESC LIMIT 1"
    ).fetchone()
    return int(row[0]) if row is not None else None


def is_solo(seats: list[dict]) -> bool:
    """Whether a match's seats are those of ``rum500 play``: one person, bots in the rest."""
    return sum(1 for s in seats if not s.get("bot")) == 1


def solo_to_continue(path: Path | str | None = None) -> dict | None:
    """The newest unfinished solo match, for the lobby's "Continue": ``{game_id, players
    (names), hands, totals}``; None when there is none or the log cannot be read."""
    try:
        with reading(Path(path) if path is not None else None) as conn:
            mid = newest_solo(conn)
            if mid is None:
                return None
            players, hands, totals = conn.execute(
                "SELECT players, hands_played, totals FROM matches WHERE id = ?", (mid,)
            ).fetchone()
            return {
                "game_id": mid,
                "players": _names(conn, mid, players),
                "hands": hands,
                "totals": _json(totals, mid),
            }
    except (StoreError, sqlite3.Error):
        return None


def resolve(conn: sqlite3.Connection, game_id: object) -> int:
    """The id of a match named on the command line: a number, ``latest`` (the newest
    unfinished match the host was playing) or ``solo`` (the newest unfinished solo one)."""
    text = str(game_id).strip()
    if text.lower() == "latest":
        row = conn.execute(
            "SELECT id FROM matches WHERE status = 'playing' AND source = 'host'"
            " ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            raise StoreError(N_("there is no unfinished match in the game log to resume"))
        return int(row[0])
    if text.lower() == SOLO:
        mid = newest_solo(conn)
        if mid is None:
            raise StoreError(N_("there is no unfinished solo match in the game log to continue"))
        return mid
    try:
        mid = int(text.lstrip("#"))
    except ValueError:
        raise StoreError(
            N_("{text} is not a game id: give the number that 'rum500 history' shows"),
            text=repr(text[:40]),
        ) from None
    missing = N_("there is no game {id} in the game log ('rum500 history' lists them)")
    if not 0 < mid < 2**63:
        raise StoreError(missing, id=text[:40])
    if conn.execute("SELECT 1 FROM matches WHERE id = ?", (mid,)).fetchone() is None:
        raise StoreError(missing, id=mid)
    return mid


def load_match(conn: sqlite3.Connection, mid: int) -> dict:
    """A match as a plain dict: its row, seats (with tokens) and the list of its actions."""
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM matches WHERE id = ?", (mid,)).fetchone()
        if row is None:
            raise StoreError(f"there is no game {mid} in the game log")
        seats = [
            {"seat": r["seat"], "name": r["name"], "token": r["token"], "bot": r["bot"]}
            for r in conn.execute(
                "SELECT seat, name, token, bot FROM seats WHERE match_id = ? ORDER BY seat",
                (mid,),
            )
        ]
        actions = []
        for k, r in enumerate(
            conn.execute(
                "SELECT n, seat, action FROM actions WHERE match_id = ? ORDER BY n", (mid,)
            )
        ):
            if r["n"] != k:
                raise StoreError(f"game {mid}'s log misses action {k}: it cannot be rebuilt")
            actions.append({"seat": r["seat"], "action": _json(r["action"], mid)})
        columns = row.keys()  # an older log read in place (read-only) has no table_id yet
        return {
            "id": row["id"],
            "uid": row["uid"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
            "finished_at": row["finished_at"],
            "table": row["table_name"],
            "table_id": row["table_id"] if "table_id" in columns else "",
            "players": row["players"],
            "seed": int(row["seed"]),
            "options": _json(row["options"], mid),
            "deck": _json(row["deck"], mid) if row["deck"] is not None else None,
            "status": row["status"],
            "winner": row["winner"],
            "totals": _json(row["totals"], mid),
            "hands_played": row["hands_played"],
            "source": row["source"],
            "seats": _complete_seats(seats, row["players"]),
            "actions": actions,
        }
    finally:
        conn.row_factory = None


def _complete_seats(seats: list[dict], players: int) -> list[dict]:
    by_seat = {s["seat"]: s for s in seats}
    return [
        by_seat.get(k, {"seat": k, "name": f"seat {k}", "token": None, "bot": None})
        for k in range(players)
    ]


def _json(text: str, mid: int) -> object:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        raise StoreError(f"game {mid}'s log holds a damaged entry: it cannot be rebuilt") from None


def new_game(match: dict) -> Game:
    """The match's starting position (``StoreError`` if its settings are not playable)."""
    try:
        return Game(
            match["players"], match["seed"], Options.from_dict(match["options"]), match["deck"]
        )
    except (ValueError, TypeError) as e:
        raise StoreError(f"game {match.get('id')}'s settings are not playable: {e}") from None


def rebuild(match: dict, upto: int | None = None) -> Game:
    """Replay a match through the engine (its first ``upto`` actions, or all of them)."""
    game = new_game(match)
    entries = match["actions"] if upto is None else match["actions"][:upto]
    for k, entry in enumerate(entries):
        try:
            game.apply(entry["action"], entry.get("seat"))
        except IllegalMove as e:
            raise StoreError(
                f"game {match.get('id')} does not replay: action {k + 1} "
                f"({json.dumps(entry['action'])}) is refused: {e}"
            ) from None
    return game


def load_for_resume(
    game_id: object = "latest", path: Path | str | None = None
) -> tuple[Game, list[dict], dict]:
    """Rebuild an unfinished match for the host: ``(game, seats, info)``.

    ``seats`` is ``[{seat, name, token, bot}]`` with the saved tokens; ``info`` holds
    ``game_id``, ``uid``, ``table``, ``players``, ``seed``, ``options``, ``deck``, ``seats``
    and ``created_at``. Raises :class:`StoreError` with a message for the user when there is
    nothing to resume.
    """
    with reading(Path(path) if path is not None else None) as conn:
        mid = resolve(conn, game_id)
        match = load_match(conn, mid)
    if match["status"] == "finished":
        raise StoreError(N_("game {id} is finished: there is nothing to resume"), id=mid)
    game = rebuild(match)
    if game.to_move is None:
        raise StoreError(f"game {mid} is over: there is nothing to resume")
    info = {
        "game_id": mid,
        "uid": match["uid"],
        "table": match["table"],
        "table_id": match["table_id"],
        "players": match["players"],
        "seed": match["seed"],
        "options": match["options"],
        "deck": match["deck"],
        "seats": match["seats"],
        "created_at": match["created_at"],
    }
    return game, match["seats"], info


#: a match left before its first hand ended: not worth a line of history
NOT_PLAYED = "status = 'playing' AND hands_played = 0"


def history(conn: sqlite3.Connection, limit: int = 50, everything: bool = False) -> list[dict]:
    """The newest ``limit`` matches, newest first; matches left before their first hand
    ended only with ``everything`` (they stay in the log and can be resumed)."""
    where = "" if everything else f"WHERE NOT ({NOT_PLAYED})"
    rows = conn.execute(
        "SELECT id, created_at, finished_at, table_name, players, status, winner, totals,"
        f" hands_played, source FROM matches {where} ORDER BY id DESC LIMIT ?",
        (limit,),
    ).fetchall()
    out = []
    for mid, created, finished, table, players, status, winner, totals, hands, source in rows:
        names, bots = _seats(conn, mid, players)
        damage = check_match(conn, mid)
        out.append(
            {
                "id": mid,
                "date": created,
                "finished_at": finished,
                "table": table,
                "players": names,
                "bots": bots,
                "status": status,
                "winner": names[winner] if winner is not None and 0 <= winner < players else None,
                "winner_seat": winner,
                "totals": _json(totals, mid),
                "hands": hands,
                "source": source,
                "damaged": damage,
            }
        )
    return out


def not_played(conn: sqlite3.Connection) -> int:
    """How many matches were left before their first hand ended (history hides them)."""
    return int(conn.execute(f"SELECT count(*) FROM matches WHERE {NOT_PLAYED}").fetchone()[0])


def _names(conn: sqlite3.Connection, mid: int, players: int) -> list[str]:
    return _seats(conn, mid, players)[0]


def _seats(conn: sqlite3.Connection, mid: int, players: int) -> tuple[list[str], list[bool]]:
    """Each seat's name and whether a bot played it, from one read of the seats."""
    names = [f"seat {k}" for k in range(players)]
    bots = [False] * players
    for seat, name, bot in conn.execute(
        "SELECT seat, name, bot FROM seats WHERE match_id = ?", (mid,)
    ):
        if 0 <= seat < players:
            names[seat], bots[seat] = name, bot is not None
    return names, bots


def save_analysis(conn: sqlite3.Connection, mid: int, row: dict) -> None:
    """Keep (or replace) one seat's analysis of match ``mid`` (``rum500 analyse``): ``row``
    holds ``seat``, ``budget``, ``seed``, ``actions``, ``decisions``, ``loss``, ``hands``,
    ``luck`` and ``summary`` (JSON-able); docs/storage.md, table ``analyses``."""
    from rum500.store.db import now, transaction

    with transaction(conn):
        conn.execute(
            "INSERT OR REPLACE INTO analyses (match_id, seat, at, budget, seed, actions,"
            " decisions, loss, hands, luck, summary) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                mid,
                row["seat"],
                now(),
                row["budget"],
                str(row["seed"]),
                row["actions"],
                row["decisions"],
                row["loss"],
                row["hands"],
                row["luck"],
                json.dumps(row["summary"], ensure_ascii=False),
            ),
        )


def load_analysis(conn: sqlite3.Connection, mid: int, seat: int) -> dict | None:
    """Seat ``seat``'s kept analysis of match ``mid`` (its ``summary`` JSON: ``summary``,
    ``hands``, ``decisions``) when it covers every action of the match, else None."""
    try:
        got = conn.execute(
            "SELECT summary FROM analyses WHERE match_id = ? AND seat = ?"
            " AND actions = (SELECT count(*) FROM actions WHERE match_id = ?)",
            (mid, seat, mid),
        ).fetchone()
    except sqlite3.OperationalError:  # an older log read in place: no analyses yet
        return None
    try:
        kept = json.loads(got[0]) if got else None
    except ValueError:
        return None
    return kept if isinstance(kept, dict) else None


def _analysed(conn: sqlite3.Connection, mid: int) -> dict[int, tuple[int, float, int, float]]:
    """Per seat, ``(decisions, loss, hands, luck)`` of match ``mid``'s analyses that cover
    every action it has (an analysis of a match since played on does not count)."""
    try:
        rows = conn.execute(
            "SELECT seat, decisions, loss, hands, luck FROM analyses WHERE match_id = ?"
            " AND actions = (SELECT count(*) FROM actions WHERE match_id = ?)",
            (mid, mid),
        ).fetchall()
    except sqlite3.OperationalError:  # an older log read in place: no analyses yet
        return {}
    return {seat: (n, loss, hands, luck) for seat, n, loss, hands, luck in rows}


def stats(conn: sqlite3.Connection, player: str | None = None) -> list[dict]:
    """Per player name, over finished matches: matches, wins, win rate, hands, mean hand
    score, best match (highest final total) and longest run of wins (in date order); and
    over those of them analysed (``rum500 analyse``): the error rate (points lost per
    decision) and the luck per hand."""
    per: dict[str, dict] = {}
    matches = conn.execute(
        "SELECT id, players, winner, totals FROM matches WHERE status = 'finished'"
        " ORDER BY coalesce(finished_at, created_at), id"
    ).fetchall()
    for mid, players, winner, totals_text in matches:
        totals = _json(totals_text, mid)
        names = _names(conn, mid, players)
        hand_scores: list[list[int]] = [
            _json(r[0], mid)["scores"]
            for r in conn.execute("SELECT result FROM hands WHERE match_id = ?", (mid,))
        ]
        bots = dict(conn.execute("SELECT seat, bot FROM seats WHERE match_id = ?", (mid,)))
        analysed = _analysed(conn, mid)
        for seat, name in enumerate(names):
            s = per.setdefault(
                name,
                {
                    "name": name,
                    "bot": bots.get(seat),
                    "matches": 0,
                    "wins": 0,
                    "hands": 0,
                    "score_sum": 0,
                    "best_match": None,
                    "run": 0,
                    "longest_run": 0,
                    "analysed": [0, 0, 0.0, 0, 0.0],  # matches, decisions, loss, hands, luck
                },
            )
            if seat in analysed:
                a = s["analysed"]
                n, loss, hands, luck = analysed[seat]
                s["analysed"] = [a[0] + 1, a[1] + n, a[2] + loss, a[3] + hands, a[4] + luck]
            s["matches"] += 1
            won = winner == seat
            s["wins"] += won
            s["run"] = s["run"] + 1 if won else 0
            s["longest_run"] = max(s["longest_run"], s["run"])
            for scores in hand_scores:
                if seat < len(scores):
                    s["hands"] += 1
                    s["score_sum"] += scores[seat]
            total = totals[seat] if seat < len(totals) else 0
            if s["best_match"] is None or total > s["best_match"]["total"]:
                s["best_match"] = {"game_id": mid, "total": total, "won": won}
    out = []
    for s in per.values():
        if player is not None and s["name"].casefold() != player.casefold():
            continue
        out.append(
            {
                "name": s["name"],
                "bot": s["bot"],
                "matches": s["matches"],
                "wins": s["wins"],
                "win_rate": s["wins"] / s["matches"] if s["matches"] else 0.0,
                "hands": s["hands"],
                "mean_hand_score": s["score_sum"] / s["hands"] if s["hands"] else None,
                "best_match": s["best_match"],
                "longest_win_run": s["longest_run"],
                **_analysis_figures(s["analysed"]),
            }
        )
    out.sort(key=lambda s: (-s["wins"], -s["win_rate"], s["name"].casefold()))
    return out


def _analysis_figures(a: list) -> dict:
    """``analysed`` (matches), ``decisions``, ``error_rate`` and ``luck_per_hand`` (None
    when no match of the player is analysed)."""
    matches, decisions, loss, hands, luck = a
    return {
        "analysed": matches,
        "decisions": decisions,
        "error_rate": round(loss / decisions, 3) if decisions else None,
        "luck_per_hand": round(luck / hands, 2) if hands else None,
    }
