"""Formatted text for each part of the table screen, read from the model at render time.

Each function returns prompt_toolkit fragments ``(style, text[, mouse handler])``. Styles are
classes (``class:card.red`` …) resolved by :data:`STYLE`; every highlight also has a
reverse/bold/underline form so it survives ``NO_COLOR``.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.styles import Style

from rum500.i18n import _
from rum500.tui import describe
from rum500.tui.model import TableModel, Zone

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "banner": "bg:ansired fg:ansiwhite bold",
        "label": "bold",
        "dim": "fg:ansibrightblack",
        "card": "bg:ansiwhite",
        "card.red": "fg:ansired bg:ansiwhite",
        "card.black": "fg:ansiblack bg:ansiwhite",
        "card.plain": "",
        "cursor": "reverse",
        "selected": "bold underline bg:ansiyellow",
        "take": "bold bg:ansicyan",
        "legal": "underline",
        "must": "bold bg:ansimagenta fg:ansiwhite",
        "turn": "bold fg:ansigreen",
        "me": "bold",
        "error": "bold fg:ansired",
        "info": "fg:ansicyan",
        "key": "bold reverse",
        "overlay": "bg:ansiblack fg:ansiwhite",
        "frame.border": "fg:ansicyan",
        "score.pos": "fg:ansigreen",
        "score.neg": "fg:ansired",
    }
)

SERIES_MARKS = "●○■□▲△◆◇"
SERIES_MARKS_ASCII = "12345678"
SERIES_COLOURS = [
    "ansired",
    "ansiblue",
    "ansigreen",
    "ansimagenta",
    "ansicyan",
    "ansiyellow",
    "ansibrightred",
    "ansibrightblue",
]


def _click(action: Callable[[], None]) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            action()
            return None
        return NotImplemented

    return handler


def card(
    model: TableModel,
    text: str,
    extra: str = "",
    handler: Callable[[MouseEvent], object] | None = None,
) -> StyleAndTextTuples:
    """One card as a fragment, e.g. ``10♥`` in red (``10H`` with --ascii)."""
    rank, suit = describe.split(text)
    colour = "class:card.red" if suit in "HD" else "class:card.black"
    body = describe.rank_text(rank) + describe.suit_text(suit, model.ascii)
    style = f"{colour} {extra}".strip()
    if handler is not None:
        return [(style, body, handler)]
    return [(style, body)]


def title(model: TableModel) -> StyleAndTextTuples:
    v = model.view
    parts = [_("Rummy 500")]
    if model.table_name:
        parts.append(model.table_name)
    if v:
        parts.append(_("hand {n}").format(n=v["hand_number"]))
        parts.append(_("target {n}").format(n=v["target"]))
    if model.spectator:
        parts.append(_("watching"))
    text = " · ".join(parts)
    return [("class:title", f" {text} ")]


def players(model: TableModel) -> StyleAndTextTuples:
    v = model.view
    if not v:
        return waiting(model)
    out: StyleAndTextTuples = []
    head = "     {:<20}{:>7}{:>8}{:>8}\n".format(_("Player"), _("Cards"), _("Table"), _("Total"))
    out.append(("class:label", head))
    for s in range(v["players"]):
        mark = "▶ " if v["turn"] == s and v["phase"] in ("draw", "play") else "  "
        if model.ascii and mark.strip():
            mark = "> "
        name = model.player_name(s)[:12]
        if s in model.away:
            name += " " + _("(away)")
        if s == v["dealer"]:
            name += " " + _("(D)")
        if s == v["seat"]:
            name += " " + _("(you)")
        style = "class:turn" if v["turn"] == s else ("class:me" if s == v["seat"] else "")
        out.append((style, f"{mark}{s + 1:>2} {name[:20]:<20}"))
        out.append(
            (
                "",
                "{:>7}{:>8}{:>8}\n".format(
                    v["hand_sizes"][s], v["table_points"][s], v["totals"][s]
                ),
            )
        )
    return out[:-1] + [(out[-1][0], out[-1][1].rstrip("\n"))]


def waiting(model: TableModel) -> StyleAndTextTuples:
    """Before the match starts: who sits where, and how many seats are still free."""
    lobby = model.lobby
    if not lobby:
        return [("class:dim", _("Waiting for the table…"))]
    seats = lobby.get("seats") or []
    taken = sum(1 for s in seats if isinstance(s, dict) and s.get("name"))
    out: StyleAndTextTuples = [
        (
            "class:label",
            _("Waiting for players: {taken} of {n} seats taken").format(taken=taken, n=len(seats)),
        )
    ]
    for i, s in enumerate(seats):
        name = s.get("name") if isinstance(s, dict) else None
        text = name or _("(free)")
        if isinstance(s, dict) and s.get("bot"):
            text += " " + _("(bot)")
        if i == model.my_seat:
            text += " " + _("(you)")
        out.append(("" if name else "class:dim", f"\n  {i + 1}. {text}"))
    return out


def pile(model: TableModel) -> StyleAndTextTuples:
    v = model.view
    if not v:
        return []
    out: StyleAndTextTuples = [
        ("class:label", _("Stock: {n}").format(n=v["stock"]) + "   "),
        ("class:label", _("Discard pile:") + " "),
    ]
    cards = v["discard_pile"]
    if not cards:
        out.append(("class:dim", _("(empty)")))
        return out
    depth = model.pile_index()
    legal = model.legal_pile_indices()
    focused = model.zone == Zone.PILE
    for i, c in enumerate(cards):
        extra = ""
        if focused and depth is not None and i >= depth:
            extra = "class:take"
        if focused and i == depth:
            extra += " class:cursor"
        elif i in legal:
            extra += " class:legal"
        out += card(model, c, extra, _click(lambda i=i: model.click_pile(i)))
        out.append(("", " "))
    if focused and depth is not None:
        out.append(("class:info", " " + _("← take {n} card(s)").format(n=len(cards) - depth)))
    return out


def melds(model: TableModel) -> StyleAndTextTuples:
    """Every meld, grouped by the player who owns it; lay-offs marked by who laid them off."""
    v = model.view
    if not v:
        return []
    ms = v["melds"]
    out: StyleAndTextTuples = [("class:label", _("Melds:"))]
    if not ms:
        out.append(("class:dim", " " + _("none yet")))
        return out
    if any(by != m["owner"] for m in ms for by in m["by"]):
        out.append(("class:dim", " " + _("('n after a card: laid off by player n)")))
    focused = model.zone == Zone.MELDS
    fits: set[int] = set()
    if model.choosing_meld_for:
        fits = {a["meld"] for a in model.legal("layoff") if a["card"] == model.choosing_meld_for}
    for owner in range(v["players"]):
        mine = [(i, m) for i, m in enumerate(ms) if m["owner"] == owner]
        if not mine:
            continue
        out.append(("", "\n "))
        who = f"{owner + 1} {model.player_name(owner)[:12]}:"
        out.append(("class:me" if owner == v["seat"] else "", who))
        for i, m in mine:
            handler = _click(lambda i=i: model.click_meld(i))
            frame = "class:cursor" if focused and i == model.meld_cursor else ""
            if m["id"] in fits and not frame:
                frame = "class:legal"
            out.append((frame, " [", handler))
            for k, c in enumerate(m["cards"]):
                if k:
                    out.append((frame, " ", handler))
                out += card(model, c, "", handler)
                by = m["by"][k]
                if by != m["owner"]:
                    # a lay-off: marked with the number of the seat that laid it off
                    out.append(("class:info", f"'{by + 1}", handler))
            out.append((frame, "]", handler))
    return out


def hand(model: TableModel) -> StyleAndTextTuples:
    v = model.view
    if not v:
        return []
    if v.get("hand") is None:
        return [("class:dim", _("You are watching this table."))]
    mode = _("by rank") if model.sort_mode == "rank" else _("by suit")
    out: StyleAndTextTuples = [("class:label", _("Your hand ({mode}):").format(mode=mode) + " ")]
    cards = model.hand()
    flags = model.selected_flags()
    focused = model.zone == Zone.HAND
    # must_play is public (everyone saw the dig), but it is this hand's duty only on our turn
    must = v.get("must_play") if v.get("turn") == v.get("seat") else None
    for i, c in enumerate(cards):
        extra = ""
        if c == must:
            extra += " class:must"
        if flags[i]:
            extra += " class:selected"
        if focused and i == model.hand_cursor:
            extra += " class:cursor"
        out.append(("", "[" if flags[i] else " "))
        out += card(model, c, extra.strip(), _click(lambda i=i: model.click_hand(i)))
        out.append(("", "]" if flags[i] else " "))
    if must:
        out.append(
            (
                "class:must",
                " " + _("must play {card}").format(card=describe.card_text(must, model.ascii)),
            )
        )
    return out


def actions(model: TableModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for key, label, method in model.available_keys():
        handler = _click(method)
        out.append(("class:key", f"{key}", handler))
        out.append(("", f" {label}  ", handler))
    return out


def status(model: TableModel) -> StyleAndTextTuples:
    if model.message:
        return [("class:error" if model.message_is_error else "class:info", model.message)]
    v = model.view
    if not v:
        return [("class:dim", _("Connecting…"))]
    if v["phase"] == "game_over":
        return [("class:info", _("The match is over."))]
    turn = v["turn"]
    if v["phase"] == "hand_over":
        return [
            ("class:info", _("Hand over: {name} deals next.").format(name=model.player_name(turn)))
        ]
    if model.my_turn:
        if v["phase"] == "draw":
            return [("class:turn", _("Your turn: draw."))]
        return [("class:turn", _("Your turn: meld, lay off, then discard."))]
    return [("class:dim", _("{name} is playing…").format(name=model.player_name(turn)))]


def log(model: TableModel) -> StyleAndTextTuples:
    lines = list(model.log)[-40:]
    return [("", "\n".join(lines))]


def chat(model: TableModel) -> StyleAndTextTuples:
    if not model.chat_lines:
        return [("class:dim", _("Chat: press c to talk."))]
    return [("", "\n".join(list(model.chat_lines)[-20:]))]


def score_sheet(model: TableModel) -> StyleAndTextTuples:
    r = model.sheet or (model.view or {}).get("last_hand")
    if not r:
        return []
    n = len(r["scores"])
    out: StyleAndTextTuples = [("class:label", _("Hand {n} — score sheet").format(n=r["hand"]))]
    out.append(("", "\n\n"))
    out.append(
        (
            "class:label",
            "{:<16}{:>7}{:>7}{:>7}{:>8}\n".format(
                _("Player"), _("Table"), _("Hand"), _("Score"), _("Total")
            ),
        )
    )
    for s in range(n):
        out.append(
            (
                "class:me" if model.view and s == model.view["seat"] else "",
                f"{model.player_name(s)[:15]:<16}",
            )
        )
        out.append(("", "{:>7}{:>7}".format(r["table_points"][s], -r["hand_points"][s])))
        score = r["scores"][s]
        out.append(("class:score.pos" if score >= 0 else "class:score.neg", f"{score:>+7d}"))
        out.append(("class:label", f"{r['totals'][s]:>8}\n"))
    out.append(("", "\n"))
    if r.get("went_out") is not None:
        out.append(("", _("{who} went out.").format(who=model.player_name(r["went_out"])) + "\n"))
    if model.legal("deal"):
        out.append(("class:turn", _("Press Enter to deal the next hand.")))
    else:
        out.append(("class:dim", _("Press Enter to close.")))
    return out


def final(model: TableModel, width: int = 60) -> StyleAndTextTuples:
    """Standings, then a chart of each player's total after every hand."""
    v = model.view
    if not v:
        return []
    totals = v["totals"]
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    out: StyleAndTextTuples = [("class:label", _("The match is over — standings") + "\n\n")]
    for place, s in enumerate(order, 1):
        win = (
            " ★"
            if s == v.get("winner") and not model.ascii
            else (" *" if s == v.get("winner") else "")
        )
        out.append(
            (
                "class:me" if s == v["seat"] else "",
                f"{place}. {model.player_name(s)[:16]:<16} {totals[s]:>6}{win}\n",
            )
        )
    out.append(("", "\n"))
    out += chart(model, width=width)
    out.append(("class:dim", "\n" + _("Press q to leave.")))
    return out


def chart(model: TableModel, width: int = 60, height: int = 8) -> StyleAndTextTuples:
    """A dot chart of running totals, one column group per hand, one mark per player."""
    v = model.view
    if not v:
        return []
    results = v.get("results") or []
    n = v["players"]
    series = [[0] + [r["totals"][s] for r in results] for s in range(n)]
    points = len(series[0])
    lo = min(min(x) for x in series)
    hi = max(max(x) for x in series)
    if hi == lo:
        hi = lo + 1
    label_w = max(len(str(lo)), len(str(hi))) + 1
    step = max(1, min(12, (width - label_w - 2) // max(1, points)))
    cols = (points - 1) * step + 1
    grid = [[" "] * cols for _ in range(height)]
    owner = [[-1] * cols for _ in range(height)]
    marks = SERIES_MARKS_ASCII if model.ascii else SERIES_MARKS
    dot = "." if model.ascii else "·"

    def row_of(value: int) -> int:
        return height - 1 - round((value - lo) * (height - 1) / (hi - lo))

    for s in range(n):  # the lines between hands first, so the marks stay on top
        for k in range(points - 1):
            r0, r1 = row_of(series[s][k]), row_of(series[s][k + 1])
            for c in range(k * step + 1, (k + 1) * step):
                r = round(r0 + (r1 - r0) * (c - k * step) / step)
                if grid[r][c] == " ":
                    grid[r][c], owner[r][c] = dot, s
    for s in range(n):
        for k, value in enumerate(series[s]):
            grid[row_of(value)][k * step] = marks[s % len(marks)]
            owner[row_of(value)][k * step] = s
    out: StyleAndTextTuples = []
    for r in range(height):
        if r == 0:
            label = str(hi)
        elif r == height - 1:
            label = str(lo)
        else:
            label = ""
        out.append(("class:dim", f"{label:>{label_w}}|"))
        for c in range(cols):
            s = owner[r][c]
            style = f"fg:{SERIES_COLOURS[s % len(SERIES_COLOURS)]} bold" if s >= 0 else ""
            out.append((style, grid[r][c]))
        out.append(("", "\n"))
    axis = "".join(str(k % 10).ljust(step) for k in range(points))[:cols]
    out.append(("class:dim", " " * label_w + "+" + "-" * cols + "\n"))
    out.append(("class:dim", " " * (label_w + 1) + axis + "  " + _("hand") + "\n"))
    for s in range(n):
        out.append(
            (f"fg:{SERIES_COLOURS[s % len(SERIES_COLOURS)]} bold", f"{marks[s % len(marks)]} ")
        )
        out.append(("", f"{model.player_name(s)[:14]}  "))
    return out
