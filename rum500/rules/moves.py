"""Move generation and the fast path's play checks (``docs/rules.md``, "The fast path").

:class:`MoveGen` is the part of :class:`rum500.rules.game.Game` that lists the legal moves of
a position as ``MOVE_*`` tuples (:mod:`rum500.rules.notation`) from card masks — the draws
(which digs into the discard pile may be taken), the plays (melds, lay-offs, discards), and
what the melds on the table take, kept between positions (:meth:`MoveGen._table_spots`) —
and decides whether a play leaves the turn's obligation reachable (:meth:`MoveGen._play_problem`,
which the checked dict API shares). It reads the position's fields, which ``Game`` sets, and
changes none of them but its own cache of the table; it imports nothing of the engine above
it (``game`` builds on it, never the other way round)."""

from __future__ import annotations

from rum500 import cards as C
from rum500.rules.melds import (
    HIGH_ACE,
    RANK_BITS,
    RUN_STARTS,
    SUIT_BITS,
    IllegalMove,
    Meld,
    candidate_joker_melds,
    card_mask,
    grown,
    joker_fits,
    layoff_cards,
    layoff_position,
    listed_meld_reach,
    make_meld,
    placeable,
    placement_cost,
    placement_cost_masks,
    placement_cost_wild,
    placement_cost_wild_masks,
)
from rum500.rules.notation import (
    BITS,
    DIG_MOVES,
    DISCARD_MOVES,
    END_HAND_MOVE,
    MOVE_CLOSE_CLAIMS,
    MOVE_DEAL,
    MOVE_MELD,
    STOCK_MOVE,
    Phase,
)
from rum500.rules.opening import can_open, opening_plays, opening_problem
from rum500.rules.options import Options
from rum500.rules.tables import MELD_INFO, discard_tables, layoff_moves, meld_moves
from rum500.rules.tables import gaps as gaps_of

JOKER = C.JOKER
_DRAW = Phase.DRAW
_PLAY = Phase.PLAY


class MoveGen:
    """The legal moves of a position and the checks of a play (see the module docstring).
    A base of :class:`rum500.rules.game.Game`, which sets the fields below."""

    options: Options
    decks: int
    hands: list[list[int]]
    _cm: list[int]  # each hand's card mask
    stock: list[int]
    pile: list[int]
    melds: list[Meld]
    turn: int
    must_play: int | None
    no_discard: int | None
    _table: tuple | None  # see _table_spots
    _legal: list[tuple] | None  # legal_moves() of this position, or None
    players: int
    phase: Phase
    claim_from: int | None
    opened: list[bool]  # per seat: opened in this hand (§12.1)
    opening: int | None  # §12.1: the points of this turn's new melds when it began unopened

    def _fast_flags(self) -> None:
        """What the fast path reads of the options again and again, worked out once (from
        ``options`` and ``decks``, which never change during a match)."""
        o = self.options
        #: the shortest new run (RULES.md §12.6: 4 with runs of four); a table with runs of
        #: four takes the general path (:meth:`_digs`, :meth:`_checked_plays`)
        self._min_run = 4 if o.runs_of_four else 3
        #: the card dug for must go into a new meld (§12.2): the general path too
        self._new_meld = o.dug_card_new_meld
        #: a first meld of at least N points (§12.1; 0: off): the general path too
        self._first = o.first_meld
        odd = o.runs_of_four or o.dug_card_new_meld or o.first_meld
        #: no "must discard", no top card free, no jokers, no §12.2 or §12.6: the plain draws
        self._plain = not (o.must_discard or o.top_card_free or o.jokers or odd)
        #: no "must discard", no jokers, no §12.2 or §12.6: the plain plays
        self._plain_plays = not (o.must_discard or o.jokers or odd)
        #: one deck and no jokers: every card is held once
        self._once = self.decks == 1 and not o.jokers
        self._wild = o.jokers
        self._calls = o.rummy_calls

    def _legal_draws(self) -> list[tuple]:
        kept = self._table
        if kept is not None and kept[0] is self.melds:
            direct, runs, _ = kept[1]
        else:
            direct, runs, _ = self._table_spots()
        stock = self.stock
        if not self._plain:
            found = self._digs(direct, runs)
        else:
            # no jokers, no "must discard", no top card free: a dig is allowed when its card
            # can reach the table at all (placeable, inlined)
            pile = self.pile
            cm = self._cm[self.turn]
            found = []
            gaps = None
            i = len(pile)
            for c in reversed(pile):
                i -= 1
                bit = BITS[c]
                cm |= bit
                if direct & bit:
                    found.append(DIG_MOVES[i])  # a meld takes it as it is
                elif (cm & _NEAR[c]).bit_count() < 3:
                    # no new set or run: at most a lay-off on a run after the one card
                    # between (two would be near it), see tables.gaps
                    if runs[c // 13]:
                        if gaps is None:
                            gaps = gaps_of(runs)
                        if gaps[3] & bit and (
                            (gaps[1] & bit and cm & _BELOW_BIT[c])
                            or (gaps[2] & bit and cm & _ABOVE_BIT[c])
                        ):
                            found.append(DIG_MOVES[i])
                elif (cm & RANK_BITS[c % 13]).bit_count() >= 3:
                    found.append(DIG_MOVES[i])  # a new set
                else:
                    x = cm >> 13 * (c // 13) & SUIT_BITS
                    x |= (x & 1) << HIGH_ACE
                    if x & (x >> 1) & (x >> 2) & RUN_STARTS[c]:
                        found.append(DIG_MOVES[i])  # a new run
                    elif runs[c // 13] and placeable(c, cm, 0, runs):
                        found.append(DIG_MOVES[i])  # a lay-off on a run after the cards between
        if not found:
            return [STOCK_MOVE] if stock else [END_HAND_MOVE]
        found.reverse()
        if stock:
            found.insert(0, STOCK_MOVE)
        else:
            found.append(END_HAND_MOVE)
        return found

    def _digs(self, direct: int, runs: list[list[tuple[int, int]]]) -> list[tuple]:
        """The digs into the discard pile allowed now, from the top down (the general case
        of :meth:`_legal_draws`: jokers, "must discard", top card free, §12.2 or §12.6).
        With §12.2 only a new meld counts: no lay-off, so the table's melds are left out."""
        stock = self.stock
        seat = self.turn
        cm = self._cm[seat]
        options = self.options
        must_discard = options.must_discard
        free_top = options.top_card_free and bool(stock)
        wild = options.jokers
        # direct: the cards a meld on the table takes as they are, placed at a cost of 1 and
        # always allowed (the hand holds at least one other card to discard)
        pile = self.pile
        top = len(pile) - 1
        found: list[int] = []
        min_run = self._min_run
        new_meld = self._new_meld
        if self._first and not self.opened[seat]:  # §12.1: the take must open
            for i in range(top, -1, -1):
                c = pile[i]
                if i == top and self.options.top_card_free and stock:
                    if self._free_take_ok(c):
                        found.append(i)
                elif self._opens_with(c, self.hands[seat] + pile[i:]):
                    found.append(i)
            return [DIG_MOVES[i] for i in found]
        if not must_discard and min_run == 3 and not new_meld:
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
                    # between (two would be near it), see tables.gaps
                    if gaps is None:
                        gaps = gaps_of(runs)
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
            melds = [] if new_meld else self.melds
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
                if direct >> c & 1 and not new_meld:
                    found.append(i)
                    continue
                if wild:
                    cost = placement_cost_wild_masks(c, by_rank, by_suit, jokers, melds, min_run)
                else:
                    cost = placement_cost_masks(c, by_rank, by_suit, melds, min_run)
                if cost is not None and not (must_discard and cost >= size):
                    found.append(i)
        return [DIG_MOVES[i] for i in found]

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
        if self._first and not self.opened[seat]:
            return []  # §12.1: no "Rummy!" before opening
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
                moves = m.moves = layoff_moves(m, jokers)
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
        moves = meld.moves = layoff_moves(meld, self._wild)
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
            for need, _ in layoffs:
                needs |= need
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

    def _opens_with(self, card: int, hand: list[int]) -> bool:
        """§12.1: may the seat to move, not opened, take ``card`` from the pile (``hand``:
        with the cards taken)? Only if new melds of at least N points can be made, one of
        them holding it."""
        return can_open(hand, self._first, self.options, self._min_run, card)

    def _unopened(self) -> bool:
        """§12.1: the seat to move has not opened (yet) this turn."""
        return self.opening is not None and not self.opened[self.turn]

    def _dig_new(self) -> bool:
        """The card dug for must go into a new meld: §12.2, or §12.1 when it was taken
        before opening (the turn began unopened)."""
        return self._new_meld or (self._first != 0 and self.opening is not None)

    def legal_moves(self) -> list[tuple]:
        """:meth:`legal_actions` as fast-path moves (``MOVE_*`` tuples of card numbers, in
        the same order), for :meth:`apply_move`. Cached until the position changes.

        The plays of the plain case (no obligation, no "must discard", no jokers) are listed
        here, the other cases in the methods below (one call fewer on the fast path)."""
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase is not _PLAY:
            if phase is _DRAW:
                legal = self._legal_draws()
            elif phase is Phase.HAND_OVER:
                legal = [(MOVE_DEAL,)]
            elif phase is Phase.CLAIM:
                legal = [(MOVE_CLOSE_CLAIMS,)]  # the host's; calls: see claims(seat)
            else:
                legal = []
            self._legal = legal
            return legal
        seat = self.turn
        cm = self._cm[seat]
        kept = self._table
        if kept is not None and kept[0] is self.melds:
            needs, runs, layoffs = kept[1]
        else:
            needs, runs, layoffs = self._table_spots()
        if self.must_play is None and self.no_discard is None and self._plain_plays:
            # No "must discard", no jokers, no obligation, no card that may not be discarded:
            # every meld, lay-off and discard of the hand is allowed.
            out = meld_moves(cm)
            if needs & cm:
                for need, moves in layoffs:
                    if need & cm:
                        for c, move in moves:
                            if cm >> c & 1:
                                out.append(move)
            if self._once:
                if _D3 is None:
                    _bind_discards()
                out += _D0[cm & SUIT_BITS]  # type: ignore[index]
                out += _D1[cm >> 13 & SUIT_BITS]  # type: ignore[index]
                out += _D2[cm >> 26 & SUIT_BITS]  # type: ignore[index]
                out += _D3[cm >> 39]  # type: ignore[index]
            else:
                out += map(DISCARD_MOVES.__getitem__, sorted(set(self.hands[seat])))
        elif self._plain_plays and self.no_discard is None:
            out = self._obligation_plays(cm, needs, runs, layoffs)
        else:
            out = self._checked_plays(cm, needs, layoffs)
        self._legal = out
        return out

    def _obligation_plays(
        self, cm: int, needs: int, runs: list[list[tuple[int, int]]], layoffs: list[tuple]
    ) -> list[tuple]:
        """:meth:`legal_moves` when a card must be played, at a table without "must discard"
        or jokers: as :meth:`_checked_plays`, the quick answers inline — a play of that card,
        or one that keeps its way (:func:`_way`) — and for the others what
        :meth:`_PlayCheck._plain` decides (inline with every card held once, else
        :class:`_PlayCheck`, made only when needed)."""
        once = self._once
        mp: int = self.must_play  # type: ignore[assignment]
        n = len(self.hands[self.turn])
        way = None
        if needs >> mp & 1:  # laid off on a meld as it is: the first that takes it
            for need, moves in layoffs:
                if need >> mp & 1:
                    way = (0, moves[0][1][2], 1)
                    break
        if way is None:
            way = _way_in_hand(mp, cm)
        if way is not None and n - 1 > way[2]:
            way_uses, way_meld, way_cost = way
        else:
            way_uses, way_meld, way_cost = -1, -2, n
        may = None
        out: list[tuple] = []
        for move in meld_moves(cm):
            t = move[1]
            if mp in t:
                out.append(move)
                continue
            if n - len(t) > way_cost:
                for c in t:
                    if way_uses >> c & 1:
                        break
                else:
                    out.append(move)  # the way stays: the melds on the table only gain one
                    continue
            if once:
                if _meld_leaves_way(mp, cm, t, needs, runs):
                    out.append(move)
                continue
            if may is None:
                may = _PlayCheck(self, self.hands[self.turn], cm, needs)
            if may.meld(t, None):
                out.append(move)
        if needs & cm:
            for need, moves in layoffs:
                if not need & cm:
                    continue
                for c, move in moves:
                    if not cm >> c & 1:
                        continue
                    if c == mp or (move[2] != way_meld and not way_uses >> c & 1):
                        out.append(move)
                        continue
                    if once:
                        if _layoff_leaves_way(mp, cm, c, self._meld_by_id(move[2]), layoffs, runs):
                            out.append(move)
                        continue
                    if may is None:
                        may = _PlayCheck(self, self.hands[self.turn], cm, needs)
                    if may.layoff(c, self._meld_by_id(move[2]), move[3], move[4]):
                        out.append(move)
        return out

    def _checked_plays(self, cm: int, needs: int, layoffs: list[tuple]) -> list[tuple]:
        """:meth:`legal_moves` at a table with "must discard", jokers or runs of four, or
        when the turn has an obligation or a card that may not be discarded."""
        hand = self.hands[self.turn]
        n = len(hand)
        out: list[tuple] = []
        keep_one = self.options.must_discard
        jokers = self.options.jokers and cm >> JOKER & 1
        four = self._min_run == 4
        if self._first and self.opening is not None:
            return self._opening_plays(cm, needs, layoffs)
        if self.must_play is None and self.no_discard is None:
            # Without an obligation or a card that may not be discarded, only "must discard"
            # can refuse a play (one that would empty the hand): skip the full check.
            for move in meld_moves(cm):
                if (not keep_one or len(move[1]) < n) and not (four and _short_run(move[1])):
                    out.append(move)
            if jokers:
                for ids, wild in candidate_joker_melds(hand):
                    if (not keep_one or len(ids) < n) and not (four and _short_run(ids)):
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
            lay_mp = -1 if self._new_meld else mp  # (§12.2: a lay-off of it does not count)
            way = may.way
            if way is not None and n - 1 > way[2]:
                way_uses, way_meld = way[0], way[1]
            else:
                way_uses, way_meld = -1, -2
            for move in meld_moves(cm):
                t = move[1]
                if four and _short_run(t):
                    continue
                if mp in t or may.meld(t, None):
                    out.append(move)
            if jokers:
                for ids, wild in candidate_joker_melds(hand):
                    if four and _short_run(ids):
                        continue
                    if may.meld(ids, wild):
                        out.append((MOVE_MELD, tuple(ids), tuple(wild)))
            if needs & cm:
                for need, moves in layoffs:
                    if not need & cm:
                        continue
                    for c, move in moves:
                        if cm >> c & 1 and (
                            c == lay_mp
                            or (move[2] != way_meld and not way_uses >> c & 1)
                            or may.layoff(c, self._meld_by_id(move[2]), move[3], move[4])
                        ):
                            out.append(move)
        if self.must_play is None:
            nd = self.no_discard
            discards = DISCARD_MOVES
            if nd is None:
                # (one deck and no joker: every card is held once)
                once = self.decks == 1 and not cm >> JOKER & 1
                out += map(discards.__getitem__, sorted(hand if once else set(hand)))
            else:
                out += [discards[c] for c in sorted(set(hand)) if c != nd]
        return out

    def _opening_plays(self, cm: int, needs: int, layoffs: list[tuple]) -> list[tuple]:
        """:meth:`legal_moves` in a turn that began unopened (§12.1; see
        :func:`~rum500.rules.opening.opening_plays`)."""
        return opening_plays(self, cm, needs, layoffs)

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
        if self._first and self._unopened():
            problem, opens = opening_problem(self, played, onto, new)
            if problem is not None or not opens:
                return problem
        dig_new = self._dig_new()
        if left == 0:
            if dig_new and onto is not None and self.must_play in played:
                return IllegalMove(
                    "{card} must go into a new meld this turn: laying it off does not count",
                    card=C.name(self.must_play),
                )
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
        if mp is None or (mp in played and (onto is None or not dig_new)):
            return None
        rest = list(hand)
        for c in played:
            rest.remove(c)
        melds = self._melds_after(played, onto, card, new, wild)
        cost = self._placement_cost(mp, rest, melds) if mp in rest else None
        if cost is None and dig_new and mp in played:
            return IllegalMove(
                "{card} must go into a new meld this turn: laying it off does not count",
                card=C.name(mp),
            )
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
        """The cost of putting the card dug for on the table (see :func:`placement_cost`);
        with §12.2 in a new meld only (no lay-off: the table's melds are left out)."""
        if self._dig_new():
            melds = []
        if self.options.jokers:
            return placement_cost_wild(card, hand, melds, self._min_run)
        return placement_cost(card, hand, melds, self._min_run)

    def _meld_by_id(self, meld_id: int) -> Meld:
        melds = self.melds
        if 0 <= meld_id < len(melds) and melds[meld_id].id == meld_id:
            return melds[meld_id]
        return next(m for m in melds if m.id == meld_id)


def _short_run(cards: list[int] | tuple[int, ...]) -> bool:
    """Is the meld ``cards`` (as listed: valid, a joker's place holding its card) a run of
    three, refused with runs of four (RULES.md §12.6)?"""
    return len(cards) == 3 and cards[0] % 13 != cards[1] % 13


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
    """Whether each play of :meth:`MoveGen.legal_moves` is allowed when the turn has an
    obligation (a card that must be played, or one that may not be discarded): ``True``
    exactly when :meth:`MoveGen._play_problem` finds nothing. The usual case — the card that
    must be played can still go down whatever else is played — is settled from the hand's
    card mask against the melds already on the table (one meld fewer for a lay-off: the one
    it changes), which can only overstate the cost; otherwise the full check decides. At a
    table without "must discard", the card mask decides every case exactly (:meth:`_plain`)
    but those where jokers left in hand would be needed."""

    def __init__(self, g: MoveGen, hand: list[int], cm: int, direct: int) -> None:
        self.g = g
        self.hand = hand
        self.cm = cm
        # the cards held once (None: all, one deck and no joker); a second copy keeps its bit
        several = g.decks > 1 or cm >> JOKER & 1
        self.single = {c for c in hand if hand.count(c) == 1} if several else None
        self.fast = g.must_play is not None and g.no_discard is None
        self.masks: tuple[list[int], list[int], int] | None = None  # see _hand_masks
        # the shortcuts below know runs of three, and lay-offs of the card dug for
        odd = g._min_run == 4 or g._new_meld
        self.way = _way(g, g.must_play, cm, direct) if self.fast and not odd else None
        self.n = len(hand)
        self.plain = self.fast and not g.options.must_discard and g.must_play != JOKER and not odd

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
        if self.fast and held == self.g.must_play and not self.g._new_meld:  # as _play_problem
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
        """:meth:`MoveGen._play_problem` finds nothing — at a table without "must discard", the
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
        if not options.jokers and not options.must_discard and g._min_run == 3 and not g._new_meld:
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
        if g._new_meld:
            melds = []
        if options.jokers:
            cost = placement_cost_wild_masks(mp, by_rank, by_suit, jokers, melds, g._min_run)  # type: ignore[arg-type]
        else:
            cost = placement_cost_masks(mp, by_rank, by_suit, melds, g._min_run)  # type: ignore[arg-type]
        return cost is not None and not (options.must_discard and cost >= left)


def _meld_leaves_way(
    mp: int, cm: int, t: tuple[int, ...], needs: int, runs: list[list[tuple[int, int]]]
) -> bool:
    """:meth:`_PlayCheck._plain` of the meld ``t`` (without ``mp``, the card that must be
    played) from the hand ``cm`` whose cards are each held once, at a table without jokers:
    can ``mp`` still reach the table once ``t`` is down? (``needs`` and ``runs``: the
    table's, as :meth:`MoveGen._table_spots` keeps them.)"""
    info = MELD_INFO.get(t)
    if info is None:
        spots, run = listed_meld_reach(t)
        info = MELD_INFO[t] = (card_mask(list(t)), spots, run)
    mask, spots, run = info
    s = mp // 13
    suit_runs = runs[s]
    if run is not None and run[0] == s:
        suit_runs = [*suit_runs, (run[1], run[2])]
    return placeable(mp, cm ^ mask, needs | spots, [suit_runs] * 4)


def _layoff_leaves_way(
    mp: int,
    cm: int,
    card: int,
    onto: Meld,
    layoffs: list[tuple],
    runs: list[list[tuple[int, int]]],
) -> bool:
    """As :func:`_meld_leaves_way`, for ``card`` (held, not ``mp``) laid off on ``onto``:
    the table's lay-offs then are the other melds' and those of ``onto`` grown (as
    :func:`grown` and :func:`layoff_cards` make them, worked out from its shape)."""
    direct = 0
    mine = onto.moves
    for need_moves in layoffs:
        if need_moves is not mine:
            direct |= need_moves[0]
    s = mp // 13
    suit_runs = runs[s]
    if onto.kind == "set":
        suits = onto.suits | 1 << (card // 13)
        if suits != 15:
            for t in range(4):
                if not suits >> t & 1:
                    direct |= BITS[t * 13 + onto.rank]
    else:
        lo, hi = onto.lo, onto.hi
        if layoff_position(onto, card) == "high":
            hi = HIGH_ACE if card % 13 == 0 else hi + 1
        else:
            lo = 0 if card % 13 == 0 else lo - 1
        base = onto.suit * 13
        if lo > 1 or (lo == 1 and hi < HIGH_ACE):
            direct |= BITS[base + lo - 1]
        if hi < HIGH_ACE and (hi < C.KING or lo > 1):
            direct |= BITS[base + (hi + 1) % 13]
        if onto.suit == s:
            suit_runs = list(suit_runs)
            suit_runs[suit_runs.index((onto.lo, onto.hi))] = (lo, hi)
    return placeable(mp, cm ^ BITS[card], direct, [suit_runs] * 4)


def _way(g: MoveGen, card: int | None, cm: int, direct: int) -> tuple[int, int, int] | None:
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
    return _way_in_hand(card, cm)


def _way_in_hand(card: int, cm: int) -> tuple[int, int, int] | None:
    """:func:`_way` of a card no meld on the table takes as it is: a new set or run of
    three through it, or None."""
    others = cm & RANK_BITS[card % 13] ^ BITS[card]  # (it is held)
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


_RANKS = range(13)
#: per card, the card below it in a run (an ace: the king, as it sits high two above a run)
_BELOW = [c + 12 if c % 13 == 0 else c - 1 for c in range(C.DECK_SIZE)]
#: per card, the bit of the card below it (as _BELOW) and of the card above it (the next
#: card number: only read below a run, never for a king)
_BELOW_BIT = [1 << b for b in _BELOW]
_ABOVE_BIT = [1 << (c + 1) for c in range(C.DECK_SIZE)]


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


_D0 = _D1 = _D2 = _D3 = None  # tables.discard_tables(), once built


def _bind_discards() -> None:
    global _D0, _D1, _D2, _D3
    _D0, _D1, _D2, _D3 = discard_tables()


#: per card (jokers aside): its bit in a rank's suit mask, and its bits in its suit's position
#: mask (an ace at both ends, as :func:`rum500.rules.melds.suit_masks`)
_SUIT_BIT = [1 << (c // 13) for c in range(C.DECK_SIZE)]
_POS_BITS = [(1 | 1 << HIGH_ACE) if c % 13 == 0 else 1 << (c % 13) for c in range(C.DECK_SIZE)]

_NO_RUNS: list[list[tuple[int, int]]] = [[], [], [], []]

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
