"""The two score overlays: the hand-end review and the table of every hand's score.

The review (``model.sheet`` = the view's ``last_hand``, with the melds still on the table)
shows who went out; each player's melds and lay-offs with their points, the cards left in
their hand face up with the penalty; the hand's score line and the new totals; and, while the
host holds the next deal, the countdown and who it waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from prompt_toolkit.formatted_text import StyleAndTextTuples

from rum500.i18n import _, ngettext, pgettext
from rum500.rules.melds import Meld
from rum500.rules.options import OPTION_SPECS, Options
from rum500.rules.scoring import meld_points
from rum500.tui import describe
from rum500.tui.render import Line, Names, Token, card, cut, layoff_mark, team_name, wrap
from rum500.tui.review import Review
from rum500.tui.tableview import TableView


class SheetTable(Names, Protocol):
    """What the sheets read of the table screen (a narrow port): the view, the names, the
    sheet being reviewed and the review's countdown, my seat and its legal moves, the hand
    order."""

    tableview: TableView  # what the host sent, and its accessors
    sheet: dict | None
    review: Review


def _points(m: dict, options: object = None) -> list[int]:
    """What each card of a meld (view form) scores for the seat that put it down, under the
    table's options (the view's: RULES.md §11.4, §12.3, §12.4)."""
    try:
        meld = Meld.from_dict(m)
        return meld_points(meld, Options.from_dict(options)) if options else list(meld.points)
    except (ValueError, KeyError, TypeError, IndexError):
        return [0] * len(m.get("cards") or [])


def scored_with(options: object) -> str:
    """ "Scored with: …" — the options on at the table that change what cards score (their
    metadata's ``scores``: §11.4, §12.3, §12.4), each as its lobby label and value; ""."""
    if not isinstance(options, dict):
        return ""
    rules = [
        f"{_(s.label)}: {_(s.value_label(options[s.name]))}"
        for s in OPTION_SPECS
        if s.scores and s.name in options and options[s.name] != s.default
    ]
    return _("Scored with: {rules}").format(rules="; ".join(rules)) if rules else ""


def _guarded(
    draw: Callable[[SheetTable, int], list[Line]],
) -> Callable[..., list[Line]]:
    """A sheet drawn from what the host sent: a malformed one is one line, not a crash."""

    def safe(model: SheetTable, width: int = 76) -> list[Line]:
        try:
            return draw(model, width)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError):
            return [[("class:error", _("The host sent scores this screen cannot read."))]]

    safe.__doc__ = draw.__doc__
    return safe


@_guarded
def review_lines(model: SheetTable, width: int = 76) -> list[Line]:
    """The score sheet of the hand that ended (see the module docstring)."""
    r = model.sheet or (model.tableview.view or {}).get("last_hand")
    if not r:
        return []
    v = model.tableview.view or {}
    n = len(r["scores"])
    lines: list[Line] = []
    went = r.get("went_out")
    head = _("Hand {n} — score sheet").format(n=r["hand"])
    if went is not None:
        why = _("{who} went out.").format(who=model.tableview.player_name(went))
    elif r.get("reason") == "declined":
        why = _("The stock ran out and the hand was ended.")
    else:
        why = _("The stock ran out.")
    lines.append([("class:label", head), ("", "  " + why)])
    if scored := scored_with(v.get("options")):
        lines.append([("class:info", scored)])
    lines.append(
        [
            (
                "class:label",
                "   {:<18}{:>7}{:>8}{:>8}{:>8}".format(
                    _("Player"), _("Table"), _("Hand"), _("Score"), _("Total")
                ),
            )
        ]
    )
    melds = v.get("melds") if v.get("phase") in ("hand_over", "game_over") else None
    hands = r.get("hands") or []
    for s in range(n):
        me = s == v.get("seat")
        score = r["scores"][s]
        mark = "*" if s == went else " "
        lines.append(
            [
                (
                    "class:me" if me else "",
                    f"{mark}{s + 1:>2} {model.tableview.player_name(s)[:17]:<18}",
                ),
                ("", "{:>7}{:>8}".format(r["table_points"][s], -r["hand_points"][s])),
                ("class:score.pos" if score >= 0 else "class:score.neg", f"{score:>+8d}"),
                ("class:label", f"{r['totals'][s]:>8}"),
            ]
        )
        if melds is not None:
            lines += _played(model, s, melds, width)
        left = model.tableview.in_hand_order([str(c) for c in hands[s]]) if s < len(hands) else []
        tokens: list[Token] = [([("class:dim", "     " + _("in hand:"))], False, False)]
        if left:
            for c in left:
                tokens.append((card(model, c), False, False))
            tokens.append(
                ([("class:score.neg", "= -{n}".format(n=r["hand_points"][s]))], False, False)
            )
        else:
            tokens.append(([("class:dim", _("nothing"))], False, False))
        lines += wrap(tokens, width, indent=6)[0]
    lines += _team_lines(model, r)
    check = (getattr(model, "deal_checks", None) or {}).get(r["hand"])
    if check is not None:  # the client's check of this hand's deal (rum500/dealcheck.py)
        style = "class:info" if check.get("ok") else "class:error"
        lines.append([(style, _(str(check.get("text", ""))))])
    coach = getattr(model, "coach", None)  # this seat's biggest mistake (tui/coachline.py)
    said = coach.text() if coach is not None and r.get("hand") == coach.review_hand else ""
    if said:
        style = "class:info" if coach.state == "done" else "class:dim"
        lines += wrap([([(style, w)], False, False) for w in said.split()], width, indent=2)[0]
    return lines


def _team_lines(model: SheetTable, r: dict) -> list[Line]:
    """With partnerships: each team's score this hand and its total."""
    scores, totals = r.get("team_scores"), r.get("team_totals")
    if not isinstance(scores, list) or not isinstance(totals, list):
        return []
    lines: list[Line] = []
    for t, (score, total) in enumerate(zip(scores, totals, strict=False)):
        if not isinstance(score, int) or not isinstance(total, int):
            continue
        lines.append(
            [
                ("class:label", f"   {team_name(model, t)[:40]:<40}"),
                ("class:score.pos" if score >= 0 else "class:score.neg", f"{score:>+8d}"),
                ("class:label", f"{total:>8}"),
            ]
        )
    return lines


def _played(model: SheetTable, s: int, melds: list[dict], width: int) -> list[Line]:
    """Player ``s``'s melds (the cards they put in them) and lay-offs, with points."""
    tokens: list[Token] = []
    for m in melds:
        pts = _points(m, (model.tableview.view or {}).get("options"))
        if m["owner"] == s:
            cards = [c for c, by in zip(m["cards"], m["by"], strict=False) if by == s]
            got = sum(p for p, by in zip(pts, m["by"], strict=False) if by == s)
            frags: StyleAndTextTuples = [("", "[")]
            for k, c in enumerate(m["cards"]):
                if k:
                    frags.append(("", " "))
                frags += card(model, c)
                if m["by"][k] != s:
                    frags.append(("class:info", layoff_mark(model.ascii, m["by"][k])))
            frags.append(("", f"] {got:+d}" if cards else "]"))
            tokens.append((frags, False, False))
        else:
            for k, (c, by) in enumerate(zip(m["cards"], m["by"], strict=False)):
                if by == s:
                    p = pts[k] if k < len(pts) else 0
                    text = _("laid off {card} on {owner}'s meld {p:+d}").format(
                        card=describe.card_text(c, model.ascii),
                        owner=model.tableview.player_name(m["owner"]),
                        p=p,
                    )
                    tokens.append(([("", text)], False, False))
    if not tokens:
        return []
    head: Token = ([("class:dim", "     " + _("on the table:"))], False, False)
    return wrap([head, *tokens], width, indent=6)[0]


def review_footer(model: SheetTable) -> list[Line]:
    """The lines pinned under the review: the countdown, who the deal waits for, Enter."""
    out: list[Line] = []
    if model.review.open:
        left = model.review.seconds_left()
        if left is not None:
            out.append(
                [
                    (
                        "class:label",
                        ngettext(
                            "The next hand is dealt in {n} second.",
                            "The next hand is dealt in {n} seconds.",
                            left,
                        ).format(n=left),
                    )
                ]
            )
        # the others only: your own wait is the line below ("Press Enter when you are ready")
        waiting = [s for s in model.review.still_waiting() if s != model.tableview.seat]
        if waiting:
            out.append(
                [
                    (
                        "class:dim",
                        _("Waiting for: {names}").format(
                            names=", ".join(model.tableview.player_name(s) for s in waiting)
                        ),
                    )
                ]
            )
        if model.review.waits_for_me:
            out.append([("class:turn", _("Press Enter when you are ready for the next hand."))])
        elif model.tableview.seat is not None and not model.tableview.spectator:
            out.append([("class:dim", _("You are ready. Esc shows the table."))])
    elif model.tableview.legal("deal"):
        out.append([("class:turn", _("Press Enter to deal the next hand."))])
    else:
        out.append([("class:dim", _("Press Enter to close."))])
    return out


@_guarded
def score_table_lines(model: SheetTable, width: int = 76) -> list[Line]:
    """Every hand so far (as the view has them), a column per player, then the totals."""
    v = model.tableview.view or {}
    results = v.get("results") or []
    n = v.get("players") or 0
    if not n:
        return []
    col = max(6, min(12, (width - 6) // max(1, n)))
    number = pgettext("the score table's column of hand numbers", "Hand")
    head: Line = [("class:label", f"{number:<6}")]
    for s in range(n):
        head.append(
            (
                "class:me" if s == v.get("seat") else "class:label",
                f"{model.tableview.player_name(s)[: col - 1]:>{col}}",
            )
        )
    lines: list[Line] = [head]
    start = v.get("results_start") or 0
    if start:
        lines.append(
            [
                (
                    "class:dim",
                    ngettext(
                        "({n} earlier hand not shown)", "({n} earlier hands not shown)", start
                    ).format(n=start),
                )
            ]
        )
    for r in results:
        line: Line = [("", f"{r.get('hand', '?')!s:<6}")]
        for s in range(n):
            sc = r["scores"][s] if s < len(r.get("scores") or []) else 0
            out = s == r.get("went_out")  # the mark by the score of the player who went out
            line.append(
                (
                    "class:score.pos" if sc >= 0 else "class:score.neg",
                    f"{sc:>+{col - 1}d}" if out else f"{sc:>+{col}d}",
                )
            )
            if out:
                line[-1] = (line[-1][0], line[-1][1] + "*")
        lines.append(cut(line, width, model.ascii))
    label = _("Total")
    total: Line = [("class:label", f"{label:<6}")]
    for s in range(n):
        total.append(("class:label", f"{v['totals'][s]:>{col}}"))
    lines.append(total)
    for t, team_total in enumerate(v.get("team_totals") or []):
        lines.append(
            cut([("class:label", f"{team_name(model, t)}: {team_total}")], width, model.ascii)
        )
    lines.append([("class:dim", _("*: the player who went out. ↑ ↓ scroll, Esc closes."))])
    return lines
