"""``rum500 analyse``: the analysis of a match from the game log, as text or JSON, kept in
the log for ``rum500 stats`` (docs/analysis.md).

:func:`run_analyse` takes its typed config (:class:`rum500.configs.AnalyseConfig`) and
returns the exit status; every problem a user can meet is one line on stderr and status 1.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import textwrap
from collections.abc import Mapping
from typing import TYPE_CHECKING, TextIO

from rum500.coach.analysis import Decision, HandAnalysis, MatchAnalysis, analyse_seats
from rum500.i18n import N_, _, decimal, ngettext
from rum500.store import log as L
from rum500.store.db import StoreError, open_db, reading

if TYPE_CHECKING:
    from rum500.configs import AnalyseConfig


def fail(message: str) -> int:
    print(f"rum500: {message}", file=sys.stderr)
    return 1


def newest(conn: sqlite3.Connection) -> int:
    """The newest match of the game log (a :class:`StoreError` when it holds none)."""
    row = conn.execute("SELECT max(id) FROM matches").fetchone()
    if row is None or row[0] is None:
        raise StoreError(N_("the game log holds no match to analyse yet: play one first"))
    return int(row[0])


def pick_seats(match: Mapping, seat: int | None, player: str | None) -> list[int]:
    """The seats to analyse: ``seat``, the seat(s) of ``player``, or every seat."""
    players = int(match["players"])
    mid = match["id"]
    if seat is not None:
        if not 0 <= seat < players:
            raise StoreError(
                N_("game {id} has no seat {seat}: its seats are 0 to {last}"),
                id=mid,
                seat=seat,
                last=players - 1,
            )
        return [seat]
    if player is not None:
        from rum500.narrate import shown_name

        def names_of(s: Mapping) -> set[str]:  # as logged, and as the screen shows a bot's
            logged = str(s.get("name") or "")
            return {logged.casefold(), shown_name(logged, bool(s.get("bot"))).casefold()}

        found = [s["seat"] for s in match["seats"] if player.casefold() in names_of(s)]
        if not found:
            names = ", ".join(
                shown_name(str(s.get("name")), bool(s.get("bot"))) for s in match["seats"]
            )
            raise StoreError(
                N_("nobody named {name} played game {id} (its players: {names})"),
                name=repr(player),
                id=mid,
                names=names,
            )
        return found
    return list(range(players))


class Bar:
    """A progress bar on a terminal's stderr (nothing when stderr is not a terminal)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total if total else 100
        if percent == self.last and done < total:
            return
        self.last = percent
        filled = 30 * done // total if total else 30
        line = _("analysing: [{bar}] {done}/{total}").format(
            bar="#" * filled + "-" * (30 - filled), done=done, total=total
        )
        self.out.write("\r" + line)
        if done >= total:
            self.out.write("\n")
        self.out.flush()


def run_analyse(config: AnalyseConfig) -> int:
    """``rum500 analyse [GAME_ID] [--seat N | --player NAME] [--hand K] [--json] …``."""
    try:
        with reading() as conn:
            mid = newest(conn) if config.game_id is None else L.resolve(conn, config.game_id)
            match = L.load_match(conn, mid)
        seats = pick_seats(match, config.seat, config.player)
        game = L.rebuild(match)
    except StoreError as e:
        return fail(e.said())
    if config.hand is not None and not 1 <= config.hand <= game.hand_number:
        return fail(
            _("game {id} has no hand {hand}: it has hands 1 to {last}").format(
                id=mid, hand=config.hand, last=game.hand_number
            )
        )
    if not match["actions"]:
        return fail(_("game {id} has no action yet: there is nothing to analyse").format(id=mid))
    note = sys.stderr if config.json else sys.stdout
    if match["status"] != "finished":
        n = len(match["actions"])
        print(
            ngettext(
                "game {id} is not finished: analysing the {n} action played so far",
                "game {id} is not finished: analysing the {n} actions played so far",
                n,
            ).format(id=mid, n=n),
            file=note,
        )
    bar = Bar(sys.stderr) if sys.stderr.isatty() else None
    analyses = analyse_seats(
        match,
        seats,
        budget=config.budget,
        seed=config.seed,
        jobs=config.jobs,
        progress=bar,
        hands={config.hand} if config.hand is not None else None,
    )
    if config.hand is None:
        keep(mid, analyses)
    if config.json:
        records = [r for a in analyses for r in a.records()]
        print("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n]")
    else:
        print("\n\n".join(report(a) for a in analyses))
    return 0


def keep(mid: int, analyses: list[MatchAnalysis]) -> None:
    """Keep each seat's analysis of the whole match in the game log (a warning if not)."""
    try:
        conn = open_db(create=False)
        try:
            for a in analyses:
                L.save_analysis(conn, mid, row(a))
        finally:
            conn.close()
    except (StoreError, sqlite3.Error) as e:
        why = e.said() if isinstance(e, StoreError) else str(e)
        print(
            "rum500: " + _("the analysis is not kept in the game log: {why}").format(why=why),
            file=sys.stderr,
        )


def row(a: MatchAnalysis) -> dict:
    """What the game log keeps of an analysis (docs/storage.md, ``analyses``)."""
    return {
        "seat": a.seat,
        "budget": a.budget,
        "seed": a.seed,
        "actions": a.actions,
        "decisions": len(a.decisions),
        "loss": a.loss,
        "hands": len(a.hands),
        "luck": a.luck,
        "summary": {
            "summary": a.summary(),
            "hands": [r for r in a.records() if r["type"] == "hand"],
            # each decision's cost, for the replay's marks (rum500/tui/replay.py)
            "decisions": [
                {k: r[k] for k in ("index", "hand", "kind", "played", "best", "loss", "stderr")}
                for r in a.records()
                if r["type"] == "decision"
            ],
        },
    }


# --------------------------------------------------------------------------- the text report


def report(a: MatchAnalysis) -> str:
    """The analysis of one seat as text: the match's figures, a line per hand, the biggest
    mistakes with their positions."""
    n, lost, err = len(a.decisions), round(a.loss), round(a.luck_stderr)
    lines = [
        _("Game {id}, seat {seat} ({name})").format(id=a.game_id, seat=a.seat, name=a.name),
        _("{decisions}: {rate} ({lost})").format(
            decisions=ngettext("{n} decision analysed", "{n} decisions analysed", n).format(n=n),
            rate=_("error rate {rate} points per decision").format(rate=decimal(a.error_rate, 2)),
            lost=ngettext("{n} point lost", "{n} points lost", lost).format(n=lost),
        ),
        ngettext("luck {luck} ± {n} point", "luck {luck} ± {n} points", err).format(
            luck=f"{a.luck:+.0f}", n=err
        ),
        *(["", *_hand_table(a.hands)] if a.hands else []),  # (no hand yet: no table)
    ]
    mistakes = a.mistakes
    if mistakes:
        lines += ["", _("Biggest mistakes:")]
        for k, d in enumerate(mistakes, 1):
            lines += _mistake(k, d)
    elif not a.decisions:
        lines += ["", _("Nothing to judge: this seat had no move with a choice to make.")]
    else:
        lines += ["", _("No mistake found: every move played was the best the analysis found.")]
    return "\n".join(fitted(line) for line in lines)


#: the report's width: a longer line is wrapped at a space (a terminal cuts words in two)
WIDTH = 80


def fitted(line: str, width: int = WIDTH) -> str:
    """``line`` wrapped to ``width`` at spaces, the lines after the first indented two more
    than it (three after a numbered item's "1. "); a line that fits as it is. (The replay's
    screen wraps its lines with it too.)"""
    if len(line) <= width:
        return line
    indent = len(line) - len(line.lstrip(" "))
    more = " " * (indent + (3 if line.lstrip()[:1].isdigit() else 2))
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=more, break_on_hyphens=False))


def _hand_table(hands: list[HandAnalysis]) -> list[str]:
    """A line per hand under a header, the columns aligned (each line fits: none is wrapped)."""
    head = [_("hand"), _("decisions"), _("error rate"), _("lost"), _("luck"), _("score")]
    rows = [head]
    for h in hands:
        rows.append(
            [
                str(h.hand),
                str(h.decisions),
                decimal(h.error_rate, 2),
                f"{h.loss:.0f}",
                f"{h.luck:+.0f} ± {h.luck_stderr:.0f}",
                "-" if h.score is None else str(h.score),
            ]
        )
    widths = [max(len(r[k]) for r in rows) for k in range(len(head))]
    return ["  ".join(c.rjust(widths[k]) for k, c in enumerate(r)).rstrip() for r in rows]


def _mistake(k: int, d: Decision) -> list[str]:
    p = d.position
    melds = "; ".join(" ".join(m["cards"]) for m in p["melds"]) or "-"
    return [
        _(
            "{k}. hand {hand}, action {index}: {played} — better: {best} (lost {loss} ± "
            "{err} points)"
        ).format(
            k=k,
            hand=d.hand,
            index=d.index,
            played=describe(d.played, p),
            best=better(d.best, d.played, p),
            loss=decimal(d.loss, 1),
            err=decimal(d.stderr, 1),
        ),  # fmt: skip
        "   " + _("hand: {cards}").format(cards=" ".join(p["hand"]) or "-"),
        "   " + _("discard pile: {cards}").format(cards=" ".join(p["discard_pile"]) or "-"),
        "   " + _("table: {melds}").format(melds=melds),
    ]


def better(best: Mapping, played: Mapping, position: Mapping) -> str:
    """The better move in words, cards as on the wire; a discard in place of a meld or a
    lay-off says the cards are kept (as the review's line and the replay say it)."""
    from rum500.narrate import kept_instead

    return kept_instead(best, played, lambda c, _joker: c) or describe(best, position)


def describe(action: Mapping, position: Mapping) -> str:
    """A move in words, cards as on the wire."""
    kind = action.get("type")
    if kind == "draw" and action.get("source") == "stock":
        return _("draw from the stock")
    if kind == "draw":
        pile = position["discard_pile"]
        i = int(action.get("index", len(pile) - 1))
        above = len(pile) - i - 1
        card = pile[i] if 0 <= i < len(pile) else "?"
        if above <= 0:
            return _("take {card} from the discard pile").format(card=card)
        return ngettext(
            "take {card} and the {n} card above it",
            "take {card} and the {n} cards above it",
            above,
        ).format(card=card, n=above)
    if kind == "meld":
        return _("meld {cards}").format(cards=" ".join(action.get("cards") or ()))
    if kind == "layoff":
        return _("lay off {card} on {meld}").format(
            card=action.get("card"), meld=_meld_cards(action.get("meld"), position)
        )
    if kind == "discard":
        return _("discard {card}").format(card=action.get("card"))
    if kind == "end_hand":
        return _("end the hand")
    if kind == "rummy":
        return _("call Rummy! on {meld}").format(meld=_meld_cards(action.get("meld"), position))
    if kind == "pass":
        return _("no Rummy! call")
    return str(kind)


def _meld_cards(mid: object, position: Mapping) -> str:
    for m in position["melds"]:
        if m["id"] == mid:
            return " ".join(m["cards"])
    return "?"
