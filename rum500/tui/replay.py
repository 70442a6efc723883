"""``rum500 replay GAME_ID``: a full-screen viewer that steps through a finished match.

The positions come from :class:`rum500.store.replay.Replay` (the match rebuilt from its log,
every hand face up); :class:`ReplayModel` adds how one position looks (:meth:`~ReplayModel.
render`) and the layout only reads it; keys move the position.

Keys: → / space / n next move, ← / p previous move, ↓ / PgDn / ] next hand, ↑ / PgUp / [
previous hand (its deal), Home / g the start, End / G the end, q / Esc quit.
"""

from __future__ import annotations

import sys

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from rum500.configs import ReplayConfig
from rum500.i18n import N_, _
from rum500.store import StoreError
from rum500.store.commands import fail, finished_match
from rum500.store.replay import CARD_END, CARD_START, Frame, Replay
from rum500.tui.describe import rank_text

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

__all__ = ["Frame", "ReplayModel", "build_app", "run_replay", "run_viewer"]


class ReplayModel(Replay):
    """A :class:`~rum500.store.replay.Replay` as the viewer shows it."""

    def render(self, ascii_only: bool = False, width: int = 80) -> StyleAndTextTuples:
        """The screen as styled text, ``width`` columns wide."""
        screen = _Screen(ascii_only)
        self._render_head(screen)
        self._render_seats(screen, width)
        self._render_table(screen, width)
        return screen.out

    def _render_head(self, out: _Screen) -> None:
        """The title, where we are, the action that led here, the winner or the sheet's head."""
        f = self.frame
        m = self.match
        title = _("Replay of game {id}").format(id=m["id"])
        if m.get("table"):
            title += f" — {m['table']}"
        out.line(title, "class:title")
        out.line(
            _("Hand {hand} of {hands} · move {move} of {moves} · step {step} of {steps}").format(
                hand=f.hand_number,
                hands=self.hands_total,
                move=f.move,
                moves=self.moves_in_hand(),
                step=f.step,
                steps=len(self.frames) - 1,
            ),
            "class:title",
        )
        for k, part in enumerate(f.what.split(CARD_START)):  # the cards as everywhere else
            card, sep, rest = part.partition(CARD_END) if k else ("", "", part)
            if sep:
                out.cards([card])
            out.add(rest, "class:what")
        out.add("\n")
        if f.winner is not None:
            out.line(_("{who} wins the match.").format(who=self._who(f.winner)), "class:title")
        if f.result is not None:
            out.line(
                _("Hand {n} is over — score sheet: table {minus} in hand = score").format(
                    n=f.result["hand"], minus=out.minus
                ),
                "class:title",
            )
        else:
            out.line()

    def _render_seats(self, out: _Screen, width: int) -> None:
        """One line per seat (two when it does not fit): marks, points, the hand face up."""
        f = self.frame
        r = f.result
        number = out.number
        for seat, hand in enumerate(f.hands):
            to_move = f.turn == seat and f.phase in ("draw", "play")
            marks = [_("dealer")] if seat == f.dealer else []
            if to_move:
                marks.append(_("to draw") if f.phase == "draw" else _("to play"))
            head = f"{'>' if to_move else ' '} {self._who(seat)}"
            if marks:
                head += f" ({', '.join(marks)})"
            if r is not None:
                score = "  " + _("table {table} {minus} {hand} = {score}  total {total}").format(
                    table=number(r["table_points"][seat]),
                    minus=out.minus,
                    hand=number(r["hand_points"][seat]),
                    score=number(r["scores"][seat], sign=True),
                    total=number(r["totals"][seat]),
                )
            else:
                score = "  " + _("table {table}  total {total}").format(
                    table=number(f.table_points[seat]), total=number(f.totals[seat])
                )
            hand_label = "  " + _("hand ({n}):").format(n=len(hand)) + " "
            shown_hand = hand_label + " ".join(out.shown(c) for c in hand)
            out.add(head, "class:seat")
            out.add(score)
            # one line per seat when it fits (so eight seats fit on 24 rows), else two
            if len(head) + len(score) + len(shown_hand) > width:
                out.add("\n  ")
            out.add(hand_label)
            out.cards(hand)
            out.add("\n")

    def _render_table(self, out: _Screen, width: int) -> None:
        """The stock, the discard pile, a card that must be played, the melds side by side."""
        f = self.frame
        out.add(_("Stock: {n}   Discard pile (bottom → top):").format(n=f.stock) + " ")
        out.cards(f.pile)
        out.add("\n")
        if f.must_play:
            out.cards([f.must_play])
            out.line(" " + _("must be played this turn"), "class:what")
        if not f.melds:
            return
        melds_label = _("Melds:")
        out.add(melds_label)
        used = len(melds_label)
        for meld in f.melds:  # packed side by side, as many as fit on a line
            owner = self._who(meld.get("owner"))
            laid = sorted({self._who(b) for b in meld["by"]} - {owner})
            extra = f" (+{', '.join(laid)})" if laid else ""
            label = f"  [{meld['id']}] {owner}: "
            stands = meld.get("stands_for") or [None] * len(meld["cards"])
            size = len(label) + len(extra)
            size += sum(
                len(out.shown(c, s)) + 1 for c, s in zip(meld["cards"], stands, strict=False)
            )
            if used + size > width and used > 0:
                out.add("\n")
                used = 0
            out.add(label)
            out.cards(meld["cards"], stands)
            out.add(extra, "class:laid")
            used += size
        out.add("\n")


class _Screen:
    """Styled text being written, with the viewer's way of writing cards and numbers."""

    def __init__(self, ascii_only: bool) -> None:
        self.ascii_only = ascii_only
        self.out: StyleAndTextTuples = []
        self.minus = "-" if ascii_only else "−"

    def add(self, text: str, style: str = "") -> None:
        self.out.append((style, text))

    def line(self, text: str = "", style: str = "") -> None:
        self.out.append((style, text + "\n"))

    def shown(self, card: str, stands_for: str | None = None) -> str:
        if card == "JK":  # a joker; on the table with the card it stands for
            mark = "JK=" if self.ascii_only else "🃏"
            return mark + self.shown(stands_for) if stands_for else mark.rstrip("=")
        suit = card[-1] if self.ascii_only else SUITS.get(card[-1], card[-1])
        return rank_text(card[:-1]) + suit  # the rank as the player's language writes it

    def cards(self, names: list[str], stands: list | None = None) -> None:
        for k, c in enumerate(names):
            if k:
                self.add(" ")
            s = stands[k] if stands and k < len(stands) else None
            if s is None and "=" in c:  # a joker in Frame.what, with what it stands for
                c, s = c.split("=", 1)
            red = (s or c)[-1] in "HD"
            self.add(self.shown(c, s), "class:red" if red else "class:black")

    def number(self, n: int, sign: bool = False) -> str:
        """``-49`` (``+5`` with ``sign``) with the one minus sign of the screen."""
        text = f"{n:+d}" if sign else str(n)
        return text if self.ascii_only else text.replace("-", "−")


HELP = N_(" ←/→ move · ↑/↓ hand · Home/End: start/end · q quit ")
HELP_ASCII = N_(" left/right: move, up/down: hand, Home/End: start/end, q: quit ")


def build_app(
    model: ReplayModel,
    *,
    ascii_only: bool = False,
    input: Input | None = None,  # noqa: A002 - prompt_toolkit's own name
    output: Output | None = None,
) -> Application[None]:
    """The viewer application (``input``/``output`` injectable for tests)."""
    kb = KeyBindings()

    def bind(keys: list[str], action: object) -> None:
        for key in keys:

            @kb.add(*key.split(" "))
            def _(event: KeyPressEvent, action: object = action) -> None:
                action()  # type: ignore[operator]

    bind(["right", "space", "n", "l"], model.next_move)
    bind(["left", "p", "h", "backspace"], model.prev_move)
    bind(["down", "pagedown", "]", "N", "J"], model.next_hand)
    bind(["up", "pageup", "[", "P", "K"], model.prev_hand)
    bind(["home", "g"], lambda: model.go(0))
    bind(["end", "G"], lambda: model.go(len(model.frames) - 1))

    @kb.add("q")
    @kb.add("escape", eager=True)
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    body = Window(
        FormattedTextControl(
            lambda: model.render(ascii_only, get_app().output.get_size().columns),
            focusable=True,
        ),
        wrap_lines=True,
    )
    footer = Window(
        FormattedTextControl(lambda: [("class:footer", _(HELP_ASCII if ascii_only else HELP))]),
        height=1,
    )
    style = Style.from_dict(
        {
            "title": "bold",
            "what": "ansiyellow",
            "seat": "bold",
            "red": "ansired",
            "laid": "italic",
            "black": "",
            "footer": "reverse",
        }
    )
    return Application(
        layout=Layout(HSplit([body, footer])),
        key_bindings=kb,
        style=style,
        full_screen=True,
        input=input,
        output=output,
    )


def run_viewer(model: ReplayModel, *, ascii_only: bool = False) -> None:
    build_app(model, ascii_only=ascii_only).run()


def run_replay(args: ReplayConfig) -> int:
    """``rum500 replay GAME_ID``: step through a finished match in a full-screen viewer."""
    try:
        model = ReplayModel(finished_match(args.game_id))
    except StoreError as e:
        return fail(e.said())
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return fail(_("the replay viewer needs a terminal"))
    run_viewer(model, ascii_only=args.ascii)
    return 0
