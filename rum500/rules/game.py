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
    {"type": "rummy", "seat": 2, "meld": 3}              # claim phase: a call
    {"type": "close_claims"}                             # claim phase: the host, no call

:meth:`Game.pop` takes the last action back.

The fast path, for search and simulation (``docs/rules.md``, "The fast path"):
:meth:`Game.legal_moves` lists the same actions as :meth:`Game.legal_actions` as small tuples
of card numbers (``legal_actions()`` is built from them, and both are cached until the
position changes); :meth:`Game.apply_move` plays one of them without checking it again; every
applied action saves what it changes, so :meth:`Game.pop` restores the position before it
without replaying the match; :meth:`Game.copy` copies the position directly.
"""

from __future__ import annotations

import random
from collections import Counter
from enum import StrEnum

from rum500 import cards as C
from rum500.rules.melds import (
    HIGH_ACE,
    N_,
    RANK_BITS,
    RUN_STARTS,
    SUIT_BITS,
    IllegalMove,
    Meld,
    candidate_joker_melds,
    candidate_meld_tuples,
    card_mask,
    grown,
    joker_completions,
    joker_fits,
    joker_problem,
    layoff_cards,
    layoff_position,
    listed_meld_reach,
    make_listed_meld,
    make_meld,
    placeable,
    placement_cost,
    placement_cost_masks,
    placement_cost_wild,
    placement_cost_wild_masks,
)
from rum500.rules.options import Options, hand_size

STATE_VERSION = 1
MAX_MELD_CARDS = 13

# Move kinds of the fast path (the first item of each tuple of Game.legal_moves()):
MOVE_STOCK = 0  # (MOVE_STOCK,)
MOVE_DIG = 1  # (MOVE_DIG, index)
MOVE_END_HAND = 2  # (MOVE_END_HAND,)
MOVE_MELD = 3  # (MOVE_MELD, cards, wild): cards canonical; wild None or a tuple of bools
MOVE_LAYOFF = 4  # (MOVE_LAYOFF, held, meld id, card, wild): held is JOKER when wild
MOVE_DISCARD = 5  # (MOVE_DISCARD, card)
MOVE_DEAL = 6  # (MOVE_DEAL,)
MOVE_CLOSE_CLAIMS = 7  # (MOVE_CLOSE_CLAIMS,)


class Phase(StrEnum):
    DRAW = "draw"
    PLAY = "play"
    CLAIM = "claim"  # "Rummy!" calls on the last discard (option), before the next draw
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


class Game:
    """A whole match of Rummy 500. See the module docstring."""

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
        self.hand_size = hand_size(players)
        self.first_deck = list(deck) if deck is not None else None
        self.rng = random.Random(seed)
        self._rng_shared = False  # see _own_rng
        self.actions: list[dict] = []
        self.totals = [0] * players
        self.results: list[dict] = []  # one per finished hand
        self.winner: int | None = None
        self.hand_number = 0
        self.lot = self._draw_lot()
        self.dealer = self.lot["dealer"]
        self._legal: list[tuple] | None = None  # legal_moves() of this position, or None
        self._legal_dicts: list[dict] | None = None
        self._undo: list[tuple] = []  # what each of the last actions changed (see pop)
        self._table: tuple | None = None  # see _table_spots
        self._deal(self._first_order(deck))

    # ------------------------------------------------------------------ setup

    def _draw_lot(self) -> dict:
        """First dealer by lot: one card each face up, lowest deals, ties draw again."""
        rounds: list[list[list]] = []
        contenders = list(range(self.players))
        pack: list[int] = []
        while True:
            if len(pack) < len(contenders):
                pack = C.deck(self.decks)
                self._own_rng().shuffle(pack)
            drawn = [(seat, pack.pop()) for seat in contenders]
            rounds.append([[seat, C.name(card)] for seat, card in drawn])
            low = min(C.rank(card) for _, card in drawn)
            contenders = [seat for seat, card in drawn if C.rank(card) == low]
            if len(contenders) == 1:
                return {"rounds": rounds, "dealer": contenders[0]}

    def _deck(self) -> list[int]:
        """This table's cards in order: the deck(s), with their jokers when they play."""
        return C.deck(self.decks, self.options.jokers)

    def _first_order(self, deck: list[str] | None) -> list[int] | None:
        if deck is None:
            return None
        order = C.parse_many(deck)
        have = Counter(order)
        full = Counter(self._deck())
        for card, n in have.items():
            if n > full[card]:
                raise ValueError(f"the deck holds {C.name(card)} more than {full[card]} time(s)")
        rest = list((full - have).elements())
        self._own_rng().shuffle(rest)
        return order + rest

    def _deal(self, order: list[int] | None) -> list[dict]:
        """Shuffle (unless ``order`` is given), cut, deal, turn the upcard."""
        self.hand_number += 1
        cut = None
        if order is None:
            order = self._deck()
            rng = self._own_rng()
            rng.shuffle(order)
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

    def table_points(self) -> list[int]:
        """Each seat's points on the table this hand (RULES.md §7; §11.4: with "ace always
        15", a low ace too scores 15)."""
        pts = [0] * self.players
        ace15 = self.options.ace_always_15
        for m in self.melds:
            for seat, p in zip(m.by, m.points, strict=True):
                pts[seat] += C.VALUES[0] if ace15 and p == C.LOW_ACE_VALUE else p
        return pts

    def team_totals(self) -> list[int]:
        """With partnerships, each team's total: the sum of its players' (RULES.md §11.3)."""
        return self._by_team(self.totals)

    def _by_team(self, per_seat: list[int]) -> list[int]:
        out = [0] * self.options.teams
        for seat, value in enumerate(per_seat):
            out[self.options.team(seat)] += value
        return out

    def hand_mask(self, seat: int) -> int:
        """The hand of ``seat`` as a card mask: bit ``c`` set when it holds card ``c`` (a
        joker: bit 52), whatever the number of copies. Kept up to date by every action (the
        fast path's own state, see ``docs/rules.md``)."""
        return self._cm[seat]

    def legal_actions(self) -> list[dict]:
        """Every legal action of the seat to move; each meld once, in canonical order.

        The list is cached until the position changes: treat it (and its dicts) as
        read-only."""
        if self._legal_dicts is None:
            self._legal_dicts = [action_of(m) for m in self.legal_moves()]
        return self._legal_dicts

    def legal_moves(self) -> list[tuple]:
        """:meth:`legal_actions` as fast-path moves (``MOVE_*`` tuples of card numbers, in
        the same order), for :meth:`apply_move`. Cached until the position changes."""
        if self._legal is None:
            phase = self.phase
            if phase is _PLAY:
                self._legal = self._legal_plays()
            elif phase is _DRAW:
                self._legal = self._legal_draws()
            elif phase is Phase.HAND_OVER:
                self._legal = [(MOVE_DEAL,)]
            elif phase is Phase.CLAIM:
                self._legal = [(MOVE_CLOSE_CLAIMS,)]  # the host's; calls: see claims(seat)
            else:
                self._legal = []
        return self._legal

    def _legal_draws(self) -> list[tuple]:
        stock = self.stock
        seat = self.turn
        cm = self._cm[seat]
        options = self.options
        must_discard = options.must_discard
        free_top = options.top_card_free and bool(stock)
        wild = options.jokers
        # direct: the cards a meld on the table takes as they are, placed at a cost of 1 and
        # always allowed (the hand holds at least one other card to discard)
        kept = self._table
        if kept is not None and kept[0] is self.melds:
            direct, runs, _ = kept[1]
        else:
            direct, runs, _ = self._table_spots()
        pile = self.pile
        top = len(pile) - 1
        found: list[int] = []
        if not must_discard:
            # a dig is allowed when its card can reach the table at all: placeable (inlined
            # for the quick cases), else — only when jokers are held — the ways with jokers
            jokers = self.hands[seat].count(JOKER) if wild else 0
            gaps = None
            start = top
            if free_top and top >= 0:
                cm |= 1 << pile[top]
                jokers += pile[top] == JOKER
                if self._free_take_ok(pile[top]):
                    found.append(top)
                start = top - 1
            for i in range(start, -1, -1):
                c = pile[i]
                cm |= 1 << c
                if direct >> c & 1:
                    found.append(i)  # a meld takes it as it is (a joker: a meld takes one)
                    if c == JOKER:
                        jokers += 1  # (the cards below may use it)
                elif c == JOKER:
                    jokers += 1
                    if _wild_cost(c, cm, jokers, self.melds) is not None:
                        found.append(i)
                elif (cm & _NEAR[c]).bit_count() < 3 and not jokers:
                    # no new set or run: at most a lay-off on a run after the one card
                    # between (two would be near it), see _gaps
                    if gaps is None:
                        gaps = _gaps(runs)
                    if (gaps[1] >> c & 1 and cm >> _BELOW[c] & 1) or (
                        gaps[2] >> c & 1 and cm >> c + 1 & 1
                    ):
                        found.append(i)
                elif (cm & RANK_BITS[c % 13]).bit_count() >= 3:
                    found.append(i)  # a new set
                else:
                    x = cm >> 13 * (c // 13) & SUIT_BITS
                    x |= (x & 1) << HIGH_ACE
                    if x & (x >> 1) & (x >> 2) & RUN_STARTS[c]:
                        found.append(i)  # a new run
                    elif runs[c // 13] and placeable(c, cm, 0, runs):
                        found.append(i)  # a lay-off on a run after the cards between
                    elif jokers and _wild_cost(c, cm, jokers, self.melds) is not None:
                        found.append(i)
        else:
            melds = self.melds
            size = len(self.hands[seat])
            by_rank, by_suit, jokers = _hand_masks(self.hands[seat])
            for i in range(top, -1, -1):
                c = pile[i]
                if c == JOKER:
                    jokers += 1
                else:
                    by_rank[c % 13] |= _SUIT_BIT[c]
                    by_suit[c // 13] |= _POS_BITS[c]
                size += 1
                if i == top and free_top:
                    if self._free_take_ok(c):
                        found.append(i)
                    continue
                if direct >> c & 1:
                    found.append(i)
                    continue
                if wild:
                    cost = placement_cost_wild_masks(c, by_rank, by_suit, jokers, melds)
                else:
                    cost = placement_cost_masks(c, by_rank, by_suit, melds)
                if cost is not None and not (must_discard and cost >= size):
                    found.append(i)
        if not found:
            return [_STOCK] if stock else [_END_HAND]
        found.reverse()
        out: list[tuple] = [_STOCK] if stock else []
        out += map(_DIGS.__getitem__, found)  # (a pile holds fewer cards than _DIGS)
        if not stock:
            out.append(_END_HAND)
        return out

    def _table_spots(self) -> tuple[int, list[list[tuple[int, int]]], list[tuple]]:
        """What the melds on the table take, kept until the list of melds is replaced (it is
        on every change: melds are never changed in place, nor the list):

        - the card mask of every card held that a meld takes as it is (the joker's bit when
          a meld takes one), see :func:`placeable`;
        - per suit, the (lo, hi) of the runs;
        - per meld, the card mask of the cards held its lay-offs need and the lay-offs as
          ``(card held, move)``, in the order of :meth:`legal_moves` (its cards, then a joker
          standing for each)."""
        kept = self._table
        melds = self.melds
        if kept is not None and kept[0] is melds:
            return kept[1]
        needs = 0
        runs: list[list[tuple[int, int]]] = [[], [], [], []]
        layoffs: list[tuple] = []
        jokers = self.options.jokers  # (a meld is only ever on tables of the same options)
        for m in melds:
            moves = m.moves
            if moves is None:
                moves = m.moves = _layoff_moves(m, jokers)
            needs |= moves[0]
            layoffs.append(moves)
            if m.kind == "run":
                runs[m.suit].append((m.lo, m.hi))
        found = (needs, runs, layoffs)
        self._table = (melds, found)
        return found

    def _table_follows(self, old: list[Meld], meld: Meld, k: int) -> None:
        """The melds were ``old`` and ``meld`` has just joined them (in place of ``old[k]``,
        or at the end when ``k`` is -1): what :meth:`_table_spots` kept for ``old`` follows,
        without going through every meld again."""
        kept = self._table
        if kept is None or kept[0] is not old:
            return
        needs, runs, layoffs = kept[1]
        moves = meld.moves = _layoff_moves(meld, self.options.jokers)
        if k < 0:
            needs |= moves[0]
            layoffs = layoffs + [moves]
            if meld.kind == "run":
                runs = list(runs)
                runs[meld.suit] = runs[meld.suit] + [(meld.lo, meld.hi)]
        else:
            layoffs = list(layoffs)
            layoffs[k] = moves
            needs = 0
            for m in self.melds:
                needs |= m.moves[0]  # type: ignore[index]
            if meld.kind == "run":  # (lo, hi) of the run it was becomes the grown one's
                runs = list(runs)
                mine = runs[meld.suit] = list(runs[meld.suit])
                mine[mine.index((old[k].lo, old[k].hi))] = (meld.lo, meld.hi)
        self._table = (self.melds, (needs, runs, layoffs))

    def _free_take_ok(self, card: int) -> bool:
        """May the seat to move take ``card`` free (top card free)? Unless another card could
        then be discarded, only if every card in hand (all copies of it) could be laid off."""
        hand = self.hands[self.turn]
        if any(h != card for h in hand):
            return True
        return not self.options.must_discard and _can_lay_off_all(
            [card] * (len(hand) + 1), self.melds
        )

    def _legal_plays(self) -> list[tuple]:
        hand = self.hands[self.turn]
        cm = self._cm[self.turn]
        n = len(hand)
        out: list[tuple] = []
        keep_one = self.options.must_discard
        jokers = self.options.jokers and cm >> JOKER & 1
        kept = self._table
        if kept is not None and kept[0] is self.melds:
            needs, _, layoffs = kept[1]
        else:
            needs, _, layoffs = self._table_spots()
        if self.must_play is None and self.no_discard is None:
            # Without an obligation or a card that may not be discarded, only "must discard"
            # can refuse a play (one that would empty the hand): skip the full check.
            for t in candidate_meld_tuples(cm):
                if not keep_one or len(t) < n:
                    out.append((MOVE_MELD, t, None))
            if jokers:
                for ids, wild in candidate_joker_melds(hand):
                    if not keep_one or len(ids) < n:
                        out.append((MOVE_MELD, tuple(ids), tuple(wild)))
            if needs & cm and (not keep_one or n > 1):
                for need, moves in layoffs:
                    if need & cm:
                        for c, move in moves:
                            if cm >> c & 1:
                                out.append(move)
        else:
            may = _PlayCheck(self, hand, cm, needs)
            # the quick answers of may.meld and may.layoff inlined: a play of the card that
            # must be played (without "must discard"), or one that keeps its way
            mp = self.must_play if may.fast and not keep_one else -1
            way = may.way
            if way is not None and n - 1 > way[2]:
                way_uses, way_meld = way[0], way[1]
            else:
                way_uses, way_meld = -1, -2
            for t in candidate_meld_tuples(cm):
                if mp in t or may.meld(t, None):
                    out.append((MOVE_MELD, t, None))
            if jokers:
                for ids, wild in candidate_joker_melds(hand):
                    if may.meld(ids, wild):
                        out.append((MOVE_MELD, tuple(ids), tuple(wild)))
            if needs & cm:
                for need, moves in layoffs:
                    if not need & cm:
                        continue
                    for c, move in moves:
                        if cm >> c & 1 and (
                            c == mp
                            or (move[2] != way_meld and not way_uses >> c & 1)
                            or may.layoff(c, self._meld_by_id(move[2]), move[3], move[4])
                        ):
                            out.append(move)
        if self.must_play is None:
            nd = self.no_discard
            discards = _DISCARDS
            if nd is None:
                # (one deck and no joker: every card is held once)
                once = self.decks == 1 and not cm >> JOKER & 1
                out += map(discards.__getitem__, sorted(hand if once else set(hand)))
            else:
                out += [discards[c] for c in sorted(set(hand)) if c != nd]
        return out

    def _play_problem(
        self,
        played: list[int],
        onto: Meld | None,
        card: int | None,
        new: Meld | None = None,
        wild: bool = False,
    ) -> IllegalMove | None:
        """Why putting ``played`` (the cards as held, jokers as JOKER) on the table is refused
        now, or None: a new meld (``new``, built from ``played`` when not given), or ``card``
        laid off on ``onto`` (by a joker standing for it when ``wild``). Assumes the cards are
        held and form a valid play."""
        hand = self.hands[self.turn]
        left = len(hand) - len(played)
        if left == 0:
            if self.options.must_discard:
                return IllegalMove(
                    "you must keep a card to discard (the table plays 'must discard')"
                )
            return None
        nd = self.no_discard
        if nd is not None and hand.count(nd) - played.count(nd) == left:
            # Only copies of the free card would be left: fine if they can all go to the
            # table, one lay-off after another, so the player goes out (RULES.md §4.2).
            if self.options.must_discard or not _can_lay_off_all(
                [nd] * left, self._melds_after(played, onto, card, new, wild)
            ):
                return IllegalMove(
                    "you would be left with only {card}, which you may not discard again this turn",
                    card=C.name(nd),
                )
            return None
        mp = self.must_play
        if mp is None or mp in played:
            return None
        rest = list(hand)
        for c in played:
            rest.remove(c)
        melds = self._melds_after(played, onto, card, new, wild)
        cost = self._placement_cost(mp, rest, melds)
        if cost is None or (self.options.must_discard and cost >= len(rest)):
            return IllegalMove(
                "{card} must be played this turn, and this would leave no way to play it",
                card=C.name(mp),
            )
        return None

    def _melds_after(
        self,
        played: list[int],
        onto: Meld | None,
        card: int | None,
        new: Meld | None = None,
        wild: bool = False,
    ) -> list[Meld]:
        """The table's melds once ``played`` is down (a new meld, or ``card`` on ``onto``);
        the game's own melds are not touched."""
        if onto is None:
            return self.melds + [new or make_meld(-1, played, self.turn)]
        bigger = grown(onto, card, self.turn, wild)  # type: ignore[arg-type]
        return [bigger if m is onto else m for m in self.melds]

    def _placement_cost(self, card: int, hand: list[int], melds: list[Meld]) -> int | None:
        if self.options.jokers:
            return placement_cost_wild(card, hand, melds)
        return placement_cost(card, hand, melds)

    # ------------------------------------------------------------------ actions

    def apply(self, action: object, seat: int | None = None) -> list[dict]:
        """Apply one action of the seat to move (checked against ``seat`` when given).

        Returns the public events it caused. Raises :class:`IllegalMove` with a message a
        player understands, leaving the game exactly as it was."""
        if not isinstance(action, dict):
            raise IllegalMove("an action is a map with a 'type'")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise IllegalMove("an action is a map with a 'type'")
        if self.phase is Phase.GAME_OVER:
            raise IllegalMove("the match is over")
        if kind in ("rummy", "close_claims"):
            if self.phase is not Phase.CLAIM:
                raise _wrong_phase(self.phase, kind)
            saved = self._snapshot(self._may_reshuffle())
            normal, events = self._claim_action(kind, action, seat)
        else:
            if seat is not None and seat != self.turn:
                if self.phase is Phase.HAND_OVER:
                    raise IllegalMove("seat {seat} deals the next hand", seat=self.turn)
                raise IllegalMove("it is not your turn")
            handler = _HANDLERS.get((self.phase, kind))
            if handler is None:
                raise _wrong_phase(self.phase, kind)
            saved = self._snapshot(kind == "deal" or (kind == "discard" and self._may_reshuffle()))
            normal, events = handler(self, action)
        self._undo.append(saved)
        if len(self._undo) > 2 * UNDO_KEPT:  # bounded: older actions are taken back by replay
            del self._undo[:-UNDO_KEPT]
        self._legal = self._legal_dicts = None
        self.actions.append(_shared(normal))
        return events

    def apply_move(self, move: tuple, undo: bool = True) -> list[dict]:
        """Apply one of :meth:`legal_moves` (of this very position) without checking it
        again: the fast path for search and simulation. Returns the same events, records the
        same normalised action and can be taken back by :meth:`pop`, as :meth:`apply`. A move
        that is not in ``legal_moves()`` now may corrupt the game.

        ``undo=False`` (playouts on a copy) saves nothing for :meth:`pop`, which then
        replays the match instead."""
        kind = move[0]
        if not undo:
            if self._undo:
                self._undo.clear()
            saved = None
        else:
            saved = self._snapshot(
                kind == MOVE_DEAL
                or (kind in (MOVE_DISCARD, MOVE_CLOSE_CLAIMS) and self._may_reshuffle())
            )
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
            normal, events = self._put_meld(meld, meld.physical() if wild else cards)
        elif kind == MOVE_LAYOFF:
            normal, events = self._put_layoff(move[1], self._meld_by_id(move[2]), move[3], move[4])
        elif kind == MOVE_END_HAND:
            normal, events = self._do_end_hand({})
        elif kind == MOVE_DEAL:
            normal, events = self._do_deal({})
        else:
            normal, events = self._claim_action("close_claims", {}, None)
        if saved is not None:
            self._undo.append(saved)
            if len(self._undo) > 2 * UNDO_KEPT:
                del self._undo[:-UNDO_KEPT]
        self._legal = self._legal_dicts = None
        self.actions.append(normal)
        return events

    def _meld_by_id(self, meld_id: int) -> Meld:
        melds = self.melds
        if 0 <= meld_id < len(melds) and melds[meld_id].id == meld_id:
            return melds[meld_id]
        return next(m for m in melds if m.id == meld_id)

    def _may_reshuffle(self) -> bool:
        """Could the next turn reshuffle the discard pile into the stock (the only shuffle
        besides a deal)?"""
        return self.options.empty_stock == "reshuffle" and not self.reshuffled

    def _snapshot(self, rng: bool) -> tuple:
        """What an action may change, for :meth:`pop` (``rng``: it may shuffle). Melds are
        replaced, never changed in place (see :meth:`_grow`), so the list's items are kept
        as they are."""
        return (
            self.phase,
            self.turn,
            self.must_play,
            self.no_discard,
            self.went_out,
            self.claim_from,
            self.next_meld_id,
            self.reshuffled,
            self.dealer,
            self.hand_number,
            self.winner,
            self.totals,
            len(self.results),
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.pile),
            list(self.melds),
            self.rng.getstate() if rng else None,
            list(self._cm),
        )

    def _restore(self, saved: tuple) -> None:
        (
            self.phase,
            self.turn,
            self.must_play,
            self.no_discard,
            self.went_out,
            self.claim_from,
            self.next_meld_id,
            self.reshuffled,
            self.dealer,
            self.hand_number,
            self.winner,
            self.totals,
            results,
            self.hands,
            self.stock,
            self.pile,
            self.melds,
            rng,
            self._cm,
        ) = saved
        del self.results[results:]
        if rng is not None:
            if self._rng_shared:  # (no need to copy a state about to be replaced)
                self.rng = random.Random.__new__(random.Random)
                self._rng_shared = False
            self.rng.setstate(rng)
        self._legal = self._legal_dicts = None

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
        source = action.get("source")
        seat = self.turn
        hand = self.hands[seat]
        if source == "stock":
            if not self.stock:
                raise IllegalMove("the stock is empty: take from the discard pile or end the hand")
            return self._take_stock()
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
        return self._take_pile(i, free)

    def _take_stock(self) -> tuple[dict, list[dict]]:
        seat = self.turn
        card = self.stock.pop()
        self.hands[seat].append(card)
        self._cm[seat] |= 1 << card
        self.phase = _PLAY
        return _STOCK_ACTION, [
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
            cm |= 1 << c
        self._cm[seat] = cm
        if free:
            self.no_discard = card
        else:
            self.must_play = card
        self.phase = Phase.PLAY
        return _DIG_ACTIONS[i], [
            {
                "type": "draw",
                "seat": seat,
                "source": "discard",
                "index": i,
                "cards": C.names(taken),
                "must_play": None if free else C.name(card),
            }
        ]

    def _held(self, texts: list[object]) -> list[int]:
        played = [_parse(t) for t in texts]
        hand = self.hands[self.turn]
        for card in set(played):
            if hand.count(card) < played.count(card):
                raise IllegalMove("you do not hold {card}", card=C.name(card))
        return played

    def _do_meld(self, action: dict) -> tuple[dict, list[dict]]:
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
        problem = self._play_problem(played, None, None, meld)
        if problem:
            raise problem
        return self._put_meld(meld, played)

    def _put_meld(self, meld: Meld, played: list[int] | tuple[int, ...]) -> tuple[dict, list[dict]]:
        self.next_meld_id += 1
        old = self.melds
        self.melds = old + [meld]  # a new list: see _table_spots
        self._table_follows(old, meld, -1)
        self._remove(played)
        normal = _meld_action(meld.cards, meld.wild)
        event = {"type": "meld", "seat": self.turn, "meld": meld.id, "cards": normal["cards"]}
        if "jokers" in normal:
            event["jokers"] = normal["jokers"]
        if self.hands[self.turn]:
            return normal, [event]
        return normal, [event] + self._after_play()

    def _joker_meld(self, played: list[int], names: object) -> Meld:
        """The meld of ``played`` (holding jokers) with the jokers standing for ``names`` —
        filled in by the engine where only one way fits (RULES.md §11.1)."""
        naturals = [c for c in played if c != C.JOKER]
        k = len(played) - len(naturals)
        problem = joker_problem(len(naturals), k)
        if problem:
            cards = " ".join(C.names(naturals) + [C.JOKER_NAME] * k)
            raise IllegalMove("{cards} is not a meld: {reason}", cards=cards, reason=problem)
        if names is None:
            names = []
        if not isinstance(names, list) or len(names) > k:
            raise IllegalMove("name the card each joker stands for: one name per joker")
        named = [_parse(n) for n in names]
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

    def _do_layoff(self, action: dict) -> tuple[dict, list[dict]]:
        held = self._held([action.get("card")])[0]
        meld = self._target_meld(action.get("meld"))
        card, wild = self._layoff_identity(held, meld, action)
        problem = self._play_problem([held], meld, card, None, wild)
        if problem:
            raise problem
        return self._put_layoff(held, meld, card, wild)

    def _put_layoff(self, held: int, meld: Meld, card: int, wild: bool) -> tuple[dict, list[dict]]:
        meld = self._grow(meld, card, self.turn, wild)
        self._remove([held])
        if wild:
            normal = _joker_layoff_action(card, meld.id)
        else:
            normal = _LAYOFF_ACTIONS.get((card, meld.id)) or _layoff_action(card, meld.id)
        event = {"type": "layoff", "seat": self.turn, **normal}
        if self.hands[self.turn]:
            return normal, [event]
        return normal, [event] + self._after_play()

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
        stands = _parse(name)
        if stands not in spots or stands == C.JOKER:
            raise IllegalMove(
                "a joker cannot stand for {card} on {meld_cards}",
                card=C.name(stands),
                meld_cards=shown,
            )
        return stands, True

    def _remove(self, played: list[int] | tuple[int, ...]) -> None:
        seat = self.turn
        hand = self.hands[seat]
        cm = self._cm[seat]
        if self.decks == 1 and not cm >> JOKER & 1:  # every card held once
            for c in played:
                hand.remove(c)
                cm ^= 1 << c
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
        card = self._held([action.get("card")])[0]
        if self.must_play is not None:
            raise IllegalMove("{card} must be played this turn", card=C.name(self.must_play))
        if card == self.no_discard:
            raise IllegalMove(
                "you took {card} from the discard pile this turn: you may not discard it again",
                card=C.name(card),
            )
        return self._put_discard(card)

    def _put_discard(self, card: int) -> tuple[dict, list[dict]]:
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        if not ((self.decks > 1 or card == JOKER) and card in hand):  # no other copy held
            self._cm[seat] &= ~(1 << card)
        self.pile.append(card)
        name = _NAMES[card]
        events = [{"type": "discard", "seat": seat, "card": name}]
        if not hand:
            self.went_out = seat
            events += self._end_hand("out")
        elif self.options.rummy_calls:
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
        return _DISCARD_ACTIONS[card], events

    # ------------------------------------------------------------------ "Rummy!" (§11.2)

    def claim_seats(self) -> list[int]:
        """The seats that may call "Rummy!" now, in seat order from the discarder's left (the
        order in which bots' calls are judged when no window opens, RULES.md §11.2)."""
        if self.phase is not Phase.CLAIM or self.claim_from is None:
            return []
        return [(self.claim_from + k) % self.players for k in range(1, self.players)]

    def claims(self, seat: int) -> list[dict]:
        """The "Rummy!" calls ``seat`` may make now: one per meld the last discard could be
        laid off on (per name a joker could take). Empty outside the claim phase and for the
        discarder."""
        if self.phase is not Phase.CLAIM or seat == self.claim_from:
            return []
        card = self.pile[-1]
        out = []
        for m in self.melds:
            if card == C.JOKER:
                if joker_fits(m):
                    out += [
                        {"type": "rummy", "seat": seat, "meld": m.id, "joker": C.name(c)}
                        for c in layoff_cards(m)
                    ]
            elif layoff_position(m, card) is not None:
                out.append({"type": "rummy", "seat": seat, "meld": m.id})
        return out

    def _claim_action(self, kind: str, action: dict, seat: int | None) -> tuple[dict, list[dict]]:
        if kind == "close_claims":
            if seat is not None:
                raise IllegalMove("the host closes the claim window, not a player")
            return {"type": "close_claims"}, [{"type": "close_claims"}] + self._to_draw()
        named = action.get("seat")
        if seat is None:
            seat = named
        elif named is not None and named != seat:
            raise IllegalMove("you may only call Rummy! for yourself")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalMove("say which seat calls Rummy!")
        if seat == self.claim_from:
            raise IllegalMove("you may not call Rummy! on your own discard")
        card = self.pile[-1]
        said = action.get("card")
        if said is not None and _parse(said) != card:
            raise IllegalMove(
                "the discard to call on is {card}, not {said}",
                card=C.name(card),
                said=str(said)[:12],
            )
        meld = self._target_meld(action.get("meld"))
        stands, wild = self._layoff_identity(card, meld, action)
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

    def _end_hand(self, reason: str) -> list[dict]:
        table = self.table_points()
        in_hand = [C.hand_points(h) for h in self.hands]
        scores = [t - h for t, h in zip(table, in_hand, strict=True)]
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        result = {
            "hand": self.hand_number,
            "dealer": self.dealer,
            "reason": reason,
            "went_out": self.went_out,
            "table_points": table,
            "hand_points": in_hand,
            "scores": scores,
            "totals": list(self.totals),
            "hands": [C.names(h) for h in self.hands],
        }
        teams = self.options.teams
        if teams:
            result["team_scores"] = self._by_team(scores)
            result["team_totals"] = self.team_totals()
        self.results.append(result)
        self.must_play = None
        self.no_discard = None
        self.claim_from = None
        events = [{"type": "hand_end", **result}]
        # RULES.md §8 — on team totals with partnerships (§11.3)
        totals = result["team_totals"] if teams else self.totals
        best = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        if best >= self.options.target and len(leaders) == 1:
            over: dict = {"type": "game_over"}
            if teams:
                members = self._members(leaders[0])
                self.winner = members[0]
                over.update(winner=self.winner, team=leaders[0], winners=members)
                over["team_totals"] = list(totals)
            else:
                self.winner = leaders[0]
                over["winner"] = self.winner
            over["totals"] = list(self.totals)
            self.phase = Phase.GAME_OVER
            events.append(over)
        else:
            self.phase = Phase.HAND_OVER
            self.turn = (self.dealer + 1) % self.players  # the next dealer deals
            if best >= self.options.target:
                if teams:
                    seats = sorted(s for t in leaders for s in self._members(t))
                    events.append({"type": "tie", "seats": seats, "teams": leaders, "total": best})
                else:
                    events.append({"type": "tie", "seats": leaders, "total": best})
        return events

    def _members(self, team: int) -> list[int]:
        return [s for s in range(self.players) if self.options.team(s) == team]

    def _do_deal(self, action: dict) -> tuple[dict, list[dict]]:
        self.dealer = (self.dealer + 1) % self.players
        return {"type": "deal"}, self._deal(None)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None, results: int | None = None) -> dict:
        """What ``seat`` may see (``None``: a spectator, who sees no hand during play).
        ``results``: the summaries of the last ``results`` finished hands only (None: all)."""
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
            "melds": [m.to_dict() for m in self.melds],
            "must_play": C.name(self.must_play) if self.must_play is not None else None,
            "no_discard": C.name(self.no_discard) if self.no_discard is not None else None,
            "table_points": self.table_points(),
            "totals": list(self.totals),
            # earlier hands without their face-up hands (last_hand has the latest in full)
            "results": [{k: r[k] for k in _RESULT_SUMMARY if k in r} for r in self.results[first:]],
            "last_hand": _copy_result(self.results[-1]) if self.results else None,
            "reshuffled": self.reshuffled,
            "winner": self.winner,
            "target": self.options.target,
            "options": self.options.to_dict(),
            "decks": self.decks,
            "lot": self.lot,
            "legal_actions": self._view_actions(seat),
        }
        if self.options.rummy_calls:
            v["claim"] = (
                {"card": C.name(self.pile[-1]), "from": self.claim_from}
                if self.phase is Phase.CLAIM
                else None
            )
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

    def _view_actions(self, seat: int | None) -> list[dict]:
        if seat is None:
            return []
        if self.phase is Phase.CLAIM:
            return self.claims(seat)
        return self.legal_actions() if seat == self.to_move else []

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict:
        """The exact position, in plain msgpack-able types (see :meth:`from_dict`)."""
        version, internal, gauss = self.rng.getstate()
        return {
            "version": STATE_VERSION,
            "players": self.players,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "deck": self.first_deck,
            "rng": [version, list(internal), gauss],
            "actions": [dict(a) for a in self.actions],
            "totals": list(self.totals),
            "results": [dict(r) for r in self.results],
            "winner": self.winner,
            "hand_number": self.hand_number,
            "lot": self.lot,
            "dealer": self.dealer,
            "hands": [C.names(h) for h in self.hands],
            "stock": C.names(self.stock),
            "discard_pile": C.names(self.pile),
            "melds": [m.to_dict() for m in self.melds],
            "next_meld_id": self.next_meld_id,
            "turn": self.turn,
            "phase": self.phase.value,
            "must_play": C.name(self.must_play) if self.must_play is not None else None,
            "no_discard": C.name(self.no_discard) if self.no_discard is not None else None,
            "reshuffled": self.reshuffled,
            "went_out": self.went_out,
            "claim_from": self.claim_from,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Game:
        """Restore a position saved by :meth:`to_dict`; a malformed one raises ``ValueError``."""
        try:
            return cls._from_dict(d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"not a saved rum500 game: {e!r}") from None

    @classmethod
    def _from_dict(cls, d: dict) -> Game:
        if d.get("version") != STATE_VERSION:
            raise ValueError(f"unknown saved game version {d.get('version')!r}")
        g = cls.__new__(cls)
        g.players = d["players"]
        g.options = Options.from_dict(d["options"])
        g.options.validate(g.players)
        g.seed = d["seed"]
        g.decks = g.options.deck_count(g.players)
        g.hand_size = hand_size(g.players)
        g.first_deck = d["deck"]
        g.rng = random.Random.__new__(random.Random)  # (no seeding: the state is set)
        g._rng_shared = False
        version, internal, gauss = d["rng"]
        g.rng.setstate((version, tuple(internal), gauss))
        g.actions = [dict(a) for a in d["actions"]]
        g.totals = list(d["totals"])
        g.results = [dict(r) for r in d["results"]]
        g.winner = d["winner"]
        g.hand_number = d["hand_number"]
        g.lot = d["lot"]
        g.dealer = d["dealer"]
        g.hands = [C.parse_many(h) for h in d["hands"]]
        g._cm = [card_mask(h) for h in g.hands]
        g.stock = C.parse_many(d["stock"])
        g.pile = C.parse_many(d["discard_pile"])
        g.melds = [Meld.from_dict(md) for md in d["melds"]]
        g.next_meld_id = d["next_meld_id"]
        g.turn = d["turn"]
        g.phase = Phase(d["phase"])
        g.must_play = C.parse(d["must_play"]) if d["must_play"] is not None else None
        g.no_discard = C.parse(d["no_discard"]) if d["no_discard"] is not None else None
        g.reshuffled = d["reshuffled"]
        g.went_out = d["went_out"]
        g.claim_from = d.get("claim_from")
        g._legal = g._legal_dicts = None
        g._undo = []
        g._table = None
        if (g.phase is Phase.CLAIM) != (g.claim_from is not None) or (
            g.claim_from is not None
            and (not g.pile or g.claim_from not in range(g.players) or not g.options.rummy_calls)
        ):
            raise ValueError("a claim phase needs the option, the discarder and a discard")
        g._check_cards()
        return g

    def _check_cards(self) -> None:
        """Every card of the deck(s) is somewhere, exactly once per copy."""
        everywhere = [c for h in self.hands for c in h] + self.stock + self.pile
        everywhere += [c for m in self.melds for c in m.physical()]
        if Counter(everywhere) != Counter(self._deck()):
            raise ValueError("the cards of this position do not make up the deck")

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

    def copy(self) -> Game:
        """An independent game in the same position (the action list included), copied
        directly (not through :meth:`to_dict`). Its :meth:`pop` replays for the actions
        played before the copy."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
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
            return self.actions.pop()
        last = dict(self.actions[-1])
        before = Game.replay(
            self.players, self.seed, self.actions[:-1], self.options, self.first_deck
        )
        self.__dict__.clear()
        self.__dict__.update(before.__dict__)
        self._undo = []
        return last


def _can_lay_off_all(cards: list[int], melds: list[Meld]) -> bool:
    """Could ``cards`` all be laid off on ``melds``, one after another (each lay-off may
    extend a meld for the next)? ``melds`` are not changed."""
    if not cards:
        return True
    card, rest = cards[0], cards[1:]
    for i, m in enumerate(melds):
        if card == C.JOKER:
            spots = layoff_cards(m) if joker_fits(m) else []
        else:
            spots = [card] if layoff_position(m, card) is not None else []
        for spot in spots:
            if not rest:
                return True
            bigger = grown(m, spot, -1, card == C.JOKER)
            if _can_lay_off_all(rest, melds[:i] + [bigger] + melds[i + 1 :]):
                return True
    return False


class _PlayCheck:
    """Whether each play of :meth:`Game._legal_plays` is allowed when the turn has an
    obligation (a card that must be played, or one that may not be discarded): ``True``
    exactly when :meth:`Game._play_problem` finds nothing. The usual case — the card that
    must be played can still go down whatever else is played — is settled from the hand's
    card mask against the melds already on the table (one meld fewer for a lay-off: the one
    it changes), which can only overstate the cost; otherwise the full check decides. At a
    table without "must discard", the card mask decides every case exactly (:meth:`_plain`)
    but those where jokers left in hand would be needed."""

    def __init__(self, g: Game, hand: list[int], cm: int, direct: int) -> None:
        self.g = g
        self.hand = hand
        self.cm = cm
        # the cards held once (None: all, one deck and no joker); a second copy keeps its bit
        several = g.decks > 1 or cm >> JOKER & 1
        self.single = {c for c in hand if hand.count(c) == 1} if several else None
        self.fast = g.must_play is not None and g.no_discard is None
        self.masks: tuple[list[int], list[int], int] | None = None  # see _hand_masks
        self.way = _way(g, g.must_play, cm, direct) if self.fast else None
        self.n = len(hand)
        self.plain = self.fast and not g.options.must_discard and g.must_play != JOKER

    def meld(
        self, ids: list[int] | tuple[int, ...], wild: list[bool] | tuple[bool, ...] | None
    ) -> bool:
        played = [JOKER if w else c for c, w in zip(ids, wild, strict=True)] if wild else ids
        if self.fast and self.g.must_play in played:  # as _play_problem decides it
            return self.n > len(played) or not self.g.options.must_discard
        way = self.way
        if way is not None and self.n - len(played) > way[2]:
            uses = way[0]
            for c in played:
                if uses >> c & 1:
                    break
            else:
                return True  # the way stays: the melds on the table only gain one
        if self.plain:
            plain = self._plain(played, None, 0, tuple(ids))  # type: ignore[arg-type]
            if plain is not None:
                return plain
        if self.fast and self._still_placed(played, None):
            return True
        new = make_meld(-1, list(ids), self.g.turn, list(wild)) if wild else None
        return self.g._play_problem(list(played), None, None, new) is None

    def layoff(self, held: int, onto: Meld, card: int, wild: bool) -> bool:
        if self.fast and held == self.g.must_play:  # as _play_problem decides it
            return self.n > 1 or not self.g.options.must_discard
        way = self.way
        if way is not None and self.n - 1 > way[2] and not way[0] >> held & 1 and onto.id != way[1]:
            return True
        if self.plain:
            plain = self._plain((held,), onto, card, ())
            if plain is not None:
                return plain
        if self.fast and self._still_placed((held,), onto):
            return True
        return self.g._play_problem([held], onto, card, None, wild) is None

    def _plain(
        self, played: tuple[int, ...], onto: Meld | None, card: int, new: tuple[int, ...]
    ) -> bool | None:
        """:meth:`Game._play_problem` finds nothing — at a table without "must discard", the
        card that must be played (not a joker) not among ``played`` (a new meld ``new``, or
        ``card`` laid off on ``onto``), which leave other cards in hand: can that card still
        reach the table once the play is made? (:func:`placeable` against the table after
        the play: what ``placement_cost`` would find.) None when that takes the ways with
        jokers (jokers left in hand): the full check decides."""
        g = self.g
        mp: int = g.must_play  # type: ignore[assignment]
        cm = self.cm
        single = self.single
        for c in played:
            if single is None or c in single:
                cm &= ~(1 << c)
        direct, runs, _ = g._table_spots()
        s = mp // 13
        suit_runs = runs[s]
        if onto is None:
            spots, run = listed_meld_reach(new)
            direct |= spots
            if run is not None and run[0] == s:
                suit_runs = [*suit_runs, (run[1], run[2])]
        else:
            bigger = grown(onto, card, g.turn)
            direct = 0
            for m in g.melds:
                if m is not onto:
                    direct |= m.moves[0]  # type: ignore[index]
            for c in layoff_cards(bigger):
                direct |= 1 << c
            if onto.kind == "run" and onto.suit == s:
                suit_runs = [
                    (m.lo, m.hi)
                    for m in g.melds
                    if m is not onto and m.kind == "run" and m.suit == s
                ]
                suit_runs.append((bigger.lo, bigger.hi))
        if placeable(mp, cm, direct, [suit_runs] * 4):
            return True
        return None if cm >> JOKER & 1 else False

    def _still_placed(self, played: list[int] | tuple[int, ...], onto: Meld | None) -> bool:
        """Can the card that must be played clearly still go down once ``played`` is?"""
        g = self.g
        mp = g.must_play
        left = len(self.hand) - len(played)
        if not left or mp in played:
            return False  # the full check is quick
        single = self.single
        options = g.options
        if not options.jokers and not options.must_discard:
            cm = self.cm
            for c in played:
                if single is None or c in single:
                    cm &= ~(1 << c)
            if onto is None:
                direct, runs, _ = g._table_spots()
            else:
                direct, runs = 0, _NO_RUNS  # the hand alone
            if placeable(mp, cm, direct, runs):  # type: ignore[arg-type]
                return True
        if self.masks is None:
            self.masks = _hand_masks(self.hand)
        by_rank, by_suit, jokers = self.masks
        by_rank = list(by_rank)
        by_suit = list(by_suit)
        for c in played:
            if c == JOKER:
                jokers -= 1
            elif single is None or c in single:
                by_rank[c % 13] &= ~_SUIT_BIT[c]
                by_suit[c // 13] &= ~_POS_BITS[c]
        melds = g.melds if onto is None else [m for m in g.melds if m is not onto]
        if options.jokers:
            cost = placement_cost_wild_masks(mp, by_rank, by_suit, jokers, melds)  # type: ignore[arg-type]
        else:
            cost = placement_cost_masks(mp, by_rank, by_suit, melds)  # type: ignore[arg-type]
        return cost is not None and not (options.must_discard and cost >= left)


def _way(g: Game, card: int | None, cm: int, direct: int) -> tuple[int, int, int] | None:
    """One way to put ``card`` (held, not a joker) on the table as the hand ``cm`` and the
    table stand: ``(card mask of the other cards of the hand it uses, id of the meld it
    goes on or -1, its cost)`` — laid off on a meld as it is, or in a new set or run of
    three — or None (``direct``: the card mask of what the table's melds take as it is).
    While a play neither uses those cards nor changes that meld, the way stays."""
    if card is None or card == JOKER:
        return None
    if direct >> card & 1:
        for m in g.melds:
            if card in layoff_cards(m):
                return 0, m.id, 1
    others = cm & RANK_BITS[card % 13] & ~(1 << card)
    if others.bit_count() >= 2:
        first = others & -others
        others ^= first
        return first | (others & -others), -1, 3
    s = card // 13
    x = cm >> 13 * s & SUIT_BITS
    mask = x | (x & 1) << HIGH_ACE
    starts = mask & (mask >> 1) & (mask >> 2) & RUN_STARTS[card]
    if not starts:
        return None
    a = (starts & -starts).bit_length() - 1
    uses = 0
    for p in (a, a + 1, a + 2):
        c = s * 13 + (0 if p == HIGH_ACE else p)
        if c != card:
            uses |= 1 << c
    return uses, -1, 3


def _gaps(runs: list[list[tuple[int, int]]]) -> tuple[object, int, int]:
    """For the runs on the table (per suit, their (lo, hi)): ``(runs, up, down)``, the card
    masks of the cards one place beyond a run's end — two above its high end (``up``: laid off
    after the card below it) or two below its low end (``down``: after the card above it), an
    ace only on a run without one. The last one is remembered (runs are replaced on every
    change, never changed in place)."""
    global _GAPS_LAST
    last = _GAPS_LAST
    if last[0] is runs:
        return last
    up = down = 0
    for s, suit_runs in enumerate(runs):
        for lo, hi in suit_runs:
            ace = lo == 0 or hi == HIGH_ACE
            if hi + 2 < HIGH_ACE or (hi + 2 == HIGH_ACE and not ace):
                up |= 1 << (s * 13 + (hi + 2) % 13)
            if lo - 2 > 0 or (lo - 2 == 0 and not ace):
                down |= 1 << (s * 13 + lo - 2)
    last = _GAPS_LAST = (runs, up, down)
    return last


_GAPS_LAST: tuple[object, int, int] = (None, 0, 0)
_RANKS = range(13)
#: per card, the card below it in a run (an ace: the king, as it sits high two above a run)
_BELOW = [c + 12 if c % 13 == 0 else c - 1 for c in range(C.DECK_SIZE)]


def _wild_cost(card: int, cm: int, jokers: int, melds: list[Meld]) -> int | None:
    """:func:`placement_cost_wild_masks` of ``card`` for the hand whose card mask is ``cm``
    and which holds ``jokers`` jokers."""
    a = cm & SUIT_BITS
    b = cm >> 13 & SUIT_BITS
    c = cm >> 26 & SUIT_BITS
    d = cm >> 39 & SUIT_BITS
    by_rank = [
        (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3 for r in _RANKS
    ]
    by_suit = [
        a | (a & 1) << HIGH_ACE,
        b | (b & 1) << HIGH_ACE,
        c | (c & 1) << HIGH_ACE,
        d | (d & 1) << HIGH_ACE,
    ]
    return placement_cost_wild_masks(card, by_rank, by_suit, jokers, melds)


def _hand_masks(hand: list[int]) -> tuple[list[int], list[int], int]:
    """The hand's :func:`rank_suits`, :func:`suit_masks` and number of jokers."""
    by_rank = [0] * 13
    by_suit = [0, 0, 0, 0]
    jokers = 0
    for c in hand:
        if c == JOKER:
            jokers += 1
        else:
            by_rank[c % 13] |= _SUIT_BIT[c]
            by_suit[c // 13] |= _POS_BITS[c]
    return by_rank, by_suit, jokers


def _layoff_moves(m: Meld, jokers: bool) -> tuple[int, tuple[tuple[int, tuple], ...]]:
    """The lay-offs onto ``m`` as ``(card held, move)`` (its cards, then, when the table
    plays ``jokers``, a joker for each), after the card mask of the cards held they need."""
    spots = layoff_cards(m)
    needs = 0
    out = []
    for c in spots:
        needs |= 1 << c
        out.append((c, (MOVE_LAYOFF, c, m.id, c, False)))
    if jokers and spots and joker_fits(m):
        needs |= 1 << JOKER
        out += [(JOKER, (MOVE_LAYOFF, JOKER, m.id, c, True)) for c in spots]
    return needs, tuple(out)


def action_of(move: tuple) -> dict:
    """The action (dict API, wire form) of a fast-path move of :meth:`Game.legal_moves`."""
    kind = move[0]
    if kind == MOVE_DISCARD:
        return {"type": "discard", "card": C.name(move[1])}
    if kind == MOVE_MELD:
        return _meld_action(move[1], move[2])
    if kind == MOVE_LAYOFF:
        if move[4]:
            return _joker_layoff_action(move[3], move[2])
        return _layoff_action(move[3], move[2])
    if kind == MOVE_STOCK:
        return {"type": "draw", "source": "stock"}
    if kind == MOVE_DIG:
        return {"type": "draw", "source": "discard", "index": move[1]}
    if kind == MOVE_END_HAND:
        return {"type": "end_hand"}
    if kind == MOVE_DEAL:
        return {"type": "deal"}
    return {"type": "close_claims"}


def _meld_action(
    cards: list[int] | tuple[int, ...], wild: list[bool] | tuple[bool, ...] | None
) -> dict:
    """A meld in its normalised form: the cards as put down (``JK`` for a joker) and, with
    jokers, ``jokers``: what each stands for, in the order of the cards."""
    if not wild:
        return {"type": "meld", "cards": C.names(cards)}
    return {
        "type": "meld",
        "cards": [C.JOKER_NAME if w else C.name(c) for c, w in zip(cards, wild, strict=True)],
        "jokers": [C.name(c) for c, w in zip(cards, wild, strict=True) if w],
    }


def _layoff_action(card: int, meld: int) -> dict:
    """The normalised lay-off of ``card`` on meld ``meld`` (one dict per pair, read-only)."""
    action = {"type": "layoff", "card": C.name(card), "meld": meld}
    if len(_LAYOFF_ACTIONS) < _SHARED_MAX:
        _LAYOFF_ACTIONS[card, meld] = action
    return action


_LAYOFF_ACTIONS: dict[tuple[int, int], dict] = {}


def _joker_layoff_action(stands_for: int, meld: int) -> dict:
    return {"type": "layoff", "card": C.JOKER_NAME, "meld": meld, "joker": C.name(stands_for)}


JOKER = C.JOKER
_DRAW = Phase.DRAW
_PLAY = Phase.PLAY
_NAMES = [C.name(c) for c in range(C.DECK_SIZE + 1)]
#: per card (jokers aside): its bit in a rank's suit mask, and its bits in its suit's position
#: mask (an ace at both ends, as :func:`rum500.rules.melds.suit_masks`)
_SUIT_BIT = [1 << (c // 13) for c in range(C.DECK_SIZE)]
_POS_BITS = [(1 | 1 << HIGH_ACE) if c % 13 == 0 else 1 << (c % 13) for c in range(C.DECK_SIZE)]
#: the moves that are the same tuple every time
_STOCK = (MOVE_STOCK,)
_END_HAND = (MOVE_END_HAND,)
_DIGS = [(MOVE_DIG, i) for i in range(2 * (C.DECK_SIZE + 2 * C.JOKERS_PER_DECK))]
_DISCARDS = [(MOVE_DISCARD, c) for c in range(C.DECK_SIZE + 1)]
_NO_RUNS: list[list[tuple[int, int]]] = [[], [], [], []]
#: the normalised actions that are the same dict every time (read-only, as _shared's)
_STOCK_ACTION = {"type": "draw", "source": "stock"}
_DIG_ACTIONS = [{"type": "draw", "source": "discard", "index": i} for i in range(len(_DIGS))]
_DISCARD_ACTIONS = [{"type": "discard", "card": name} for name in _NAMES]
#: per card, the card mask of it and the cards a set or run of three through it could hold:
#: its rank, and its suit two places either way (an ace: at both ends)
_NEAR = [
    RANK_BITS[c % 13]
    | card_mask(
        [
            c // 13 * 13 + p % 13
            for q in ((0, HIGH_ACE) if c % 13 == 0 else (c % 13,))
            for p in range(max(q - 2, 0), min(q + 2, HIGH_ACE) + 1)
        ]
    )
    for c in range(C.DECK_SIZE)
]


#: one dict for all equal actions in :attr:`Game.actions` (a long match holds thousands of
#: ``{"type": "draw", "source": "stock"}``): treat them as read-only. At most this many kept.
_SHARED_MAX = 50_000
_SHARED: dict[tuple, dict] = {}


def _shared(action: dict) -> dict:
    """The shared dict equal to ``action`` (``action`` itself when new, or unhashable)."""
    try:
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(action.items()))
        found = _SHARED.get(key)
    except TypeError:  # a value that cannot be a key (a map): not shared
        return action
    if found is not None:
        return found
    if len(_SHARED) < _SHARED_MAX:
        _SHARED[key] = action
    return action


#: how many of the last actions keep what they changed for :meth:`Game.pop` (at most twice as
#: many between two trims); an older one is taken back by replaying the match
UNDO_KEPT = 256

#: what a view keeps of each finished hand (the whole score sheet is in last_hand and events)
_RESULT_SUMMARY = ("hand", "dealer", "went_out", "scores", "totals", "team_scores", "team_totals")


def _copy_result(r: dict) -> dict:
    return {**r, "hands": [list(h) for h in r["hands"]]}


def _parse(text: object) -> int:
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


def _wrong_phase(phase: Phase, kind: str) -> IllegalMove:
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


_HANDLERS = {
    (Phase.DRAW, "draw"): Game._do_draw,
    (Phase.DRAW, "end_hand"): Game._do_end_hand,
    (Phase.PLAY, "meld"): Game._do_meld,
    (Phase.PLAY, "layoff"): Game._do_layoff,
    (Phase.PLAY, "discard"): Game._do_discard,
    (Phase.HAND_OVER, "deal"): Game._do_deal,
}
