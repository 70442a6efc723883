"""Hand analysis shared by the bots: the best way to put a hand on the table, and how close
the cards left over are to melds.

Cards are numbers (see :mod:`rum500.cards`); table melds are :class:`rum500.rules.Meld`
objects rebuilt from the view (:func:`rum500.bots.seat.table_meld`). Nothing here reads a
game: only a hand, the melds on the table and counts of unseen cards.

Jokers (:data:`rum500.cards.JOKER`, an option) have no rank or suit: the plan leaves them in
hand (the levels play them through the engine's joker melds and lay-offs), and the helpers
below never read a joker's rank or suit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rum500 import cards as C
from rum500.rules.melds import (
    HIGH_ACE,
    Meld,
    candidate_melds,
    joker_fits,
    lay_off,
    layoff_cards,
    layoff_position,
    make_meld,
    placement_cost_masks,
)

#: Bonus per card put on the table: fewer cards in hand means closer to going out.
CARD_BONUS = 0.5
#: Beyond this many search states the meld search goes on greedily (huge hands only).
MAX_STATES = 4000


@dataclass(slots=True)
class Plan:
    """How to put cards on the table this turn.

    ``melds`` are new melds (canonical order, as the engine lists them), ``layoffs`` are
    ``(card, meld)`` pairs in an order that can be played, where ``meld`` is a table meld id
    or ``-1 - k`` for the k-th new meld. ``gain`` is the change in this seat's hand score
    (table points gained plus hand points shed) with a small bonus per card placed."""

    melds: list[list[int]] = field(default_factory=list)
    layoffs: list[tuple[int, int]] = field(default_factory=list)
    gain: float = 0.0
    table_points: int = 0
    dead: list[int] = field(default_factory=list)
    placed: int = 0
    #: the table's dug_card_new_meld (RULES.md §12.2): only a new meld places the dug card
    new_meld: bool = False

    def places(self, card: int) -> bool:
        if any(card in m for m in self.melds):
            return True
        return not self.new_meld and any(c == card for c, _ in self.layoffs)


def is_run(cards: list[int]) -> bool:
    """Is the meld ``cards`` (no jokers) a run (not a set)?"""
    return len({C.rank(c) for c in cards}) > 1


def _meld_weight(cards: list[int]) -> tuple[float, int]:
    """(gain, table points) of laying ``cards`` (a canonical meld) from the hand."""
    low_ace = C.rank(cards[0]) == C.ACE and len({C.rank(c) for c in cards}) > 1
    table = 0
    shed = 0
    for i, c in enumerate(cards):
        v = C.VALUES[c]
        table += C.LOW_ACE_VALUE if (i == 0 and low_ace) else v
        shed += v
    return table + shed + CARD_BONUS * len(cards), table


def _remove(rest: tuple[int, ...], sub: tuple[int, ...]) -> tuple[int, ...] | None:
    """``rest`` less the sorted multiset ``sub``, or None when ``rest`` lacks a card."""
    out: list[int] = []
    j = 0
    n = len(sub)
    for c in rest:
        if j < n and c == sub[j]:
            j += 1
        else:
            out.append(c)
    return tuple(out) if j == n else None


class _Search:
    """Best set of disjoint melds from a hand (maximum gain), by memoized depth-first search:
    the lowest card left is either left over or in one of the melds it can start."""

    def __init__(self, hand: list[int], min_run: int = 3) -> None:
        self.by_min: dict[int, list[tuple[tuple[int, ...], list[int], float]]] = {}
        for cards in candidate_melds(hand):
            if len(cards) < min_run and is_run(cards):
                continue  # with runs of four, three in a row is a draw to a run (§12.6)
            key = tuple(sorted(cards))
            w, _ = _meld_weight(cards)
            self.by_min.setdefault(key[0], []).append((key[1:], cards, w))
        for lst in self.by_min.values():
            lst.sort(key=lambda m: -m[2])
        self.memo: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = {}
        self.flat: list[list[int]] = []

    def solve(self, rem: tuple[int, ...]) -> tuple[float, tuple[int, ...]]:
        """(gain, indices into ``self.flat`` of the melds chosen)."""
        if len(rem) < 3:
            return 0.0, ()
        hit = self.memo.get(rem)
        if hit is not None:
            return hit
        c = rem[0]
        rest = rem[1:]
        if len(self.memo) >= MAX_STATES:
            # out of budget: greedy, the heaviest meld the card can start, or leave it
            for tail, cards, w in self.by_min.get(c, ()):
                left = _remove(rest, tail)
                if left is not None:
                    g, chosen = self.solve(left)
                    self.flat.append(cards)
                    best = (g + w, (len(self.flat) - 1, *chosen))
                    break
            else:
                best = self.solve(rest)
            self.memo[rem] = best
            return best
        best = self.solve(rest)
        for tail, cards, w in self.by_min.get(c, ()):
            left = _remove(rest, tail)
            if left is None:
                continue
            g, chosen = self.solve(left)
            if g + w > best[0]:
                self.flat.append(cards)
                best = (g + w, (len(self.flat) - 1, *chosen))
        self.memo[rem] = best
        return best

    def melds(self, chosen: tuple[int, ...]) -> list[list[int]]:
        return [self.flat[i] for i in chosen]


def _with_layoffs(
    melds_new: list[list[int]], dead: list[int], table: list[Meld], seat: int, keep: int | None
) -> tuple[list[tuple[int, int]], list[int], float, int]:
    """Lay off what can be laid off (chains too: 8 then 9 on …5 6 7), but not one copy of
    ``keep`` (the dug card, which a lay-off does not clear with dug_card_new_meld)."""
    grown = [m.copy() for m in table]
    grown += [make_meld(-1 - k, cards, seat) for k, cards in enumerate(melds_new)]
    layoffs: list[tuple[int, int]] = []
    dead = list(dead)
    gain = 0.0
    table_pts = 0
    changed = True
    while changed and dead:
        changed = False
        for c in list(dead):
            if c == keep and dead.count(c) == 1:
                continue
            for m in grown:
                if layoff_position(m, c) is None:
                    continue
                before = sum(m.points)
                lay_off(m, c, seat)
                pts = sum(m.points) - before
                layoffs.append((c, m.id))
                dead.remove(c)
                gain += pts + C.VALUES[c] + CARD_BONUS
                table_pts += pts
                changed = True
                break
    return layoffs, dead, gain, table_pts


def plan(
    hand: list[int],
    table: list[Meld],
    seat: int,
    force: int | None = None,
    min_run: int = 3,
    new_meld: bool = False,
) -> Plan:
    """The plan that gains most this turn. With ``force`` (the card dug for), only plans that
    put that card on the table are considered, when there is one. Jokers stay in hand.
    The table's options (RULES.md §12): ``min_run`` 4 with runs_of_four (a run of three is
    no meld, only a draw to one); ``new_meld`` with dug_card_new_meld (the dug card counts
    as placed only in a new meld, and is not laid off)."""
    jokers = [c for c in hand if c >= C.DECK_SIZE]
    if jokers:
        rest = [c for c in hand if c < C.DECK_SIZE]
        p = plan(rest, table, seat, force, min_run, new_meld)
        p.dead += jokers
        return p
    search = _Search(hand, min_run)
    base = tuple(sorted(hand))
    g, chosen = search.solve(base)
    options: list[tuple[float, list[list[int]]]] = [(g, search.melds(chosen))]
    if force is not None:
        with_force = [(cs, w) for lst in search.by_min.values() for _t, cs, w in lst if force in cs]
        for cards, w in with_force:
            left = _remove(base, tuple(sorted(cards)))
            if left is None:
                continue
            g2, chosen2 = search.solve(left)
            options.append((g2 + w, [cards, *search.melds(chosen2)]))
    best: Plan | None = None
    fallback: Plan | None = None
    for gain, melds_new in options:
        rest = list(hand)
        table_pts = 0
        for cards in melds_new:
            for c in cards:
                rest.remove(c)
            table_pts += _meld_weight(cards)[1]
        keep = force if new_meld and not any(force in m for m in melds_new) else None
        layoffs, dead, lgain, lpts = _with_layoffs(melds_new, rest, table, seat, keep)
        placed = len(hand) - len(dead)
        p = Plan(melds_new, layoffs, gain + lgain, table_pts + lpts, dead, placed, new_meld)
        if force is not None and not p.places(force):
            if fallback is None or p.gain > fallback.gain:
                fallback = p
            continue
        if best is None or p.gain > best.gain:
            best = p
    return best or fallback or Plan(dead=list(hand), new_meld=new_meld)


# --------------------------------------------------------------------------- near-melds


def _pos(card: int) -> tuple[int, ...]:
    r = C.rank(card)
    return (0, HIGH_ACE) if r == C.ACE else (r,)


def _at(suit: int, pos: int) -> int | None:
    if pos < 0 or pos > HIGH_ACE:
        return None
    return C.make(0 if pos == HIGH_ACE else pos, suit)


def outs(
    card: int, others: list[int], unseen: list[int], table: list[Meld], min_run: int = 3
) -> list[int]:
    """The cards that would let ``card`` be put on the table together with ``others`` (the
    rest of the hand) or the table melds — each listed once per unseen copy. ``min_run``:
    the shortest new run (4 with runs_of_four: 5♥ 6♥ wait for no single card, 5♥ 6♥ 7♥
    for 4♥ or 8♥)."""
    if card >= C.DECK_SIZE:
        return []
    others = [o for o in others if o < C.DECK_SIZE]
    r = C.rank(card)
    s = C.suit(card)
    out: list[int] = []
    same_rank = {C.suit(o) for o in others if C.rank(o) == r and C.suit(o) != s}
    if same_rank:
        held = same_rank | {s}
        for t in range(4):
            if t not in held:
                x = C.make(r, t)
                out += [x] * unseen[x]
    mine = set()
    for o in others:
        if C.suit(o) == s:
            mine.update(_pos(o))
    seen_out: set[int] = set()
    for p in _pos(card):
        # every window of min_run positions through p that lacks exactly one card
        for a in range(p - min_run + 1, p + 1):
            if a < 0 or a + min_run - 1 > HIGH_ACE:
                continue
            missing = [q for q in range(a, a + min_run) if q != p and q not in mine]
            if len(missing) != 1:
                continue
            x = _at(s, missing[0])
            if x is not None and x not in seen_out:
                seen_out.add(x)
                out += [x] * unseen[x]
    for m in table:
        if m.kind != "run" or m.suit != s:
            continue
        for p in _pos(card):
            for q in ((m.hi + 1) if p == m.hi + 2 else None, (m.lo - 1) if p == m.lo - 2 else None):
                if q is None:
                    continue
                x = _at(s, q)
                if x is not None and x not in seen_out:
                    seen_out.add(x)
                    out += [x] * unseen[x]
    return out


def partners(card: int, others: list[int]) -> int:
    """How many of ``others`` sit next to ``card`` in a possible meld (same rank, or same suit
    one or two steps away; a joker partners every card)."""
    if card >= C.DECK_SIZE:
        return len(others)
    r = C.rank(card)
    s = C.suit(card)
    n = 0
    ps = _pos(card)
    for o in others:
        if o == card:
            continue
        if o >= C.DECK_SIZE:
            n += 1
            continue
        if C.rank(o) == r or C.suit(o) == s and any(abs(p - q) <= 2 for p in ps for q in _pos(o)):
            n += 1
    return n


def fits(card: int, hand: list[int], table: list[Meld], min_run: int = 3) -> bool:
    """Could ``card`` be put on the table at once by a player holding ``hand``? (A joker:
    when a table meld takes one.) ``min_run``: the shortest new run (4 with runs_of_four)."""
    if card >= C.DECK_SIZE:
        return any(layoff_cards(m) and joker_fits(m) for m in table)
    hand = [o for o in hand if o < C.DECK_SIZE]
    for m in table:
        if layoff_position(m, card) is not None:
            return True
    r = C.rank(card)
    s = C.suit(card)
    suits = {C.suit(o) for o in hand if C.rank(o) == r} - {s}
    if len(suits) >= 2:
        return True
    have = set()
    for o in hand:
        if C.suit(o) == s:
            have.update(_pos(o))
    span = min_run - 1
    for p in _pos(card):
        for a in range(p - span, p + 1):
            if a < 0 or a + span > HIGH_ACE:
                continue
            if all(q == p or q in have for q in range(a, a + min_run)):
                return True
    return False


def hold(card: int, by_rank: list[int], by_suit: list[int]) -> None:
    """Put ``card`` in the masks of :func:`held_masks` (a joker: nothing)."""
    if card < C.DECK_SIZE:
        r = card % 13
        by_rank[r] |= 1 << (card // 13)
        by_suit[card // 13] |= (1 | 1 << HIGH_ACE) if r == 0 else 1 << r


def held_masks(*held: list[int]) -> tuple[list[int], list[int]]:
    """The cards of ``held`` (jokers aside) as :func:`rum500.rules.melds.placement_cost_masks`
    reads a hand: for each rank the suits held, for each suit the positions held (an ace
    both low and high)."""
    by_rank, by_suit = [0] * 13, [0, 0, 0, 0]
    for cards in held:
        for c in cards:
            hold(c, by_rank, by_suit)
    return by_rank, by_suit


def feeds(
    hand: list[int],
    pile: list[int],
    card: int,
    before: list[bool],
    table: list[Meld],
    min_run: int = 3,
    new_meld: bool = False,
) -> bool:
    """Would ``card``, discarded on ``pile``, let a player holding ``hand`` dig for a card it
    could not dig for before — ``card`` itself, or a deeper one that ``card`` helps to put
    down? ``before``: :func:`diggable` of ``hand`` and ``pile``. The same answer as
    comparing :func:`diggable` with ``card`` on top against ``before``, card by card, but
    it stops at the first such card and skips those already diggable (a card more in hand
    never takes a way away) and those of another rank and suit than ``card`` (a card's
    placement reads only the cards of its rank and of its suit)."""
    if new_meld:
        table = []
    by_rank, by_suit = held_masks(hand, [card])
    if (
        card >= C.DECK_SIZE
        or placement_cost_masks(card, by_rank, by_suit, table, min_run) is not None
    ):
        return True
    rank, suit = card % 13, card // 13
    for i in range(len(pile) - 1, -1, -1):
        c = pile[i]
        hold(c, by_rank, by_suit)
        if before[i] or (c % 13 != rank and c // 13 != suit):
            continue  # diggable already, or its rank's and suit's cards are as they were
        if placement_cost_masks(c, by_rank, by_suit, table, min_run) is not None:
            return True
    return False


def diggable(
    hand: list[int], pile: list[int], table: list[Meld], min_run: int = 3, new_meld: bool = False
) -> list[bool]:
    """For each card of ``pile`` (bottom → top): could a player holding ``hand`` dig for it,
    i.e. put it on the table this turn with the hand and the cards taken above it? The
    table's options: ``min_run`` (4 with runs_of_four), ``new_meld`` (dug_card_new_meld:
    only a new meld counts, the table's melds are left out)."""
    if new_meld:
        table = []
    by_rank, by_suit = held_masks(hand)
    out = [False] * len(pile)
    for i in range(len(pile) - 1, -1, -1):
        hold(pile[i], by_rank, by_suit)  # a joker adds nothing: see below
        if pile[i] >= C.DECK_SIZE:
            out[i] = True  # a joker goes nearly anywhere
        else:
            cost = placement_cost_masks(pile[i], by_rank, by_suit, table, min_run)
            out[i] = cost is not None
    return out
