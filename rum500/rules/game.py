"""The Rummy 500 match: a pure state machine (RULES.md).

A :class:`Game` is (players, seed, options[, deck]) plus the list of actions applied to it.
It does no I/O, reads no clock and uses no global random: every shuffle comes from its own
``random.Random`` seeded at creation, whose state is part of :meth:`Game.to_dict`.

Phases (:class:`Phase`): ``draw`` → ``play`` → (next seat) ``draw`` … until the hand ends,
then ``hand_over`` (the next dealer deals) or ``game_over``. With "Rummy!" calls (RULES.md
§11.2) a ``claim`` phase sits between a discard and the next draw.

Actions are plain dicts — the same ones that travel on the wire (see ``docs/rules.md``)::

    {"type": "draw", "source": "stock"}
    {"type": "draw", "source": "discard", "index": i}   # i from the bottom, 0-based
    {"type": "meld", "cards": ["9S", "9H", "9D"]}
    {"type": "meld", "cards": ["7H", "8H", "JK"], "jokers": ["9H"]}   # option: jokers
    {"type": "layoff", "card": "8H", "meld": 3}
    {"type": "layoff", "card": "JK", "meld": 3, "joker": "9H"}
    {"type": "discard", "card": "QS"}
    {"type": "end_hand"}                                 # stock empty: decline to draw
    {"type": "deal"}                                     # between hands
    {"type": "deal", "commitment": "…", "secret": "…", "contributions": [None, "…"]}
        # a committed deal (docs/rules.md, "A deal nobody can stack"): between hands, or
        # as a match's first action, the first hand dealt again from its commitment
    {"type": "rummy", "seat": 2, "meld": 3}              # claim phase: a call
    {"type": "close_claims"}                             # claim phase: the host, no call

:meth:`Game.pop` takes the last action back.

The fast path, for search and simulation (``docs/rules.md``, "The fast path"):
:meth:`Game.legal_moves` lists the same actions as :meth:`Game.legal_actions` as small tuples
of card numbers (``legal_actions()`` is built from them, and both are cached until the
position changes); :meth:`Game.apply_move` plays one of them without checking it again; every
applied action saves what it changes, so :meth:`Game.pop` restores the position before it
without replaying the match; :meth:`Game.copy` copies the position directly.

``Game`` keeps the state, the phases, applying actions, the views and pop/copy; its bases
hold the other concerns, each in a module that never imports this one:
:class:`~rum500.rules.moves.MoveGen` (move generation and the play checks both doors share),
:class:`~rum500.rules.refusals.Checks` (the dict API's refusals),
:class:`~rum500.rules.scoring.Scoring` (a hand's end), :class:`~rum500.rules.undo.Undo`
(what :meth:`Game.pop` puts back) and :class:`~rum500.rules.persist.Persistence` (the saved
position: :meth:`Game.to_dict`, :meth:`Game.from_dict`); :mod:`rum500.rules.notation` holds
the phases, the ``MOVE_*`` tuples and :func:`action_of` (all still importable from here).
"""

from __future__ import annotations

import operator
import random

from rum500 import cards as C
from rum500.rules.deal import draw_lot, first_order
from rum500.rules.melds import (
    IllegalMove,
    Meld,
    card_mask,
    grown,
    make_listed_meld,
)
from rum500.rules.moves import MoveGen
from rum500.rules.notation import (
    BITS,
    DIG_ACTIONS,
    DISCARD_ACTIONS,
    LAYOFF_ACTIONS,
    MOVE_CLOSE_CLAIMS,
    MOVE_DEAL,
    MOVE_DIG,
    MOVE_DISCARD,
    MOVE_END_HAND,
    MOVE_LAYOFF,
    MOVE_MELD,
    MOVE_STOCK,
    NAMES,
    STOCK_ACTION,
    Phase,
    action_of,
    joker_layoff_action,
    layoff_action,
    listed_meld_action,
    meld_action,
    shared,
)
from rum500.rules.options import Options
from rum500.rules.persist import STATE_VERSION, Persistence
from rum500.rules.refusals import MAX_MELD_CARDS, Checks, wrong_phase
from rum500.rules.scoring import Scoring, meld_points
from rum500.rules.shuffle import check_deal, deal_order, hand_key, reshuffled
from rum500.rules.undo import Undo

__all__ = [
    "MAX_MELD_CARDS",
    "MOVE_CLOSE_CLAIMS",
    "MOVE_DEAL",
    "MOVE_DIG",
    "MOVE_DISCARD",
    "MOVE_END_HAND",
    "MOVE_LAYOFF",
    "MOVE_MELD",
    "MOVE_STOCK",
    "STATE_VERSION",
    "UNDO_KEPT",
    "Game",
    "MoveGen",
    "Phase",
    "action_of",
]

JOKER = C.JOKER
_DRAW = Phase.DRAW
_PLAY = Phase.PLAY

#: every field of a :class:`Game` (its slots), set by ``__init__`` (``_deal``, ``_fast_flags``)
#: and by ``Persistence._from_dict``
_FIELDS = (
    "players",
    "seed",
    "options",
    "decks",
    "hand_size",
    "first_deck",
    "rng",
    "_rng_shared",
    "actions",
    "totals",
    "results",
    "winner",
    "hand_number",
    "lot",
    "dealer",
    "_legal",
    "_legal_dicts",
    "_undo",
    "_seats",
    "_table",
    "_min_run",
    "_new_meld",
    "_first",
    "_plain",
    "_plain_plays",
    "_once",
    "_wild",
    "_calls",
    "hands",
    "_cm",
    "pile",
    "stock",
    "melds",
    "next_meld_id",
    "turn",
    "phase",
    "must_play",
    "no_discard",
    "opened",
    "opening",
    "reshuffled",
    "went_out",
    "claim_from",
)
_fields_of = operator.attrgetter(*_FIELDS)


class Game(Checks, Scoring, Undo, Persistence):
    """A whole match of Rummy 500. See the module docstring."""

    # Every field of a game is a slot: the fast path reads and writes them faster than the
    # keys of an instance dict of this size (:meth:`copy` and :meth:`pop` copy them all; an
    # attribute set from outside lives in the instance's ``__dict__``, as before).
    __slots__ = _FIELDS

    def __init__(
        self,
        players: int,
        seed: int | None = None,
        options: Options | None = None,
        deck: list[str] | None = None,
    ) -> None:
        options = options or Options()
        options.validate(players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("the seed must be a whole number")
        self.players = players
        self.seed = seed
        self.options = options
        self.decks = options.deck_count(players)
        self.hand_size = options.hand_size(players)
        self.first_deck = list(deck) if deck is not None else None
        self.rng = random.Random(seed)
        self._rng_shared = False  # see _own_rng
        self.actions: list[dict] = []
        self.totals = [0] * players
        self.results: list[dict] = []  # one per finished hand
        self.winner: int | None = None
        self.hand_number = 0
        self.lot = draw_lot(players, self.decks, self._own_rng())
        self.dealer = self.lot["dealer"]
        self._legal: list[tuple] | None = None  # legal_moves() of this position, or None
        self._legal_dicts: tuple[list[tuple], list[dict]] | None = None
        self._undo: list[tuple] = []  # what each of the last actions changed (see pop)
        self._seats: list[int | None] | None = []  # see action_seats; None: not known yet
        self._table: tuple | None = None  # see _table_spots
        self._fast_flags()
        self._deal(None if deck is None else first_order(deck, self._deck(), self._own_rng()))

    # ------------------------------------------------------------------ setup

    def _deck(self) -> list[int]:
        """This table's cards in order: the deck(s), with their jokers when they play."""
        return C.deck(self.decks, self.options.jokers)

    def _deal(self, order: list[int] | None, committed: dict | None = None) -> list[dict]:
        """Shuffle (unless ``order`` is given), cut, deal, turn the upcard. ``committed``:
        the deal action's commitment fields, whose key gives the order and the cut
        (rum500/rules/shuffle.py) instead of the match's random state."""
        self.hand_number += 1
        cut = None
        if committed is not None:
            key = hand_key(committed["secret"], committed["contributions"])
            order, cut = deal_order(key, self._deck())
        elif order is None:
            order = self._deck()
            rng = self._own_rng()
            _shuffle(rng, order)
            cut = rng.randrange(1, len(order))  # the player left of the dealer cuts
            order = order[cut:] + order[:cut]
        n = self.players
        # one card at a time from the dealer's left: seat dealer + k gets cards k-1, k-1+n, …
        pos = n * self.hand_size
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(1, n + 1):
            self.hands[(self.dealer + k) % n] = order[k - 1 : pos : n]
        self._cm = [card_mask(h) for h in self.hands]  # each hand's card mask
        self.pile: list[int] = [order[pos]]
        self.stock: list[int] = order[pos + 1 :][::-1]  # top of the stock is the end
        self.melds: list[Meld] = []
        self.next_meld_id = 0
        self.turn = (self.dealer + 1) % n
        self.phase = Phase.DRAW
        self.must_play: int | None = None
        self.no_discard: int | None = None
        self.opened = [False] * n  # §12.1 (replaced, never changed in place)
        self.opening: int | None = None
        self.reshuffled = False
        self.went_out: int | None = None
        self.claim_from: int | None = None  # the discarder, during the claim phase
        return [
            {
                "type": "deal",
                "hand": self.hand_number,
                "dealer": self.dealer,
                "cutter": (self.dealer + 1) % n,
                "cut": cut,
                "upcard": C.name(self.pile[0]),
            }
        ]

    # ------------------------------------------------------------------ queries

    @property
    def to_move(self) -> int | None:
        """The seat whose action is awaited (the next dealer between hands), None at the end."""
        return None if self.phase is Phase.GAME_OVER else self.turn

    def hand_mask(self, seat: int) -> int:
        """The hand of ``seat`` as a card mask: bit ``c`` set when it holds card ``c`` (a
        joker: bit 52), whatever the number of copies. Kept up to date by every action (the
        fast path's own state, see ``docs/rules.md``)."""
        return self._cm[seat]

    def legal_actions(self) -> list[dict]:
        """Every legal action of the seat to move; each meld once, in canonical order.

        The list is cached until the position changes: treat it (and its dicts) as
        read-only."""
        legal = self.legal_moves()
        kept = self._legal_dicts  # (the moves they were built from, the dicts)
        if kept is None or kept[0] is not legal:
            kept = self._legal_dicts = (legal, [action_of(m) for m in legal])
        return kept[1]

    # ------------------------------------------------------------------ actions

    def apply(self, action: object, seat: int | None = None) -> list[dict]:
        """Apply one action of the seat to move (checked against ``seat`` when given).

        Returns the public events it caused. Raises :class:`IllegalMove` with a message a
        player understands, leaving the game exactly as it was."""
        if not isinstance(action, dict):
            raise IllegalMove("an action is a map with a 'type'")
        kind = action.get("type")
        mover = self.turn
        if not isinstance(kind, str):
            raise IllegalMove("an action is a map with a 'type'")
        if self.phase is Phase.GAME_OVER:
            raise IllegalMove("the match is over")
        if kind in ("rummy", "close_claims"):
            if self.phase is not Phase.CLAIM:
                raise wrong_phase(self.phase, kind)
            saved = self._snapshot(self._may_reshuffle())
            normal, events = self._claim_action(kind, action, seat)
        else:
            if kind == "deal" and self.phase is _DRAW:  # the first hand's committed deal
                mover = self.dealer
            if seat is not None and seat != mover:
                if self.phase is Phase.HAND_OVER:
                    raise IllegalMove("seat {seat} deals the next hand", seat=self.turn)
                raise IllegalMove("it is not your turn")
            handler = _HANDLERS.get((self.phase, kind))
            if handler is None:
                raise wrong_phase(self.phase, kind)
            saved = self._snapshot(kind == "deal" or (kind == "discard" and self._may_reshuffle()))
            normal, events = handler(self, action)
        self._undo.append(saved)
        if len(self._undo) > 2 * UNDO_KEPT:  # bounded: older actions are taken back by replay
            del self._undo[:-UNDO_KEPT]
        self._legal = self._legal_dicts = None
        self.actions.append(shared(normal))
        if self._seats is not None:
            self._seats.append(
                normal["seat"] if kind == "rummy" else None if kind == "close_claims" else mover
            )
        return events

    def apply_move(self, move: tuple, undo: bool = True) -> list[dict]:
        """Apply one of :meth:`legal_moves` (of this very position) without checking it
        again: the fast path for search and simulation. Returns the same events, records the
        same normalised action and can be taken back by :meth:`pop`, as :meth:`apply`. A move
        that is not in ``legal_moves()`` now may corrupt the game.

        ``undo=False`` (playouts on a copy) saves nothing for :meth:`pop`, which then
        replays the match instead, nor who played (:meth:`action_seats` then replays too)."""
        kind = move[0]
        if undo:
            seats = self._seats
            if seats is not None:
                seats.append(self.turn if kind != MOVE_CLOSE_CLAIMS else None)
            saved = self._snapshot(
                kind == MOVE_DEAL
                or (kind in (MOVE_DISCARD, MOVE_CLOSE_CLAIMS) and self._may_reshuffle())
            )
        elif self._seats is not None or self._undo:
            self._seats = None  # learnt again by replay when asked
            self._undo.clear()
        if kind == MOVE_DISCARD:
            normal, events = self._put_discard(move[1])
        elif kind == MOVE_STOCK:
            normal, events = self._take_stock()
        elif kind == MOVE_DIG:
            i = move[1]
            free = self.options.top_card_free and i == len(self.pile) - 1 and bool(self.stock)
            normal, events = self._take_pile(i, free)
        elif kind == MOVE_MELD:
            cards, wild = move[1], move[2]
            meld = make_listed_meld(self.next_meld_id, cards, self.turn, wild)
            if wild:
                normal, events = self._put_meld(meld, meld.physical())
            else:
                normal, events = self._put_meld(meld, cards, listed_meld_action(cards))
        elif kind == MOVE_LAYOFF:
            normal, events = self._put_layoff(move[1], self._meld_by_id(move[2]), move[3], move[4])
        elif kind == MOVE_END_HAND:
            normal, events = self._do_end_hand({})
        elif kind == MOVE_DEAL:
            normal, events = self._do_deal({})
        else:
            normal, events = self._claim_action("close_claims", {}, None)
        if undo:
            self._undo.append(saved)
            if len(self._undo) > 2 * UNDO_KEPT:
                del self._undo[:-UNDO_KEPT]
        self._legal = None  # (and with it legal_actions(), built from that list)
        self.actions.append(normal)
        return events

    def _may_reshuffle(self) -> bool:
        """Could the next turn reshuffle the discard pile into the stock (the only shuffle
        besides a deal)?"""
        return self.options.empty_stock == "reshuffle" and not self.reshuffled

    def _own_rng(self) -> random.Random:
        """The random state to shuffle with. :meth:`copy` shares it between the copies until
        one of them shuffles (only a deal or a reshuffle does): that one first takes a copy of
        its own, so a copy's deal never changes the original's, nor the other way round."""
        if self._rng_shared:
            rng = random.Random.__new__(random.Random)  # (no seeding: the state is set)
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self._rng_shared = False
        return self.rng

    def _grow(self, meld: Meld, card: int, seat: int, wild: bool) -> Meld:
        """Lay ``card`` off on a copy of ``meld`` that takes its place on the table (a meld is
        never changed in place: :meth:`pop` keeps the earlier one)."""
        bigger = grown(meld, card, seat, wild)
        old = self.melds
        k = meld.id if meld.id < len(old) and old[meld.id] is meld else 0
        while old[k] is not meld:
            k += 1
        self.melds = list(old)
        self.melds[k] = bigger
        self._table_follows(old, bigger, k)
        return bigger

    def _do_draw(self, action: dict) -> tuple[dict, list[dict]]:
        dig = self._check_draw(action)
        return self._take_stock() if dig is None else self._take_pile(*dig)

    def _take_stock(self) -> tuple[dict, list[dict]]:
        seat = self.turn
        card = self.stock.pop()
        self.hands[seat].append(card)
        self._cm[seat] |= BITS[card]
        self.phase = _PLAY
        if self._first:
            self.opening = None if self.opened[seat] else 0
        return STOCK_ACTION, [
            {"type": "draw", "seat": seat, "source": "stock", "stock": len(self.stock)}
        ]

    def _take_pile(self, i: int, free: bool) -> tuple[dict, list[dict]]:
        seat = self.turn
        card = self.pile[i]
        taken = self.pile[i:]
        del self.pile[i:]
        self.hands[seat].extend(taken)
        cm = self._cm[seat]
        for c in taken:
            cm |= BITS[c]
        self._cm[seat] = cm
        if free:
            self.no_discard = card
        else:
            self.must_play = card
        self.phase = _PLAY
        if self._first:
            self.opening = None if self.opened[seat] else 0
        return DIG_ACTIONS[i], [
            {
                "type": "draw",
                "seat": seat,
                "source": "discard",
                "index": i,
                "cards": C.names(taken),
                "must_play": None if free else C.name(card),
            }
        ]

    def _do_meld(self, action: dict) -> tuple[dict, list[dict]]:
        return self._put_meld(*self._check_meld(action))

    def _put_meld(
        self, meld: Meld, played: list[int] | tuple[int, ...], normal: dict | None = None
    ) -> tuple[dict, list[dict]]:
        """Put ``meld`` down from the hand (``played``: its cards as held); ``normal``: its
        normalised action when known (the fast path's, shared)."""
        self.next_meld_id += 1
        old = self.melds
        self.melds = old + [meld]  # a new list: see _table_spots
        self._table_follows(old, meld, -1)
        self._remove(played)
        if self.opening is not None and not self.opened[self.turn]:  # §12.1
            self.opening += sum(meld_points(meld, self.options))
            if self.opening >= self._first:
                self.opened = list(self.opened)
                self.opened[self.turn] = True
        if normal is None:
            normal = meld_action(meld.cards, meld.wild)
        event = {"type": "meld", "seat": self.turn, "meld": meld.id, "cards": list(normal["cards"])}
        if "jokers" in normal:
            event["jokers"] = list(normal["jokers"])
        if self.hands[self.turn]:
            return normal, [event]
        return normal, [event] + self._after_play()

    def _do_layoff(self, action: dict) -> tuple[dict, list[dict]]:
        return self._put_layoff(*self._check_layoff(action))

    def _put_layoff(self, held: int, meld: Meld, card: int, wild: bool) -> tuple[dict, list[dict]]:
        seat = self.turn
        meld = self._grow(meld, card, seat, wild)
        hand = self.hands[seat]
        hand.remove(held)
        if self._once or held not in hand:  # no other copy held
            self._cm[seat] ^= BITS[held]
        if self.must_play == held and not self._dig_new():  # (§12.1/§12.2: it does not count)
            self.must_play = None
        if wild:
            normal = joker_layoff_action(card, meld.id)
        else:
            normal = LAYOFF_ACTIONS.get((card, meld.id)) or layoff_action(card, meld.id)
        event = {"type": "layoff", "seat": seat, **normal}
        if hand:
            return normal, [event]
        return normal, [event] + self._after_play()

    def _remove(self, played: list[int] | tuple[int, ...]) -> None:
        seat = self.turn
        hand = self.hands[seat]
        cm = self._cm[seat]
        if self._once or (self.decks == 1 and not cm >> JOKER & 1):  # every card held once
            for c in played:
                hand.remove(c)
                cm ^= BITS[c]
        else:
            for c in played:
                hand.remove(c)
                if c not in hand:  # no other copy held
                    cm &= ~(1 << c)
        self._cm[seat] = cm
        if self.must_play is not None and self.must_play in played:
            self.must_play = None

    def _after_play(self) -> list[dict]:
        if not self.hands[self.turn]:
            self.went_out = self.turn
            return self._end_hand("out")
        return []

    def _do_discard(self, action: dict) -> tuple[dict, list[dict]]:
        return self._put_discard(self._check_discard(action))

    def _put_discard(self, card: int) -> tuple[dict, list[dict]]:
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        if self._once or card not in hand:  # no other copy held
            self._cm[seat] ^= BITS[card]
        self.pile.append(card)
        self.opening = None
        events = [{"type": "discard", "seat": seat, "card": NAMES[card]}]
        if not hand:
            self.went_out = seat
            events += self._end_hand("out")
        elif self._calls:
            # RULES.md §11.2: the next player waits while the others may call "Rummy!"
            self.turn = (seat + 1) % self.players
            self.phase = Phase.CLAIM
            self.no_discard = None
            self.claim_from = seat
        elif self.stock:  # _next_turn, when the stock is not empty
            self.turn = (seat + 1) % self.players
            self.phase = _DRAW
            self.no_discard = None
        else:
            events += self._next_turn()
        return DISCARD_ACTIONS[card], events

    # ------------------------------------------------------------------ "Rummy!" (§11.2)

    def _claim_action(self, kind: str, action: dict, seat: int | None) -> tuple[dict, list[dict]]:
        if kind == "close_claims":
            if seat is not None:
                raise IllegalMove("the host closes the claim window, not a player")
            return {"type": "close_claims"}, [{"type": "close_claims"}] + self._to_draw()
        seat, card, meld, stands, wild = self._check_claim(action, seat)
        meld = self._grow(meld, stands, seat, wild)
        self.pile.pop()
        normal = {"type": "rummy", "seat": seat, "meld": meld.id}
        if wild:
            normal["joker"] = C.name(stands)
        event = {**normal, "card": C.name(card), "from": self.claim_from}
        return normal, [event] + self._to_draw()

    def _to_draw(self) -> list[dict]:
        """The claim phase is over: the next player draws."""
        self.claim_from = None
        self.turn = (self.turn - 1) % self.players
        return self._next_turn()

    def _next_turn(self) -> list[dict]:
        self.turn = (self.turn + 1) % self.players
        self.phase = _DRAW
        self.no_discard = None
        if self.stock:
            return []
        rule = self.options.empty_stock
        if rule == "end":
            return self._end_hand("stock")
        if rule == "reshuffle" and not self.reshuffled and len(self.pile) >= 2:
            committed = self._committed()
            if committed is not None:  # the hand's key shuffles, not the match's random state
                key = hand_key(committed["secret"], committed["contributions"])
                new = reshuffled(key, self.pile[:-1])
            else:
                new = self.pile[:-1]
                self._own_rng().shuffle(new)
            self.stock = new
            del self.pile[:-1]
            self.reshuffled = True
            return [{"type": "reshuffle", "stock": len(self.stock)}]
        return []

    def _do_end_hand(self, action: dict) -> tuple[dict, list[dict]]:
        if self.stock:
            raise IllegalMove("you may only end the hand when the stock is empty")
        return {"type": "end_hand"}, [{"type": "end_hand", "seat": self.turn}] + self._end_hand(
            "declined"
        )

    def _do_deal(self, action: dict) -> tuple[dict, list[dict]]:
        committed = self._check_committed(action)
        self.dealer = (self.dealer + 1) % self.players
        normal = {"type": "deal", **committed} if committed else {"type": "deal"}
        return normal, self._deal(None, committed)

    def _do_first_deal(self, action: dict) -> tuple[dict, list[dict]]:
        """A match's first action may deal its first hand again from a commitment (the
        host heard the contributions only after the match began): same dealer, same hand."""
        committed = self._check_committed(action)
        if self.actions or self.hand_number != 1 or not committed or self.first_deck:
            raise wrong_phase(self.phase, "deal")
        self.hand_number -= 1
        return {"type": "deal", **committed}, self._deal(None, committed)

    def _check_committed(self, action: dict) -> dict | None:
        """A deal action's commitment fields (None: a deal from the match's random state);
        :class:`IllegalMove` when they are malformed or the secret is not the committed one."""
        if "secret" not in action and "commitment" not in action:
            return None
        if check_deal(action, self.players) is not None:
            raise IllegalMove("this deal does not follow from its commitment")
        return {
            "commitment": action["commitment"],
            "secret": action["secret"],
            "contributions": list(action["contributions"]),
        }

    def _committed(self) -> dict | None:
        """The hand under way's committed deal action (None: dealt from the random state)."""
        for action in reversed(self.actions):
            if action.get("type") == "deal":
                return action if "secret" in action else None
        return None

    # ------------------------------------------------------------------ views

    def view(
        self, seat: int | None, results: int | None = None, known: frozenset[str] = frozenset()
    ) -> dict:
        """What ``seat`` may see (``None``: a spectator, who sees no hand during play).
        ``results``: the summaries of the last ``results`` finished hands only (None: all).
        ``known``: of ``melds``, ``table_points``, ``results``, ``last_hand`` and ``options``,
        those whose values the caller has from before (the host keeps them packed while the
        melds, the score sheets and the options stay the same objects): each is None in the
        view, not built."""
        n = self.players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"no seat {seat!r} at a table of {n}")
        first = 0 if results is None else max(0, len(self.results) - results)
        v: dict = {
            "seat": seat,
            "players": n,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn": self.to_move,
            "hand": C.names(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "stock": len(self.stock),
            "discard_pile": C.names(self.pile),
            "melds": None if "melds" in known else [m.to_dict() for m in self.melds],
            "must_play": C.name(self.must_play) if self.must_play is not None else None,
            "no_discard": C.name(self.no_discard) if self.no_discard is not None else None,
            "table_points": None if "table_points" in known else self.table_points(),
            "totals": list(self.totals),
            # earlier hands without their face-up hands (last_hand has the latest in full)
            "results": None
            if "results" in known
            else [{k: r[k] for k in _RESULT_SUMMARY if k in r} for r in self.results[first:]],
            "last_hand": _copy_result(self.results[-1])
            if self.results and "last_hand" not in known
            else None,
            "reshuffled": self.reshuffled,
            "winner": self.winner,
            "target": self.options.target,
            "options": None if "options" in known else self.options.to_dict(),
            "decks": self.decks,
            "lot": self.lot,
            "legal_actions": self._view_actions(seat),
            # the index the next action will have in the match's list of actions (the game
            # log's): how `rum500 analyse` names a decision, and its seed
            "next_action": len(self.actions),
        }
        if self.options.rummy_calls:
            v["claim"] = (
                {"card": C.name(self.pile[-1]), "from": self.claim_from}
                if self.phase is Phase.CLAIM
                else None
            )
        if self.options.first_meld:  # §12.1: who has opened (public)
            v["opened"] = list(self.opened)
            v["opening"] = self.opening
        if self.options.teams:
            v["teams"] = [self.options.team(s) for s in range(n)]
            v["team_totals"] = self.team_totals()
        return v

    def own_view(self, seat: int | None) -> dict:
        """The keys of ``view(seat)`` that differ between seats; every other key is as in
        ``view(None)`` (the host builds that public part once for every seat of an update)."""
        return {
            "seat": seat,
            "hand": C.names(self.hands[seat]) if seat is not None else None,
            "legal_actions": self._view_actions(seat),
        }

    def may_act(self, seat: int | None) -> bool:
        """Whether ``seat``'s view may list legal actions (its turn, or a "Rummy!" claim
        window); when not, its :meth:`own_view` follows from its hand alone."""
        return seat is not None and (self.phase is Phase.CLAIM or seat == self.to_move)

    def _view_actions(self, seat: int | None) -> list[dict]:
        if not self.may_act(seat):
            return []
        if self.phase is Phase.CLAIM:
            return self.claims(seat)  # type: ignore[arg-type]
        return self.legal_actions()

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        actions: list[dict],
        options: Options | None = None,
        deck: list[str] | None = None,
    ) -> Game:
        """Rebuild a match from its seed and action list (``IllegalMove`` if one is illegal)."""
        g = cls(players, seed, options, deck)
        for a in actions:
            g.apply(a)
        return g

    def action_seats(self) -> list[int | None]:
        """Who played each action of :attr:`actions`, in order (a new list): the seat to move
        (the dealer for a ``deal``), the caller of a "Rummy!" (its ``seat``), None for a
        ``close_claims`` (the host's). Kept by :meth:`apply`, :meth:`apply_move`,
        :meth:`pop` and :meth:`copy`; a game restored by :meth:`from_dict`, or played on by
        ``apply_move(…, undo=False)`` (a playout), learns it once by replaying its actions (it
        is not part of the stored position)."""
        if self._seats is None:
            replay = Game.replay(
                self.players, self.seed, self.actions, self.options, self.first_deck
            )
            self._seats = replay._seats
        return list(self._seats)  # type: ignore[arg-type]

    def copy(self) -> Game:
        """An independent game in the same position (the action list included), copied
        directly (not through :meth:`to_dict`). Its :meth:`pop` replays for the actions
        played before the copy."""
        g = Game.__new__(Game)
        g._take_fields(self)
        g._rng_shared = self._rng_shared = True  # copied on its first use: see _own_rng
        g.actions = list(self.actions)
        g.results = list(self.results)
        g.hands = [list(h) for h in self.hands]
        g._cm = list(self._cm)
        g.stock = list(self.stock)
        g.pile = list(self.pile)
        g.melds = list(self.melds)  # melds are replaced, never changed in place
        kept = self._table  # (its lists are replaced, never changed in place: shared)
        g._table = (g.melds, kept[1]) if kept is not None and kept[0] is self.melds else None
        g._undo = []
        g._seats = list(self._seats) if self._seats is not None else None
        return g

    def pop(self) -> dict:
        """Take back the last action and return it (in its normalised form, as in
        :attr:`actions`). Afterwards the position is exactly ``Game.replay`` of the actions
        before it — random state included. Raises :class:`IllegalMove` when no action has
        been played yet (in a restored game: when its saved action list is empty).

        As python-chess's ``Board.pop``: every action applied to this object saved what it
        changed, which is put back. An action played before the game was restored or copied
        has nothing saved: then the match is replayed from its seed (the action list in
        :meth:`to_dict` is the whole history from the deal of the first hand)."""
        if not self.actions:
            raise IllegalMove("there is no action to take back")
        if self._undo:
            self._restore(self._undo.pop())
            if self._seats is not None:
                self._seats.pop()
            return self.actions.pop()
        last = dict(self.actions[-1])
        before = Game.replay(
            self.players, self.seed, self.actions[:-1], self.options, self.first_deck
        )
        self.__dict__.clear()
        self._take_fields(before)
        self._undo = []
        return last

    def _take_fields(self, other: Game) -> None:
        """Every field of ``other`` (and whatever else was set on it), shared, not copied."""
        for name, value in zip(_FIELDS, _fields_of(other), strict=True):
            setattr(self, name, value)
        self.__dict__.update(other.__dict__)


#: how many of the last actions keep what they changed for :meth:`Game.pop` (at most twice as
#: many between two trims); an older one is taken back by replaying the match
UNDO_KEPT = 256

#: what a view keeps of each finished hand (the whole score sheet is in last_hand and events)
_RESULT_SUMMARY = ("hand", "dealer", "went_out", "scores", "totals", "team_scores", "team_totals")


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same draws in the same order (Python 3.11's ``Random.shuffle``
    with ``_randbelow_with_getrandbits`` inlined: ``rng`` is a plain ``random.Random``)."""
    steps = _SHUFFLE_STEPS.get(len(x))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(x)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in range(len(x) - 1, 0, -1)
        )
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


#: per number of cards shuffled, the steps of :func:`_shuffle`: (i, i + 1, its bit length)
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _copy_result(r: dict) -> dict:
    return {**r, "hands": [list(h) for h in r["hands"]]}


_HANDLERS = {
    (Phase.DRAW, "draw"): Game._do_draw,
    (Phase.DRAW, "end_hand"): Game._do_end_hand,
    (Phase.PLAY, "meld"): Game._do_meld,
    (Phase.PLAY, "layoff"): Game._do_layoff,
    (Phase.PLAY, "discard"): Game._do_discard,
    (Phase.HAND_OVER, "deal"): Game._do_deal,
    (Phase.DRAW, "deal"): Game._do_first_deal,
}
