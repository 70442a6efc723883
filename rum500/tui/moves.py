"""The moves a key makes at the table, as pure functions: each reads the position (the view
the host sent, and this screen's cursor and selection), may move the cursor or the selection,
and returns what comes of it — an action to send, a line to say, or a question to ask. None
of them sends, draws or waits: :meth:`TableModel.play` carries the outcome out.

Every action returned is one of ``view["legal_actions"]``, so only legal moves leave; when a
move is not open, the line returned says why, in the player's words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from rum500 import cards as C
from rum500.i18n import N_, _
from rum500.rules.melds import IllegalMove, Meld, layoff_position, make_meld
from rum500.rules.options import Options
from rum500.tui import describe
from rum500.tui.selection import Selection
from rum500.tui.tableview import TableView
from rum500.tui.zones import Zone


@dataclass(frozen=True)
class Say:
    """A line for the player (``error``: shown as a refusal)."""

    text: str
    error: bool = False


@dataclass(frozen=True)
class Send:
    """An action to send to the host."""

    action: dict


@dataclass(frozen=True)
class Choose:
    """A numbered question: which of ``choices`` (label, action) to send."""

    question: str
    choices: list[tuple[str, dict]]


@dataclass(frozen=True)
class Confirm:
    """A yes/no question: y sends ``action``."""

    question: str
    action: dict


Outcome = Say | Send | Choose | Confirm


class _Why(Protocol):
    @property
    def open(self) -> bool: ...

    def why_not(self) -> str: ...


class Position(Protocol):
    """What a move reads of the table screen, and the cursor and selection it may move."""

    tableview: TableView  # what the host sent, and its accessors
    selection: Selection  # the cursor and the selected cards
    ascii: bool

    @property
    def review(self) -> _Why: ...

    def can_take_back(self) -> bool: ...


def need_turn(p: Position) -> Say | None:
    """Why this seat may not play now (None: it may)."""
    if p.tableview.view is None and not p.tableview.spectator:
        return Say(_("The match has not started yet."), error=True)
    if p.tableview.spectator or p.tableview.seat is None:
        return Say(_("You are watching: spectators do not play."), error=True)
    if p.tableview.my_turn:
        return None
    turn = p.tableview.player_name(p.tableview.view["turn"] if p.tableview.view else None)
    if p.tableview.phase == "hand_over" and p.review.open:
        return Say(p.review.why_not())
    if p.tableview.phase == "hand_over":
        return Say(_("Waiting for {name} to deal.").format(name=turn))
    return Say(_("Wait for your turn: {name} is playing.").format(name=turn), error=True)


def need_play_phase(p: Position) -> Say | None:
    """Melding, laying off and discarding come after the draw."""
    if p.tableview.phase != "play":
        return Say(_("Draw first: from the stock (s) or the discard pile (t)."), error=True)
    return None


def joker_choices(p: Position, actions: list[dict]) -> list[tuple[str, dict]]:
    return [
        (describe.action(a, p.tableview.view or {}, p.tableview.player_name, p.ascii), a)
        for a in actions
    ]


def draw_stock(p: Position) -> Outcome:
    """s: draw from the stock."""
    if why := need_turn(p):
        return why
    if p.tableview.can_draw_stock():
        return Send({"type": "draw", "source": "stock"})
    if p.tableview.phase == "play":
        return Say(_("You have already drawn this turn."), error=True)
    if p.tableview.view and p.tableview.view["stock"] == 0:
        return Say(
            _("The stock is empty: take from the discard pile or end the hand (e)."), error=True
        )
    return Say(_("You cannot draw now."), error=True)


def take_pile(p: Position) -> Outcome:
    """t: take the card at the cursor's depth and every card above it."""
    if why := need_turn(p):
        return why
    i = p.selection.pile_index()
    if p.tableview.phase != "draw":
        return Say(_("You have already drawn this turn."), error=True)
    if i is None:
        return Say(_("The discard pile is empty."), error=True)
    if i in p.tableview.legal_pile_indices():
        p.selection.zone = Zone.HAND
        p.selection.pile_cursor = None
        return Send({"type": "draw", "source": "discard", "index": i})
    card = p.tableview.pile()[i]
    return Say(
        _(
            "You may not take {card}: it must be played this turn and no meld or lay-off "
            "could take it."
        ).format(card=describe.card_text(card, p.ascii)),
        error=True,
    )


def meld_selected(p: Position) -> Outcome:
    """m: meld the selected cards (asking what a joker stands for, when it could be more)."""
    if why := need_turn(p):
        return why
    chosen = p.selection.selected_cards()
    if why := need_play_phase(p):
        return why
    if len(chosen) < 3:
        return Say(_("Select three or more cards with space, then press m to meld."), error=True)
    want = Counter(chosen)
    ways = [a for a in p.tableview.legal("meld") if Counter(a["cards"]) == want]
    if len(ways) == 1:
        p.selection.selected.clear()
        return Send(ways[0])
    if ways:  # a joker that may stand for more than one card: ask which
        return Choose(_("What does the joker stand for?"), joker_choices(p, ways))
    shown = describe.cards_text(chosen, p.ascii)
    try:
        check_meld(chosen, table_options(p.tableview.view))
    except IllegalMove as e:  # say exactly why, as the rules put it
        return Say(describe.refusal(str(e), e.template, e.params, p.ascii), error=True)
    return Say(
        _("{cards} may not be melded now: {card} must still be played this turn.").format(
            cards=shown, card=describe.card_text(p.tableview.view["must_play"] or "?", p.ascii)
        )
        if p.tableview.view and p.tableview.view.get("must_play")
        else _("{cards} may not be melded now.").format(cards=shown),
        error=True,
    )


def table_options(view: dict | None) -> Options:
    """The table's options as the view carries them (the standard game when it carries none
    or they cannot be read)."""
    try:
        return Options.from_dict(view["options"]) if view and view.get("options") else Options()
    except (ValueError, TypeError, KeyError):
        return Options()


def check_meld(cards: list[str], options: Options) -> None:
    """Raise :class:`IllegalMove` when ``cards`` (no jokers) are no meld at this table: not
    a meld at all, or a run of three where runs need four (RULES.md §12.6) — as the host
    would refuse it."""
    played = [C.parse(c) for c in cards]
    m = make_meld(0, played, 0)
    if options.runs_of_four and m.kind == "run" and len(played) < 4:
        raise IllegalMove(
            "{cards} is not a meld: {reason}",
            cards=" ".join(cards),
            reason=N_("a run needs at least 4 cards (runs of four)"),
        )


def _layoff_card(p: Position) -> str | None:
    chosen = p.selection.selected_cards()
    if p.selection.choosing_meld_for:
        return p.selection.choosing_meld_for
    if len(chosen) == 1:
        return chosen[0]
    if not chosen and p.selection.zone == Zone.HAND:
        return p.selection.cursor_card()
    return None


def lay_off(p: Position) -> Outcome:
    """l: lay off the selected card: on the meld under the cursor, or the only one it fits
    (else the cursor goes to the melds to choose one)."""
    if why := need_turn(p) or need_play_phase(p):
        return why
    card = _layoff_card(p)
    if card is None:
        return Say(_("Select one card with space, then press l to lay it off."), error=True)
    fits = [a for a in p.tableview.legal("layoff") if a["card"] == card]
    shown = describe.card_text(card, p.ascii)
    if not fits:
        p.selection.choosing_meld_for = None
        if why := _not_opened(p, card):
            return Say(why, error=True)
        return Say(_("{card} cannot be laid off on any meld now.").format(card=shown), error=True)
    melds = p.tableview.melds()
    if p.selection.zone == Zone.MELDS and melds:
        meld_id = melds[min(p.selection.meld_cursor, len(melds) - 1)]["id"]
        on = [a for a in fits if a["meld"] == meld_id]
        if not on:
            return Say(
                _("{card} does not fit that meld; choose another with ←/→.").format(card=shown),
                error=True,
            )
        if len(on) > 1:  # a joker: which card it stands for
            return Choose(_("What does the joker stand for?"), joker_choices(p, on))
        action = on[0]
    elif len({a["meld"] for a in fits}) == 1:
        if len(fits) > 1:
            return Choose(_("What does the joker stand for?"), joker_choices(p, fits))
        action = fits[0]
    else:
        p.selection.choosing_meld_for = card
        p.selection.zone = Zone.MELDS
        first = fits[0]["meld"]
        p.selection.meld_cursor = next(i for i, m in enumerate(melds) if m["id"] == first)
        return Say(
            _("Choose the meld for {card} with ←/→, then press l or Enter.").format(card=shown)
        )
    p.selection.choosing_meld_for = None
    p.selection.selected.clear()
    p.selection.zone = Zone.HAND
    return Send(action)


def _not_opened(p: Position, card: str) -> str | None:
    """§12.1: the card fits a meld but this seat has not opened — the engine's sentence."""
    v = p.tableview.view or {}
    seats, n = v.get("opened"), (v.get("options") or {}).get("first_meld")
    if (
        not n
        or not isinstance(seats, list)
        or p.tableview.seat is None
        or p.tableview.seat >= len(seats)
    ):
        return None
    if seats[p.tableview.seat] or card == C.JOKER_NAME:
        return None
    try:
        c = C.parse(card)
        if not any(
            layoff_position(Meld.from_dict(dict(m)), c) is not None for m in p.tableview.melds()
        ):
            return None
    except (ValueError, KeyError, TypeError):
        return None
    e = IllegalMove(
        "you have not opened yet: no lay-off until your new melds this turn reach {points} points",
        points=n,
    )
    return describe.refusal(str(e), e.template, e.params, p.ascii)


def discard(p: Position) -> Outcome | None:
    """d: discard the selected card: this ends the turn. With nothing selected, the first d
    selects the card under the cursor and the second discards it (no discard by a stray
    cursor); the cursor moved to another card in between, that d selects that card instead.
    None: no card to discard."""
    if why := need_turn(p) or need_play_phase(p):
        return why
    chosen = p.selection.selected_cards()
    if len(chosen) > 1:
        return Say(_("Select just one card to discard."), error=True)
    here = p.selection.cursor_card() if p.selection.zone is Zone.HAND else None
    if chosen and chosen == [p.selection.armed] and here not in (None, p.selection.armed):
        p.selection.selected.clear()  # d selected it, then the cursor moved on: start again
        chosen = []
    p.selection.armed = None
    card = chosen[0] if chosen else p.selection.cursor_card()
    if card is None:
        return None
    shown = describe.card_text(card, p.ascii)
    if any(a["card"] == card for a in p.tableview.legal("discard")):
        if not chosen:
            p.selection.zone = Zone.HAND
            p.selection.selected[card] += 1
            p.selection.armed = card
            return Say(
                _("Press d again to discard {card} (or select another card).").format(card=shown)
            )
        p.selection.selected.clear()
        return Send({"type": "discard", "card": card})
    v = p.tableview.view or {}
    if v.get("must_play"):
        return Say(
            _("{card} must be played this turn.").format(
                card=describe.card_text(v["must_play"], p.ascii)
            ),
            error=True,
        )
    if v.get("no_discard") == card:
        return Say(
            _(
                "You took {card} from the discard pile this turn: you may not discard it again."
            ).format(card=shown),
            error=True,
        )
    return Say(_("You may not discard {card} now.").format(card=shown), error=True)


def end_hand(p: Position) -> Outcome:
    """e: end the hand (the stock is empty), after a question that shows its score."""
    if why := need_turn(p):
        return why
    if not p.tableview.legal("end_hand"):
        return Say(_("You may only end the hand when the stock is empty."), error=True)
    table, left = p.tableview.hand_score()
    return Confirm(
        _(
            "End the hand now? You would score {score:+d} (on the table {table}, in "
            "hand -{left}). y = end the hand, n = keep playing"
        ).format(score=table - left, table=table, left=left),
        {"type": "end_hand"},
    )


def take_back(p: Position) -> Outcome:
    """u: take back my last meld or lay-off of this turn (solo tables only)."""
    if why := need_turn(p):
        return why
    if p.can_take_back():
        return Send({"type": "take_back"})
    if not p.tableview.solo:
        return Say(_("Take back is only for a table with no other human."), error=True)
    return Say(_("Nothing to take back this turn: only melds and lay-offs."), error=True)
