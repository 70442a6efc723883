"""Melds: what may be laid on the table, and where a card may go.

Terminology (RULES.md §5):

* **set** — 3 or 4 cards of one rank, all of different suits.
* **run** — 3 or more consecutive cards of one suit. The ace sits low (A-2-3) or high
  (Q-K-A), never both, never round the corner (K-A-2 is not a run); a run holds at most one
  ace, so at most 13 cards. When the ace could sit at either end it sits high.
* **lay-off** — one card added to a meld already on the table: a run grows at either end, a
  set of 3 becomes a set of 4.

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
        return {
            "id": self.id,
            "kind": self.kind,
            "cards": C.names(self.cards),
            "by": list(self.by),
            "owner": self.owner,
            "ace": self.ace,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Meld:
        """Rebuild a meld from its :meth:`to_dict` form (a view's or a saved game's);
        ``ValueError`` when it is not a valid meld in canonical order."""
        cards = C.parse_many(d["cards"])
        m = make_meld(int(d["id"]), cards, int(d["owner"]))
        if d.get("ace") == "low" and m.hi == HIGH_ACE:  # A..K laid off up from A-2-3
            m.lo, m.hi = 0, C.KING
            m.cards = m.cards[-1:] + m.cards[:-1]
            m.points = [card_value_in_run(c, True) for c in m.cards]
        by = [int(seat) for seat in d["by"]]
        if m.kind != d["kind"] or m.cards != cards or len(by) != len(cards) or m.ace != d["ace"]:
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


def make_meld(meld_id: int, cards: list[int], seat: int) -> Meld:
    """Build a meld from cards, or raise :class:`IllegalMove` saying why they are not one."""
    shape = _shape(cards)
    if isinstance(shape, str):
        raise IllegalMove(
            "{cards} is not a meld: {reason}", cards=" ".join(C.names(cards)), reason=shape
        )
    kind, a, lo, hi = shape
    if kind == "set":
        ordered = sorted(cards, key=C.suit)
        m = Meld(meld_id, "set", seat, ordered, [seat] * len(ordered), rank=a)
        for c in ordered:
            m.suits |= 1 << C.suit(c)
        m.points = [C.VALUES[c] for c in ordered]
        return m
    ordered = [C.make(position_rank(p), a) for p in range(lo, hi + 1)]
    m = Meld(meld_id, "run", seat, ordered, [seat] * len(ordered), suit=a, lo=lo, hi=hi)
    m.points = [card_value_in_run(c, lo == 0) for c in ordered]
    return m


def layoff_position(meld: Meld, card: int) -> str | None:
    """Where ``card`` would go on ``meld``: "low", "high" (runs), "set", or None."""
    r = C.rank(card)
    if meld.kind == "set":
        if r == meld.rank and len(meld.cards) < 4 and not meld.suits >> C.suit(card) & 1:
            return "set"
        return None
    if C.suit(card) != meld.suit:
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


def lay_off(meld: Meld, card: int, seat: int) -> None:
    """Add ``card`` to ``meld`` in place (the caller checked :func:`layoff_position`)."""
    where = layoff_position(meld, card)
    meld.spots = None
    if where == "set":
        meld.cards.append(card)
        meld.by.append(seat)
        meld.points.append(C.VALUES[card])
        meld.suits |= 1 << C.suit(card)
        order = sorted(range(len(meld.cards)), key=lambda i: C.suit(meld.cards[i]))
        meld.cards = [meld.cards[i] for i in order]
        meld.by = [meld.by[i] for i in order]
        meld.points = [meld.points[i] for i in order]
    elif where == "high":
        meld.hi = HIGH_ACE if C.rank(card) == C.ACE else meld.hi + 1
        meld.cards.append(card)
        meld.by.append(seat)
        meld.points.append(C.VALUES[card])
    elif where == "low":
        meld.lo = 0 if C.rank(card) == C.ACE else meld.lo - 1
        meld.cards.insert(0, card)
        meld.by.insert(0, seat)
        meld.points.insert(0, card_value_in_run(card, meld.lo == 0))
    else:
        raise IllegalMove("{card} does not fit on meld {meld}", card=C.name(card), meld=meld.id)


def suit_masks(hand: list[int]) -> list[int]:
    """Per suit, the 14-bit position mask of the cards held (ace at both 0 and 13)."""
    masks = [0, 0, 0, 0]
    for c in hand:
        r = c % 13
        masks[c // 13] |= (1 | 1 << HIGH_ACE) if r == 0 else 1 << r
    return masks


def rank_suits(hand: list[int]) -> list[int]:
    """Per rank, a 4-bit mask of the suits held."""
    out = [0] * 13
    for c in hand:
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
    out: list[list[int]] = []
    by_rank = [0] * 13
    masks = [0, 0, 0, 0]
    for c in hand:
        r = c % 13
        by_rank[r] |= 1 << (c // 13)
        masks[c // 13] |= (1 | 1 << HIGH_ACE) if r == 0 else 1 << r
    for r in range(13):
        for combo in _SET_SUITS[by_rank[r]]:
            out.append([s * 13 + r for s in combo])
    for s in range(4):
        m = masks[s]
        if not m & (m >> 1) & (m >> 2):
            continue  # no three in a row
        base = s * 13
        p = 0
        while p <= HIGH_ACE:
            if not m >> p & 1:
                p += 1
                continue
            q = p
            while q + 1 <= HIGH_ACE and m >> (q + 1) & 1:
                q += 1
            # maximal segment [p, q]; every sub-interval of length >= 3 that holds at most
            # one ace. The 13-card A..K equals 2..A as a set of cards: keep it once (high).
            for a in range(p, q - 1):
                for b in range(a + 2, q + 1):
                    if a == 0 and b >= C.KING:
                        continue  # two aces, or the same cards as 1..13 (ace high)
                    out.append([base + (0 if x == HIGH_ACE else x) for x in range(a, b + 1)])
            p = q + 1
    return out


def _gap_cost(mask: int, start: int, stop: int) -> int | None:
    """Cards needed to fill positions start..stop-1 from ``mask``: their count, or None."""
    if start >= stop:
        return 0
    need = ((1 << (stop - start)) - 1) << start
    return stop - start if mask & need == need else None


def placement_cost(card: int, hand: list[int], melds: list[Meld]) -> int | None:
    """The fewest cards of ``hand`` (which holds ``card``) that must go to the table so that
    ``card`` is on it: in a new meld, or laid off on a table meld after laying off the cards
    between (RULES.md §4.2). None when there is no way."""
    return placement_cost_masks(card, rank_suits(hand), suit_masks(hand), melds)


def placement_cost_masks(
    card: int, by_rank: list[int], by_suit: list[int], melds: list[Meld]
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
        for p in positions:
            for a in (p - 2, p - 1, p):
                if a < 0 or a + 2 > HIGH_ACE:
                    continue
                need = 0b111 << a
                if mask & need == need:
                    best = 3
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
