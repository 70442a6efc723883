"""``rum500 history | stats | export | import | salvage``: the game log from the command line.

Each ``run_*(config) -> int`` takes its typed config (:mod:`rum500.configs`, built by
:mod:`rum500.cli`) and returns the exit status; every problem a user can meet is one
line on stderr (``rum500: …``, :func:`fail`) and status 1, never a traceback. ``rum500
replay`` is :func:`rum500.tui.replay.run_replay` (a screen); it reads its match with
:func:`finished_match`.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rum500.i18n import N_, _, decimal, ngettext
from rum500.narrate import level_name, shown_name
from rum500.store import exchange
from rum500.store import log as L
from rum500.store.db import StoreError, db_path, describe, open_db, reading

if TYPE_CHECKING:
    from rum500.configs import (
        ExportConfig,
        HistoryConfig,
        ImportConfig,
        SalvageConfig,
        StatsConfig,
    )


def fail(message: str) -> int:
    """Say ``rum500: message`` on stderr; the exit status 1."""
    print(f"rum500: {message}", file=sys.stderr)
    return 1


def _totals(totals: list[int]) -> str:
    """``120 / 85 / -20``: a match's totals as ``history`` and ``import`` show them."""
    return " / ".join(str(t) for t in totals)


def _local(stamp: str | None) -> str:
    """An ISO UTC stamp of the log shown in local time, to the minute."""
    if not stamp:
        return ""
    try:
        return dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def _blocks(rows: list[list[str]], groups: list[tuple[int, ...]]) -> str:
    """``rows`` (a header, then one row per player) for a narrow terminal: a block per row,
    its first cell, then a line per group of columns, each ``header value``."""
    head, out = rows[0], []
    for r in rows[1:]:
        out.append(r[0])
        out += ["  " + " · ".join(f"{head[k]} {r[k]}" for k in g) for g in groups]
    return "\n".join(out)


def _history_blocks(rows: list[list[str]], width: int) -> str:
    """``history``'s rows for a narrow terminal: a block per match — its number, date and
    state; its table and players; its winner and totals — each line wrapped to ``width``."""
    head, out = rows[0], []
    keep = "\u00a0"  # a name is never broken across lines ("Бот 3")
    for r in rows[1:]:
        players = ", ".join(name.replace(" ", keep) for name in r[3].split(", "))
        lines = [
            f"{head[0]} {r[0]} · {r[1]} · {r[6]}",
            f"  {head[2]} {r[2]} · {head[3]} {players}",
            f"  {head[4]} {r[4].replace(' ', keep)} · {head[5]} {r[5]}",
        ]
        for line in lines:
            wrapped = textwrap.wrap(line, width=max(40, width), subsequent_indent="    ")
            out += [w.replace(keep, " ") for w in wrapped] or [""]
    return "\n".join(out)


def _table(rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = []
    for r in rows:
        cells = [c.rjust(widths[k]) if k in right else c.ljust(widths[k]) for k, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _read_log(
    args: HistoryConfig | StatsConfig, query: Callable[[Any], Any]
) -> tuple[Any, int | None]:
    """``(query(conn), None)`` on the game log, or ``(None, exit code)`` after saying why;
    with ``--json`` a missing game log reads as an empty list."""
    try:
        with reading() as conn:
            return query(conn), None
    except StoreError as e:
        if args.json and not db_path().exists():  # no game log yet
            return [], None
        return None, fail(e.said())


def run_history(args: HistoryConfig) -> int:
    """Past matches, newest first: date, table, players, winner, totals."""
    limit = args.limit or 50
    everything = args.everything
    found, code = _read_log(
        args, lambda conn: (L.history(conn, limit, everything), L.not_played(conn))
    )
    if code is not None:
        return code
    matches, hidden = found if isinstance(found, tuple) else (found, 0)
    if args.json:
        print(json.dumps(matches, ensure_ascii=False, indent=1))
        return 0
    if not matches:
        if hidden and not everything:  # only matches left in their first hand: say so
            print(
                ngettext(
                    "No match to list: the game log holds only {n} match left before its "
                    "first hand ended (--all lists it; it can be resumed).",
                    "No match to list: the game log holds only {n} matches left before "
                    "their first hand ended (--all lists them; they can be resumed).",
                    hidden,
                ).format(n=hidden)
            )
        else:
            print(_("No matches in the game log yet."))
        return 0
    note = ""
    if hidden and not everything:
        note = ngettext(
            "({n} match left before the first hand ended is not listed: --all lists it)",
            "({n} matches left before the first hand ended are not listed: --all lists them)",
            hidden,
        ).format(n=hidden)
    rows = [[_("game"), _("date"), _("table"), _("players"), _("winner"), _("totals"), _("state")]]
    damaged = 0
    for m in matches:
        if m["status"] == "finished":
            state = ngettext("finished, {n} hand", "finished, {n} hands", m["hands"])
        else:
            state = ngettext(
                "unfinished, {n} hand played", "unfinished, {n} hands played", m["hands"]
            )
        state = state.format(n=m["hands"])
        if m["source"] == "import":
            state += " " + _("(imported)")
        if m.get("damaged"):
            state = _("DAMAGED: {why}").format(why=m["damaged"])
            damaged += 1
        bots = m.get("bots") or [False] * len(m["players"])
        names = [shown_name(n, b) for n, b in zip(m["players"], bots, strict=False)]
        winner = m.get("winner_seat")
        rows.append(
            [
                str(m["id"]),
                _local(m["date"]),
                m["table"] or "-",
                ", ".join(names),
                (names[winner] or "-") if m["winner"] is not None else "-",
                _totals(m["totals"]),
                state,
            ]
        )
    text = _table(rows, right={0})
    columns = shutil.get_terminal_size((80, 24)).columns
    if max(map(len, text.splitlines())) > columns:
        text = _history_blocks(rows, columns)
    print(text)
    if note:
        print(note)
    if damaged:
        print(
            ngettext(
                "{n} match cannot be replayed or exported: the game log is damaged. "
                "'rum500 salvage' copies every match that can still be read into a new log.",
                "{n} matches cannot be replayed or exported: the game log is damaged. "
                "'rum500 salvage' copies every match that can still be read into a new log.",
                damaged,
            ).format(n=damaged)
        )
    return 0


def run_salvage(args: SalvageConfig) -> int:
    """Copy every match of a damaged game log that can still be read into a new log."""
    from rum500.store.salvage import salvage

    source = db_path()
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = Path(args.out) if args.out else source.with_name(f"games-salvaged-{stamp}.sqlite3")
    try:
        report = salvage(source, target)
    except StoreError as e:
        return fail(e.said())
    except (sqlite3.Error, OSError) as e:
        return fail(_("cannot write {file}: {why}").format(file=target, why=_(describe(e, target))))
    saved = [r for r in report if r["new_id"]]
    for r in report:
        game, new = r["game_id"], r["new_id"]
        if new is None:
            print(_("game {id}: lost — {why}").format(id=game, why=r["problem"]))
        elif r["problem"]:
            if r["of"]:
                of = ngettext("{n} of {of} action", "{n} of {of} actions", r["of"]).format(
                    n=r["actions"], of=r["of"]
                )
            else:
                of = ngettext("the first {n} action", "the first {n} actions", r["actions"]).format(
                    n=r["actions"]
                )
            print(
                _(
                    "game {id}: {of} saved as game {new} (unfinished: it can be resumed) — {why}"
                ).format(id=game, of=of, new=new, why=r["problem"])
            )
        else:
            print(
                ngettext(
                    "game {id}: whole ({n} action) as game {new}",
                    "game {id}: whole ({n} actions) as game {new}",
                    r["actions"],
                ).format(id=game, n=r["actions"], new=new)
            )
    if not saved:
        print(_("nothing could be read from {file}: no new log written").format(file=source))
        return 1
    print(
        ngettext(
            "{saved} of {all} match written to {target}. To use it as your game log: "
            "move {source} aside, then move {target} to {source}.",
            "{saved} of {all} matches written to {target}. To use it as your game log: "
            "move {source} aside, then move {target} to {source}.",
            len(report),
        ).format(saved=len(saved), all=len(report), target=target, source=source)
    )
    return 0


def run_stats(args: StatsConfig) -> int:
    """Per player name: matches, wins, win rate, mean hand score, best match, longest run."""
    player = args.player
    table, code = _read_log(args, lambda conn: L.stats(conn, player))
    if code is not None:
        return code
    if args.json:
        print(json.dumps(table, ensure_ascii=False, indent=1))
        return 0
    if not table:
        if player:
            return fail(
                _("no finished match of a player named {name} in the game log").format(
                    name=repr(player)
                )
            )
        print(_("No finished matches in the game log yet."))
        return 0
    rows = [
        [
            _("player"),
            _("matches"),
            _("wins"),
            _("win rate"),
            _("hands"),
            _("mean hand"),
            _("best"),
            _("run"),
            _("error rate"),
            _("luck/hand"),
            _("analysed"),
        ]
    ]
    for s in table:
        best = s["best_match"]
        mean = s["mean_hand_score"]
        rows.append(
            [
                shown_name(s["name"], bool(s["bot"])) + _bot_mark(s["bot"]),
                str(s["matches"]),
                str(s["wins"]),
                f"{100 * s['win_rate']:.0f}%",
                str(s["hands"]),
                decimal(mean, 1) if mean is not None else "-",
                _("{total} (game {id})").format(total=best["total"], id=best["game_id"])
                if best
                else "-",
                str(s["longest_win_run"]),
                *_analysis_cells(s),
            ]
        )
    text = _table(rows, right={1, 2, 3, 4, 5, 7, 8, 9, 10})
    columns = shutil.get_terminal_size((80, 24)).columns
    if max(map(len, text.splitlines())) > columns:
        text = _blocks(rows, [(1, 2, 3, 6, 7), (4, 5), (8, 9, 10)])  # best: a match's
    print(text)
    notes = [
        _("best: highest final total in one match; run: longest run of wins in a row"),
        _(
            "error rate: points lost per decision, luck/hand: points the cards were worth a "
            "hand, over the matches analysed ('rum500 analyse'; docs/analysis.md)"
        ),
    ]
    for note in notes:
        print(textwrap.fill(note, width=max(40, columns)))
    return 0


def _analysis_cells(s: dict) -> list[str]:
    """Error rate, luck per hand and ``analysed of matches`` (``-`` when none analysed)."""
    rate, luck = s.get("error_rate"), s.get("luck_per_hand")
    return [
        decimal(rate, 2) if rate is not None else "-",
        decimal(luck, 1, sign=True) if luck is not None else "-",
        _("{n} of {of}").format(n=s.get("analysed", 0), of=s["matches"]),
    ]


def _bot_mark(bot: str | None) -> str:
    """ " (bot: hard)" for a bot of a known level; " (bot)" when the log only says bot."""
    if not bot:
        return ""
    if bot in ("bot", "True", "1"):
        return " " + _("(bot)")
    return " " + _("(bot: {level})").format(level=level_name(bot))


def finished_match(game_id: object) -> dict:
    """The finished match ``game_id`` (a number; None: the newest finished one) as
    :func:`rum500.store.log.load_match` reads it, for ``rum500 replay``; a
    :class:`StoreError` saying why not (an unfinished match names the command that resumes
    it)."""
    with reading() as conn:
        if game_id is None:
            row = conn.execute("SELECT max(id) FROM matches WHERE status = 'finished'").fetchone()
            if row is None or row[0] is None:
                raise StoreError(
                    N_("the game log holds no finished match to replay yet: finish one first")
                )
            mid = int(row[0])
        else:
            mid = L.resolve(conn, game_id)
        match = L.load_match(conn, mid)
    if match["status"] != "finished":
        command = "play" if L.is_solo(match["seats"]) else "host"  # as it was started
        raise StoreError(
            N_(
                "game {id} is not finished: a replay shows every hand face up, so only "
                "finished matches can be replayed (resume it with '{command}')"
            ),
            id=mid,
            command=f"rum500 {command} --resume {mid}",
        )
    return match


def run_export(args: ExportConfig) -> int:
    """Write one match to a portable file (docs/storage.md)."""
    try:
        with reading() as conn:
            mid = L.resolve(conn, args.game_id)
            doc = exchange.export_document(conn, mid)
            if args.file == "-":
                print(json.dumps(doc, ensure_ascii=False, indent=1))
            else:
                exchange.write_export(doc, Path(args.file), overwrite=args.force)
    except StoreError as e:
        return fail(e.said())
    if args.file != "-":
        print(_("game {id} written to {file}").format(id=mid, file=args.file))
    hand = _hand_under_way(doc["match"])
    if hand is not None:  # in the file as dealt: every hand and the stock's order
        print(
            _(
                "game {id} is not finished: the file shows every card of hand {hand}, still "
                "under way — share it only once the match is over"
            ).format(id=mid, hand=hand),
            file=sys.stderr,
        )
    return 0


def _hand_under_way(match: dict) -> int | None:
    """The number of the hand ``match`` (an export's) is in the middle of, None when it is
    between hands or over (or does not replay)."""
    from rum500.rules.game import Phase

    if match.get("status") == "finished":
        return None
    try:  # (the file writes the seed as text)
        game = L.rebuild({**match, "seed": int(match["seed"])})
    except Exception:  # (not this command's to judge: verify and import say why)
        return None
    if game.winner is not None or game.phase is Phase.HAND_OVER:
        return None
    return game.hand_number


def run_import(args: ImportConfig) -> int:
    """Read a match file, check it by replaying it, and add it to the game log."""
    try:
        match = exchange.read_export(Path(args.file))
    except StoreError as e:
        return fail(e.said())
    try:
        conn = open_db()
        try:
            mid = exchange.import_match(conn, match)
        finally:
            conn.close()
    except StoreError as e:
        return fail(_("{why} (nothing was imported)").format(why=e.said()))
    except (sqlite3.Error, OSError) as e:  # while writing: the transaction rolled back
        why = _(describe(e, db_path()))
        return fail(_("cannot write the game log: {why}; nothing was imported").format(why=why))
    names = ", ".join(s["name"] for s in match["seats"])
    game = match["_game"]
    if game.winner is not None:
        outcome = _("winner {name}").format(name=match["seats"][game.winner]["name"])
    else:
        outcome = _("unfinished")
    print(
        _("imported as game {id} ({names}; {outcome}; totals {totals})").format(
            id=mid, names=names, outcome=outcome, totals=_totals(game.totals)
        )
    )
    return 0
