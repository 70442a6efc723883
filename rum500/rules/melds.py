"""Melds: what may be laid on the table, and where a card may go.

Terminology (RULES.md §5):

* **set** — 3 or 4 cards of one rank, all of different suits.
* **run** — 3 or more consecutive cards of one suit. The ace sits low (A-2-3) or high
  (Q-K-A), never both, never round the corner (K-A-2 is not a run); a run holds at most one
  ace, so at most 13 cards. When the ace could sit at either end it sits high.
* **lay-off** — one card added to a meld already on the table: a run grows at either end, a
  set of 3 becomes a set of 4.
* **joker** (option, RULES.md §11.1) — a wild card that stands for one card, named when it is
  put down. A meld keeps the cards its jokers stand for in ``cards`` (so every rule of shape
  reads it as a natural meld) and marks those places in ``wild``. A meld holds at least two
  natural cards and never more jokers than natural cards.

Runs are described by *positions* 0…13 along one suit: 0 is the low ace, 1…12 are the two to
the king, 13 is the high ace. A hand's cards of one suit are a 14-bit mask over those
positions (an ace sets both bit 0 and bit 13), so "is there a run through this card" is a few
shifts and ands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from rum500 import cards as C

HIGH_ACE = 13


class IllegalMove(ValueError):
    """An action the rules refuse; the game is unchanged.

    ``str(e)`` is the English message for the player. ``e.template`` (English, with
    ``{named}`` fields) and ``e.params`` (strings and numbers) let a client say it in another
    language: ``str(e) == e.template.format(**e.params)``. A ``reason`` parameter is itself
    a template to translate; ``card``, ``cards`` and ``meld_cards`` hold card names."""

    def __init__(self, template: str, **params: str | int) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


def N_(template: str) -> str:
    """Marks an English template for the translators; returns it unchanged."""
    return template


def position_rank(pos: int) -> int:
    """Card rank (0 = ace … 12 = king) at a run position."""
    return 0 if pos == HIGH_ACE else pos


def card_value_in_run(card: int, ace_low: bool) -> int:
    if C.rank(card) == C.ACE and ace_low:
        return C.LOW_ACE_VALUE
    return C.VALUES[card]


@dataclass(slots=True)
class Meld:
    """A meld on the table. ``owner`` is the seat that laid it down; ``cards`` are in
    canonical order and ``by[i]`` is the seat that put ``cards[i]`` there (the owner, or
    whoever laid that card off)."""

    id: int
    kind: str  # "set" or "run"
    owner: int
    cards: list[int]
    by: list[int]
    # run: suit and the positions it spans; set: rank and a mask of the suits present
    suit: int = -1
    lo: int = 0
    hi: int = 0
    rank: int = -1
    suits: int = 0
    points: list[int] = field(default_factory=list)  # points each card scores for its seat
    spots: list[int] | None = None  # cache of layoff_cards(); None when stale
    wild: list[bool] | None = None  # per card: a joker standing for it; None: no joker
    # cache of the engine's lay-off moves onto this meld (rum500.rules.game); None when stale
    moves: tuple | None = field(default=None, compare=False, repr=False)

    @property
    def jokers(self) -> int:
        return sum(self.wild) if self.wild else 0

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.jokers

    def physical(self) -> list[int]:
        """The cards as they lie: :data:`rum500.cards.JOKER` where a joker stands."""
        if not self.wild:
            return list(self.cards)
        return [C.JOKER if w else c for c, w in zip(self.cards, self.wild, strict=True)]

    @property
    def ace(self) -> str | None:
        """Where the run's ace sits, for runs that hold one."""
        if self.kind != "run":
            return None
        if self.lo == 0:
            return "low"
        if self.hi == HIGH_ACE:
            return "high"
        return None

    def to_dict(self) -> dict:
        """``cards`` as they lie (``JK`` for a joker); with a joker, ``stands_for`` gives, per
        card, the card a joker stands for (``None`` for a natural card)."""
        d = {
            "id": self.id,
            "kind": self.kind,
            "cards": C.names(self.physical()),
            "by": list(self.by),
            "owner": self.owner,
            "ace": self.ace,
        }
        if self.jokers:
            d["stands_for"] = [
                C.name(c) if w else None for c, w in zip(self.cards, self.wild or [], strict=True)
            ]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Meld:
        """Rebuild a meld from its :meth:`to_dict` form (a view's or a saved game's);
        ``ValueError`` when it is not a valid meld in canonical order."""
        shown = C.parse_many(d["cards"])
        wild = [c == C.JOKER for c in shown]
        cards = shown
        if any(wild):
            stands = d["stands_for"]
            if not isinstance(stands, list) or len(stands) != len(shown):
                raise ValueError(f"a meld with a joker says what it stands for: {d!r}"[:200])
            cards = [C.parse(n) if w else c for c, w, n in zip(shown, wild, stands, strict=True)]
            if any(c == C.JOKER for c in cards):
                raise ValueError("a joker stands for a card, not for a joker")
        m = make_meld(int(d["id"]), cards, int(d["owner"]), wild if any(wild) else None)
        if d.get("ace") == "low" and m.hi == HIGH_ACE:  # A..K laid off up from A-2-3
            m.lo, m.hi = 0, C.KING
            m.cards = m.cards[-1:] + m.cards[:-1]
            if m.wild:
                m.wild = m.wild[-1:] + m.wild[:-1]
            m.points = [
                C.JOKER_VALUE if m.wild and m.wild[i] else card_value_in_run(c, True)
                for i, c in enumerate(m.cards)
            ]
        by = [int(seat) for seat in d["by"]]
        if m.kind != d["kind"] or m.cards != cards or len(by) != len(cards) or m.ace != d["ace"]:
            raise ValueError(f"not a meld as the table shows one: {d!r}"[:200])
        if (m.wild or None) != (wild if any(wild) else None):
            raise ValueError(f"not a meld as the table shows one: {d!r}"[:200])
        m.by = by
        return m

    def copy(self) -> Meld:
        return Meld(
            self.id,
            self.kind,
            self.owner,
            list(self.cards),
            list(self.by),
            self.suit,
            self.lo,
            self.hi,
            self.rank,
            self.suits,
            list(self.points),
            None,
            list(self.wild) if self.wild else None,
        )


def _shape(cards: list[int]) -> tuple[str, int, int, int] | str:
    """Classify cards as a meld: ("set", rank, 0, 0) or ("run", suit, lo, hi), or a reason."""
    n = len(cards)
    if n < 3:
        return N_("a meld needs at least 3 cards")
    ranks = [C.rank(c) for c in cards]
    suits = [C.suit(c) for c in cards]
    if len(set(ranks)) == 1:
        if n > 4:
            return N_("a set has 3 or 4 cards")
        if len(set(suits)) != n:
            return N_("the cards of a set must all be of different suits")
        return ("set", ranks[0], 0, 0)
    if len(set(suits)) != 1:
        return N_("a meld is 3 or 4 cards of one rank, or a run of one suit")
    if len(set(ranks)) != n:
        return N_("a run cannot hold the same card twice")
    aces = ranks.count(C.ACE)
    if aces > 1:
        return N_("a run holds at most one ace")
    others = sorted(r for r in ranks if r != C.ACE)
    if aces:
        # The ace sits high when it can (RULES.md §5), otherwise low.
        if others[-1] == C.KING and others[-1] - others[0] == len(others) - 1:
            return ("run", suits[0], others[0], HIGH_ACE)
        if others[0] == 1 and others[-1] - others[0] == len(others) - 1:
            return ("run", suits[0], 0, others[-1])
        if others[0] == 1 and others[-1] == C.KING:
            return N_("a run cannot go round the corner (K-A-2)")
        return N_("the cards of a run must be consecutive")
    if others[-1] - others[0] != n - 1:
        return N_("the cards of a run must be consecutive")
    return ("run", suits[0], others[0], others[-1])


def joker_problem(naturals: int, jokers: int) -> str | None:
    """Why a meld of ``naturals`` natural cards and ``jokers`` jokers is refused, or None."""
    if jokers and naturals < 2:
        return N_("a meld needs at least two natural cards besides its jokers")
    if jokers > naturals:
        return N_("a meld may never hold more jokers than natural cards")
    return None


def make_meld(meld_id: int, cards: list[int], seat: int, wild: list[bool] | None = None) -> Meld:
    """Build a meld from cards, or raise :class:`IllegalMove` saying why they are not one.

    With jokers, ``cards`` holds the card each joker stands for and ``wild`` marks them."""
    shape = _shape(cards)
    if isinstance(shape, str):
        raise IllegalMove(
            "{cards} is not a meld: {reason}", cards=_shown(cards, wild), reason=shape
        )
    jokers = {c for c, w in zip(cards, wild, strict=True) if w} if wild else set()
    if jokers:
        problem = joker_problem(len(cards) - len(jokers), len(jokers))
        if problem:
            raise IllegalMove(
                "{cards} is not a meld: {reason}", cards=_shown(cards, wild), reason=problem
            )
    kind, a, lo, hi = shape
    if kind == "set":
        ordered = sorted(cards, key=C.suit)
        m = Meld(meld_id, "set", seat, ordered, [seat] * len(ordered), rank=a)
        for c in ordered:
            m.suits |= 1 << C.suit(c)
        m.points = [C.VALUES[c] for c in ordered]
    else:
        ordered = [C.make(position_rank(p), a) for p in range(lo, hi + 1)]
        m = Meld(meld_id, "run", seat, ordered, [seat] * len(ordered), suit=a, lo=lo, hi=hi)
        m.points = [card_value_in_run(c, lo == 0) for c in ordered]
    if jokers:
        m.wild = [c in jokers for c in ordered]
        m.points = [C.JOKER_VALUE if w else p for p, w in zip(m.points, m.wild, strict=True)]
    return m


_MADE: dict[tuple, Meld] = {}
_MADE_MAX = 100_000


def make_listed_meld(
    meld_id: int, cards: tuple[int, ...], seat: int, wild: tuple[bool, ...] | None = None
) -> Meld:
    """:func:`make_meld` of a meld as :func:`candidate_meld_tuples` or
    :func:`candidate_joker_melds` list it (valid, in canonical order), faster: the shape of
    each meld is worked out once."""
    key = (cards, wild)
    p = _MADE.get(key)
    if p is None:
        p = make_meld(0, list(cards), 0, list(wild) if wild else None)
        if len(_MADE) < _MADE_MAX:
            _MADE[key] = p
    return Meld(
        meld_id,
        p.kind,
        seat,
        list(p.cards),
        [seat] * len(p.cards),
        p.suit,
        p.lo,
        p.hi,
        p.rank,
        p.suits,
        list(p.points),
        None,
        list(p.wild) if p.wild else None,
    )


_REACH: dict[tuple[int, ...], tuple[int, tuple[int, int, int] | None]] = {}


def listed_meld_reach(cards: tuple[int, ...]) -> tuple[int, tuple[int, int, int] | None]:
    """For a meld without a joker as :func:`candidate_meld_tuples` lists it: the card mask
    of what it would take as it is (:func:`layoff_cards`) and, for a run, its
    ``(suit, lo, hi)``; remembered per meld."""
    found = _REACH.get(cards)
    if found is None:
        m = make_listed_meld(0, cards, 0)
        mask = 0
        for c in layoff_cards(m):
            mask |= 1 << c
        found = _REACH[cards] = (mask, (m.suit, m.lo, m.hi) if m.kind == "run" else None)
    return found


def _shown(cards: list[int], wild: list[bool] | None) -> str:
    """Cards for a message: a joker as ``JK(9H)``."""
    if not wild:
        return " ".join(C.names(cards))
    return " ".join(
        f"{C.JOKER_NAME}({C.name(c)})" if w else C.name(c) for c, w in zip(cards, wild, strict=True)
    )


def layoff_position(meld: Meld, card: int) -> str | None:
    """Where ``card`` would go on ``meld``: "low", "high" (runs), "set", or None."""
    r = card % 13
    if meld.kind == "set":
        if r == meld.rank and len(meld.cards) < 4 and not meld.suits >> (card // 13) & 1:
            return "set"
        return None
    if card // 13 != meld.suit:
        return None
    if r == C.ACE:
        if meld.lo == 0 or meld.hi == HIGH_ACE:
            return None  # a run holds at most one ace
        if meld.hi == C.KING:
            return "high"  # when it could sit at either end, it sits high
        if meld.lo == 1:
            return "low"
        return None
    if r == meld.hi + 1:
        return "high"
    if r == meld.lo - 1:
        return "low"
    return None


def layoff_cards(meld: Meld) -> list[int]:
    """Every card that could be laid off on ``meld`` now (each once; cached on the meld
    until :func:`lay_off` changes it)."""
    if meld.spots is not None:
        return meld.spots
    out = []
    if meld.kind == "set":
        if len(meld.cards) < 4:
            out = [s * 13 + meld.rank for s in range(4) if not meld.suits >> s & 1]
    else:
        base = meld.suit * 13
        if meld.lo > 1 or (meld.lo == 1 and meld.hi < HIGH_ACE):
            out.append(base + meld.lo - 1)  # lo == 1: the ace, low (unless it sits high)
        if meld.hi < HIGH_ACE and (meld.hi < C.KING or meld.lo > 1):
            out.append(base + (meld.hi + 1) % 13)  # hi == K: the ace, high
    meld.spots = out
    return out


def lay_off(meld: Meld, card: int, seat: int, wild: bool = False) -> None:
    """Add ``card`` to ``meld`` in place (the caller checked :func:`layoff_position`); with
    ``wild``, a joker standing for ``card`` (the caller checked :func:`joker_fits`)."""
    where = layoff_position(meld, card)
    meld.spots = meld.moves = None
    if where is not None and (wild or meld.wild):
        if meld.wild is None:
            meld.wild = [False] * len(meld.cards)
        if where == "low":
            meld.wild.insert(0, wild)
        else:
            meld.wild.append(wild)
    if where == "set":
        meld.cards.append(card)
        meld.by.append(seat)
        meld.points.append(C.JOKER_VALUE if wild else C.VALUES[card])
        meld.suits |= 1 << C.suit(card)
        order = sorted(range(len(meld.cards)), key=lambda i: C.suit(meld.cards[i]))
        meld.cards = [meld.cards[i] for i in order]
        meld.by = [meld.by[i] for i in order]
        meld.points = [meld.points[i] for i in order]
        if meld.wild:
            meld.wild = [meld.wild[i] for i in order]
    elif where == "high":
        meld.hi = HIGH_ACE if C.rank(card) == C.ACE else meld.hi + 1
        meld.cards.append(card)
        meld.by.append(seat)
        meld.points.append(C.JOKER_VALUE if wild else C.VALUES[card])
    elif where == "low":
        meld.lo = 0 if C.rank(card) == C.ACE else meld.lo - 1
        meld.cards.insert(0, card)
        meld.by.insert(0, seat)
        meld.points.insert(0, C.JOKER_VALUE if wild else card_value_in_run(card, meld.lo == 0))
    else:
        raise IllegalMove("{card} does not fit on meld {meld}", card=C.name(card), meld=meld.id)


def grown(meld: Meld, card: int, seat: int, wild: bool = False) -> Meld:
    """A new meld: ``meld`` with ``card`` laid off (as :func:`lay_off`, which it is faster
    than on a copy); ``meld`` is not changed. Raises :class:`IllegalMove` when it does not
    fit."""
    where = layoff_position(meld, card)
    if where is None:
        raise IllegalMove("{card} does not fit on meld {meld}", card=C.name(card), meld=meld.id)
    cards, by, points, w = meld.cards, meld.by, meld.points, meld.wild
    lo, hi, suits = meld.lo, meld.hi, meld.suits
    if not (wild or w):
        w = None
    elif not w:
        w = [False] * len(cards)
    if where == "high":
        hi = HIGH_ACE if card % 13 == C.ACE else hi + 1
        cards = cards + [card]
        by = by + [seat]
        points = points + [C.JOKER_VALUE if wild else C.VALUES[card]]
        if w is not None:
            w = w + [wild]
    elif where == "low":
        lo = 0 if card % 13 == C.ACE else lo - 1
        cards = [card] + cards
        by = [seat] + by
        points = [C.JOKER_VALUE if wild else card_value_in_run(card, lo == 0)] + points
        if w is not None:
            w = [wild] + w
    else:  # a set, in suit order: one card per suit
        s = card // 13
        i = (suits & ((1 << s) - 1)).bit_count()
        suits |= 1 << s
        cards = cards[:i] + [card] + cards[i:]
        by = by[:i] + [seat] + by[i:]
        points = points[:i] + [C.JOKER_VALUE if wild else C.VALUES[card]] + points[i:]
        if w is not None:
            w = w[:i] + [wild] + w[i:]
    return Meld(
        meld.id,
        meld.kind,
        meld.owner,
        cards,
        by,
        meld.suit,
        lo,
        hi,
        meld.rank,
        suits,
        points,
        None,
        w,
    )


def joker_fits(meld: Meld) -> bool:
    """May a joker be laid off on ``meld`` (never more jokers than natural cards)?"""
    return meld.jokers + 1 <= meld.naturals


def suit_masks(hand: list[int]) -> list[int]:
    """Per suit, the 14-bit position mask of the cards held (ace at both 0 and 13)."""
    masks = [0, 0, 0, 0]
    for c in hand:
        if c >= C.DECK_SIZE:
            continue  # a joker has no suit
        r = c % 13
        masks[c // 13] |= (1 | 1 << HIGH_ACE) if r == 0 else 1 << r
    return masks


def rank_suits(hand: list[int]) -> list[int]:
    """Per rank, a 4-bit mask of the suits held."""
    out = [0] * 13
    for c in hand:
        if c < C.DECK_SIZE:  # a joker has no rank
            out[c % 13] |= 1 << (c // 13)
    return out


_POPCOUNT4 = [bin(i).count("1") for i in range(16)]


#: for each 4-bit mask of suits, the sets of 3 and 4 suits it can make
_SET_SUITS = [
    [combo for k in (3, 4) for combo in combinations([s for s in range(4) if m >> s & 1], k)]
    for m in range(16)
]


def candidate_melds(hand: list[int]) -> list[list[int]]:
    """Every distinct meld that can be made from ``hand``, each once, cards in canonical
    order (sets by suit, runs from low to high)."""
    return [list(m) for m in candidate_meld_tuples(card_mask(hand))]


def card_mask(cards: list[int]) -> int:
    """The cards as one number: bit ``c`` for card ``c`` (a joker: bit 52), whatever the
    number of copies — a hand's *card mask*."""
    out = 0
    for c in cards:
        out |= 1 << c
    return out


SUIT_BITS = (1 << 13) - 1
#: per rank, the bits of its four cards in a card mask
RANK_BITS = [sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)]


def candidate_meld_tuples(cm: int) -> list[tuple[int, ...]]:
    """:func:`candidate_melds` (as tuples) of the hand whose card mask is ``cm``."""
    out: list[tuple[int, ...]] = []
    y = cm >> 13
    t = cm & y  # suits 0 and 1, 1 and 2, 2 and 3 (at bits 0, 13, 26)
    u = cm | y
    sets = (t & (u >> 26) | (t >> 26) & u) & SUIT_BITS  # the ranks held in 3 or 4 suits
    while sets:
        low = sets & -sets
        sets ^= low
        r = low.bit_length() - 1
        out += SET_CARDS[r][
            (cm >> r & 1) | (cm >> (r + 12) & 2) | (cm >> (r + 24) & 4) | (cm >> (r + 36) & 8)
        ]
    if not (cm & (cm >> 1) & (cm >> 2) & RUN_FROM or (cm >> 11) & (cm >> 12) & cm & ACES):
        return out  # no three in a row, nor Q-K-A, of one suit
    for s in range(4):
        x = cm >> 13 * s & SUIT_BITS
        x |= (x & 1) << HIGH_ACE  # the ace at both ends
        t = x & (x >> 1) & (x >> 2)  # where three in a row start
        if t:
            out += suit_runs(s, t | t << 1 | t << 2)  # (only the stretches of three or more)
    return out


#: in a card mask: the cards a run of three may start at below the queen, and the aces
RUN_FROM = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
ACES = sum(1 << (13 * s) for s in range(4))
#: per rank and mask of the suits held, the sets (card tuples) they make
SET_CARDS = [
    [tuple(tuple(s * 13 + r for s in combo) for combo in _SET_SUITS[m]) for m in range(16)]
    for r in range(13)
]
_RUNS: list[dict[int, tuple[tuple[int, ...], ...]]] = [{}, {}, {}, {}]


def suit_runs(s: int, mask: int) -> tuple[tuple[int, ...], ...]:
    """Every run of suit ``s`` held in the position mask ``mask`` (each once, from low to
    high and shortest first at each start, as :func:`candidate_melds` lists them); remembered
    per mask."""
    runs = _RUNS[s].get(mask)
    if runs is not None:
        return runs
    found: list[tuple[int, ...]] = []
    base = s * 13
    p = 0
    while p <= HIGH_ACE:
        if not mask >> p & 1:
            p += 1
            continue
        q = p
        while q + 1 <= HIGH_ACE and mask >> (q + 1) & 1:
            q += 1
        # maximal segment [p, q]; every sub-interval of length >= 3 that holds at most
        # one ace. The 13-card A..K equals 2..A as a set of cards: keep it once (high).
        for a in range(p, q - 1):
            for b in range(a + 2, q + 1):
                if a == 0 and b >= C.KING:
                    continue  # two aces, or the same cards as 1..13 (ace high)
                found.append(tuple(base + (0 if x == HIGH_ACE else x) for x in range(a, b + 1)))
        p = q + 1
    runs = _RUNS[s][mask] = tuple(found)
    return runs


def _gap_cost(mask: int, start: int, stop: int) -> int | None:
    """Cards needed to fill positions start..stop-1 from ``mask``: their count, or None."""
    if start >= stop:
        return 0
    need = ((1 << (stop - start)) - 1) << start
    return stop - start if mask & need == need else None


def placement_cost(card: int, hand: list[int], melds: list[Meld], min_run: int = 3) -> int | None:
    """The fewest cards of ``hand`` (which holds ``card``) that must go to the table so that
    ``card`` is on it: in a new meld, or laid off on a table meld after laying off the cards
    between (RULES.md §4.2). None when there is no way. ``min_run``: the shortest new run
    (4 with runs of four, §12.6)."""
    return placement_cost_masks(card, rank_suits(hand), suit_masks(hand), melds, min_run)


def placement_cost_masks(
    card: int, by_rank: list[int], by_suit: list[int], melds: list[Meld], min_run: int = 3
) -> int | None:
    """:func:`placement_cost` from the hand's :func:`rank_suits` and :func:`suit_masks`."""
    r = C.rank(card)
    s = C.suit(card)
    best: int | None = None
    # a new set through the card
    others = by_rank[r] & ~(1 << s)
    if _POPCOUNT4[others] >= 2:
        best = 3
    # a new run through the card
    mask = by_suit[s]
    positions = (0, HIGH_ACE) if r == C.ACE else (r,)
    if best is None:
        span = min_run - 1
        for p in positions:
            for a in range(p - span, p + 1):
                if a < 0 or a + span > HIGH_ACE:
                    continue
                need = ((1 << min_run) - 1) << a
                if mask & need == need:
                    best = min_run
                    break
            if best is not None:
                break
    # lay-offs, possibly after laying off the cards between
    for m in melds:
        if m.kind == "set":
            if m.rank == r and len(m.cards) < 4 and not m.suits >> s & 1:
                return 1
            continue
        if m.suit != s or (r == C.ACE and (m.lo == 0 or m.hi == HIGH_ACE)):
            continue  # other suit, or a second ace
        for p in positions:
            if p > m.hi:
                cost = _gap_cost(mask, m.hi + 1, p)
            elif p < m.lo:
                cost = _gap_cost(mask, p + 1, m.lo)
            else:
                continue
            if cost is not None and (best is None or cost + 1 < best):
                best = cost + 1
                if best == 1:
                    return 1
    return best


def run_starts(card: int) -> int:
    """The positions a run of three through ``card`` may start at, as a mask (see
    :func:`placeable_masks`)."""
    r = C.rank(card)
    out = 0
    for p in (0, HIGH_ACE) if r == C.ACE else (r,):
        for a in (p - 2, p - 1, p):
            if a >= 0 and a + 2 <= HIGH_ACE:
                out |= 1 << a
    return out


RUN_STARTS = [run_starts(c) for c in range(C.DECK_SIZE)]


def placeable(card: int, cm: int, direct: int, runs: list[list[tuple[int, int]]]) -> bool:
    """``placement_cost_masks(card, by_rank, by_suit, melds) is not None``, faster: ``cm`` is the
    card mask of the hand (which holds ``card``), ``direct`` the card mask of every card a
    meld of ``melds`` takes as it is (:func:`layoff_cards`), ``runs[s]`` the ``(lo, hi)`` of
    each run of suit ``s`` among them."""
    if direct >> card & 1:
        return True
    r = card % 13
    if (cm & RANK_BITS[r]).bit_count() >= 3:
        return True  # a new set
    s = card // 13
    x = cm >> 13 * s & SUIT_BITS
    mask = x | (x & 1) << HIGH_ACE
    if mask & (mask >> 1) & (mask >> 2) & RUN_STARTS[card]:
        return True  # a new run
    for lo, hi in runs[s]:  # a lay-off after the cards between
        if r == C.ACE:
            if lo == 0 or hi == HIGH_ACE:
                continue
            ends: tuple[int, ...] = (0, HIGH_ACE)
        else:
            ends = (r,)
        for p in ends:
            if p > hi:
                need = ((1 << (p - hi - 1)) - 1) << (hi + 1)
            elif p < lo:
                need = ((1 << (lo - p - 1)) - 1) << (p + 1)
            else:
                continue
            if mask & need == need:
                return True
    return False


# Jokers (RULES.md §11.1) --------------------------------------------------------------------


def candidate_joker_melds(hand: list[int]) -> list[tuple[list[int], list[bool]]]:
    """Every distinct meld with at least one joker that can be made from ``hand``: the cards
    in canonical order (a joker's place holding the card it stands for) and which are jokers.
    A joker may also stand for a card the hand holds (that card then stays in hand)."""
    jokers = hand.count(C.JOKER)
    if not jokers:
        return []
    by_rank = rank_suits(hand)
    masks = suit_masks(hand)
    out: list[tuple[list[int], list[bool]]] = []
    for r in range(13):
        held = by_rank[r]
        if _POPCOUNT4[held] < 2:
            continue
        for size in (3, 4):
            for combo in combinations(range(4), size):
                nat = [s for s in combo if held >> s & 1]
                miss = [s for s in combo if not held >> s & 1]
                for k in range(max(len(miss), 1), min(jokers, size // 2) + 1):
                    for sub in combinations(nat, k - len(miss)):
                        wild_suits = set(miss) | set(sub)
                        out.append(([s * 13 + r for s in combo], [s in wild_suits for s in combo]))
    for s in range(4):
        mask = masks[s]
        if (mask & SUIT_BITS).bit_count() < 2:
            continue  # a run holds two natural cards at least
        base = s * 13
        for a in range(HIGH_ACE - 1):
            for b in range(a + 2, HIGH_ACE + 1):
                if a == 0 and b >= C.KING:
                    break  # two aces, or the same cards as 1..13 (ace high)
                length = b - a + 1
                bits = mask & (((1 << length) - 1) << a)
                missing = length - bits.bit_count()
                if missing > jokers:
                    break  # a longer run misses at least as many
                if missing > length // 2:
                    continue  # more jokers than natural cards: no way
                held_pos = [p for p in range(a, b + 1) if bits >> p & 1]
                cards = [base + position_rank(p) for p in range(a, b + 1)]
                for k in range(max(missing, 1), min(jokers, length // 2) + 1):
                    for sub in combinations(held_pos, k - missing):
                        wild_pos = set(sub)
                        out.append(
                            (cards, [not bits >> p & 1 or p in wild_pos for p in range(a, b + 1)])
                        )
    return out


def joker_completions(naturals: list[int], jokers: int) -> list[list[int]]:
    """The ways (each a sorted list of cards for the jokers to stand for) in which ``naturals``
    and ``jokers`` jokers make a valid meld."""
    if not naturals or jokers < 1 or joker_problem(len(naturals), jokers):
        return []
    ranks = {C.rank(c) for c in naturals}
    suits = {C.suit(c) for c in naturals}
    if len(ranks) == 1:
        (r,) = ranks
        pool = [C.make(r, s) for s in range(4) if s not in suits]
    elif len(suits) == 1:
        (s,) = suits
        pool = [C.make(r, s) for r in range(13) if C.make(r, s) not in naturals]
    else:
        return []
    return [
        list(combo)
        for combo in combinations(pool, jokers)
        if not isinstance(_shape(naturals + list(combo)), str)
    ]


def placement_cost_wild(
    card: int, hand: list[int], melds: list[Meld], min_run: int = 3
) -> int | None:
    """:func:`placement_cost` when jokers play: ``card`` (possibly a joker) and ``hand`` (which
    holds it) may hold jokers, and the table's melds may too. The fewest cards of ``hand`` put
    down by any sequence of plays that ends with ``card`` on the table (RULES.md §4.2), or
    None when there is none:

    - a new meld through the card, jokers filling its gaps (a meld from the hand that the card
      could then be laid off on is itself a meld through the card, no larger);
    - a lay-off on a set as it is (a lay-off before it could only fill the set);
    - a lay-off on a run after lay-offs at either of its ends: the cards between the run and
      the card, jokers in the places the hand lacks, and first, where the jokers would
      otherwise outnumber the run's natural cards, natural cards (and jokers) at the run's
      other end — never more jokers than natural cards after each lay-off (§11.1), an ace
      where :func:`layoff_position` puts it (see :func:`chain_cost`);
    - for a joker: a lay-off on a meld that takes one, straight away or after one natural
      card (that makes room for it; more never do), or a new meld with it.

    Plays on other melds change nothing for the card, so the ways above are all there are.
    ``min_run``: the shortest new run (4 with runs of four, §12.6)."""
    return placement_cost_wild_masks(
        card, rank_suits(hand), suit_masks(hand), hand.count(C.JOKER), melds, min_run
    )


def placement_cost_wild_masks(
    card: int,
    by_rank: list[int],
    masks: list[int],
    jokers: int,
    melds: list[Meld],
    min_run: int = 3,
) -> int | None:
    """:func:`placement_cost_wild` from the hand's :func:`rank_suits`, :func:`suit_masks`
    (which leave jokers out) and its number of jokers."""
    if card == C.JOKER:
        return _joker_cost(jokers, by_rank, masks, melds, min_run)
    best = placement_cost_masks(card, by_rank, masks, melds, min_run)
    if best == 1 or not jokers:
        return best
    r = C.rank(card)
    s = C.suit(card)
    # a new set through the card, with a joker
    if best is None and _POPCOUNT4[by_rank[r] & ~(1 << s)] >= 1:
        best = 3
    # a new run through the card, jokers filling the gaps
    positions = (0, HIGH_ACE) if r == C.ACE else (r,)
    for p in positions:
        cost = _run_cost(masks[s], p, jokers, need_joker=False, min_run=min_run)
        if cost is not None and (best is None or cost < best):
            best = cost
    # lay-offs on a run after the cards between, jokers standing in for missing ones; when
    # the jokers would outnumber the run's natural cards, lay-offs at its other end first
    for m in melds:
        if m.kind != "run" or m.suit != s or (r == C.ACE and (m.lo == 0 or m.hi == HIGH_ACE)):
            continue
        chain = False
        for p in positions:
            if p > m.hi:
                gap = range(m.hi + 1, p)
            elif p < m.lo:
                gap = range(m.lo - 1, p, -1)
            else:
                continue
            nat, wild = m.naturals, m.jokers
            for q in gap:
                if masks[s] >> q & 1:
                    nat += 1
                elif wild - m.jokers == jokers:
                    break  # not enough jokers, whatever else is laid off
                else:
                    wild += 1
                    if wild > nat:
                        chain = True
                        break
            else:
                cost = len(gap) + 1
                if best is None or cost < best:
                    best = cost
        if chain and (best is None or best > 3):  # (a joker between, a card beyond)
            cost = chain_cost(m, masks[s], jokers, card, None if best is None else best - 1)
            if cost is not None:
                best = cost
    return best


def chain_cost(m: Meld, mask: int, jokers: int, card: int, limit: int | None = None) -> int | None:
    """The fewest cards put down to lay ``card`` (a natural card of the suit of the run ``m``)
    off on ``m`` after any lay-offs at either end of it (RULES.md §4.2: any sequence of plays
    this turn counts): the natural cards of ``mask`` (the hand's positions in that suit, see
    :func:`suit_masks`) and up to ``jokers`` jokers in the places it lacks, never more jokers
    than natural cards on the run after each lay-off (§11.1). A lay-off at the other end of
    the run adds a natural card there and so makes room for a joker between the run and the
    card (8♥ JK JK J♥, then Q♥, JK as 7♥, 6♥). None when there is no way in at most ``limit``
    cards.

    Exact: the run's two ends grow one place at a time, so the cards laid off are the places
    ``lo - a … lo - 1`` and ``hi + 1 … hi + b`` — a natural card where the hand holds one (a
    joker there would only spend a joker and lose a natural), else a joker — and every order
    of the two ends' lay-offs is a path through the grid of ``(a, b)``, searched breadth
    first (at most 14 × 14 places). An ace sits high on a run reaching the king, as
    :func:`layoff_position` puts it; a run holds one ace."""
    lo, hi = m.lo, m.hi
    ace = card % 13 == C.ACE
    p = card % 13
    if not ace and lo <= p <= hi:
        return None
    slack = m.naturals - m.jokers
    # per end, going outward: the run's slack (natural cards less jokers) and the jokers
    # spent after each lay-off there; the dug ace is not laid off before itself
    down_slack, down_wild = [0], [0]
    for q in range(lo - 1, 0 if ace else -1, -1):
        held = mask >> q & 1
        down_slack.append(down_slack[-1] + (1 if held else -1))
        down_wild.append(down_wild[-1] + (0 if held else 1))
    up_slack, up_wild = [0], [0]
    for q in range(hi + 1, HIGH_ACE if ace else HIGH_ACE + 1):
        held = mask >> q & 1
        up_slack.append(up_slack[-1] + (1 if held else -1))
        up_wild.append(up_wild[-1] + (0 if held else 1))
    most_down = len(down_slack) - 1
    most_up = len(up_slack) - 1
    level = 0
    reached = [0]  # the values of a at this level (b = level - a)
    while reached and (limit is None or level + 1 <= limit):
        for a in reached:
            low, high = lo - a, hi + level - a
            if (low == 1 or high == C.KING) if ace else (p == low - 1 or p == high + 1):
                return level + 1
        after: list[int] = []
        for a in reached:
            b = level - a
            low, high = lo - a, hi + b
            # one place lower: an ace goes low only while the run does not reach the king
            if (
                a < most_down
                and (low > 1 or (low == 1 and high < C.KING))
                and slack + down_slack[a + 1] + up_slack[b] >= 0
                and down_wild[a + 1] + up_wild[b] <= jokers
            ):
                after.append(a + 1)
            # one place higher: the ace only on a run without one
            if (
                b < most_up
                and (high < C.KING or (high == C.KING and low > 0))
                and slack + down_slack[a] + up_slack[b + 1] >= 0
                and down_wild[a] + up_wild[b + 1] <= jokers
                and a not in after
            ):
                after.append(a)
        reached = after
        level += 1
    return None


def _run_cost(mask: int, p: int, jokers: int, need_joker: bool, min_run: int = 3) -> int | None:
    """The shortest run (of ``min_run`` cards at least) through position ``p`` (held) from
    ``mask`` and up to ``jokers`` jokers, at least one used when ``need_joker``: its length,
    or None."""
    best = None
    for a in range(max(0, p - 12), p + 1):
        for b in range(max(a + min_run - 1, p), min(HIGH_ACE, a + 12) + 1):
            length = b - a + 1
            if best is not None and length >= best:
                break
            if a == 0 and b == HIGH_ACE:
                continue
            held = bin(mask & (((1 << length) - 1) << a)).count("1")
            k = max(length - held, 1 if need_joker else 0)
            if k <= jokers and k <= length - k and length - k >= 2:
                best = length
                break
    return best


def _joker_cost(
    jokers: int, by_rank: list[int], masks: list[int], melds: list[Meld], min_run: int = 3
) -> int | None:
    """How a joker that must be played could reach the table (see placement_cost_wild)."""
    for m in melds:
        if layoff_cards(m) and joker_fits(m):
            return 1
    best = None
    if any(_POPCOUNT4[b] >= 2 for b in by_rank):
        best = 3
    if best is None:
        for s in range(4):
            mask = masks[s]
            for p in range(HIGH_ACE + 1):
                if mask >> p & 1:
                    cost = _run_cost(mask, p, jokers, need_joker=True, min_run=min_run)
                    if cost is not None and (best is None or cost < best):
                        best = cost
    if best is None or best > 2:
        for m in melds:
            for c in layoff_cards(m):
                if by_rank[c % 13] >> (c // 13) & 1 and layoff_cards(grown(m, c, -1)):
                    return 2
    return best
