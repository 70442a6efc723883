"""The table in words, for ``rum500 --plain``: the hand, the melds, the discard pile, the scores,
whose turn it is, the command that plays an action, and the help — each one line (or a few),
translated, cards in words (:func:`rum500.narrate.spoken_card`) or, on request, short
(``AS 9S``)."""

from __future__ import annotations

from typing import Protocol

from rum500.i18n import _, ngettext, pgettext
from rum500.narrate import meld_number, spoken_card, spoken_cards


class Table(Protocol):
    """What these words read of the table (a :class:`~rum500.tui.tableview.TableView`)."""

    @property
    def view(self) -> dict | None: ...

    @property
    def seat(self) -> int | None: ...

    def player_name(self, seat: int | None) -> str: ...

    def hand(self) -> list[str]: ...

    def pile(self) -> list[str]: ...

    def melds(self) -> list[dict]: ...


def no_match() -> str:
    return _("The match has not started yet.")


def hand_text(t: Table, short: bool = False) -> str:
    """``Your hand, 3 cards: ace of spades, 9 of spades, 9 of hearts.`` (``short``: ``AS 9S
    9H``)."""
    if t.view is None:
        return no_match()
    if t.seat is None:
        return _("You are watching: you hold no cards.")
    hand = t.hand()
    if not hand:
        return _("Your hand is empty.")
    cards = " ".join(hand) if short else spoken_cards(hand)
    return ngettext(
        "Your hand, {n} card: {cards}.", "Your hand, {n} cards: {cards}.", len(hand)
    ).format(n=len(hand), cards=cards)


def meld_words(meld: dict) -> str:
    """A meld's cards as they lie, a joker with what it stands for."""
    cards = [str(c) for c in meld.get("cards") or []]
    stands = meld.get("stands_for") or [None] * len(cards)
    return ", ".join(spoken_card(c, s) for c, s in zip(cards, stands, strict=False))


def table_text(t: Table) -> list[str]:
    """The melds (by number, as ``lay CARD on N`` names them, and whose), then each seat's
    number of cards and the stock."""
    if t.view is None:
        return [no_match()]
    lines = [
        _("Meld {id}, {who}'s: {cards}.").format(
            id=meld_number(m.get("id")), who=t.player_name(m.get("owner")), cards=meld_words(m)
        )
        for m in t.melds()
    ] or [_("No melds on the table.")]
    sizes = t.view.get("hand_sizes") or []
    held = ", ".join(
        ngettext("{who} {n} card", "{who} {n} cards", n).format(who=t.player_name(s), n=n)
        for s, n in enumerate(sizes)
    )
    stock = int(t.view.get("stock") or 0)
    lines.append(
        ngettext(
            "Held: {held}; the stock has {n} card.", "Held: {held}; the stock has {n} cards.", stock
        ).format(held=held, n=stock)
    )
    return lines


def pile_text(t: Table) -> str:
    """The discard pile from the top, numbered as ``dig N`` takes: ``1: 7 of hearts; 2: …``
    (a number never runs into a card's rank when it is read aloud)."""
    if t.view is None:
        return no_match()
    pile = t.pile()
    if not pile:
        return _("The discard pile is empty.")
    listed = "; ".join(f"{k}: {spoken_card(c)}" for k, c in enumerate(reversed(pile), start=1))
    return ngettext(
        "Discard pile, {n} card, from the top: {cards}.",
        "Discard pile, {n} cards, from the top: {cards}.",
        len(pile),
    ).format(n=len(pile), cards=listed)


def scores_text(t: Table) -> str:
    """The totals (and the teams' totals), the target, and this hand's points on the table."""
    v = t.view
    if v is None:
        return no_match()
    totals = v.get("totals") or []
    said = ", ".join(f"{t.player_name(s)} {n}" for s, n in enumerate(totals))
    line = _("Totals: {totals}; the target is {target}.").format(
        totals=said, target=v.get("target")
    )
    if v.get("team_totals"):
        teams = ", ".join(
            _("team {n}: {total}").format(n=k + 1, total=total)
            for k, total in enumerate(v["team_totals"])
        )
        line += " " + _("Teams: {teams}.").format(teams=teams)
    points = v.get("table_points") or []
    if any(points):
        on = ", ".join(f"{t.player_name(s)} {n}" for s, n in enumerate(points))
        line += " " + _("On the table this hand: {points}.").format(points=on)
    return line


def review_text(t: Table) -> list[str]:
    """The last hand's review, as the screen's sheet has it: who went out, then for each
    seat the points on the table, the cards left in hand and their points, the hand's score;
    the totals."""
    last = (t.view or {}).get("last_hand")
    if not isinstance(last, dict):
        return [_("No hand is over yet.")]
    lines = []
    if last.get("went_out") is not None:
        lines.append(
            _("Hand {n}: {who} went out.").format(
                n=last.get("hand"), who=t.player_name(last["went_out"])
            )
        )
    else:
        lines.append(_("Hand {n}: nobody went out.").format(n=last.get("hand")))
    table = last.get("table_points") or []
    left = last.get("hand_points") or []
    hands = last.get("hands") or []
    for s, score in enumerate(last.get("scores") or []):
        cards = spoken_cards(hands[s]) if s < len(hands) and hands[s] else _("none")
        lines.append(
            _("{who}: {table} on the table, {left} left in hand ({cards}); {score:+d}.").format(
                who=t.player_name(s),
                table=table[s] if s < len(table) else 0,
                left=left[s] if s < len(left) else 0,
                cards=cards,
                score=score,
            )
        )
    totals = ", ".join(f"{t.player_name(s)} {n}" for s, n in enumerate(last.get("totals") or []))
    lines.append(_("Totals: {totals}.").format(totals=totals))
    return lines


def status_text(t: Table) -> str:
    """Which hand, whose turn and what it is for, the stock and the top of the pile."""
    v = t.view
    if v is None:
        return no_match()
    if v.get("winner") is not None:
        return _("The match is over: {who} won.").format(who=t.player_name(v["winner"]))
    phase = v.get("phase")
    turn = v.get("turn")
    whose = _("your turn") if turn == t.seat else _("{who}'s turn").format(who=t.player_name(turn))
    doing = {
        "draw": pgettext("turn phase", "to draw"),
        "play": pgettext("turn phase", "to meld, lay off and discard"),
        "claim": pgettext("turn phase", "Rummy! may be called"),
        "hand_over": pgettext("turn phase", "the hand is over"),
    }.get(str(phase), str(phase))
    pile = t.pile()
    top = spoken_card(pile[-1]) if pile else _("nothing")
    return _("Hand {n}: {whose}, {doing}. Stock {stock}; top of the discard pile: {top}.").format(
        n=v.get("hand_number"), whose=whose, doing=doing, stock=v.get("stock"), top=top
    )


def command_for(action: dict, view: dict) -> str:
    """The line that plays ``action`` (a hint says it): ``meld 9S 9H 9D``, ``lay 8H on 4``."""
    kind = action.get("type")
    if kind == "draw" and action.get("source") == "stock":
        return "draw"
    if kind == "draw":
        pile = view.get("discard_pile") or []
        return f"dig {len(pile) - int(action.get('index', len(pile) - 1))}"
    if kind == "meld":
        return "meld " + " ".join(str(c) for c in action.get("cards") or [])
    if kind == "layoff":
        return f"lay {action.get('card')} on {meld_number(action.get('meld'))}"
    if kind == "rummy":
        return "call"
    if kind == "discard":
        return f"discard {action.get('card')}"
    if kind == "end_hand":
        return "end"
    if kind == "deal":
        return "ready"
    return str(kind)


def help_lines() -> list[str]:
    """Every command of the plain mode, one a line (English words always work; the Russian
    aliases are given in the Russian help)."""
    return [
        _("Commands (type one a line; cards as AS 10H QD 2C, JK for a joker):"),
        _("draw: draw from the stock."),
        _("take CARD: take that card of the discard pile and every card above it."),
        _("dig N: take the top N cards of the discard pile."),
        _("meld CARD CARD CARD …: meld those cards."),
        _("lay CARD on N: lay CARD off on meld number N (table lists them)."),
        _("discard CARD: discard it; this ends your turn."),
        _("call: call Rummy! on the discard while calls are open; pass: no call."),
        _("end: end the hand when the stock is empty."),
        _("ready: ready for the next hand (or deal it)."),
        _("undo: take back your last meld or lay-off of this turn (solo tables)."),
        _("hint: what the strongest bot would play, and the line to type."),
        _("hand: your hand in words; hand short: as AS 9S."),
        _("table: the melds and how many cards each player holds; pile: the discard pile."),
        _("scores: the totals; status: whose turn it is; players: the seats."),
        _("review: the last hand's review (each player's points and cards left)."),
        _("say TEXT: chat to the table."),
        _("start: at your own table, bots take the free seats and the match begins."),
        _("handover: hand the table to another player's machine."),
        _("hints: the host player turns the hint off or on for everyone."),
        _("watchers: the spectators; show NAME or N: show them your hand; show stop: end it."),
        _("A spectator shown a hand: hand says it, hint the strongest bot's move for it."),
        _("A number answers a numbered question; yes or no answers a question."),
        _("help: this list; quit: leave the table."),
    ]
