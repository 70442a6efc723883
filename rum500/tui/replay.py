"""``rum500 replay GAME_ID``: a full-screen viewer that steps through a finished match.

The positions come from :class:`rum500.store.replay.Replay` (the match rebuilt from its log,
every hand face up); :class:`ReplayModel` adds how one position looks (:meth:`~ReplayModel.
render`) and the layout only reads it; keys move the position.

Keys: → / space / n next move, ← / p previous move, ↓ / PgDn / ] next hand, ↑ / PgUp / [
previous hand (its deal), Home / g the start, End / G the end, c the coach's seat (each seat in
turn, then none), m / M the next / previous mistake of that seat, q / Esc quit.

The coach (issue 24 §2): for the chosen seat (``--seat N`` / ``--player NAME`` or ``c``)
each decision is marked with its cost — the expected points the move played lost
(:mod:`rum500.coach.analysis`) — on the position where the seat made it, and the better move
is named there and its cards highlighted. The costs come from the seat's analysis kept in the
game log (``rum500 analyse``); without one it is worked out in the background (a progress
line) and kept.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style, merge_styles

from rum500.configs import ReplayConfig
from rum500.i18n import N_, _, ngettext
from rum500.narrate import meld_number
from rum500.store import StoreError
from rum500.store.commands import fail, finished_match
from rum500.store.replay import CARD_END, CARD_START, Frame, Replay
from rum500.tui import describe, render
from rum500.tui.describe import rank_text
from rum500.tui.overlays.keymap import is_character

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

__all__ = ["Frame", "ReplayModel", "build_app", "run_replay", "run_viewer"]


class ReplayModel(Replay):
    """A :class:`~rum500.store.replay.Replay` as the viewer shows it, with the coach's marks
    of one seat (``coach_seat``; ``marks``: action index -> ``{kind, played, best, loss,
    stderr}``; ``coach_state``: "", "working" or "done"; ``progress``: (done, total))."""

    coach_seat: int | None = None
    marks: dict[int, dict] | None = None
    coach_state = ""
    progress: tuple[int, int] = (0, 0)
    #: finds a seat's marks (kept, or worked out in the background): set by the viewer
    find_marks: Callable[[ReplayModel, int], None] | None = None
    #: one line saying why a key did nothing (shown until the next move)
    notice = ""

    def go(self, index: int) -> None:
        self.notice = ""
        super().go(index)

    # ------------------------------------------------------------------ the coach

    def choose_seat(self, seat: int | None) -> None:
        """Mark the decisions of ``seat`` (None: no marks)."""
        self.coach_seat = seat if seat is None or 0 <= seat < len(self.names) else None
        self.marks, self.coach_state, self.progress, self.notice = None, "", (0, 0), ""
        if self.coach_seat is not None and self.find_marks is not None:
            self.find_marks(self, self.coach_seat)

    def next_seat(self) -> None:
        """c: the coach's seat — each seat in turn, then none."""
        s = self.coach_seat
        self.choose_seat(0 if s is None else (s + 1 if s + 1 < len(self.names) else None))

    def set_marks(self, seat: int, decisions: list[dict]) -> None:
        """The costs of ``seat``'s decisions (records with ``index``, ``loss``, ``best``,
        ``played``, ``kind``) arrived."""
        if seat != self.coach_seat:
            return
        self.marks = {int(d["index"]): d for d in decisions if isinstance(d.get("index"), int)}
        self.coach_state = "done"

    def mistakes(self) -> list[int]:
        """The frames where the coach's seat made a mistake (a cost above zero)."""
        return sorted(i for i, d in (self.marks or {}).items() if d.get("loss", 0) > 0)

    def next_mistake(self) -> None:
        """m: the next mistake of the coach's seat (else a line says why there is none)."""
        later = [i for i in self.mistakes() if i > self.index]
        self._jump(later[:1], _("No mistake after this point (M goes back)."))

    def prev_mistake(self) -> None:
        """M: the previous mistake of the coach's seat (else a line says why there is none)."""
        earlier = [i for i in self.mistakes() if i < self.index]
        self._jump(earlier[-1:], _("No mistake before this point (m goes on)."))

    def _jump(self, to: list[int], none_this_way: str) -> None:
        """Go to ``to``'s frame; with none, the notice says why: no seat marked, the coach
        still at work, no mistake at all, or ``none_this_way``."""
        if to:
            self.go(to[0])
        elif self.coach_seat is None:
            self.notice = _("No seat's decisions are marked: c chooses a seat.")
        elif self.coach_state != "done":
            self.notice = _("The coach is still working out the decisions: m works once done.")
        elif self.mistakes():
            self.notice = none_this_way
        else:
            self.notice = _("No mistake to go to: the coach found none.")

    def unknown_key(self, key: str) -> None:
        """A character the viewer does not use: a line says so (other keys say nothing); ``?``
        (help at the table) lists the keys in words."""
        if key == "?":
            self.notice = _("Keys:") + " " + _(HELP_ASCII).strip()
        elif is_character(key):
            self.notice = _("No key {key} here: the keys are on the bottom line.").format(key=key)

    def mark(self) -> dict | None:
        """The coach's mark of the decision made from this position, if any."""
        return (self.marks or {}).get(self.index)

    def better_cards(self, where: str) -> list[str]:
        """The cards of the better move at a mistake, highlighted ``where`` they are: in the
        coach's seat's "hand" or on the "pile"."""
        m = self.mark()
        if not m or m.get("loss", 0) <= 0:
            return []
        best = m.get("best") or {}
        if where == "hand" and best.get("type") in ("discard", "layoff"):
            return [str(best.get("card"))]
        if where == "hand" and best.get("type") == "meld":
            return [str(c) for c in best.get("cards") or []]
        if where == "pile" and best.get("type") == "draw" and isinstance(best.get("index"), int):
            return list(self.frame.pile[best["index"] :])
        return []

    def _render_coach(self, out: _Screen) -> None:
        """The coach's lines: whose decisions, the progress, this position's mark."""
        seat = self.coach_seat
        if seat is None:
            return
        who = self._who(seat)
        if self.coach_state == "failed":
            out.line(_("Coach: {who}'s decisions could not be analysed.").format(who=who))
            return
        if self.coach_state != "done":
            done, total = self.progress
            out.line(
                _("Coach: working out {who}'s decisions… {done}/{total}").format(
                    who=who, done=done, total=total
                ),
                "class:coach",
            )
            return
        lost = sum(d.get("loss", 0) for d in (self.marks or {}).values())
        n = len(self.mistakes())
        if not n:
            out.line(_("Coach: {who} — no mistake found").format(who=who), "class:coach")
        else:
            out.line(
                ngettext(
                    "Coach: {who} — {n} mistake, {points} points lost in all (m: next mistake)",
                    "Coach: {who} — {n} mistakes, {points} points lost in all (m: next mistake)",
                    n,
                ).format(who=who, n=n, points=round(lost)),
                "class:coach",
            )
        m = self.mark()
        if m is None:
            return
        view = {"discard_pile": self.frame.pile, "melds": self.frame.melds}
        played = describe.action(m.get("played") or {}, view, self._who, out.ascii_only)
        if m.get("loss", 0) <= 0:
            out.line(_("{who} decides here: {played} — no loss.").format(who=who, played=played))
            return
        points = max(1, round(m["loss"]))
        out.line(
            ngettext(
                "{who} decides here: {played} — costs {minus}{points} point; better: {best}",
                "{who} decides here: {played} — costs {minus}{points} points; better: {best}",
                points,
            ).format(
                who=who,
                played=played,
                minus=out.minus,
                points=points,
                best=describe.better(
                    m.get("best") or {}, m.get("played") or {}, view, self._who, out.ascii_only
                ),
            ),
            "class:mistake",
        )

    def render(self, ascii_only: bool = False, width: int = 80) -> StyleAndTextTuples:
        """The screen as styled text, ``width`` columns wide."""
        screen = _Screen(ascii_only, width)
        self._render_head(screen)
        self._render_coach(screen)
        if self.notice:
            screen.line(self.notice, "class:notice")
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
            # "action N": the index rum500 analyse names the decision made from here by
            _("Hand {hand} of {hands} · move {move} of {moves} · action {step} of {steps}").format(
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
            out.better = self.better_cards("hand") if seat == self.coach_seat else []
            out.cards(hand)
            out.better = []
            out.add("\n")

    def _render_table(self, out: _Screen, width: int) -> None:
        """The stock, the discard pile, a card that must be played, the melds side by side."""
        f = self.frame
        out.add(_("Stock: {n}   Discard pile (bottom → top):").format(n=f.stock) + " ")
        out.better = self.better_cards("pile")
        out.cards(f.pile)
        out.better = []
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
            label = f"  [{meld_number(meld['id'])}] {self._who(meld.get('owner'))}: "
            stands = meld.get("stands_for") or [None] * len(meld["cards"])
            # a card laid off by another player is marked as on the table: 9♦←2 (player 2)
            by = meld.get("by") or []
            marks = [
                render.layoff_mark(out.ascii_only, by[k])
                if k < len(by) and by[k] != meld.get("owner")
                else ""
                for k in range(len(meld["cards"]))
            ]
            size = len(label) + sum(
                len(out.shown(c, s)) + len(mark) + 1
                for c, s, mark in zip(meld["cards"], stands, marks, strict=False)
            )
            if used + size > width and used > 0:
                out.add("\n")
                used = 0
            out.add(label)
            out.cards(meld["cards"], stands, marks)
            used += size
        out.add("\n")


class _Screen:
    """Styled text being written, with the viewer's way of writing cards and numbers."""

    def __init__(self, ascii_only: bool, width: int = 80) -> None:
        self.ascii_only = ascii_only
        self.width = max(20, width)
        self.out: StyleAndTextTuples = []
        self.better: list[str] = []  # the better move's cards (highlighted, each once)
        self.minus = "-" if ascii_only else "−"

    def add(self, text: str, style: str = "") -> None:
        self.out.append((style, text))

    def line(self, text: str = "", style: str = "") -> None:
        """``text`` as a line of its own, wrapped at a space to the screen's width (the
        terminal would cut a word in two), the lines after the first indented."""
        if len(text) > self.width:
            from rum500.coach.command import fitted

            text = fitted(text, self.width)
        self.out.append((style, text + "\n"))

    def shown(self, card: str, stands_for: str | None = None) -> str:
        if card == "JK":  # a joker; on the table with the card it stands for
            mark = "JK=" if self.ascii_only else "🃏"
            return mark + self.shown(stands_for) if stands_for else mark.rstrip("=")
        suit = card[-1] if self.ascii_only else SUITS.get(card[-1], card[-1])
        return rank_text(card[:-1]) + suit  # the rank as the player's language writes it

    def cards(
        self, names: list[str], stands: list | None = None, marks: list[str] | None = None
    ) -> None:
        """``names`` as cards (the table's faces); ``stands``: what each joker stands for;
        ``marks``: a text after each card (who laid it off)."""
        for k, c in enumerate(names):
            if k:
                self.add(" ")
            s = stands[k] if stands and k < len(stands) else None
            if s is None and "=" in c:  # a joker in Frame.what, with what it stands for
                c, s = c.split("=", 1)
            suit = (s or c)[-1]
            # the table's card faces: black or red on white (four colours with --four-colour)
            style = "class:card.red" if suit in "HD" else "class:card.black"
            style += f" class:card.{suit.lower()}"
            if c in self.better:
                self.better.remove(c)
                style += " class:better"
            self.add(self.shown(c, s), style)
            if marks and k < len(marks) and marks[k]:
                self.add(marks[k], "class:laid")

    def number(self, n: int, sign: bool = False) -> str:
        """``-49`` (``+5`` with ``sign``) with the one minus sign of the screen."""
        text = f"{n:+d}" if sign else str(n)
        return text if self.ascii_only else text.replace("-", "−")


HELP = N_(" ←/→ move · ↑/↓ hand · Home/End: start/end · c coach · m/M mistake · q quit ")
HELP_ASCII = N_(
    " left/right: move, up/down: hand, Home/End: start/end, c: coach, m/M: mistake, q: quit "
)


def kept_marks(match: dict, seat: int) -> list[dict] | None:
    """The costs of ``seat``'s decisions from its analysis kept in the game log (covering
    the whole match), or None."""
    from rum500.store import open_db
    from rum500.store.log import load_analysis

    if not isinstance(match.get("id"), int):
        return None
    try:
        conn = open_db(create=False)
    except (StoreError, OSError):
        return None
    try:
        kept = load_analysis(conn, match["id"], seat)
    finally:
        conn.close()
    decisions = (kept or {}).get("decisions")
    return decisions if isinstance(decisions, list) else None


def analyse_marks(
    match: dict, seat: int, progress: Callable[[int, int], None], budget: int | None = None
) -> list[dict]:
    """Analyse ``seat``'s decisions (as ``rum500 analyse`` does: its budget unless given,
    its seed, on up to two processes), keep the analysis in the game log, and return their
    costs."""
    import os

    from rum500.coach.analysis import analyse_match
    from rum500.coach.command import row
    from rum500.coach.search import DEFAULT_BUDGET

    jobs = max(1, min(2, os.cpu_count() or 1))
    a = analyse_match(match, seat, budget=budget or DEFAULT_BUDGET, jobs=jobs, progress=progress)
    kept = row(a)
    if isinstance(match.get("id"), int):
        from rum500.store import open_db
        from rum500.store.log import save_analysis

        try:
            conn = open_db(create=False)
            try:
                save_analysis(conn, match["id"], kept)
            finally:
                conn.close()
        except (StoreError, OSError):
            pass  # the marks are shown all the same
    return list(kept["summary"]["decisions"])


def marks_finder(
    invalidate: Callable[[], None], budget: int | None = None
) -> Callable[[ReplayModel, int], None]:
    """How the viewer finds a seat's marks: the kept analysis, else one worked out in a
    background thread (its progress on the coach's line; ``invalidate`` redraws;
    ``budget``: the analysis's, ``rum500 analyse``'s by default)."""
    running: set[int] = set()

    def find(model: ReplayModel, seat: int) -> None:
        kept = kept_marks(model.match, seat)
        if kept is not None:
            model.set_marks(seat, kept)
            return
        model.coach_state = "working"
        if seat in running:
            return

        def progress(done: int, total: int) -> None:
            if model.coach_seat == seat:
                model.progress = (done, total)
                invalidate()

        def work() -> None:
            try:
                decisions = analyse_marks(model.match, seat, progress, budget)
            except Exception:  # noqa: BLE001 - the viewer stays up, saying so
                if model.coach_seat == seat:
                    model.coach_state = "failed"
            else:
                model.set_marks(seat, decisions)
            finally:
                running.discard(seat)
            invalidate()

        running.add(seat)
        threading.Thread(target=work, daemon=True).start()

    return find


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
    bind(["c"], model.next_seat)

    @kb.add(Keys.Any)
    def _other(event: KeyPressEvent) -> None:
        model.unknown_key(event.data)

    bind(["m"], model.next_mistake)
    bind(["M"], model.prev_mistake)

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
    own = Style.from_dict(
        {
            "title": "bold",
            "what": "ansiyellow",
            "seat": "bold",
            "laid": "italic",
            "footer": "reverse",
            "coach": "ansicyan",
            "mistake": "ansimagenta bold",
            "notice": "ansiyellow bold",
            "better": "reverse underline",
        }
    )
    style = merge_styles([render.STYLE, own])  # the cards' classes are the table's
    return Application(
        layout=Layout(HSplit([body, footer])),
        key_bindings=kb,
        style=style,
        full_screen=True,
        input=input,
        output=output,
    )


def run_viewer(model: ReplayModel, *, ascii_only: bool = False) -> None:
    app = build_app(model, ascii_only=ascii_only)
    model.find_marks = marks_finder(app.invalidate)
    app.run()


def run_replay(args: ReplayConfig) -> int:
    """``rum500 replay GAME_ID``: step through a finished match in a full-screen viewer."""
    try:
        model = ReplayModel(finished_match(args.game_id))
    except StoreError as e:
        return fail(e.said())
    seat = None  # (a seat that did not play is said before the terminal is asked for)
    if args.seat is not None or args.player is not None:
        from rum500.coach.command import pick_seats

        try:
            seat = pick_seats(model.match, args.seat, args.player)[0]
        except StoreError as e:
            return fail(e.said())
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return fail(_("the replay viewer needs a terminal"))
    app = build_app(model, ascii_only=args.ascii)
    model.find_marks = marks_finder(app.invalidate)
    model.choose_seat(seat)
    app.run()
    return 0
