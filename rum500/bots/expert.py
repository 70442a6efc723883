"""The ``expert`` bot: determinized Monte Carlo search over what its seat cannot see.

It reads only its seat's view (:func:`rum500.bots.seat.read_view`) and its memory of the
hand's public events (the card tracker), exactly as the other levels. Two decisions are
searched: where to draw from (the stock, or a dig, and how deep) and which card to discard:

1. the ``hard`` bot's valuation ranks the stock and every dig that can place the card dug
   for, and every discard; the draws within :data:`CLOSE_CALL` points of the best, and the
   discards within :data:`DISCARD_CLOSE` (at most :data:`MAX_CANDIDATES` either way), are
   the candidates — a clear choice is not searched;
2. it samples *worlds* consistent with everything seen: each opponent holds the cards it is
   known to have taken from the discard pile and, for the rest, unseen cards drawn at random
   (the likeliest of :data:`STRUCTURE_TRIES` draws: the one with the most cards that have a
   partner, as a player keeps those); the stock is the remaining unseen cards in random order
   (:func:`determinize`);
3. in each world it plays every candidate, then :data:`HORIZON` more turns of its own (and
   the others' turns between) with a fast greedy policy for every seat (:func:`playout`: the
   engine's fast path, no re-checking) — it digs for the deepest card of the discard pile it
   can put down, so a discard that lets an opponent take the pile costs what that dig brings
   it — and scores the result: its team's table points less what its cards in hand will
   likely cost (:func:`held_cost`), against the opponents' — or the score sheet, when the
   hand ended;
4. it picks the candidate with the best mean over the worlds (the same worlds for every
   candidate, which makes the comparison far less noisy than the scores themselves).

So a deep dig wins only when the cards it brings are likely to go down rather than stay in
hand, and a discard is weighed by what the opponents can do with it. Melds and lay-offs are
the ``hard`` bot's.

The search budget is counted in playout
steps, not in time, so a game with a seed is reproducible: it adapts to the position (fewer
worlds when there are many candidates or a long hand ahead) and stops early when one
candidate is clearly best. A wall-clock guard (:data:`TIME_GUARD_S`) only stops a search
that a badly overloaded machine slows down beyond it.

The figures in the comments below ("on tuning seeds, 300 matches against hard") come from
``bench/expert_tuning.py --seed S --pairs 150 [--set NAME=VALUE]``.
"""

from __future__ import annotations

import math
import random
import time

from rum500 import cards as C
from rum500.bots.base import discard
from rum500.bots.hands import Plan, fits, partners
from rum500.bots.hard import HardBot
from rum500.bots.seat import SeatView
from rum500.rules.game import (
    MOVE_DIG,
    MOVE_DISCARD,
    MOVE_LAYOFF,
    MOVE_MELD,
    Game,
    Phase,
    action_of,
)
from rum500.rules.melds import card_mask
from rum500.rules.options import Options
from rum500.rules.scoring import hand_values

#: Playout steps (decisions) one search may spend: a decision's p95 is about 0.15 s on this
#: project's machine (two processes on its two cores). On tuning seeds (300 matches vs hard
#: each), 9,600 steps (up to 144 worlds) against 3,200 (48): 14.7 / 15.6 / 15.7 points a hand
#: over hard against 14.5 / 13.8 / 14.5 (seeds 902, 903, 905), winning 71.3% of 900 matches.
STEP_BUDGET = 9600
#: Worlds per candidate: at least, and at most.
MIN_WORLDS = 6
MAX_WORLDS = 144
#: Candidates searched at most (the hard bot's best ones).
MAX_CANDIDATES = 5
#: A playout stops after this many decisions (a hand with an empty stock may go round).
PLAYOUT_CAP = 160
#: A playout looks this many of the seat's turns ahead, then judges the position.
HORIZON = 2
#: The playout policy digs for the deepest card it can put down among this many top cards of
#: the discard pile: the whole pile. "Dig deepest" is a strong plain policy (a bot that does
#: only that plays about as well as ``medium``) and it makes the opponents' digs — the cost
#: of feeding them — show in the playouts. On tuning seeds (300 matches vs hard, the same deals
#: with seats swapped): top card only, the search gained 1.5 points a hand over hard and
#: searching discards too nothing more; digging deepest, 3.8 (draws) and 9.7 (draws and
#: discards).
PLAYOUT_DIG_DEPTH = 200
#: What a point in hand counts when a playout stops before the hand ends.
HELD_WEIGHT = 0.6
#: ... and a point of a card that has a partner in hand (it is closer to a meld).
PAIRED_WEIGHT = 0.6
#: Stop early when the leader is this many standard errors ahead of the runner-up.
CLEAR_LEAD = 3.0
#: How much the opponents' result counts against the seat's own in a playout's outcome.
THEIRS_WEIGHT = 1.0
#: Draws the hard bot values within this many points of its best are searched.
CLOSE_CALL = 25.0
#: Search discards too: those the hard bot values within DISCARD_CLOSE points of its best
#: (at most MAX_CANDIDATES).
SEARCH_DISCARDS = True
DISCARD_CLOSE = 15.0
#: Re-draws of a sampled opponent hand that could meld a card it passed over or threw (3
#: measured no better than 0, within the noise, so it is off).
AVOID_TRIES = 0
#: An opponent's hand is drawn this many times and the one with the most cards that have a
#: partner (a pair, a neighbour in a run) kept: a player keeps such cards and throws loose
#: ones, so its hand is more "meldy" than cards drawn at random. On three tuning seeds (300
#: matches each against hard, the same deals with seats swapped): 1 → 3 gained 2.1, 0.3
#: and 4.2 points a hand (12.9 → 15.0, 13.3 → 13.6, 10.3 → 14.5).
STRUCTURE_TRIES = 3
#: The search stops when it has run this long (a guard for an overloaded machine).
TIME_GUARD_S = 0.6


def determinize(
    v: SeatView,
    known: list[list[int]],
    rng: random.Random,
    avoided: list[list[int]] | None = None,
) -> Game | None:
    """A full position consistent with the view: opponents hold their ``known`` cards plus
    unseen ones at random (of :data:`STRUCTURE_TRIES` draws, the one with the most cards that
    have a partner), the stock is the rest in random order. With ``avoided`` (per
    seat, cards it passed over or threw), an opponent's hand that could meld one of them is
    re-drawn up to :data:`AVOID_TRIES` times (it would likely have kept or taken it). None
    when the view and the memory cannot be reconciled (then the caller does without search)."""
    pool: list[int] = []
    for c, n in enumerate(v.unseen()):
        pool += [c] * n
    for seat in range(v.players):
        for c in known[seat]:
            if c in pool:
                pool.remove(c)
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for seat in range(v.players):
        if seat == v.seat:
            hands.append(list(v.hand))
            continue
        need = v.hand_sizes[seat] - len(known[seat])
        if need < 0 or need > len(pool):
            return None
        if STRUCTURE_TRIES > 1 and need > 1:
            starts = range(0, min(STRUCTURE_TRIES * need, len(pool) - need + 1), need)
            best = max(starts, key=lambda i: paired_count(known[seat] + pool[i : i + need]))
            pool[:need], pool[best : best + need] = pool[best : best + need], pool[:need]
        hand = known[seat] + pool[:need]
        passed = avoided[seat] if avoided else ()
        for _try in range(AVOID_TRIES if passed else 0):
            if not any(fits(c, hand, [], v.min_run) for c in passed):
                break
            pool = pool[need:] + pool[:need]  # put them back at the end, draw others
            hand = known[seat] + pool[:need]
        hands.append(hand)
        del pool[:need]
    if len(pool) != v.stock:
        return None
    rng.shuffle(pool)
    return _position(v, hands, pool, rng)


def paired_count(hand: list[int]) -> int:
    """How many cards of ``hand`` have a partner in it (:func:`rum500.bots.hands.partners`):
    with a joker every card (a joker partners every card, and every card a joker), else the
    cards whose :data:`NEAR` the hand meets."""
    if any(c >= C.DECK_SIZE for c in hand):
        return len(hand)
    held = set(hand)
    near = NEAR
    return sum(1 for c in hand if not held.isdisjoint(near[c]))


def _position(v: SeatView, hands: list[list[int]], stock: list[int], rng: random.Random) -> Game:
    """The world: the view's public position with ``hands`` and ``stock``, and a random
    state of its own (drawn from ``rng``). Built once per view (:func:`_template`, checked by
    :meth:`Game.from_dict`); each world is a copy of it with its own cards."""
    seed = rng.getrandbits(32)
    global _TEMPLATE
    kept = _TEMPLATE
    if kept is None or kept[0] is not v:
        kept = _TEMPLATE = (v, _template(v, hands, stock))
    g = kept[1].copy()
    g.hands = [list(h) for h in hands]
    g._cm = [card_mask(h) for h in g.hands]
    g.stock = list(stock)
    g.rng = random.Random(seed)
    g._rng_shared = False
    return g


#: the last view :func:`_position` built a world for, and that world, kept as the template of
#: the view's next worlds (the view kept with it: it is the same object only while alive)
_TEMPLATE: tuple[SeatView, Game] | None = None


def _template(v: SeatView, hands: list[list[int]], stock: list[int]) -> Game:
    view = v.raw
    state = {
        "version": 1,
        "players": v.players,
        "seed": 0,
        "options": dict(view["options"]),
        "deck": None,
        "rng": list(random.Random(0).getstate()),
        "actions": [],
        "totals": list(v.totals),
        "results": [],
        "winner": None,
        "hand_number": view.get("hand_number", 1),
        "lot": view.get("lot"),
        "dealer": view.get("dealer", 0),
        "hands": [C.names(h) for h in hands],
        "stock": C.names(stock),
        "discard_pile": C.names(v.pile),
        "melds": list(view["melds"]),
        "next_meld_id": 1 + max((m.id for m in v.melds), default=-1),
        "turn": v.turn,
        "phase": v.phase,
        "must_play": view["must_play"],
        "no_discard": view["no_discard"],
        "reshuffled": bool(view.get("reshuffled")),
        "went_out": None,
        "claim_from": (view.get("claim") or {}).get("from"),
    }
    state["rng"][1] = list(state["rng"][1])
    return Game.from_dict(state)


# --------------------------------------------------------------------------- the playout policy


#: for each card (jokers aside), the cards that partner it in a hand
#: (:func:`rum500.bots.hands.partners`: the same rank, or the same suit one or two steps
#: away): in a hand with no joker, ``partners(c, hand)`` is 0 exactly when the hand holds
#: none of ``NEAR[c]``
NEAR: tuple[frozenset[int], ...] = tuple(
    frozenset(o for o in range(C.DECK_SIZE) if partners(c, [o])) for c in range(C.DECK_SIZE)
)


def policy(g: Game) -> tuple:
    """A fast greedy move for the seat to move: the deepest card of the discard pile it can
    put down (:data:`PLAYOUT_DIG_DEPTH`), else the stock; the longest meld, then any lay-off;
    then the costliest card that has no partner in hand (a joker never, while another card
    can go)."""
    moves = g.legal_moves()
    if g.phase is Phase.DRAW:
        low = len(g.pile) - PLAYOUT_DIG_DEPTH
        deepest = None
        for m in moves:
            if m[0] == MOVE_DIG and m[1] >= low and (deepest is None or m[1] < deepest[1]):
                deepest = m
        return deepest or moves[0]
    best_meld = None
    layoff = None
    discards = []
    mp = g.must_play
    for m in moves:
        k = m[0]
        if k == MOVE_MELD:
            if mp is not None and mp not in m[1]:
                continue
            if best_meld is None or len(m[1]) > len(best_meld[1]):
                best_meld = m
        elif k == MOVE_LAYOFF:
            if layoff is None and (mp is None or m[1] == mp):
                layoff = m
        elif k == MOVE_DISCARD:
            discards.append(m[1])
    if best_meld is not None:
        return best_meld
    if layoff is not None:
        return layoff
    if not discards:
        return next(m for m in moves if m[0] in (MOVE_MELD, MOVE_LAYOFF))
    hand = g.hands[g.turn]
    if len(discards) > 1 and C.JOKER in discards:
        discards.remove(C.JOKER)
    values = C.VALUES
    if any(c >= C.DECK_SIZE for c in hand):  # a joker partners every card: the costliest
        return (MOVE_DISCARD, max(discards, key=values.__getitem__))
    held = set(hand)
    near = NEAR
    # (partners(c, hand) == 0, values[c]), read from NEAR: the playouts' hottest line
    card = max(discards, key=lambda c: (held.isdisjoint(near[c]), values[c]))
    return (MOVE_DISCARD, card)


def playout(
    g: Game,
    seat: int,
    turns: int | None = None,
    cap: int | None = None,
) -> int:
    """Play ``g`` (a copy: it is changed) with :func:`policy` until ``seat`` has played
    ``turns`` more turns (or the hand ends); return the number of decisions made.
    "Rummy!" calls are not made (the claim phase is closed at once). ``turns`` and ``cap``
    are :data:`HORIZON` and :data:`PLAYOUT_CAP` unless given."""
    turns = HORIZON if turns is None else turns
    cap = PLAYOUT_CAP if cap is None else cap
    hand = len(g.results)
    steps = 0
    left = turns + (g.turn != seat or g.phase is not Phase.DRAW)
    while len(g.results) == hand and steps < cap:
        phase = g.phase
        if phase is Phase.CLAIM:
            g.apply_move(g.legal_moves()[0], undo=False)
            continue
        if phase is Phase.DRAW:
            if g.turn == seat:
                left -= 1
                if left < 0:
                    break
        elif phase is not Phase.PLAY:
            break
        g.apply_move(policy(g), undo=False)
        steps += 1
    return steps


def held_cost(hand: list[int], options: Options | None = None) -> float:
    """What the cards in a hand are likely to cost when the hand ends: a card with a partner
    (a pair, a neighbour in a run) :data:`PAIRED_WEIGHT` of its points (as a hand left
    scores at a table with ``options``: §12.3), a loose one :data:`HELD_WEIGHT`; a joker
    nothing (it will go down)."""
    values = hand_values(options) if options is not None else C.VALUES
    if PAIRED_WEIGHT == HELD_WEIGHT:
        return HELD_WEIGHT * sum(values[c] for c in hand if c < C.DECK_SIZE)
    cost = 0.0
    for c in hand:
        if c >= C.DECK_SIZE:
            continue
        w = PAIRED_WEIGHT if partners(c, hand) else HELD_WEIGHT
        cost += w * values[c]
    return cost


def outcome(g: Game, seat: int, hand: int) -> float:
    """The hand's result for ``seat``'s team less the other seats' average (per seat): from
    the score sheet if the hand ended, else the table points less :data:`HELD_WEIGHT` of
    the points in hand (cards in hand now may still go down)."""
    if len(g.results) > hand:
        scores = g.results[hand]["scores"]
    else:
        table = g.table_points()
        scores = [t - held_cost(h, g.options) for t, h in zip(table, g.hands, strict=True)]
    team = g.options.team
    mine = [s for s in range(g.players) if team(s) == team(seat)]
    others = [s for s in range(g.players) if team(s) != team(seat)]
    ours = sum(scores[s] for s in mine) / len(mine)
    theirs = sum(scores[s] for s in others) / len(others) if others else 0.0
    return ours - THEIRS_WEIGHT * theirs


# --------------------------------------------------------------------------- the bot


class ExpertBot(HardBot):
    level = "expert"
    #: Its playouts play the opponents' later digs out; its candidates (DISCARD_CLOSE) are
    #: ranked as they were tuned, by the next turn's feeding risk alone.
    later_feed = False

    def __init__(
        self, seed: int | None = None, strict: bool = False, steps: int | None = None
    ) -> None:
        super().__init__(seed, strict)
        self.steps = STEP_BUDGET if steps is None else steps
        self.stats = {"searches": 0, "worlds": 0, "playout_steps": 0}

    # -- what to search

    def draw(self, v: SeatView) -> dict:
        ranked = self.rank_draws(v)
        if len(ranked) <= 1:
            return ranked[0] if ranked else super().draw(v)
        return self.search(v, ranked)

    def rank_draws(self, v: SeatView) -> list[dict]:
        """The stock and the digs that can place their card, best first by the hard bot's
        valuation; only those within :data:`CLOSE_CALL` points of the best (a clear choice
        needs no search)."""
        scored = self.draw_scores(v)
        scored.sort(key=lambda o: -o[0])
        if not scored:
            return []
        best = scored[0][0]
        return [a for x, a in scored[:MAX_CANDIDATES] if x >= best - CLOSE_CALL]

    def discard(self, v: SeatView, p: Plan) -> dict:
        scored = self.discard_scores(v, p)
        if not scored:
            return self._fallback(v)
        best = scored[0][0]
        close = [c for x, c in scored[:MAX_CANDIDATES] if x >= best - DISCARD_CLOSE]
        if not SEARCH_DISCARDS or len(close) <= 1:
            return discard(scored[0][1])
        return self.search(v, [discard(c) for c in close])

    # -- the search

    def known_hands(self, v: SeatView) -> list[list[int]]:
        return [[] if s == v.seat else self.known(v, s) for s in range(v.players)]

    def search(self, v: SeatView, candidates: list[dict]) -> dict:
        """The candidate with the best mean outcome over sampled worlds (see the module)."""
        known = self.known_hands(v)
        avoided = [[] if s == v.seat else self.tracker.avoided(s) for s in range(v.players)]
        ahead = min(v.stock + sum(v.hand_sizes), 3 * v.players * (HORIZON + 1))
        per_world = len(candidates) * max(8, ahead)  # playout steps per world, roughly
        worlds = max(MIN_WORLDS, min(MAX_WORLDS, self.steps // per_world))
        sums = [0.0] * len(candidates)
        squares = [0.0] * len(candidates)
        n = 0
        clock = time.perf_counter
        deadline = clock() + TIME_GUARD_S
        self.stats["searches"] += 1
        for _ in range(worlds):
            world = determinize(v, known, self.rng, avoided)
            if world is None:
                break
            moves = {action_key_of(action_of(m)): m for m in world.legal_moves()}
            for i, a in enumerate(candidates):
                move = moves.get(action_key_of(a))
                if move is None:
                    continue
                g = world.copy()
                g.apply_move(move, undo=False)
                self.stats["playout_steps"] += playout(g, v.seat)
                x = outcome(g, v.seat, 0)
                sums[i] += x
                squares[i] += x * x
            n += 1
            self.stats["worlds"] += 1
            if n >= MIN_WORLDS and (
                self._clear(sums, squares, n) or time.perf_counter() > deadline
            ):
                break
        if n == 0:
            return candidates[0]
        best = max(range(len(candidates)), key=lambda i: sums[i])
        return candidates[best]

    @staticmethod
    def _clear(sums: list[float], squares: list[float], n: int) -> bool:
        """Is the leader ahead of the runner-up by more than CLEAR_LEAD standard errors?"""
        order = sorted(range(len(sums)), key=lambda i: -sums[i])
        if len(order) < 2:
            return True
        a, b = order[0], order[1]
        gap = (sums[a] - sums[b]) / n
        var = 0.0
        for i in (a, b):
            mean = sums[i] / n
            var += max(0.0, squares[i] / n - mean * mean) / n
        return gap > CLEAR_LEAD * math.sqrt(var) if var > 0 else gap > 0


def action_key_of(a: dict) -> tuple:
    """Draws and discards, the only actions the search compares, by what identifies them."""
    return (a.get("type"), a.get("source"), a.get("index"), a.get("card"))
