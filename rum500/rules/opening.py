"""The first meld of at least N points (RULES.md §12.1): can the cards of a hand still open?

:func:`can_open` answers whether some set of new melds made from a hand scores at least the
points still needed (as they score under the table's options, §12.3/§12.4), one of them
holding a given card (the card dug for), and leaves a card to discard when one is needed.
A bounded brute force over the hand's melds (a branch and bound with an upper bound of the
points the cards left could still score). :func:`opening_problem` and :func:`opening_plays`
are the rule's part of :meth:`~rum500.rules.moves.MoveGen._play_problem` and of the listing
(tables with a first meld take the general path). Imports nothing of the engine above it."""

from __future__ import annotations

from collections import Counter
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

#: the most any card can score in a meld (an ace high, a joker): the bound's value per card
_MOST = 15


def _hand_melds(hand: list[int], min_run: int, options: Options) -> list[tuple[list[int], int]]:
    """Every meld of ``hand`` as (its cards as held, jokers as JOKER; its points), the most
    points first."""
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
    out.sort(key=lambda x: -x[1])
    return out


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
    not with "must discard") or holding a card other than ``no_discard`` to discard?"""
    if must is not None and must not in hand:
        must = None
    melds = _hand_melds(hand, min_run, options)
    counts = Counter(hand)
    keep_one = options.must_discard

    def ends_well() -> bool:
        left = +counts
        if not left:
            return not keep_one
        return no_discard is None or any(c != no_discard for c in left)

    def fits(cards: list[int]) -> bool:
        need_c = Counter(cards)
        return all(counts[c] >= k for c, k in need_c.items())

    def search(start: int, got: int, placed: bool) -> bool:
        if got >= need and placed and ends_well():
            return True
        if got + _MOST * sum(counts.values()) < need:
            return False
        for i in range(start, len(melds)):
            cards, pts = melds[i]
            if not fits(cards):
                continue
            counts.subtract(cards)
            ok = search(i + 1, got + pts, placed or must in cards)
            counts.update(cards)
            if ok:
                return True
        return False

    return search(0, 0, must is None)


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
