"""``rum500 replay GAME_ID``: a full-screen viewer that steps through a finished match.

:class:`ReplayModel` rebuilds the match once from its seed and actions (``Game.apply`` on a
fresh game, never touching the log) and keeps one frame per position: the deal, then one per
action. Every hand is face up. The layout only reads the model; keys move the position.

Keys: → / space / n next move, ← / p previous move, ↓ / PgDn / ] next hand, ↑ / PgUp / [
previous hand (its deal), Home / g the start, End / G the end, q / Esc quit.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from rum500 import cards as C
from rum500.i18n import N_, _, ngettext
from rum500.rules import Game
from rum500.store.log import new_game
from rum500.tui.describe import rank_text

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD_START, CARD_END = "\x1e", "\x1f"  # around a card code in Frame.what


def card_mark(card: object, stands_for: object = None) -> str:
    """A card in :attr:`Frame.what`: shown like every other card when rendered; a joker
    with the card it stands for (``JK=9H``: ``🃏9♥``, as on the table)."""
    if stands_for and card == C.JOKER_NAME:
        return f"{CARD_START}{card}={stands_for}{CARD_END}"
    return f"{CARD_START}{card}{CARD_END}"


def cards_mark(cards: list) -> str:
    return " ".join(card_mark(c) for c in cards)


def plain_what(what: str) -> str:
    """:attr:`Frame.what` with its card codes as plain text (``3D``)."""
    return what.replace(CARD_START, "").replace(CARD_END, "")


@dataclass
class Frame:
    """One position of the match, with everything shown."""

    step: int  # 0: the first deal; k: after the k-th action
    hand_number: int
    move: int  # actions since this hand's deal
    phase: str
    dealer: int
    turn: int | None
    hands: list[list[str]]
    pile: list[str]
    stock: int
    melds: list[dict]
    table_points: list[int]
    totals: list[int]
    must_play: str | None
    what: str  # the action that led here, in words (cards marked with card_mark)
    result: dict | None  # the hand's score sheet, once it is over
    winner: int | None


class ReplayModel:
    """The frames of a whole match and the position being shown."""

    def __init__(self, match: dict) -> None:
        self.match = match
        self.names = [s["name"] for s in match["seats"]]
        game = new_game(match)
        dealt = _("{who} dealt").format(who=self._who(game.dealer))
        self.frames: list[Frame] = [self._frame(game, 0, 0, dealt)]
        move = 0
        for k, entry in enumerate(match["actions"], start=1):
            action = entry["action"]
            seat = game.to_move
            events = game.apply(action, entry.get("seat"))
            move = 0 if action.get("type") == "deal" else move + 1
            self.frames.append(self._frame(game, k, move, self._describe(seat, action, events)))
        self.index = 0

    # ------------------------------------------------------------------ building

    def _who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def _frame(self, game: Game, step: int, move: int, what: str) -> Frame:
        v = game.view(None)
        hands = [  # every hand as the terminal client shows one: by suit, aces high
            sorted(game.view(s)["hand"], key=lambda t: C.sort_key_by_suit(C.parse(t)))
            for s in range(v["players"])
        ]
        over = v["phase"] in ("hand_over", "game_over")
        return Frame(
            step=step,
            hand_number=v["hand_number"],
            move=move,
            phase=v["phase"],
            dealer=v["dealer"],
            turn=v["turn"],
            hands=hands,
            pile=list(v["discard_pile"]),
            stock=v["stock"],
            melds=v["melds"],
            table_points=list(v["table_points"]),
            totals=list(v["totals"]),
            must_play=v["must_play"],
            what=what,
            result=v["last_hand"] if over else None,
            winner=v["winner"],
        )

    def _describe(self, seat: int | None, action: dict, events: list[dict]) -> str:
        who = self._who(seat)
        kind = action.get("type")
        if kind == "draw" and action.get("source") == "stock":
            text = _("{who} drew from the stock").format(who=who)
        elif kind == "draw":
            taken = next((e.get("cards") for e in events if e.get("type") == "draw"), None)
            taken = taken or []
            above = len(taken) - 1
            if above == 1:
                text = _("{who} took {card} and the card above it").format(
                    who=who, card=card_mark(taken[0])
                )
            elif above > 1:
                text = ngettext(
                    "{who} took {card} and the {n} card above it",
                    "{who} took {card} and the {n} cards above it",
                    above,
                ).format(who=who, card=card_mark(taken[0]), n=above)
            else:
                text = _("{who} took {cards} from the discard pile").format(
                    who=who, cards=cards_mark(taken)
                )
        elif kind == "meld":  # each joker with the card it stands for, as on the table
            names = iter(action.get("jokers") or [])
            shown = " ".join(
                card_mark(c, next(names, None) if c == C.JOKER_NAME else None)
                for c in action.get("cards", [])
            )
            text = _("{who} melded {cards}").format(who=who, cards=shown)
        elif kind == "layoff":
            text = _("{who} laid off {card} on meld {meld}").format(
                who=who,
                card=card_mark(action.get("card"), action.get("joker")),
                meld=action.get("meld"),
            )
        elif kind == "rummy":
            caller = self._who(action.get("seat"))
            card = next((e.get("card") for e in events if e.get("type") == "rummy"), "?")
            text = _("{who} called Rummy! and laid {card} off on meld {meld}").format(
                who=caller, card=card_mark(card, action.get("joker")), meld=action.get("meld")
            )
        elif kind == "close_claims":
            text = _("nobody called Rummy!")
        elif kind == "discard":
            text = _("{who} discarded {card}").format(who=who, card=card_mark(action.get("card")))
        elif kind == "end_hand":
            text = _("{who} ended the hand (the stock is empty)").format(who=who)
        elif kind == "deal":
            return _("{who} dealt hand {n}").format(who=who, n=self.frames[-1].hand_number + 1)
        else:
            text = f"{who}: {kind}"
        for e in events:
            if e.get("type") == "reshuffle":
                text += _("; the discard pile was turned over as the new stock")
            elif e.get("type") == "hand_end":
                text += _("; the hand is over")
            elif e.get("type") == "game_over":
                text += _("; {who} wins the match").format(who=self._who(e.get("winner")))
            elif e.get("type") == "tie":
                text += _("; a tie at the target: play goes on")
        return text

    # ------------------------------------------------------------------ moving

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    @property
    def hands_total(self) -> int:
        return self.frames[-1].hand_number

    def go(self, index: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, index))

    def next_move(self) -> None:
        self.go(self.index + 1)

    def prev_move(self) -> None:
        self.go(self.index - 1)

    def next_hand(self) -> None:
        """The deal of the next hand (or the end of the match)."""
        here = self.frame.hand_number
        for k in range(self.index + 1, len(self.frames)):
            if self.frames[k].hand_number > here:
                self.go(k)
                return
        self.go(len(self.frames) - 1)

    def prev_hand(self) -> None:
        """The deal of this hand, or of the previous one when already there."""
        here = self.frame.hand_number
        target = here if self.frame.move > 0 or self.frame.phase == "hand_over" else here - 1
        target = max(1, target)
        for k, f in enumerate(self.frames):
            if f.hand_number == target:
                self.go(k)
                return

    # ------------------------------------------------------------------ showing

    def moves_in_hand(self) -> int:
        here = self.frame.hand_number
        return max(f.move for f in self.frames if f.hand_number == here)

    def render(self, ascii_only: bool = False, width: int = 80) -> StyleAndTextTuples:
        """The screen as styled text, ``width`` columns wide."""
        f = self.frame
        m = self.match
        out: StyleAndTextTuples = []

        def line(text: str = "", style: str = "") -> None:
            out.append((style, text + "\n"))

        def shown(card: str, stands_for: str | None = None) -> str:
            if card == "JK":  # a joker; on the table with the card it stands for
                mark = "JK=" if ascii_only else "🃏"
                return mark + shown(stands_for) if stands_for else mark.rstrip("=")
            suit = card[-1] if ascii_only else SUITS.get(card[-1], card[-1])
            return rank_text(card[:-1]) + suit  # the rank as the player's language writes it

        def cards(names: list[str], stands: list | None = None) -> None:
            for k, c in enumerate(names):
                if k:
                    out.append(("", " "))
                s = stands[k] if stands and k < len(stands) else None
                if s is None and "=" in c:  # a joker in Frame.what, with what it stands for
                    c, s = c.split("=", 1)
                red = (s or c)[-1] in "HD"
                out.append(("class:red" if red else "class:black", shown(c, s)))

        def number(n: int, sign: bool = False) -> str:
            """``-49`` (``+5`` with ``sign``) with the one minus sign of the screen."""
            text = f"{n:+d}" if sign else str(n)
            return text if ascii_only else text.replace("-", "−")

        minus = "-" if ascii_only else "−"

        title = _("Replay of game {id}").format(id=m["id"])
        if m.get("table"):
            title += f" — {m['table']}"
        line(title, "class:title")
        line(
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
                cards([card])
            out.append(("class:what", rest))
        out.append(("", "\n"))
        if f.winner is not None:
            line(_("{who} wins the match.").format(who=self._who(f.winner)), "class:title")
        r = f.result
        if r is not None:
            line(
                _("Hand {n} is over — score sheet: table {minus} in hand = score").format(
                    n=r["hand"], minus=minus
                ),
                "class:title",
            )
        else:
            line()
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
                    minus=minus,
                    hand=number(r["hand_points"][seat]),
                    score=number(r["scores"][seat], sign=True),
                    total=number(r["totals"][seat]),
                )
            else:
                score = "  " + _("table {table}  total {total}").format(
                    table=number(f.table_points[seat]), total=number(f.totals[seat])
                )
            hand_label = "  " + _("hand ({n}):").format(n=len(hand)) + " "
            shown_hand = hand_label + " ".join(shown(c) for c in hand)
            out.append(("class:seat", head))
            out.append(("", score))
            # one line per seat when it fits (so eight seats fit on 24 rows), else two
            if len(head) + len(score) + len(shown_hand) > width:
                out.append(("", "\n  "))
            out.append(("", hand_label))
            cards(hand)
            out.append(("", "\n"))
        out.append(("", _("Stock: {n}   Discard pile (bottom → top):").format(n=f.stock) + " "))
        cards(f.pile)
        out.append(("", "\n"))
        if f.must_play:
            cards([f.must_play])
            line(" " + _("must be played this turn"), "class:what")
        if f.melds:
            melds_label = _("Melds:")
            out.append(("", melds_label))
            used = len(melds_label)
            for meld in f.melds:  # packed side by side, as many as fit on a line
                owner = self._who(meld.get("owner"))
                laid = sorted({self._who(b) for b in meld["by"]} - {owner})
                extra = f" (+{', '.join(laid)})" if laid else ""
                label = f"  [{meld['id']}] {owner}: "
                stands = meld.get("stands_for") or [None] * len(meld["cards"])
                size = len(label) + len(extra)
                size += sum(
                    len(shown(c, s)) + 1 for c, s in zip(meld["cards"], stands, strict=False)
                )
                if used + size > width and used > 0:
                    out.append(("", "\n"))
                    used = 0
                out.append(("", label))
                cards(meld["cards"], stands)
                out.append(("class:laid", extra))
                used += size
            out.append(("", "\n"))
        return out


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
