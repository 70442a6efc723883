"""The refusals of the checked dict API: every check that raises :class:`IllegalMove` with
a template a player reads (RULES.md; the Russian catalog is keyed on each template's exact
text, so a template changes only with its translation).

:class:`Checks` turns an action dict of the seat to move into what the engine applies — a
draw's source, a meld, a lay-off, a discard — or refuses it with the reason; it changes
nothing (``Game`` applies what it returns). :func:`wrong_phase` says why an action does not
fit the phase; :func:`parse_card` reads a card's name or refuses it. Builds on
:class:`rum500.rules.moves.MoveGen` (the checks of a play it shares with the fast path)."""

from __future__ import annotations

from rum500 import cards as C
from rum500.rules.melds import (
    HIGH_ACE,
    N_,
    IllegalMove,
    Meld,
    joker_completions,
    joker_fits,
    joker_problem,
    layoff_cards,
    layoff_position,
    make_meld,
)
from rum500.rules.moves import MoveGen
from rum500.rules.notation import Phase

MAX_MELD_CARDS = 13


class Checks(MoveGen):
    """The checks of the dict API's actions in the draw and play phases (see the module
    docstring). A base of :class:`rum500.rules.game.Game`."""

    next_meld_id: int
    players: int
    claim_from: int | None

    def _check_draw(self, action: dict) -> tuple[int, bool] | None:
        """A draw: None from the stock, or (index, taken free) from the discard pile."""
        source = action.get("source")
        hand = self.hands[self.turn]
        if source == "stock":
            if not self.stock:
                raise IllegalMove("the stock is empty: take from the discard pile or end the hand")
            return None
        if source != "discard":
            raise IllegalMove("draw from the 'stock' or the 'discard' pile")
        i = action.get("index")
        if not isinstance(i, int) or isinstance(i, bool):
            raise IllegalMove("say which card of the discard pile to take (its index)")
        if not 0 <= i < len(self.pile):
            if not self.pile:
                raise IllegalMove("the discard pile is empty")
            raise IllegalMove(
                "no card at index {index}: the discard pile goes from 0 (bottom) to {last} (top)",
                index=i,
                last=len(self.pile) - 1,
            )
        card = self.pile[i]
        taken = self.pile[i:]
        free = self.options.top_card_free and i == len(self.pile) - 1 and bool(self.stock)
        if free:
            if not self._free_take_ok(card):
                raise IllegalMove(
                    "you could not discard afterwards: {card} may not be discarded again this turn",
                    card=C.name(card),
                )
        elif self._first and not self.opened[self.turn]:
            if not self._opens_with(card, hand + taken):
                raise IllegalMove(
                    "you may not take {card}: you have not opened, and no new melds of "
                    "{points} points, one holding it, could be made with it",
                    card=C.name(card),
                    points=self._first,
                )
        else:
            new_hand = hand + taken
            cost = self._placement_cost(card, new_hand, self.melds)
            if cost is None:
                raise IllegalMove(
                    "you may not take {card}: it must be played this turn and no meld or "
                    "lay-off could take it",
                    card=C.name(card),
                )
            if self.options.must_discard and cost >= len(new_hand):
                raise IllegalMove(
                    "you may not take {card}: playing it would leave you nothing to discard",
                    card=C.name(card),
                )
        return i, free

    def _held(self, texts: list[object]) -> list[int]:
        played = [parse_card(t) for t in texts]
        hand = self.hands[self.turn]
        for card in set(played):
            if hand.count(card) < played.count(card):
                raise IllegalMove("you do not hold {card}", card=C.name(card))
        return played

    def _check_meld(self, action: dict) -> tuple[Meld, list[int]]:
        """A meld: the meld and the cards it takes from the hand (jokers as JOKER)."""
        texts = action.get("cards")
        if not isinstance(texts, list) or not 1 <= len(texts) <= MAX_MELD_CARDS:
            raise IllegalMove("a meld is a list of 3 to 13 cards")
        played = self._held(texts)
        if C.JOKER in played:
            meld = self._joker_meld(played, action.get("jokers"))
        elif action.get("jokers"):
            raise IllegalMove("name the card each joker stands for: one name per joker")
        else:
            meld = make_meld(self.next_meld_id, played, self.turn)
        if meld.kind == "run" and len(meld.cards) < 4 and self.options.runs_of_four:
            raise _short_run(played)
        problem = self._play_problem(played, None, None, meld)
        if problem:
            raise problem
        return meld, played

    def _joker_meld(self, played: list[int], names: object) -> Meld:
        """The meld of ``played`` (holding jokers) with the jokers standing for ``names`` —
        filled in by the engine where only one way fits (RULES.md §11.1)."""
        naturals = [c for c in played if c != C.JOKER]
        k = len(played) - len(naturals)
        problem = joker_problem(len(naturals), k)
        if problem:
            cards = " ".join(C.names(naturals) + [C.JOKER_NAME] * k)
            raise IllegalMove("{cards} is not a meld: {reason}", cards=cards, reason=problem)
        if self.options.runs_of_four and len(played) < 4 and len({C.rank(c) for c in naturals}) > 1:
            raise _short_run(played)  # (only a run could hold them: no joker named first)
        if names is None:
            names = []
        if not isinstance(names, list) or len(names) > k:
            raise IllegalMove("name the card each joker stands for: one name per joker")
        named = [parse_card(n) for n in names]
        if C.JOKER in named:
            raise IllegalMove("a joker stands for a card, not for a joker")
        ways = [
            named + rest
            for rest in joker_completions(naturals + named, k - len(named))
            if len(named) < k
        ] or [named]
        if len(ways) > 1:
            choices = sorted({c for way in ways for c in way})
            raise IllegalMove(
                "name the card the joker stands for: {cards}", cards=" ".join(C.names(choices))
            )
        stands = ways[0]
        if len(stands) < k:
            cards = " ".join(C.names(naturals) + [C.JOKER_NAME] * k)
            raise IllegalMove(
                "{cards} is not a meld: {reason}",
                cards=cards,
                reason=N_("no card the jokers could stand for makes a meld"),
            )
        ids = naturals + stands
        return make_meld(self.next_meld_id, ids, self.turn, [False] * len(naturals) + [True] * k)

    def _check_layoff(self, action: dict) -> tuple[int, Meld, int, bool]:
        """A lay-off: (card held, meld, card it adds, whether a joker stands for it)."""
        held = self._held([action.get("card")])[0]
        meld = self._target_meld(action.get("meld"))
        card, wild = self._layoff_identity(held, meld, action)
        problem = self._play_problem([held], meld, card, None, wild)
        if problem:
            raise problem
        return held, meld, card, wild

    def _target_meld(self, meld_id: object) -> Meld:
        meld = next((m for m in self.melds if m.id == meld_id), None)
        if meld is None or isinstance(meld_id, bool):
            raise IllegalMove("there is no meld {meld} on the table", meld=repr(meld_id)[:20])
        return meld

    def _layoff_identity(self, card: int, meld: Meld, action: dict) -> tuple[int, bool]:
        """The card that ``card`` (as held) adds to ``meld``, and whether it is a joker standing
        for it — named in ``action["joker"]``, or filled in where only one fits."""
        if card != C.JOKER:
            if action.get("joker") is not None:
                raise IllegalMove("{card} is not a joker: only a joker is named", card=C.name(card))
            if layoff_position(meld, card) is None:
                raise _why_not_layoff(meld, card)
            return card, False
        shown = " ".join(C.names(meld.physical()))
        if not joker_fits(meld):
            raise IllegalMove(
                "a joker cannot go on {meld_cards}: never more jokers than natural cards",
                meld_cards=shown,
            )
        spots = layoff_cards(meld)
        name = action.get("joker")
        if name is None:
            if len(spots) != 1:
                if not spots:
                    raise IllegalMove("nothing can be laid off on {meld_cards}", meld_cards=shown)
                raise IllegalMove(
                    "name the card the joker stands for: {cards}", cards=" ".join(C.names(spots))
                )
            return spots[0], True
        stands = parse_card(name)
        if stands not in spots or stands == C.JOKER:
            raise IllegalMove(
                "a joker cannot stand for {card} on {meld_cards}",
                card=C.name(stands),
                meld_cards=shown,
            )
        return stands, True

    def _check_discard(self, action: dict) -> int:
        """A discard: the card."""
        card = self._held([action.get("card")])[0]
        if self.must_play is not None:
            raise IllegalMove("{card} must be played this turn", card=C.name(self.must_play))
        if self._first and self._unopened() and self.opening:
            raise IllegalMove(
                "your new melds this turn score {points}: reach {n} to open before you discard",
                points=self.opening,
                n=self._first,
            )
        if card == self.no_discard:
            raise IllegalMove(
                "you took {card} from the discard pile this turn: you may not discard it again",
                card=C.name(card),
            )
        return card

    def _check_claim(self, action: dict, seat: int | None) -> tuple[int, int, Meld, int, bool]:
        """A "Rummy!" call (``seat``: the caller, when the host knows it): (the caller, the
        discard, the meld, the card it adds, whether the discard is a joker standing for it)."""
        named = action.get("seat")
        if seat is None:
            seat = named
        elif named is not None and named != seat:
            raise IllegalMove("you may only call Rummy! for yourself")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalMove("say which seat calls Rummy!")
        if seat == self.claim_from:
            raise IllegalMove("you may not call Rummy! on your own discard")
        if self._first and not self.opened[seat]:
            raise IllegalMove("you may not call Rummy! before you have opened")
        card = self.pile[-1]
        said = action.get("card")
        if said is not None and parse_card(said) != card:
            raise IllegalMove(
                "the discard to call on is {card}, not {said}",
                card=C.name(card),
                said=str(said)[:12],
            )
        meld = self._target_meld(action.get("meld"))
        stands, wild = self._layoff_identity(card, meld, action)
        return seat, card, meld, stands, wild


def parse_card(text: object) -> int:
    try:
        return C.parse(text)
    except ValueError:
        shown = text if isinstance(text, str) else repr(text)
        raise IllegalMove(
            "{text} is not a card: write the rank (A 2 … 10 J Q K) then the suit (S H D C), "
            "e.g. AS, 10H, QD",
            text=shown[:12],
        ) from None


def _why_not_layoff(meld: Meld, card: int) -> IllegalMove:
    name = C.name(card)
    shown = " ".join(C.names(meld.cards))
    if meld.kind == "set":
        if C.rank(card) != meld.rank:
            template = N_("{card} is not of the rank of the set {meld_cards}")
        elif len(meld.cards) >= 4:
            template = N_("the set {meld_cards} is full")
        else:
            template = N_("the set {meld_cards} already holds the suit of {card}")
    elif C.suit(card) != meld.suit:
        template = N_("{card} is not of the suit of the run {meld_cards}")
    elif C.rank(card) == C.ACE:
        if meld.lo == 0 or meld.hi == HIGH_ACE:
            template = N_("the run {meld_cards} already holds an ace")
        else:
            template = N_("an ace only goes next to a 2 or a king, not on {meld_cards}")
    elif (meld.lo == 0 and C.rank(card) == C.KING) or (meld.hi == HIGH_ACE and C.rank(card) == 1):
        template = N_("a run cannot go round the corner (K-A-2): {card} does not fit {meld_cards}")
    else:
        template = N_("{card} does not extend the run {meld_cards} at either end")
    return IllegalMove(template, card=name, meld_cards=shown)


def wrong_phase(phase: Phase, kind: str) -> IllegalMove:
    known = {"draw", "meld", "layoff", "discard", "end_hand", "deal", "rummy", "close_claims"}
    if kind not in known:
        return IllegalMove("unknown action {kind}", kind=repr(kind[:20]))
    if kind in ("rummy", "close_claims"):
        return IllegalMove("Rummy! may only be called on a discard, before the next player draws")
    if phase is Phase.CLAIM:
        return IllegalMove("wait: Rummy! may still be called on the discard")
    if phase is Phase.DRAW:
        return IllegalMove("draw first: from the stock or the discard pile")
    if phase is Phase.PLAY:
        if kind == "draw":
            return IllegalMove("you have already drawn this turn")
        return IllegalMove("you may only end the hand instead of drawing, when the stock is empty")
    return IllegalMove("the hand is over: the next dealer deals")


def _short_run(played: list[int]) -> IllegalMove:
    """The refusal of a run of three at a table with runs of four (RULES.md §12.6)."""
    return IllegalMove(
        "{cards} is not a meld: {reason}",
        cards=" ".join(C.names(played)),
        reason=N_("a run needs at least 4 cards (runs of four)"),
    )
