"""The fast path's tables (``docs/rules.md``, "The fast path"): what
:class:`rum500.rules.moves.MoveGen` looks up instead of working out again — the moves of the
melds a card mask holds (:func:`meld_moves`, from tables per rank and per suit), the discards of
a card mask (:func:`discard_tables`), the lay-offs onto a meld (:func:`layoff_moves`, per meld
id and shape) and the places one card beyond the table's runs (:func:`gaps`). Every table is a
pure function of its key, shared by every game (the move tuples in it are read-only). Imports
nothing of the engine but :mod:`~rum500.rules.melds` and :mod:`~rum500.rules.notation`."""

from __future__ import annotations

from rum500 import cards as C
from rum500.rules.melds import (
    ACES,
    HIGH_ACE,
    RUN_FROM,
    SET_CARDS,
    SUIT_BITS,
    Meld,
    joker_fits,
    layoff_cards,
    suit_runs,
)
from rum500.rules.notation import DISCARD_MOVES, MOVE_LAYOFF, MOVE_MELD

JOKER = C.JOKER


def meld_moves(cm: int) -> list[tuple]:
    """The moves of :func:`candidate_meld_tuples` of the card mask ``cm`` (each meld once,
    in its order), as a new list of shared move tuples."""
    out: list[tuple] = []
    y = cm >> 13
    t = cm & y  # suits 0 and 1, 1 and 2, 2 and 3 (at 0, 13, 26)
    u = cm | y
    sets = (t & (u >> 26) | (t >> 26) & u) & SUIT_BITS  # the ranks held in 3 or 4 suits
    while sets:
        low = sets & -sets
        sets ^= low
        out += _SET_MOVES[cm & low * _SPREAD]  # (low * _SPREAD: its rank's four cards)
    p = cm & (cm >> 1)
    # where three in a row start (Q-K-A: at the ace), in the suits that hold a run
    starts = p & (cm >> 2) & RUN_FROM | (p >> 11) & cm & ACES
    while starts:
        s = ((starts & -starts).bit_length() - 1) // 13
        starts &= _LATER_SUITS[s]
        x = cm >> 13 * s & SUIT_BITS
        found = _RUN_MOVES[s].get(x)
        if found is None:
            found = _RUN_MOVES[s][x] = _suit_run_moves(s, x)
        out += found
    return out


def _suit_run_moves(s: int, x: int) -> tuple[tuple, ...]:
    """The moves of the runs of suit ``s`` held when ``x`` is the hand's mask of that suit's
    cards (bit ``r`` for rank ``r``)."""
    x |= (x & 1) << HIGH_ACE  # the ace at both ends
    t = x & (x >> 1) & (x >> 2)  # where three in a row start
    # (suit_runs of only the stretches of three or more)
    return tuple((MOVE_MELD, r, None) for r in suit_runs(s, t | t << 1 | t << 2)) if t else ()


#: per card mask of the cards of one rank held, the moves of the sets they make
_SET_MOVES = {
    sum(1 << (s * 13 + r) for s in range(4) if m >> s & 1): tuple(
        (MOVE_MELD, t, None) for t in SET_CARDS[r][m]
    )
    for r in range(13)
    for m in range(16)
}
#: a rank's bit in a suit times this: that rank's bit in every suit
_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39
#: per suit and mask of that suit's cards held, the moves of its runs (built when first met)
_RUN_MOVES: list[dict[int, tuple[tuple, ...]]] = [{}, {}, {}, {}]
#: per suit, the card mask of the suits after it
_LATER_SUITS = [((1 << 52) - 1) ^ ((1 << 13 * (s + 1)) - 1) for s in range(4)]
#: per suit, per mask of the cards of that suit held, their discards (built when first used)
_DISCARDS: list[list[tuple]] = []


def discard_tables() -> list[list[tuple]]:
    """:data:`_DISCARDS`, built on the first call (whole before it is kept: bots may list
    moves in threads)."""
    if _DISCARDS:
        return _DISCARDS
    tables = []
    for s in range(4):
        table: list[tuple] = [()]
        for c in range(13 * s, 13 * s + 13):  # (bit p: the tables so far, each with c)
            move = (DISCARD_MOVES[c],)
            table += [t + move for t in table]
        tables.append(table)
    _DISCARDS[:] = tables  # (one step: never seen half built)
    return tables


def layoff_moves(m: Meld, jokers: bool) -> tuple[int, tuple[tuple[int, tuple], ...]]:
    """The lay-offs onto ``m`` as ``(card held, move)`` (its cards, then, when the table
    plays ``jokers``, a joker for each), after the card mask of the cards held they need.
    Remembered per meld id and shape: what a meld takes follows from its suit and ends (a
    run) or its rank and suits (a set), and whether a joker may join it."""
    if m.kind == "run":
        key = m.id << 16 | 1 << 14 | m.suit << 8 | m.lo << 4 | m.hi
    else:
        key = m.id << 16 | m.rank << 4 | m.suits
    if jokers and joker_fits(m):
        key |= 1 << 15
    found = _LAYOFFS.get(key)
    if found is None:
        found = _layoff_moves_of(m, jokers)
        if len(_LAYOFFS) < _LAYOFFS_MAX:
            _LAYOFFS[key] = found
    return found


_LAYOFFS: dict[int, tuple[int, tuple[tuple[int, tuple], ...]]] = {}
_LAYOFFS_MAX = 100_000


def _layoff_moves_of(m: Meld, jokers: bool) -> tuple[int, tuple[tuple[int, tuple], ...]]:
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


def gaps(runs: list[list[tuple[int, int]]]) -> tuple[object, int, int, int]:
    """For the runs on the table (per suit, their (lo, hi)): ``(runs, up, down, up | down)``,
    the card masks of the cards one place beyond a run's end — two above its high end (``up``:
    laid off after the card below it) or two below its low end (``down``: after the card above
    it), an ace only on a run without one. The last one is remembered (runs are replaced on every
    change, never changed in place)."""
    global _GAPS_LAST
    last = _GAPS_LAST
    if last[0] is runs:
        return last
    up = down = 0
    for of_suit, table in zip(runs, _RUN_GAPS, strict=True):
        for run in of_suit:
            run_up, run_down = table[run]
            up |= run_up
            down |= run_down
    last = _GAPS_LAST = (runs, up, down, up | down)
    return last


def _run_gaps(s: int, lo: int, hi: int) -> tuple[int, int]:
    """The ``up`` and ``down`` bits of :func:`gaps` of one run of suit ``s``."""
    ace = lo == 0 or hi == HIGH_ACE
    up = down = 0
    if hi + 2 < HIGH_ACE or (hi + 2 == HIGH_ACE and not ace):
        up = 1 << (s * 13 + (hi + 2) % 13)
    if lo - 2 > 0 or (lo - 2 == 0 and not ace):
        down = 1 << (s * 13 + lo - 2)
    return up, down


_GAPS_LAST: tuple[object, int, int, int] = (None, 0, 0, 0)
#: per suit, per run ``(lo, hi)``: :func:`_run_gaps`
_RUN_GAPS = [
    {(lo, hi): _run_gaps(s, lo, hi) for lo in range(HIGH_ACE) for hi in range(lo + 2, HIGH_ACE + 1)}
    for s in range(4)
]

#: per meld as the fast path lists it (no joker): its card mask and listed_meld_reach
MELD_INFO: dict[tuple[int, ...], tuple[int, int, tuple[int, int, int] | None]] = {}
