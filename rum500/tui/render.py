"""Formatted text for each part of the table screen, read from the model at render time.

Each function returns prompt_toolkit fragments ``(style, text[, mouse handler])``. Styles are
classes (``class:card.red`` …) resolved by :data:`STYLE`; every highlight also has a
reverse/bold/underline form so it survives ``NO_COLOR``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.styles import DynamicStyle, Style, merge_styles
from prompt_toolkit.utils import get_cwidth

from rum500.i18n import _, ngettext
from rum500.narrate import options_text
from rum500.tui import describe
from rum500.tui.model import TableModel, Zone
from rum500.tui.tableview import TableView
from rum500.tui.wrapping import wrap_text


class Names(Protocol):
    """What the small drawing helpers (a card, a team, the final standings) read of the
    screen: the view, the players' names, ASCII or not (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    ascii: bool


#: the two-colour deck's styles (♥♦ red, ♠♣ black); :data:`STYLE` reads them, or the
#: four-colour deck's over them (:func:`use_four_colours`)
TWO_COLOUR = Style.from_dict(
    {
        "title": "reverse bold",
        "banner": "bg:ansired fg:ansiwhite bold",
        "notice": "bg:ansiyellow fg:ansiblack bold",
        "lesson": "bg:ansicyan fg:ansiblack",
        "label": "bold",
        "dim": "fg:ansibrightblack",
        "card": "bg:ansiwhite",
        "card.red": "fg:ansired bg:ansiwhite",
        "card.black": "fg:ansiblack bg:ansiwhite",
        "card.plain": "",
        "card.joker": "fg:ansimagenta bg:ansiwhite bold",
        "claim": "bg:ansimagenta fg:ansiwhite bold",
        "cursor": "reverse",
        "selected": "bold underline bg:ansiyellow",
        "cursor.selected": "reverse bold underline fg:ansiyellow",
        "drawn": "bold fg:ansiblue",
        "fresh": "bold underline fg:ansigreen",
        "fresh.text": "fg:ansigreen",
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
#: ``--four-colour``: ♠ black, ♥ red, ♦ blue, ♣ green (each card also has the class of its
#: suit, ``card.s`` … ``card.c``, styled only here); ``NO_COLOR`` still takes every colour away.
#: The green is a darker, bluish one (#00875f, colour 29 of 256; the plain ANSI green where
#: only 16 colours are drawn): the ANSI green beside the yellow of a selected card or the cyan
#: of the pile's take range was lost to protanopes and tritanopes (bench/colours.py)
FOUR_COLOUR = merge_styles(
    [
        TWO_COLOUR,
        Style.from_dict(
            {
                "card.s": "fg:ansiblack bg:ansiwhite",
                "card.h": "fg:ansired bg:ansiwhite",
                "card.d": "fg:ansiblue bg:ansiwhite",
                "card.c": "fg:#00875f bg:ansiwhite",
            }
        ),
    ]
)
_deck = {"four": False}


def use_four_colours(on: bool = True) -> None:
    """The deck of every screen of this process from now on: four colours, or two."""
    _deck["four"] = on


def four_colours() -> bool:
    return _deck["four"]


#: the style of every screen (the table, the lobby): the deck chosen now
STYLE = DynamicStyle(lambda: FOUR_COLOUR if _deck["four"] else TWO_COLOUR)

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


def _click(action: Callable[[], object]) -> Callable[[MouseEvent], object]:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            action()
            return None
        return NotImplemented

    return handler


def card(
    model: Names,
    text: str,
    extra: str = "",
    handler: Callable[[MouseEvent], object] | None = None,
    stands_for: str | None = None,
) -> StyleAndTextTuples:
    """One card as a fragment, e.g. ``10♥`` in red (``10H`` with --ascii); a joker ``🃏`` in
    its own colour (``*``), on the table followed by the card it stands for (``🃏9♥``)."""
    if text == "JK":
        frags = [(f"class:card.joker {extra}".strip(), describe.joker_text(model.ascii))]
        if stands_for:
            frags += card(model, stands_for, f"class:dim {extra}".strip())
        return [(*f[:2], handler) for f in frags] if handler is not None else frags
    rank, suit = describe.split(text)
    colour = "class:card.red" if suit in "HD" else "class:card.black"
    colour += f" class:card.{suit.lower()}"  # the four-colour deck's (FOUR_COLOUR)
    body = describe.rank_text(rank) + describe.suit_text(suit, model.ascii)
    style = f"{colour} {extra}".strip()
    if handler is not None:
        return [(style, body, handler)]
    return [(style, body)]


def team_name(model: Names, team: int) -> str:
    """``Team A (Ann, Cid)``: a team by its letter and its players."""
    teams = (model.tableview.view or {}).get("teams") or []
    members = [model.tableview.player_name(s)[:10] for s, t in enumerate(teams) if t == team]
    letter = "ABC"[team] if 0 <= team < 3 else str(team + 1)
    return _("Team {letter} ({members})").format(letter=letter, members=", ".join(members))


def team_letter(model: Names, seat: int) -> str:
    """``A``, ``B``, ``C``: the seat's team with partnerships (view ``teams``), else ``""``."""
    teams = (model.tableview.view or {}).get("teams")
    if not isinstance(teams, list) or not 0 <= seat < len(teams):
        return ""
    team = teams[seat]
    return "ABC"[team] if isinstance(team, int) and 0 <= team < 3 else ""


Line = StyleAndTextTuples


#: One unbreakable piece of a wrapped area (a card, a meld, a key): its fragments, whether it
#: starts a new line, and whether the cursor is on it (the area scrolls to keep it in sight).
Token = tuple[StyleAndTextTuples, bool, bool]


def width_of(fragments: StyleAndTextTuples) -> int:
    return sum(get_cwidth(f[1]) for f in fragments)


def wrap(tokens: list[Token], width: int, indent: int = 1) -> tuple[list[Line], int]:
    """Lay tokens out in lines of at most ``width`` cells (never splitting one); continuation
    lines are indented. Returns the lines and the index of the line with the cursor (-1)."""
    lines: list[Line] = [[]]
    used = 0
    focus = -1
    for frags, newline, cursor in tokens:
        w = width_of(frags)
        if newline and lines[-1]:
            lines.append([])
            used = 0
        elif used and used + 1 + w > width:
            lines.append([("", " " * indent)])
            used = indent
        elif used:
            lines[-1].append(("", " "))
            used += 1
        lines[-1].extend(frags)
        used += w
        if cursor:
            focus = len(lines) - 1
    return lines, focus


def joined(lines: list[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def cut(fragments: StyleAndTextTuples, width: int, ascii: bool = False) -> StyleAndTextTuples:
    """The fragments cut to ``width`` cells (one screen line, never wrapped), ending in "…"
    (``...`` with ``ascii``) where text was lost. Only for text the screen repeats elsewhere
    (a name in a column, a score row): what a player must read is wrapped (:func:`wrap_text`)."""
    mark = "..." if ascii else "…"
    if width_of(fragments) <= width:
        return list(fragments)
    out: StyleAndTextTuples = []
    left = max(0, width - len(mark))
    for f in fragments:
        w = get_cwidth(f[1])
        if w <= left:
            out.append(f)
            left -= w
            continue
        text = ""
        for ch in f[1]:
            if get_cwidth(text + ch) > left:
                break
            text += ch
        out.append((f[0], text + mark, *f[2:]))  # type: ignore[arg-type]
        break
    return out


def title(model: TableModel) -> StyleAndTextTuples:
    v = model.tableview.view
    parts = [_("Rummy 500")]
    if model.tableview.table_name:
        parts.append(model.tableview.table_name)
    if v:
        parts.append(_("hand {n}").format(n=v["hand_number"]))
        parts.append(_("target {n}").format(n=v["target"]))
    if model.tableview.spectator:
        parts.append(_("watching"))
    if model.host_player.hosting:
        parts.append(_("you host"))
    text = " · ".join(parts)
    return [("class:title", f" {text} ")]


def _flags(model: TableModel, s: int, compact: bool) -> str:
    v = model.tableview.view or {}
    flags = []
    if s in model.tableview.away or s in model.tableview.takeover:
        left = model.tableview.takeover_in(s)
        if left is None:
            flags.append(_("(away)"))
        elif left == 0:
            flags.append(_("(bot plays)") if compact else _("(away: a bot plays)"))
        elif compact:
            flags.append(_("(bot in {n} s)").format(n=left))
        else:
            flags.append(_("(away: bot in {n} s)").format(n=left))
    if s == v.get("dealer"):
        flags.append(_("(D)"))
    if s == v.get("seat"):  # (two players a line too: colour alone is no mark)
        flags.append(_("(you)"))
    watcher = model.shoulder.shown_to(s)  # over the shoulder: every seat sees it
    if watcher is not None:
        text = _("(hand→{name})").format(name=watcher)
        flags.append(text.replace("→", "->") if model.ascii else text)
    return " ".join(flags)


def players_lines(model: TableModel, width: int = 80) -> list[Line]:
    """One line per player (two players a line at tables of four or more): seat, name,
    cards in hand, points on the table this hand, total."""
    v = model.tableview.view
    if not v:  # the waiting room: its lines wrapped (several addresses make a long one)
        return [row for line in waiting_lines(model) for row in wrap_text(line, width, indent=4)]
    n = v["players"]
    cols = 2 if n >= 4 and width >= 60 else 1
    cell = (width - 3 * (cols - 1)) // cols
    name_w = max(8, min(30, cell - 4 - 5 - 6 - 6))
    head = "    {:<{w}}{:>5}{:>6}{:>6}".format(
        _("Player"), _("Cards"), _("Table"), _("Total"), w=name_w
    )
    lines: list[Line] = [[("class:label", " │ ".join([head] * cols))]]
    for row in range(-(-n // cols)):
        line: Line = []
        for c in range(cols):
            s = row * cols + c
            if s >= n:
                break
            if c:
                line.append(("class:dim", " │ "))
            playing = v["turn"] == s and v["phase"] in ("draw", "play")
            mark = (">" if model.ascii else "▶") if playing else " "
            flags = _flags(model, s, cols > 1)
            name = model.tableview.player_name(s)
            if team_letter(model, s):
                name = (
                    f"{team_letter(model, s)}·{name}"
                    if not model.ascii
                    else (f"{team_letter(model, s)}:{name}")
                )
            room = name_w - (len(flags) + 1 if flags else 0)
            text = (name[: max(3, room)] + (" " + flags if flags else ""))[:name_w]
            style = "class:turn" if v["turn"] == s else ("class:me" if s == v["seat"] else "")
            line.append((style, f"{mark}{s + 1:>2} {text:<{name_w}}"))
            line.append(
                (
                    "",
                    "{:>5}{:>6}{:>6}".format(
                        v["hand_sizes"][s], v["table_points"][s], v["totals"][s]
                    ),
                )
            )
        lines.append(line)
    return lines


def players(model: TableModel) -> StyleAndTextTuples:
    return joined(players_lines(model))


def waiting_lines(model: TableModel) -> list[Line]:
    """Before the match starts: who sits where, how many seats are free, and the addresses
    friends can type when the LAN does not carry the table's announcement."""
    lobby = model.tableview.lobby
    if not lobby:
        return [[("class:dim", _("Waiting for the table…"))]]
    seats = lobby.get("seats") or []
    taken = sum(1 for s in seats if isinstance(s, dict) and s.get("name"))
    lines: list[Line] = [
        [
            (
                "class:label",
                _("Waiting for players: {taken} of {n} seats taken").format(
                    taken=taken, n=len(seats)
                ),
            )
        ]
    ]
    options = options_text(model.tableview.table_options)
    lines.append(
        [
            ("", "  " + _("Table options:") + " "),
            ("class:label", options) if options else ("class:dim", _("the standard game")),
        ]
    )
    if model.tableview.shown_addresses(model.host_player.hosting):
        lines.append(
            [
                ("", "  " + _("Friends can join at:") + " "),
                (
                    "class:label",
                    "  ".join(model.tableview.shown_addresses(model.host_player.hosting)),
                ),
            ]
        )
    for i, s in enumerate(seats):
        name = s.get("name") if isinstance(s, dict) else None
        text = name or _("(free)")
        if isinstance(s, dict) and s.get("bot"):
            text += " " + _("(bot)")
        if i == model.tableview.my_seat:
            text += " " + _("(you)")
        lines.append([("" if name else "class:dim", f"  {i + 1}. {text}")])
    return lines


def waiting(model: TableModel) -> StyleAndTextTuples:
    return joined(waiting_lines(model))


def pile_lines(model: TableModel, width: int = 80) -> tuple[list[Line], int]:
    """The stock's size and the discard pile, bottom to top; the depth the cursor would take
    from highlighted; the card an opponent just discarded marked."""
    v = model.tableview.view
    if not v:
        return [], -1
    head: StyleAndTextTuples = [
        ("class:label", _("Stock: {n}").format(n=v["stock"]) + "   "),
        ("class:label", _("Discard pile:")),
    ]
    cards = v["discard_pile"]
    tokens: list[Token] = [(head, False, False)]
    if not cards:
        tokens.append(([("class:dim", _("(empty)"))], False, False))
        return wrap(tokens, width)
    depth = model.selection.pile_index()
    legal = model.tableview.legal_pile_indices()
    focused = model.selection.zone == Zone.PILE
    # what the cursor would take: only while this seat draws (not once it has drawn)
    taking = focused and bool(model.tableview.legal("draw"))
    fresh = {m.discarded for m in model.changes.moves.values() if m.discarded}
    for i, c in enumerate(cards):
        extra = ""
        if taking and depth is not None and i >= depth:
            extra = "class:take"
        if focused and i == depth:
            extra += " class:cursor"
        elif i in legal:
            extra += " class:legal"
        frags = card(model, c, extra, _click(lambda i=i: model.click_pile(i)))
        if i == len(cards) - 1 and c in fresh and not (focused and depth is not None):
            frags = frags + [("class:fresh", "*")]
        tokens.append((frags, False, focused and i == depth))
    if taking and depth is not None:
        n = len(cards) - depth
        tokens.append(
            (
                [
                    (
                        "class:info",
                        ngettext("← take {n} card", "← take {n} cards", n).format(n=n),
                    )
                ],
                False,
                False,
            )
        )
    return wrap(tokens, width)


def pile(model: TableModel) -> StyleAndTextTuples:
    return joined(pile_lines(model)[0])


def layoff_mark(ascii: bool, by: int) -> str:
    """The mark after a card laid off by seat ``by``: ``←2`` (player 2; ``<-2`` in ASCII)."""
    return ("<-" if ascii else "←") + str(by + 1)


def meld_lines(model: TableModel, width: int = 80) -> tuple[list[Line], int]:
    """Every meld, a line per player who owns melds; a card laid off by another player is
    marked ``9♦←2`` (and the heading says so in words). What other players put down in
    their last turn is highlighted."""
    v = model.tableview.view
    if not v:
        return [], -1
    ms = v["melds"]
    head: StyleAndTextTuples = [("class:label", _("Melds:"))]
    if not ms:
        head.append(("class:dim", " " + _("none yet")))
        return [head], -1
    example = next(
        (
            (m["cards"][k], by, (m.get("stands_for") or [None] * len(m["cards"]))[k])
            for m in ms
            for k, by in enumerate(m["by"])
            if by != m["owner"]
        ),
        None,
    )
    if example is not None:
        c, by, stands = example
        shown = describe.card_text(c, model.ascii, stands)
        head.append(
            (
                "class:dim",
                " "
                + _("({card}{mark} = {card} laid off by player {n}, {name})").format(
                    card=shown,
                    mark=layoff_mark(model.ascii, by),
                    n=by + 1,
                    name=model.tableview.player_name(by),
                ),
            )
        )
    tokens: list[Token] = [(head, False, False)]
    focused = model.selection.zone == Zone.MELDS
    fits: set[int] = set()
    if model.selection.choosing_meld_for:
        fits = {
            a["meld"]
            for a in model.tableview.legal("layoff")
            if a["card"] == model.selection.choosing_meld_for
        }
    fresh_melds, fresh_layoffs = model.changes.fresh()
    for owner in range(v["players"]):
        mine = [(i, m) for i, m in enumerate(ms) if m["owner"] == owner]
        if not mine:
            continue
        who = f"{owner + 1} {model.tableview.player_name(owner)[:12]}:"
        tokens.append(([("class:me" if owner == v["seat"] else "", who)], True, False))
        for i, m in mine:
            handler = _click(lambda i=i: model.click_meld(i))
            at = focused and i == model.selection.meld_cursor
            frame = "class:cursor" if at else ""
            if m["id"] in fits and not frame:
                frame = "class:legal"
            if m["id"] in fresh_melds and not frame:
                frame = "class:fresh"
            frags: StyleAndTextTuples = [(frame, "[", handler)]
            stands = m.get("stands_for") or [None] * len(m["cards"])
            for k, c in enumerate(m["cards"]):
                if k:
                    frags.append((frame, " ", handler))
                new = (m["id"], c) in fresh_layoffs
                frags += card(model, c, "class:fresh" if new else "", handler, stands[k])
                by = m["by"][k]
                if by != m["owner"]:
                    frags.append(("class:info", layoff_mark(model.ascii, by), handler))
            frags.append((frame, "]", handler))
            tokens.append((frags, False, at))
    return wrap(tokens, width, indent=3)


def melds(model: TableModel) -> StyleAndTextTuples:
    return joined(meld_lines(model)[0])


def hand_heading(model: TableModel) -> StyleAndTextTuples:
    """ "Your hand (by suit) · on the table +54 · in hand -35:" — the hand's running score."""
    mode = _("by rank") if model.tableview.sort_mode == "rank" else _("by suit")
    table, left = model.tableview.hand_score()
    out: StyleAndTextTuples = [("class:label", _("Your hand ({mode})").format(mode=mode))]
    out.append(("class:dim", " · "))
    out.append(("class:score.pos", _("on the table {n:+d}").format(n=table)))
    out.append(("class:dim", " · "))
    if left:
        out.append(("class:score.neg", _("in hand -{n}").format(n=left)))
    else:  # (no "-0": nothing counts against me)
        out.append(("class:dim", _("nothing in hand")))
    held = set(model.tableview.hand())
    if any(c in held for c in model.changes.drawn):  # (not once the cards drawn went down)
        out.append(("class:dim", " · "))
        out.append(("class:drawn", "+"))
        out.append(("class:dim", " " + _("just drawn")))
    out.append(("class:label", ":"))
    return out


def hand_lines(model: TableModel, width: int = 80, big: bool = False) -> tuple[list[Line], int]:
    """My hand under its heading, one fragment per card (``big``: two-line card faces, see
    :func:`big_hand_lines`); the index of the line with the cursor (-1)."""
    v = model.tableview.view
    if not v:
        return [], -1
    if v.get("hand") is None:
        return shown_hand_lines(model, width), -1
    if big:
        return big_hand_lines(model, width)
    tokens: list[Token] = [(hand_heading(model), False, False)]
    # must_play is public (everyone saw the dig), but it is this hand's duty only on our turn
    must = v.get("must_play") if v.get("turn") == v.get("seat") else None
    for i, (c, extra, mark, _left, right) in enumerate(_hand_marks(model)):
        at = model.selection.zone == Zone.HAND and i == model.selection.hand_cursor
        bracket = "class:cursor.selected" if "cursor.selected" in extra else ""
        frags: StyleAndTextTuples = [("class:drawn", "+") if mark == "+" else (bracket, mark)]
        frags += card(model, c, extra, _click(lambda i=i: model.click_hand(i)))
        frags.append((bracket, right))
        tokens.append((frags, i == 0, at))
    if must:
        tokens.append(
            (
                [
                    (
                        "class:must",
                        _("must play {card}").format(card=describe.card_text(must, model.ascii)),
                    )
                ],
                False,
                False,
            )
        )
    return wrap(tokens, width, indent=0)


def _hand_marks(model: TableModel) -> list[tuple[str, str, str, str, str]]:
    """For each card of my hand in display order: the card, its extra style classes, its
    left mark on the top line (``[`` selected, ``+`` just drawn, else a space), the left and
    the right mark of the other lines."""
    v = model.tableview.view or {}
    flags = model.selection.selected_flags()
    focused = model.selection.zone == Zone.HAND
    must = v.get("must_play") if v.get("turn") == v.get("seat") else None
    drawn = model.changes.drawn.copy()
    out = []
    for i, c in enumerate(model.tableview.hand()):
        at = focused and i == model.selection.hand_cursor
        extra = " class:must" if c == must else ""
        if flags[i] and at:
            extra += " class:cursor.selected"
        elif flags[i]:
            extra += " class:selected"
        elif at:
            extra += " class:cursor"
        new = drawn[c] > 0
        if new:
            drawn[c] -= 1
        top = "[" if flags[i] else ("+" if new else " ")
        out.append((c, extra.strip(), top, "[" if flags[i] else " ", "]" if flags[i] else " "))
    return out


def big_card(
    model: Names,
    text: str,
    extra: str = "",
    handler: Callable[[MouseEvent], object] | None = None,
) -> tuple[Line, Line]:
    """One card as a two-line face between side borders (``|`` with --ascii), the rank at
    the top left and the suit at the bottom right, e.g. ``│10 │`` over ``│  ♥│``; every
    cell of it in the card's style and clickable."""
    frags = card(model, text, extra, handler)
    style = frags[0][0]
    if text == "JK":
        rank, suit = describe.joker_text(model.ascii), ""
    else:
        rank = describe.rank_text(describe.split(text)[0])
        suit = describe.suit_text(text[-1], model.ascii)
    side = "|" if model.ascii else "│"
    top = side + rank + " " * max(0, 3 - get_cwidth(rank)) + side
    bottom = side + " " * max(0, 3 - get_cwidth(suit)) + suit + side
    if handler is None:
        return [(style, top)], [(style, bottom)]
    return [(style, top, handler)], [(style, bottom, handler)]


def big_hand_lines(model: TableModel, width: int) -> tuple[list[Line], int]:
    """My hand on a big screen: the heading, then rows of two-line card faces
    (:func:`big_card`) with the same marks as the compact hand (``[`` … ``]`` selected, ``+``
    just drawn), then what must be played. The focus is the top line of the cursor's row."""
    v = model.tableview.view or {}
    lines, _focus = wrap([(hand_heading(model), False, False)], width)
    rows: list[tuple[Line, Line]] = []
    used, focus = width, -1
    for i, (c, extra, mark, left, right) in enumerate(_hand_marks(model)):
        top, bottom = big_card(model, c, extra, _click(lambda i=i: model.click_hand(i)))
        bracket = "class:cursor.selected" if "cursor.selected" in extra else ""
        top = [("class:drawn" if mark == "+" else bracket, mark), *top, (bracket, right)]
        bottom = [(bracket, left), *bottom, (bracket, right)]
        if used + 1 + width_of(top) > width:
            rows.append(([], []))
            used = -1
        rows[-1][0].extend([("", " "), *top] if used >= 0 else top)
        rows[-1][1].extend([("", " "), *bottom] if used >= 0 else bottom)
        used += 1 + width_of(top)
        if model.selection.zone == Zone.HAND and i == model.selection.hand_cursor:
            focus = len(lines) + 2 * (len(rows) - 1)
    for top, bottom in rows:
        lines += [top, bottom]
    must = v.get("must_play") if v.get("turn") == v.get("seat") else None
    if must:
        text = _("must play {card}").format(card=describe.card_text(must, model.ascii))
        lines.append([("class:must", text)])
    return lines, focus


def shown_hand_lines(model: TableModel, width: int = 80) -> list[Line]:
    """A spectator's hand area: the hand a seat shows it (over the shoulder), else a line
    saying that it watches."""
    shown = model.shoulder.shown()
    if shown is None:
        return [[("class:dim", _("You are watching this table."))]]
    seat, cards = shown
    heading = _("{player}'s hand, shown to you:").format(player=model.tableview.player_name(seat))
    tokens: list[Token] = [([("class:label", heading)], False, False)]
    for i, c in enumerate(model.tableview.in_hand_order(cards)):
        tokens.append(([("", " "), *card(model, c), ("", " ")], i == 0, False))
    return wrap(tokens, width, indent=0)[0]


def hand(model: TableModel) -> StyleAndTextTuples:
    return joined(hand_lines(model)[0])


def recent_lines(model: TableModel, width: int = 80) -> list[Line]:
    """Each other player's last turn in words, until that player moves again."""
    v = model.tableview.view
    if not v or v["phase"] not in ("draw", "play"):
        return []
    lines: list[Line] = []
    me = v.get("seat") or 0  # the player just before me first: the freshest move
    seats = sorted(model.changes.moves, key=lambda s: (me - s) % v["players"])
    for s in seats:
        m = model.changes.moves[s]
        parts = []
        if m.source == "stock":
            parts.append(_("drew from the stock"))
        elif m.source == "discard":
            parts.append(
                ngettext(
                    "took {cards} from the pile ({n} card deep)",
                    "took {cards} from the pile ({n} cards deep)",
                    m.depth,
                ).format(cards=describe.cards_text(m.taken, model.ascii), n=m.depth)
            )
        for cards, _id, jokers in m.melded:
            shown = describe.named_cards_text(cards, jokers, model.ascii)
            parts.append(_("melded {cards}").format(cards=shown))
        for c, _id, joker in m.laid_off:
            parts.append(
                _("laid off {card}").format(card=describe.card_text(c, model.ascii, joker))
            )
        if m.discarded:
            parts.append(
                _("discarded {card}").format(card=describe.card_text(m.discarded, model.ascii))
            )
        if m.ended:
            parts.append(_("ended the hand"))
        if parts:
            tokens: list[Token] = [
                ([("class:label", f"{model.tableview.player_name(s)[:12]}:")], True, False)
            ]
            for k, part in enumerate(parts):
                tokens.append(
                    (
                        [("class:fresh.text", part + (" ·" if k < len(parts) - 1 else ""))],
                        False,
                        False,
                    )
                )
            lines += wrap(tokens, width, indent=2)[0]
    return lines


def recent_shown(lines: list[Line], k: int, width: int, ascii: bool = False) -> list[Line]:
    """The first ``k`` of :func:`recent_lines`; where that cuts a player's turn (the next
    line goes on with it), the last line shown says so with "…" instead of ending on a "·"
    (the whole turn is in the log; its discard on the pile, marked)."""
    shown = lines[:k]
    if not shown or k >= len(lines):
        return shown
    nxt = lines[k]
    if not (nxt and nxt[0] == ("", "  ")):  # the next line is another player's
        return shown
    last = list(shown[-1])
    style, text = last[-1][0], last[-1][1]
    last[-1] = (style, text.removesuffix(" ·"))
    mark = "..." if ascii else "…"
    return [*shown[:-1], cut([*last, ("class:dim", " " + mark)], width, ascii)]


def key_lines(keys: list[tuple[str, str, Callable[[], object]]], width: int = 80) -> list[Line]:
    """The key bar: ``keys`` (key, label, method; :func:`rum500.tui.keys.key_bar`), wrapped
    to ``width``, each key clickable."""
    tokens: list[Token] = []
    for key, label, method in keys:
        handler = _click(method)
        tokens.append(([("class:key", key, handler), ("", f" {label} ", handler)], False, False))
    return wrap(tokens, width, indent=0)[0]


def status(model: TableModel) -> StyleAndTextTuples:
    if model.feed.message:
        return [
            ("class:error" if model.feed.message_is_error else "class:info", model.feed.message)
        ]
    v = model.tableview.view
    if not v:
        if model.tableview.lobby and model.tableview.my_seat is not None:
            return [("class:dim", _("Seated: waiting for players…"))]
        if model.tableview.lobby:
            return [("class:dim", _("Watching: waiting for players…"))]
        return [("class:dim", _("Connecting…"))]
    if v["phase"] == "game_over":
        return [("class:info", _("The match is over."))]
    turn = v["turn"]
    if v["phase"] == "hand_over":
        if model.review.open:
            return [("class:info", model.review.wait_text())]
        if over := model.lesson_over():
            return [("class:info", over)]
        return [
            (
                "class:info",
                _("Hand over: {name} deals next.").format(name=model.tableview.player_name(turn)),
            )
        ]
    if v["phase"] == "claim":
        return [("class:claim", model.claim.status_text())]
    if model.tableview.my_turn:
        if v["phase"] == "draw":
            return [("class:turn", model.tableview.draw_prompt())]
        return [("class:turn", _("Your turn: meld, lay off, then discard."))]
    return [("class:dim", _("{name} is playing…").format(name=model.tableview.player_name(turn)))]


def banner_lines(model: TableModel, width: int = 80) -> list[Line]:
    """The banner over the table — the link is down (and why), someone called "Rummy!", the
    host's notice — wrapped: a reason at its end is read, not cut."""
    if model.feed.banner:
        style, text = "class:banner", model.feed.banner_now()
    elif model.banner_text():  # someone called "Rummy!"
        style, text = "class:claim", model.banner_text()
    elif model.feed.notice:
        style, text = "class:notice", model.feed.notice
    else:  # a lesson's panel (rum500 learn)
        style, text = "class:lesson", model.lesson_text()
    return wrap_text([(style, f" {text} ")], width, indent=1, ascii=model.ascii)


def status_lines(model: TableModel, width: int = 80) -> list[Line]:
    """The status line, wrapped: a refusal or a hint is read whole, on two rows if need be."""
    return wrap_text(status(model), width, indent=2, ascii=model.ascii)


def log(model: TableModel) -> StyleAndTextTuples:
    lines = list(model.feed.log)[-40:]
    return [("", "\n".join(lines))]


def log_lines(model: TableModel, width: int) -> list[Line]:
    """The newest log lines, each wrapped to ``width`` (a long one takes two rows, its
    continuation indented): the reason at the end of a line is read, not cut."""
    out: list[Line] = []
    for line in list(model.feed.log)[-40:]:
        out += wrap_text([("", line)], width, indent=2, ascii=model.ascii)
    return out


def last_chat(model: TableModel) -> StyleAndTextTuples:
    """The newest chat line, for a screen with no room for the chat column."""
    if not model.feed.chat_lines:
        return []
    return [("class:label", _("Chat:") + " "), ("", model.feed.chat_lines[-1])]


def chat(model: TableModel) -> StyleAndTextTuples:
    if not model.feed.chat_lines:
        return [("class:dim", _("Chat: press c to talk."))]
    return [("", "\n".join(list(model.feed.chat_lines)[-20:]))]


def chat_lines(model: TableModel, width: int) -> list[Line]:
    """The chat column's lines, each message wrapped to ``width``."""
    if not model.feed.chat_lines:
        return wrap_text(chat(model), width, indent=2, ascii=model.ascii)
    out: list[Line] = []
    for line in list(model.feed.chat_lines)[-20:]:
        out += wrap_text([("", line)], width, indent=2, ascii=model.ascii)
    return out


def final(model: Names, width: int = 60) -> StyleAndTextTuples:
    """Standings, then a chart of each player's total after every hand."""
    v = model.tableview.view
    if not v:
        return []
    totals = v["totals"]
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    out: StyleAndTextTuples = [("class:label", _("The match is over — standings") + "\n\n")]
    team_totals = v.get("team_totals") or []
    if team_totals:  # partnerships: the teams first, they win or lose together
        for place, t in enumerate(
            sorted(range(len(team_totals)), key=lambda t: -team_totals[t]), 1
        ):
            out.append(
                ("class:label", f"{place}. {team_name(model, t)[:40]:<40} {team_totals[t]:>6}\n")
            )
        out.append(("", "\n"))
    for place, s in enumerate(order, 1):
        win = (
            " ★"
            if s == v.get("winner") and not model.ascii
            else (" *" if s == v.get("winner") else "")
        )
        out.append(
            (
                "class:me" if s == v["seat"] else "",
                f"{place}. {model.tableview.player_name(s)[:16]:<16} {totals[s]:>6}{win}\n",
            )
        )
    out.append(("", "\n"))
    out += chart(model, width=width)
    out.append(("class:dim", "\n" + _("Press q to leave.")))
    return out


def chart(model: Names, width: int = 60, height: int = 8) -> StyleAndTextTuples:
    """A dot chart of running totals, one column group per hand, one mark per player."""
    v = model.tableview.view
    if not v:
        return []
    results = v.get("results") or []
    teams = v.get("team_totals") or []
    if teams:  # partnerships: one line per team
        n = len(teams)
        series = [[0] + [(r.get("team_totals") or [0] * n)[t] for r in results] for t in range(n)]
    else:
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
        label = (
            ("ABC"[s] if s < 3 else str(s + 1)) if teams else model.tableview.player_name(s)[:14]
        )
        out.append(("", (_("Team {letter}").format(letter=label) if teams else label) + "  "))
    return out
