"""The first meld of at least N points (RULES.md §12.1): can the cards of a hand still open?

:func:`can_open` answers whether some set of new melds made from a hand scores at least the
points still needed (as they score under the table's options, §12.3/§12.4), one of them
holding a given card (the card dug for), and leaves a card to discard when one is needed.
A bounded brute force over the hand's melds (a branch and bound with an upper bound of the
points the cards left could still score). :func:`opening_problem` and :func:`opening_plays`
are the rule's part of :meth:`~rum500.rules.moves.MoveGen._play_problem` and of the listing
(tables with a first meld take the general path). Imports nothing of the engine above it."""

from __future__ import annotations

from typing import Any

from rum500 import cards as C
from rum500.rules.melds import (
    IllegalMove,
    Meld,
    candidate_joker_melds,
    candidate_meld_tuples,
    card_mask,
    make_meld,
)
from rum500.rules.notation import DISCARD_MOVES, MOVE_MELD
from rum500.rules.options import Options
from rum500.rules.scoring import meld_points
from rum500.rules.tables import meld_moves

JOKER = C.JOKER


def _hand_melds(hand: list[int], min_run: int, options: Options) -> list[tuple[list[int], int]]:
    """Every meld of ``hand`` as (its cards as held, jokers as JOKER; its points)."""
    out = []
    for t in candidate_meld_tuples(card_mask(hand)):
        m = make_meld(-1, list(t), 0)
        if m.kind == "run" and len(t) < min_run:
            continue
        out.append((list(t), sum(meld_points(m, options))))
    if options.jokers:
        for ids, wild in candidate_joker_melds(hand):
            m = make_meld(-1, ids, 0, wild)
            if m.kind == "run" and len(ids) < min_run:
                continue
            held = [C.JOKER if w else c for c, w in zip(ids, wild, strict=True)]
            out.append((held, sum(meld_points(m, options))))
    return out


#: the most any card can score in a meld (an ace high, a joker as an ace): the cut's bound
_MOST = 15
#: what the cards left in hand allow (:func:`can_open`): none left (going out), only copies
#: of the card that may not be discarded, a card to discard
_NONE, _ONLY_FREE, _DISCARD = 0, 1, 2
_FAIL = -1


def can_open(
    hand: list[int],
    need: int,
    options: Options,
    min_run: int = 3,
    must: int | None = None,
    no_discard: int | None = None,
) -> bool:
    """Can new melds made from ``hand`` score at least ``need`` points, one of them holding
    ``must`` (when given and held), leaving a hand the turn can end with: empty (going out,
    not with "must discard") or holding a card other than ``no_discard`` to discard?

    Exact: the lowest card left (a joker last) either goes into one of the melds holding it
    or stays in hand, so each set of melds is tried once; the most points of each multiset of
    cards left is remembered, the search stops at the first answer, and a branch whose cards
    could not score what is missing even all melded is cut (then nothing is remembered)."""
    if must is not None and must not in hand:
        must = None
    by_low: dict[int, list[tuple[list[int], int]]] = {}
    meldable: set[int] = set()
    for cards, pts in _hand_melds(hand, min_run, options):
        by_low.setdefault(min(cards), []).append((cards, pts))  # (a joker is never lowest)
        meldable.update(cards)
    pip = 5 if options.five_point_pips else 0  # (§12.3: 2 … 9 score 5)
    most = [
        _MOST if c == C.JOKER or C.rank(c) == C.ACE else max(C.VALUES[c], pip) for c in range(53)
    ]
    keep_one = options.must_discard
    memo: dict[tuple, int] = {}

    class Found(Exception):
        pass

    def best(left: tuple[int, ...], placed: bool, kept: int, got: int) -> tuple[int, bool]:
        """The most points the melds of ``left`` (sorted) can add (_FAIL: none ends well) and
        whether that is exact (no branch cut); raises Found once ``got`` + it reaches need."""
        if not left or left[0] == C.JOKER:  # only jokers are left: in hand
            if left:
                kept = max(kept, _ONLY_FREE if no_discard == C.JOKER else _DISCARD)
            ends = kept == _DISCARD or (kept == _NONE and not keep_one)
            if placed and ends:
                if got >= need:
                    raise Found
                return 0, True
            return _FAIL, True
        key = (left, placed, kept)
        known = memo.get(key)
        if known is not None:
            if known != _FAIL and got + known >= need:
                raise Found
            return known, True
        if got + sum(most[c] for c in left if c in meldable) < need:
            return _FAIL, False  # cut: even every card melded would not reach need
        c = left[0]
        rest = left[1:]
        answer, exact = _FAIL, True
        for cards, pts in by_low.get(c, ()):
            others = list(cards)
            others.remove(c)
            after = list(rest)
            for x in others:
                if x not in after:
                    break
                after.remove(x)
            else:
                more, ok = best(tuple(after), placed or must in cards, kept, got + pts)
                exact = exact and ok
                if more != _FAIL and more + pts > answer:
                    answer = more + pts
        dropped = max(kept, _ONLY_FREE if c == no_discard else _DISCARD)
        more, ok = best(rest, placed, dropped, got)
        exact = exact and ok
        answer = max(answer, more)
        if exact:
            memo[key] = answer
        return answer, exact

    try:
        best(tuple(sorted(hand)), must is None, _NONE, 0)
    except Found:
        return True
    return False


def _short_run(cards: list[int] | tuple[int, ...]) -> bool:
    """A run of three (as listed), refused with runs of four (§12.6)."""
    return len(cards) == 3 and cards[0] % 13 != cards[1] % 13


def opening_plays(g: Any, cm: int, needs: int, layoffs: list[tuple]) -> list[tuple]:
    """The legal plays in a turn that began unopened (§12.1): every play checked by
    ``g._play_problem`` (``g``: the :class:`~rum500.rules.moves.MoveGen`, which imports this
    module), as the dict API checks it (the same order as the general path)."""
    hand = g.hands[g.turn]
    out: list[tuple] = []
    four = g._min_run == 4
    problem = g._play_problem
    for move in meld_moves(cm):
        t = move[1]
        if not (four and _short_run(t)) and problem(list(t), None, None) is None:
            out.append(move)
    if g.options.jokers and cm >> JOKER & 1:
        for ids, wild in candidate_joker_melds(hand):
            if four and _short_run(ids):
                continue
            played = [JOKER if w else c for c, w in zip(ids, wild, strict=True)]
            new = make_meld(-1, list(ids), g.turn, list(wild))
            if problem(played, None, None, new) is None:
                out.append((MOVE_MELD, tuple(ids), tuple(wild)))
    unopened = g._unopened()
    if needs & cm and not unopened:
        for need, moves in layoffs:
            if need & cm:
                for c, move in moves:
                    if cm >> c & 1:
                        onto = g._meld_by_id(move[2])
                        if problem([c], onto, move[3], None, move[4]) is None:
                            out.append(move)
    if g.must_play is None and not (unopened and g.opening):
        nd = g.no_discard
        out += [DISCARD_MOVES[c] for c in sorted(set(hand)) if c != nd]
    return out


def opening_problem(
    g: Any, played: list[int], onto: Meld | None, new: Meld | None
) -> tuple[IllegalMove | None, bool]:
    """§12.1: why a play by the seat to move, not opened yet, is refused (or None), and
    whether it opens (then the other checks of ``_play_problem`` follow): no lay-off, and a
    meld short of N must leave a way to reach N with the cards then in hand."""
    n = g._first
    if onto is not None:
        return IllegalMove(
            "you have not opened yet: no lay-off until your new melds this turn reach "
            "{points} points",
            points=n,
        ), False
    meld = new or make_meld(-1, played, g.turn)
    after = g.opening + sum(meld_points(meld, g.options))  # type: ignore[operator]
    if after >= n:
        return None, True
    rest = list(g.hands[g.turn])
    for c in played:
        rest.remove(c)
    mp = g.must_play
    if mp is not None and mp in played:
        mp = None
    if not rest or not can_open(rest, n - after, g.options, g._min_run, mp, g.no_discard):
        return IllegalMove(
            "this meld scores {points} of the {n} points you need to open, and the cards "
            "left could not make up the rest this turn",
            points=after,
            n=n,
        ), False
    return None, False
