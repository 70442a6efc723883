"""The coach's evaluation: what each move, deal and draw is worth, from one seat's view.

Everything here starts from a seat's view (the dict of :meth:`rum500.rules.Game.view`, read
with :func:`rum500.bots.seat.read_view`, which refuses the game itself) and the public memory
of the hand (cards each opponent is known to hold: taken from the discard pile, not played
since). The hidden cards — the opponents' hands, the stock's order — are *sampled* from them
(:func:`rum500.bots.expert.determinize`), never read from the game log.

A *world* is one such sample. A candidate move is valued in a world by playing it, then
playing the rest of the hand out with the expert's fast playout policy for every seat
(:func:`rum500.bots.expert.playout`) and reading the hand's score sheet: the seat's team's
points for the hand less the other teams' average (:func:`margin`). Every candidate is played
in the same worlds (common random numbers), so the difference between two candidates is
measured far more tightly than either value.

The search (:func:`judge`, docs/analysis.md "How a move is valued"): half of the ``budget``
worlds choose a *challenger* — every legal move in :func:`screen_worlds` of them, the
:data:`FINALISTS` best and the move played in the whole half; the challenger is the best of
them other than the move played. The other half compares the challenger with the move
played: worlds the choice did not see, so the loss has no winner's bonus (a challenger worth
exactly what the move played is worth in every one of them stands aside for the next
finalist, :meth:`_Search.runners_up`). Unless that round
shows clearly no mistake, the best move is *confirmed* before it is measured
(:meth:`_Search.confirm`): the discards race for the one the melds and lay-offs end their
turn with, then every move (the one played too) races the challenger on fresh worlds until
the leader is :data:`RACE` standard errors clear of each or shown worth the same (or
:data:`CONFIRM_CAP` times the budget is spent: then those within :data:`NEAR` points count
as worth the same, those about NEAR points away valued further first,
:meth:`_Search.settle`); the move played leading (every other move told apart or worth the
same) or worth the same is no mistake; else of the leader and the moves worth the same, a
rule that no seed changes names one (:meth:`_Search.prefer`: the one worth most on a
sample of worlds drawn from the position alone, :func:`reference_worlds`) — when the races
are spent with the move played ahead of moves not told apart, the closest of those. That
move is measured against the move played on the first round's worlds and fresh ones while
the call is in doubt (a meld or lay-off played ending its turn with that move when it is a
discard it may make then: :meth:`_Search.end_as`). A loss within :data:`MISTAKE` standard
errors of zero (:data:`LONG_Z` when measured on :data:`LONG` worlds or more) is called 0.
A loss called is told again on as many fresh worlds (:meth:`_Search.again`): the measuring
stops when the loss stands clear, so its own worlds read it high; the fresh worlds give the
loss reported, and the ties are looked at again on them too (the move named stands unless
they tell it apart from the leader and show it not worth the same).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rum500 import cards as C
from rum500.bots.base import action_key
from rum500.bots.expert import determinize, held_cost, playout
from rum500.bots.hard import HardBot
from rum500.bots.seat import SeatView, read_view
from rum500.rules import Game, IllegalMove
from rum500.rules.game import Phase

#: Worlds per finalist unless the caller says (``rum500 analyse --budget``).
DEFAULT_BUDGET = 32
#: Candidates (besides the move played) kept for the second round.
FINALISTS = 4
#: A playout stops after this many decisions (then the hand is judged as it stands).
PLAYOUT_CAP = 600
#: A move is a mistake when the challenger beats it by more than this many standard errors
#: (below, the difference may be noise: the loss is 0). Two runs with different seeds named
#: the same best move in about half the decisions one called a loss ≥ 5 at 1, in about two
#: thirds at 2 (bench/analyse.py's stability): most disagreements were a loss called just
#: past the threshold that the other seed did not repeat (a paired difference of two moves
#: varies by some 50 points from world to world).
MISTAKE = 3.5
#: A loss measured on at least LONG worlds is a mistake beyond LONG_Z standard errors, not
#: :data:`MISTAKE` (:func:`called`): the line of 3.5 is there because a few dozen worlds
#: seldom see the rare world where two moves part by a hundred points, so their standard
#: error is often too small; a thousand worlds have seen them, and their standard error can
#: be taken at its word. (Before, at budget 32, a loss the measuring had followed for 3,000
#: worlds to 2.5–3.4 standard errors was called no mistake — six of the 28 decisions two
#: seeds disagreed on in bench/analyse.py's stability: the same better move, a real loss of
#: 1–4.4 points, that the other seed had called.) At budget 8 (the ladder's) the measuring
#: never reaches it.
LONG = 1000
LONG_Z = 2.5
#: The challenger is measured against the move played on fresh worlds (after the first
#: round, MEASURE_ROUND × the budget a round, at most 1 + MORE_ROUNDS rounds) until it is
#: clear: from the second round on, a loss beyond CONFIRM standard errors is clearly a
#: mistake, and one more than NONE_Z standard errors below zero clearly none; in the first
#: round only a challenger more than CLEAR standard errors *below* the move played stops the
#: measuring (a loss after one round is never trusted). The worlds go where the call is in
#: doubt. Before (rounds of half the budget, no mistake as soon as the loss was no longer
#: above zero, in doubt from CLEAR standard errors), two seeds named the same best move in
#: 72% of the decisions one called a loss ≥ 5 at budget 32: in 41 of the 84 others both
#: named the same better move and one measured it short of the line — stopped by one
#: unlucky round at zero, or at the last round a little below it; a paired difference of
#: two moves varies by 50–70 points from world to world, and a loss of 8 needs some 900
#: worlds to stand 4 standard errors clear (bench/analyse.py's stability).
#: (CLEAR was 2: sixteen worlds at budget 32 seldom see the rare world where two moves
#: part by a hundred points, so their standard error is often too small — about one in six
#: of the runs that called no mistake where another seed called one stopped on the first
#: round.)
CLEAR = 3.0
MEASURE_ROUND = 2
MORE_ROUNDS = 23
CONFIRM = 4.0
NONE_Z = 1.0
#: ... but only once the loss was measured on EARLY worlds or more; before, only
#: :data:`CLEAR` standard errors below zero end it, as on the first round: a standard error
#: of 80–144 worlds is itself too uncertain (the mirror of :data:`LONG`). (Before, at budget
#: 32, 9 of the 38 calls a second seed did not repeat on twenty matches the analysis was not
#: tuned on were such stops: a loss the first seed measured at 5–11 points on 336–3,000
#: worlds, read at 1–2 standard errors below zero (8 of them on a standard error of 4.5–8 points).)
EARLY = 200
#: A loss still in doubt after those rounds — between DOUBT_FROM and CONFIRM standard
#: errors above zero, about the MISTAKE line — is measured on, at most DOUBT_ROUNDS rounds
#: more, until it is not (at budget 32, 9 of the 18 calls that the other seed did not
#: repeat on ten stability matches were such losses: the same best move, 3.5–4 standard
#: errors in one run, 2.5–3.5 in the other).
DOUBT_FROM = 1.0
DOUBT_ROUNDS = 24
#: Unless the first round shows clearly no mistake, the best move is confirmed
#: (:meth:`_Search.confirm`): the moves within RACE standard errors of the leader (paired)
#: race it on fresh worlds (half the budget a round) until none is, or the races have
#: sampled CONFIRM_CAP × the budget worlds; those still within are its ``ties``. The move
#: played races too: leading or worth the same, it is no mistake; told apart (no longer
#: within), its loss is measured until it is clearly above or below zero (a loss no longer
#: above zero after the second round ended it: at budget 32, 5 of 13 calls on two stability
#: matches were not repeated by the other seed, 2 of them dropped so). Before
#: (the finalists only, at most 3 rounds, at 2 standard errors, the melds and lay-offs
#: ending with the discard the first quarter of the budget valued best), two seeds named
#: the same best move in 48% of the decisions one called a loss ≥ 5 at budget 32: in 12 of
#: the 13 others the second called no mistake — a better move it did not find, or a lay-off
#: played that the first charged with a poor discard (bench/analyse.py's stability).
#: (RACE was 3 and CONFIRM_CAP 8: a race looks again after every round, so a close move
#: was now and then told apart by chance in one seed and not in the other; two seeds named
#: different better moves about twice as often, bench/analyse.py's stability.)
RACE = 4.0
#: Two moves are told apart on at least this many worlds in common (a standard error taken
#: from fewer is itself too uncertain).
APART = 16
#: Moves the race cannot tell apart and shown worth the same within EQUAL points (at EQUAL_Z
#: standard errors) are named by a rule that no seed changes (:meth:`_Search.prefer`); of moves
#: not told apart but not shown equal either, the leader is named.
EQUAL = 2.5
EQUAL_Z = 2.0
#: Once the races have sampled all they may (CONFIRM_CAP), the moves still not told apart
#: from the leader and within NEAR points of it (the mean paired difference; no margin, the
#: budget cannot afford one) are worth the same as far as the analysis can tell, and the rule
#: names one of them too — no more apart than the smallest loss the coach's benchmark counts
#: (bench/analyse.py's stability). Before, the leader was named: of discards 1–5 points
#: apart, each seed named its own. The move played is no mistake only when it leads or is
#: shown equal: a move played within NEAR has its loss measured.
NEAR = 5.0
#: The confirmation's races sample at most CONFIRM_CAP × the budget worlds.
CONFIRM_CAP = 16
#: A move whose paired difference from the leader is within SETTLE_Z standard errors of
#: NEAR either way is not yet settled as worth the same or not: it and the leader are valued
#: on fresh worlds until it is, or until they have been valued on twice the worlds they had
#: in common (at most SETTLE_CAP × the budget more); then the estimate decides.
SETTLE_Z = 1.0
SETTLE_CAP = 32
#: Of the moves worth the same, the rule names the one worth most on REFER × the budget
#: worlds drawn from the position alone (:func:`reference_worlds`: a random generator seeded
#: with the seat's view and memory, not with the analysis's seed), the same worlds whatever
#: the seed; of moves worth the same there too, the first listed. Before, the rule was the
#: ``hard`` bot's own move, else the discard its valuation ranks first: between a ``hard``
#: and an ``expert`` bot that is the move played or the move most like it, which was most
#: often the lowest of the moves worth the same — the one whose place among them (within
#: NEAR of the leader or not) changed most with the seed, and whose loss against the move
#: played was closest to the line where it is called (bench/analyse.py's stability).
REFER = 2
#: Moves of the rest of a turn at most (:func:`end_turn`).
TURN_CAP = 40
#: The seat's turns a playout may take: in effect, to the end of the hand.
TO_THE_END = 10**6


def screen_worlds(budget: int) -> int:
    """Worlds of the first round, where every legal move is tried."""
    return max(4, budget // 4)


def margin(g: Game, seat: int, hand: int) -> float:
    """The hand's result for ``seat``: its team's points for hand ``hand`` (an index into
    ``g.results``) less the other teams' average, from the score sheet when the hand ended;
    else (a playout cut at :data:`PLAYOUT_CAP`) table points less the likely cost of the cards
    in hand (:func:`rum500.bots.expert.held_cost`)."""
    if len(g.results) > hand:
        scores: Sequence[float] = g.results[hand]["scores"]
    else:
        table = g.table_points()
        scores = [t - held_cost(h, g.options) for t, h in zip(table, g.hands, strict=True)]
    team = g.options.team
    mine = [s for s in range(g.players) if team(s) == team(seat)]
    others = [s for s in range(g.players) if team(s) != team(seat)]
    ours = sum(scores[s] for s in mine) / len(mine)
    theirs = sum(scores[s] for s in others) / len(others) if others else 0.0
    return ours - theirs


def finish(g: Game, seat: int, hand: int | None = None) -> float:
    """Play ``g`` (changed) to the end of hand ``hand`` (an index into ``g.results``; the
    hand under way unless given); that hand's :func:`margin` for ``seat``. A hand that has
    already ended (the move judged went out) is read from its score sheet as it stands: the
    next hand is never played."""
    hand = len(g.results) if hand is None else hand
    if len(g.results) == hand:
        playout(g, seat, turns=TO_THE_END, cap=PLAYOUT_CAP)
    return margin(g, seat, hand)


def worlds_of(view: Mapping, known: list[list[int]], rng: random.Random, n: int) -> list[Game]:
    """``n`` worlds consistent with ``view`` and the public memory ``known`` (fewer when the
    view cannot be reconciled with it: then without the memory)."""
    v = read_view(view)
    out: list[Game] = []
    tries = 0
    while len(out) < n and tries < 3 * n + 3:
        tries += 1
        w = determinize(v, known, rng) or determinize(v, _none(v), rng)
        if w is not None:
            out.append(w)
    return out


def _none(v: SeatView) -> list[list[int]]:
    return [[] for _ in range(v.players)]


def play(world: Game, action: Mapping, seat: int) -> Game | None:
    """A copy of ``world`` with ``action`` applied (a pass in the claim phase closes it);
    None when the world refuses it."""
    g = world.copy()
    try:
        if action.get("type") == "pass":
            g.apply({"type": "close_claims"})
        elif action.get("type") == "rummy":
            g.apply(dict(action), seat=seat)
        else:
            g.apply(dict(action))
    except IllegalMove:
        return None
    return g


def value(
    world: Game,
    action: Mapping,
    seat: int,
    rest: Sequence[Mapping] | None = None,
    memo: dict[str, list[dict]] | None = None,
) -> float | None:
    """What ``action`` is worth in ``world`` for ``seat`` (None: refused there): the rest of
    the seat's turn as the ``hard`` bot plays it (:func:`end_turn`; or ``rest``, that rest
    worked out once by :func:`rest_of_turn`), then the hand to its end with the playout
    policy. ``memo`` (a dict kept across the worlds of one decision): the rests of the turn
    :func:`end_turn` played, by the seat's view they started from (:func:`seen`) — the bot
    plays from that view alone, so a world that leaves the seat the same view (a draw from
    the stock of a card drawn in an earlier world) replays the rest instead of searching
    it again: the same value, found faster."""
    hand = len(world.results)  # the move or the rest of the turn may end it (going out)
    g = play(world, action, seat)
    if g is None:
        return None
    if rest is None or not _replay(g, rest):
        g = play(world, action, seat)
        assert g is not None
        if memo is None:
            end_turn(g, seat)
        else:
            g = _end_turn_memo(world, action, g, seat, memo)
    return finish(g, seat, hand)


def _end_turn_memo(
    world: Game, action: Mapping, g: Game, seat: int, memo: dict[str, list[dict]]
) -> Game:
    """``g`` (``action`` played in ``world``) with the rest of the seat's turn: the one
    ``memo`` has for the seat's view, else :func:`end_turn`'s (then kept in ``memo``)."""
    key = seen(g, seat)
    rest = memo.get(key)
    if rest is not None:
        if _replay(g, rest):
            return g
        g = play(world, action, seat)  # never so far: the same view, the same rest
        assert g is not None
    memo[key] = end_turn(g, seat)
    return g


def seen(g: Game, seat: int) -> str:
    """The seat's view of ``g`` as a key: all :func:`end_turn`'s bot plays from."""
    return json.dumps(g.view(seat), sort_keys=True, default=str)


def _replay(g: Game, rest: Sequence[Mapping]) -> bool:
    """Apply ``rest`` to ``g`` (changed); False (``g`` then half played) when it refuses one."""
    try:
        for a in rest:
            g.apply(dict(a))
    except IllegalMove:
        return False
    return True


def end_turn(g: Game, seat: int) -> list[dict]:
    """Play the rest of ``seat``'s turn in ``g`` (changed) with the ``hard`` bot, from the
    seat's view of that world: the playout policy plays a turn greedily (any lay-off first,
    an ace laid off low), and a move judged by what follows it would carry those slips.
    The moves played, in order."""
    bot = HardBot(seed=0)
    hand = len(g.results)
    done: list[dict] = []
    for _step in range(TURN_CAP):
        if g.turn != seat or g.phase is not Phase.PLAY or len(g.results) != hand:
            break
        a = bot.choose(g.view(seat))
        g.apply(a)
        done.append(dict(a))
    return done


def rest_of_turn(world: Game, action: Mapping, seat: int) -> tuple[list[dict] | None, str]:
    """The rest of the seat's turn after ``action`` as :func:`end_turn` plays it, and the
    position it leaves (:func:`outcome_key`), worked out in ``world``. Both are the same in
    every world of the decision: the hard bot plays from the seat's view, and no hidden card
    comes in sight — except after a draw from the stock (the card drawn differs): then the
    rest is None (each world plays it) and the key names the move alone. So too when
    ``world`` refuses the move."""
    alone = json.dumps(dict(action), sort_keys=True)
    if action.get("type") == "draw" and action.get("source") == "stock":
        return None, alone
    g = play(world, action, seat)
    if g is None:
        return None, alone
    rest = end_turn(g, seat)
    return rest, outcome_key(g)


def outcome_key(g: Game) -> str:
    """The position ``g`` is in, the melds' ids and order left out: two moves whose turns
    end in the same key are the same move in effect (melding 7H 8H 9H then laying off 10H,
    or the four at once; two made sets melded in either order)."""
    state = g.to_dict()
    for k in ("actions", "next_meld_id"):
        state.pop(k, None)
    state["hands"] = [sorted(h) for h in state["hands"]]
    melds = state.pop("melds", [])
    state["melds"] = sorted(
        json.dumps({k: v for k, v in m.items() if k != "id"}, sort_keys=True) for m in melds
    )
    return json.dumps(state, sort_keys=True)


@dataclass(slots=True)
class Verdict:
    """The analysis of one decision: the best move found, what the move played lost
    against it (points of the hand's score, ≥ 0) and that loss's standard error; ``ties``:
    the other moves the analysis could not tell from the best (:func:`race`)."""

    best: dict
    loss: float
    stderr: float
    played_value: float
    best_value: float
    candidates: int
    worlds: int
    ties: list[dict] = field(default_factory=list)
    #: the loss measured against the move played before the line of a mistake is drawn
    #: (:func:`called`; a loss called is then told again on fresh worlds, ``loss``): its
    #: value, standard error and worlds (0: nothing measured), and the move it was
    #: measured for
    measured: tuple[float, float, int] = (0.0, 0.0, 0)
    named: dict | None = None


def same_action(a: Mapping, b: Mapping) -> bool:
    """Whether two actions are the same move (as the bots compare them; a rummy call by its
    meld and joker)."""
    if a.get("type") == "rummy" and b.get("type") == "rummy":
        return a.get("meld") == b.get("meld") and a.get("joker") == b.get("joker")
    return dict(a) == dict(b) or action_key(a) == action_key(b)


def candidates_of(view: Mapping, played: Mapping) -> tuple[list[dict], int]:
    """The moves to compare (the view's legal actions; a pass too in the claim phase) and
    the index of the move played among them (added when the list lacks it)."""
    legal = [dict(a) for a in view.get("legal_actions") or ()]
    if view.get("phase") == "claim":
        legal.append({"type": "pass"})
    for k, a in enumerate(legal):
        if same_action(a, played):
            return legal, k
    legal.append(dict(played))
    return legal, len(legal) - 1


def judge(
    view: Mapping, known: list[list[int]], played: Mapping, budget: int, rng: random.Random
) -> Verdict:
    """Compare every move of the seat's view against the one ``played`` (see the module).
    Anything but a seat's view (the game, its full state) is refused:
    :class:`rum500.bots.seat.NotAView`."""
    seat = read_view(view).seat
    cands, mine = candidates_of(view, played)
    worlds = worlds_of(view, known, rng, budget)
    if not worlds:
        return Verdict(dict(played), 0.0, 0.0, 0.0, 0.0, len(cands), 0)
    s = _Search(view, known, rng, cands, seat, worlds[0], mine)
    half = max(1, len(worlds) // 2)
    s.fresh = half
    s.refer = REFER * budget
    s.measure_fresh = MEASURE_ROUND * budget
    chosen, judged = worlds[:half], worlds[half:] or worlds
    first = min(len(chosen), screen_worlds(budget))
    s.pool = list(chosen)
    table = {k: [s.value(w, k) for w in chosen[:first]] for k in s.moves}
    s.rediscard(table, chosen[:first])
    ranked = sorted(s.moves, key=lambda k: -_mean(table[k]))
    finalists = [k for k in ranked if _mean(table[k]) > -math.inf][:FINALISTS]
    if mine not in finalists:
        finalists.append(mine)
    for k in s.moves:
        table[k] += [s.value(w, k) if k in finalists else None for w in chosen[first:]]
    others = sorted((k for k in finalists if k != mine), key=lambda k: -_mean(table[k]))
    best = others[0] if others else mine
    loss, stderr, worlds = 0.0, 0.0, 0
    ties: list[int] = []
    if best != mine:  # the challenger against the move played, on worlds the choice did not see
        loss, stderr, worlds = s.measure(best, judged, rounds=1)
        for runner in s.runners_up(others):  # the same in every world: the move played there
            if loss or stderr:
                break
            loss, stderr, worlds = s.measure(runner, rounds=1)
            best = runner if loss or stderr else best
        if not _no_mistake(loss, stderr, 1):  # worth naming well before it is measured further
            named, ties, apart = s.confirm(best, table, CONFIRM_CAP * budget)
            fresh = named != best  # named in the challenger's place: the first round is not enough
            best = named
            loss, stderr, worlds = (
                s.measure(best, patient=apart, fresh=fresh) if best != mine else (0.0, 0.0, 0)
            )
    measured = (loss, stderr, worlds)
    named = cands[best]
    call = called(*measured)
    if call:  # told again on fresh worlds: the stop read the loss high
        best, ties, loss, stderr = s.again(best, ties, table, worlds)
    if not call or loss <= 0:  # no loss on the fresh worlds: no call either
        best, loss, stderr, ties = mine, 0.0, 0.0, []
    return Verdict(
        best=cands[best],
        loss=max(0.0, loss),
        stderr=stderr,
        played_value=_mean(table[mine]),
        best_value=_mean(table[best]),
        candidates=len(cands),
        worlds=half + s.judged,
        ties=[cands[k] for k in s.with_mates(best, ties)],
        measured=measured,
        named=named,
    )


class _Search:
    """One decision's moves and the worlds they are valued in. Each move's rest of the turn
    (:func:`rest_of_turn`) is worked out once; moves that end the turn in the same position
    are one move (``moves`` holds one of each: the move played when it is one of them, else
    the first listed); the others are ``mates`` of it."""

    def __init__(
        self,
        view: Mapping,
        known: list[list[int]],
        rng: random.Random,
        cands: list[dict],
        seat: int,
        world: Game,
        mine: int,
    ) -> None:
        self.view, self.known, self.rng, self.cands, self.seat = view, known, rng, cands, seat
        self.mine = mine
        self.fresh = 1  # worlds a round of the races
        self.measure_fresh = 1  # worlds a round of measuring after the first
        self.rests: list[list[dict] | None] = []
        groups: dict[str, list[int]] = {}
        for k, a in enumerate(cands):
            rest, key = rest_of_turn(world, a, seat)
            self.rests.append(rest)
            groups.setdefault(key, []).append(k)
        self.mates: dict[int, list[int]] = {}
        for members in groups.values():
            head = mine if mine in members else members[0]
            self.mates[head] = [k for k in members if k != head]
        self.moves = sorted(self.mates)
        self.measured: list[tuple[Game, float]] = []  # judging worlds, the move played's value
        self.rounds = self.judged = 0  # rounds of measuring done, worlds they sampled
        # the worlds of a table's values (the choice's, the races', a loss told again's)
        self.pool: list[Game] = []
        self.raced = 0  # worlds the races sampled
        self.spent = False  # the races sampled all they may (their cap)
        self.memo: dict[str, list[dict]] = {}  # the rests of the turn by view (:func:`value`)
        self.refer = 1  # worlds of the rule's sample (:meth:`reference`)
        self._reference: list[Game] | None = None
        self._worth: dict[str, float] = {}  # :meth:`worth`, by move and rest of its turn

    def value(self, w: Game, k: int) -> float | None:
        return value(w, self.cands[k], self.seat, self.rests[k], self.memo)

    def reference(self) -> list[Game]:
        """The rule's worlds (:func:`reference_worlds`, :attr:`refer` of them), drawn once."""
        if self._reference is None:
            self._reference = reference_worlds(self.view, self.known, self.refer)
        return self._reference

    def worth(self, k: int) -> float:
        """Move ``k``'s mean value on the rule's worlds (:meth:`reference`), as the rest
        of its turn now is (a meld's ending discard may change: then it is valued again)."""
        key = json.dumps([k, self.rests[k]], sort_keys=True)
        if key not in self._worth:
            self._worth[key] = _mean([self.value(w, k) for w in self.reference()])
        return self._worth[key]

    def rediscard(self, table: dict[int, list[float | None]], worlds: list[Game]) -> None:
        """A meld or lay-off whose rest of the turn ends with the hard bot's discard ends it
        instead with the discard this decision values best (the discards' ``table`` means)
        that is still in hand there: the move is judged by itself, not by the hard bot's
        choice of a discard (which the seat's next decision is judged for). Its ``table``
        values are taken again in ``worlds``."""
        order = sorted(self.discards(), key=lambda k: -_mean(table[k]))
        self.end_with(order, table, worlds)

    def runners_up(self, others: list[int]) -> list[int]:
        """The finalists after the challenger (``others``, best first) that may stand in for
        it when it is worth exactly what the move played is worth in every world of the
        first round: not the discards a meld or lay-off played ends its turn with when
        measured against them (:meth:`end_as`), which are worth what it is by design."""
        ends = self.my_endings()
        return [k for k in others[1:] if not any(same_action(self.cands[k], a) for a in ends)]

    def my_endings(self) -> list[dict]:
        """The discards the move played may end its turn with (:meth:`endings`, in the
        first world of the pool): none unless it is one of :meth:`meld_rests`."""
        if self.mine not in self.meld_rests():
            return []
        return self.endings(self.mine, self.pool[0])

    def discards(self) -> list[int]:
        return [k for k in self.moves if self.cands[k].get("type") == "discard"]

    def meld_rests(self) -> list[int]:
        """The melds and lay-offs whose rest of the turn ends with a discard."""
        out = []
        for k in self.moves:
            rest = self.rests[k]
            kind = self.cands[k].get("type")
            if kind in ("meld", "layoff") and rest and rest[-1].get("type") == "discard":
                out.append(k)
        return out

    def end_with(
        self, order: list[int], table: dict[int, list[float | None]], worlds: list[Game]
    ) -> None:
        """End each of :meth:`meld_rests` with the first discard of ``order`` the seat may
        make there; a move so changed has its ``table`` values (in ``worlds``, None kept
        None) and, the move played, its measured values taken again."""
        if not order or not worlds:
            return
        for k in self.meld_rests():
            legal = self.endings(k, worlds[0])
            d = next((d for d in order if any(same_action(self.cands[d], a) for a in legal)), None)
            if d is None or not self.end_turn_with(k, self.cands[d]):
                continue
            old = table[k]
            table[k] = [
                None if n < len(old) and old[n] is None else self.value(w, k)
                for n, w in enumerate(worlds[: len(old)])
            ]

    def endings(self, k: int, world: Game) -> list[dict]:
        """The discards move ``k`` (one of :meth:`meld_rests`) may end its turn with, as
        ``world`` plays it (none when the world refuses it)."""
        rest = self.rests[k]
        assert rest is not None
        g = play(world, self.cands[k], self.seat)
        if g is None or not _replay(g, rest[:-1]):
            return []
        return [a for a in g.legal_actions() if a.get("type") == "discard"]

    def end_turn_with(self, k: int, discard: Mapping) -> bool:
        """Move ``k`` (one of :meth:`meld_rests`) ending its turn with ``discard`` from now
        on; the move played has its measured values taken again. False when it already
        does."""
        rest = self.rests[k]
        assert rest is not None
        if same_action(discard, rest[-1]):
            return False
        self.rests[k] = [*rest[:-1], dict(discard)]
        if k == self.mine:
            self.measured = [
                (w, x) for w, _theirs in self.measured if (x := self.value(w, k)) is not None
            ]
        return True

    def confirm(
        self, best: int, table: dict[int, list[float | None]], cap: int
    ) -> tuple[int, list[int], bool]:
        """The best move of a decision that may be a mistake, confirmed (docs/analysis.md
        step 4): first the discard that the melds and lay-offs end their turn with is
        settled by a race of the discards (:meth:`race`); then every move, the one played
        too, races the challenger ``best``. The races sample at most ``cap`` worlds in all,
        the discards' at most half of them: the moves' race always has worlds of its own.
        The move played leading with every other move told apart or equal, or shown
        :func:`_equal` to the leader, is no mistake; leading when the races are spent
        (:attr:`spent`) with moves still within, its lead may be chance: the closest of
        them (or the move :meth:`prefer` names among it and those worth the same) is named
        and measured (before, that lead was no mistake: at budget 32, 2 of the 61 decisions
        the stability runs disagreed on); else of the leader and the other moves worth the
        same as it (:meth:`alike`), the one :func:`preferred` names. ``(that move, the
        others still within RACE standard errors of the leader, whether the race told the
        move played apart from the leader)``."""
        if self.meld_rests():
            discards = [k for k in self.discards() if _mean(table[k]) > -math.inf]
            if discards:
                top = max(discards, key=lambda k: _mean(table[k]))
                lead, close = self.settle(*self.race(top, discards, table, cap // 2), table)
                lead = self.prefer(lead, close, table)
                order = [lead, *sorted(discards, key=lambda k: -_mean(table[k]))]
                self.end_with(order, table, self.pool)
                self.spent = False  # that race's half: the moves' race has the rest
        runners = [k for k in self.moves if _mean(table[k]) > -math.inf]
        if best not in runners:
            runners.append(best)
        lead, close = self.settle(*self.race(best, runners, table, cap), table)
        if self.mine == lead and self.spent:
            # the races spent with the move played ahead of moves they could not tell from
            # it: its lead may be chance, so the closest of them is measured against it
            rivals = [k for k in close if not _equal(table[k], table[lead])]
            if rivals:
                runner = max(rivals, key=lambda k: _paired(table[k], table[lead])[0])
                named = self.prefer(runner, [k for k in rivals if k != runner], table)
                return named, sorted(set(rivals) - {named}), False
        if self.mine == lead or (self.mine in close and _equal(table[self.mine], table[lead])):
            return self.mine, [], False
        others = [k for k in close if k != self.mine]
        named = self.prefer(lead, others, table)
        return named, sorted({lead, *others} - {named}), self.mine not in close

    def alike(self, lead: int, close: list[int], table: dict[int, list[float | None]]) -> list[int]:
        """The moves of ``close`` worth the same as ``lead``: shown :func:`_equal` to it, or,
        once the races have sampled all they may (:attr:`spent`), within :data:`NEAR`
        points of it (:func:`_near`)."""
        return [
            k
            for k in close
            if _equal(table[k], table[lead]) or (self.spent and _near(table[k], table[lead]))
        ]

    def settle(
        self, lead: int, close: list[int], table: dict[int, list[float | None]]
    ) -> tuple[int, list[int]]:
        """Once the races are spent, the moves of ``close`` whose paired difference from
        ``lead`` is within :data:`SETTLE_Z` standard errors of :data:`NEAR` either way
        (:func:`_unsettled`) and ``lead`` are valued on fresh worlds until none is (or
        they have twice the worlds in common they had, at most :data:`SETTLE_CAP` × the
        budget more). ``(the leader, the moves still within)`` of ``lead`` and ``close``."""
        group = sorted({lead, *close})
        todo = [k for k in close if _unsettled(table[k], table[lead])]
        if not self.spent or not todo:
            return lead, close
        start = max(len(_diffs(table[k], table[lead])) for k in todo)
        cap = min(start, SETTLE_CAP * 2 * self.fresh)
        extra = 0
        while todo and extra < cap:
            extra += len(self.sample(table, {lead, *todo}, self.fresh))
            lead = _leader(table, group, lead)
            close = _close({k: table[k] for k in group}, lead)
            todo = [k for k in close if _unsettled(table[k], table[lead])]
        return lead, close

    def prefer(self, lead: int, close: list[int], table: dict[int, list[float | None]]) -> int:
        """``lead``, or when moves still ``close`` to it are worth the same as it
        (:meth:`alike`), the one of them and ``lead`` that the rule names: the highest
        :meth:`worth` on the worlds drawn from the position alone, the same whatever the
        seed (:data:`REFER`); of equals, the first listed."""
        equal = self.alike(lead, close, table)
        if not equal:
            return lead
        return max(sorted([lead, *equal]), key=self.worth)

    def with_mates(self, best: int, ties: list[int]) -> list[int]:
        """``ties`` and the moves that are ``best`` in effect (none when it is the move
        played: then nothing was lost)."""
        if best == self.mine:
            return []
        return sorted({*ties, *self.mates.get(best, [])} - {best})

    def measure(
        self,
        k: int,
        judged: list[Game] | None = None,
        rounds: int = 0,
        patient: bool = False,
        fresh: bool = False,
    ) -> tuple[float, float, int]:
        """Move ``k`` against the move played: on the worlds of the rounds already measured
        (for another challenger: the move played's values are kept), then on ``judged`` and
        fresh worlds (:attr:`measure_fresh` a round) until :func:`_no_mistake` or :func:`_mistake`,
        or ``rounds`` rounds in all (else 1 + :data:`MORE_ROUNDS`, and up to
        :data:`DOUBT_ROUNDS` more while the call is :func:`_in_doubt`). ``patient`` (the
        race told the move played apart from ``k``): a loss :data:`NONE_Z` standard errors
        below zero does not end it, only one :data:`CLEAR` below (:func:`_no_mistake` as
        after the first round). ``fresh`` (``k`` is not the challenger the first round
        measured: the confirmation named another move): the first round's worlds alone never
        end it — sixteen worlds at budget 32 against the race's hundreds.
        ``(loss, stderr, the worlds measured)``."""
        self.end_as(k)
        diffs = []
        for w, theirs in self.measured:
            ours = self.value(w, k)
            if ours is not None:
                diffs.append(ours - theirs)
        loss, stderr = _mean_and_error(diffs)
        cap = rounds or 1 + MORE_ROUNDS
        doubt = 0 if rounds else cap + DOUBT_ROUNDS
        while self.rounds < cap or (self.rounds < doubt and _in_doubt(loss, stderr)):
            if self.rounds > fresh and (
                _no_mistake(loss, stderr, 1 if patient or len(diffs) < EARLY else self.rounds)
                or _mistake(loss, stderr, self.rounds)
            ):
                break
            batch = judged or worlds_of(self.view, self.known, self.rng, self.measure_fresh)
            judged = None
            for w in batch:
                ours, theirs = self.value(w, k), self.value(w, self.mine)
                if ours is not None and theirs is not None:
                    diffs.append(ours - theirs)
                    self.measured.append((w, theirs))
            self.judged += len(batch)
            self.rounds += 1
            loss, stderr = _mean_and_error(diffs)
        return loss, stderr, len(diffs)

    def again(
        self, k: int, ties: list[int], table: dict[int, list[float | None]], n: int
    ) -> tuple[int, list[int], float, float]:
        """A loss called, told again: move ``k``, its ``ties`` and the move played valued
        on ``n`` fresh worlds (as many as the measuring took). The measuring stops as soon
        as the loss stands 4 standard errors clear, so the worlds that stopped it read it
        high; these have not been chosen by a stop. On the race's worlds and these
        together, ``k`` stands unless they tell it apart from the leader of it and its ties
        and it is not worth the same as that leader (:meth:`alike`); then the leader, or the
        move the rule names among it and those worth the same (:meth:`prefer`; a meld or
        lay-off played then ends its turn with it, :meth:`end_as`), is named in its place.
        The move named, and its loss against the move played on these worlds alone. At
        budget 32, on both sets of the stability benchmark's matches (bench/analyse.py's
        stability), the other seed repeated 89.1% of the calls (701 of 787) against 87.3%
        (751 of 860) without these worlds, for about half again the CPU. Before ``k`` stood
        unless told apart, the move was named again every time: the rule names one move the
        same at every seed, but which move led these worlds and the race's changed with the
        seed (on 35 matches, 91.4% of the calls repeated, 639 of 699, against 90.3%, 634
        of 702). ``(that move, the other moves still tied with it, loss, stderr)``."""
        group = [k, *ties]
        start = len(table[k])
        worlds = self.sample(table, set(group), n)
        self.judged += n
        named = k
        if ties:  # those the worlds together tell apart from the move named are ties no more
            values = {m: table[m] for m in group}
            lead = _leader(table, group, k)
            close = _close(values, lead)
            if lead == k or k in close or self.alike(lead, [k], table):
                # not told apart from the leader, or worth the same as it: the name stands
                ties = sorted({*_close(values, k), lead} - {k})
            else:
                lead, close = self.settle(lead, close, table)
                named = self.prefer(lead, close, table)
                ties = sorted({lead, *close} - {named})
                self.end_as(named)  # a meld played ends its turn with the discard now named
        mine = [self.value(w, self.mine) for w in worlds]
        loss, stderr = _paired(table[named][start : start + n], mine)
        return named, ties, loss, stderr

    def end_as(self, k: int) -> None:
        """When the move played is one of :meth:`meld_rests` and ``k``, the move it is
        measured against, a discard it may end its turn with, end it with that discard (its
        measured values taken again): the loss is then that of melding or laying off at all,
        the two moves' worlds parting only there, not that and a discard chosen without the
        move (before, at budget 32, 13 of the 34 calls a second seed did not repeat on
        twenty matches the analysis was not tuned on were a meld or lay-off played, a
        discard named better; in the two looked into, the seed that called it had charged
        the meld with another discard than the one it named — a meld of 7s ended with 9D
        against discarding 2H was a loss of 8.6, ended with 2H one of 0.8)."""
        end = self.cands[k]
        if end.get("type") == "discard" and any(same_action(end, a) for a in self.my_endings()):
            self.end_turn_with(self.mine, end)

    def sample(self, table: dict[int, list[float | None]], now: set[int], n: int) -> list[Game]:
        """``n`` fresh worlds, added to :attr:`pool` and to ``table``: the moves of ``now``
        valued in them, the others None there. Returns the worlds."""
        worlds = worlds_of(self.view, self.known, self.rng, n)
        for w in worlds:
            self.pool.append(w)
            for k in table:
                table[k].append(self.value(w, k) if k in now else None)
        return worlds

    def race(
        self, best: int, runners: list[int], table: dict[int, list[float | None]], cap: int
    ) -> tuple[int, list[int]]:
        """Which of ``runners`` (the challenger ``best`` among them) is best: those within
        :data:`RACE` standard errors of the leader (the paired difference, over the worlds
        of ``table``) and not shown :func:`_equal` to it are valued again on fresh worlds
        (:attr:`fresh` a round, added to :attr:`pool` and ``table``) while any is and the
        races have sampled fewer than ``cap`` worlds; the leader is the runner the others'
        paired differences are all below. ``(the leader, the runners still within)``."""
        group = sorted({best, *runners})
        leader = _leader(table, group, best)
        close = _close({k: table[k] for k in group}, leader)
        while any(not _equal(table[k], table[leader]) for k in close):
            if self.raced >= cap:
                self.spent = True
                break
            now = {leader, *close}
            self.raced += len(self.sample(table, now, self.fresh))
            leader = _leader(table, sorted(now), leader)
            close = _close({k: table[k] for k in now}, leader)
        return leader, close


def reference_worlds(view: Mapping, known: list[list[int]], n: int) -> list[Game]:
    """``n`` worlds drawn as :func:`worlds_of` draws them, from a random generator seeded
    with the position alone (the seat's view and memory, hashed): the same worlds for the same
    position whatever the analysis's seed — the worlds the rule of :meth:`_Search.prefer`
    names a move on."""
    text = json.dumps([dict(view), known], sort_keys=True, default=str)
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    return worlds_of(view, known, random.Random(seed), n)


def _leader(table: dict[int, list[float | None]], group: list[int], start: int) -> int:
    """The move of ``group`` whose paired difference from ``start`` is highest (``start``
    itself when none is above it); then, from that one, again until no move is above."""
    leader = start
    for _step in range(len(group)):
        ahead = {
            k: m for k in group if k != leader and (m := _paired(table[k], table[leader])[0]) > 0
        }
        if not ahead:
            break
        leader = max(ahead, key=lambda k: ahead[k])
    return leader


def _diffs(xs: Sequence[float | None], ys: Sequence[float | None]) -> list[float]:
    """``x - y`` in each world where both have a value."""
    return [a - b for a, b in zip(xs, ys, strict=False) if a is not None and b is not None]


def _paired(xs: Sequence[float | None], ys: Sequence[float | None]) -> tuple[float, float]:
    """The mean and standard error of ``x - y`` over the worlds where both have a value."""
    return _mean_and_error(_diffs(xs, ys))


def _no_mistake(loss: float, stderr: float, rounds: int) -> bool:
    """Clearly no mistake after ``rounds`` rounds of measuring: the challenger more than
    :data:`CLEAR` standard errors below the move played (or, with no spread, not above it);
    from the second round on, more than :data:`NONE_Z` standard errors below it (the
    measuring passes ``rounds`` 1 while it has fewer than :data:`EARLY` worlds)."""
    if -loss > CLEAR * stderr or (loss <= 0 and not stderr):
        return True
    return rounds >= 2 and -loss > NONE_Z * stderr


def _mistake(loss: float, stderr: float, rounds: int) -> bool:
    """Clearly a mistake: from the second round on, beyond :data:`CONFIRM` standard errors."""
    return rounds >= 2 and loss > CONFIRM * stderr


def called(loss: float, stderr: float, worlds: int) -> bool:
    """Whether a loss measured on ``worlds`` worlds is called a mistake: above zero and
    more than :data:`MISTAKE` standard errors above it — :data:`LONG_Z` once the worlds are
    :data:`LONG` or more."""
    line = LONG_Z if worlds >= LONG else MISTAKE
    return loss > 0 and loss > line * stderr


def _in_doubt(loss: float, stderr: float) -> bool:
    """Whether the call of a loss is in doubt: between :data:`DOUBT_FROM` and
    :data:`CONFIRM` standard errors above zero, about the :data:`MISTAKE` line."""
    return stderr > 0 and DOUBT_FROM * stderr <= loss <= CONFIRM * stderr


def _close(values: dict[int, list[float | None]], leader: int) -> list[int]:
    """The moves whose paired difference from ``leader`` is within :data:`RACE` standard
    errors of zero, or measured on fewer than :data:`APART` worlds in common (none: not
    measured, left out)."""
    out = []
    for k, xs in values.items():
        if k == leader:
            continue
        pairs = _diffs(values[leader], xs)
        if not pairs:
            continue
        mean, error = _mean_and_error(pairs)
        if mean <= RACE * error or len(pairs) < APART:
            out.append(k)
    return sorted(out)


def _equal(xs: Sequence[float | None], ys: Sequence[float | None]) -> bool:
    """Whether two moves are shown worth the same: on at least :data:`APART` worlds in
    common, their paired difference is within :data:`EQUAL` points of zero with
    :data:`EQUAL_Z` standard errors to spare."""
    pairs = _diffs(xs, ys)
    if len(pairs) < APART:
        return False
    mean, error = _mean_and_error(pairs)
    return abs(mean) + EQUAL_Z * error <= EQUAL


def _near(xs: Sequence[float | None], ys: Sequence[float | None]) -> bool:
    """Whether two moves, on at least :data:`APART` worlds in common, are within
    :data:`NEAR` points of each other (their mean paired difference; no margin)."""
    pairs = _diffs(xs, ys)
    return len(pairs) >= APART and abs(_mean_and_error(pairs)[0]) <= NEAR


def _unsettled(xs: Sequence[float | None], ys: Sequence[float | None]) -> bool:
    """Whether two moves' paired difference (on at least :data:`APART` worlds in common,
    not shown :func:`_equal`) is within :data:`SETTLE_Z` standard errors of :data:`NEAR`
    either way: whether they are within NEAR points of each other is not yet settled."""
    pairs = _diffs(xs, ys)
    if len(pairs) < APART or _equal(xs, ys):
        return False
    mean, error = _mean_and_error(pairs)
    return abs(abs(mean) - NEAR) < SETTLE_Z * error


def _mean(xs: Sequence[float | None]) -> float:
    vals = [x for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else -math.inf


def _mean_and_error(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (0 for fewer than two)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


# --------------------------------------------------------------------------- luck


def deal_luck(
    view: Mapping, known: list[list[int]], worlds: int, rng: random.Random
) -> tuple[float, float]:
    """What the seat's deal was worth against an average deal: the mean :func:`margin` of
    the hand played out from ``view`` (its own cards as dealt, the others' sampled), less
    the mean of the same from wholly random deals (every hand, the upcard and the stock
    re-dealt; the same dealer, so the same seat plays first). ``(points, standard error)``."""
    seat = int(view["seat"])
    actual = [finish(w, seat) for w in worlds_of(view, known, rng, worlds)]
    average = []
    for w in worlds_of(view, known, rng, worlds):
        average.append(finish(_redealt(w, rng), seat))
    a, ea = _mean_and_error(actual)
    b, eb = _mean_and_error(average)
    return a - b, math.sqrt(ea * ea + eb * eb)


def _redealt(w: Game, rng: random.Random) -> Game:
    """``w`` (at a hand's start) with every card but those on the table dealt anew."""
    state = w.to_dict()
    cards = [c for h in state["hands"] for c in h] + state["stock"] + state["discard_pile"]
    rng.shuffle(cards)
    sizes = [len(h) for h in state["hands"]]
    hands, at = [], 0
    for n in sizes:
        hands.append(cards[at : at + n])
        at += n
    pile = len(state["discard_pile"])
    state["discard_pile"] = cards[at : at + pile]
    state["stock"] = cards[at + pile :]
    state["hands"] = hands
    return Game.from_dict(state)


def draw_luck(
    view: Mapping, known: list[list[int]], card: str, worlds: int, rng: random.Random
) -> tuple[float, float]:
    """What drawing ``card`` from the stock was worth against an average card from it: in
    each world sampled from ``view`` (before the draw), the hand played out after drawing
    ``card`` (put on top of the world's stock) less the same after drawing the world's own
    top card (a random unseen card). ``(points, standard error)``."""
    seat = int(view["seat"])
    want = C.parse(card)
    draw = {"type": "draw", "source": "stock"}
    diffs = []
    memo: dict[str, list[dict]] = {}
    for w in worlds_of(view, known, rng, worlds):
        lucky = _on_top(w, seat, want, known)
        if lucky is None:
            continue
        actual = value(lucky, draw, seat, memo=memo)
        average = value(w, draw, seat, memo=memo)
        if actual is not None and average is not None:
            diffs.append(actual - average)
    return _mean_and_error(diffs)


def _on_top(w: Game, seat: int, card: int, known: list[list[int]]) -> Game | None:
    """``w`` with ``card`` on top of the stock, swapped with wherever the world had it (the
    stock, or an opponent's unknown cards); None when it is nowhere it could be."""
    state = w.to_dict()
    name = C.name(card)
    stock = state["stock"]
    if not stock:
        return None
    if name in stock:
        k = stock.index(name)
        stock[k], stock[-1] = stock[-1], stock[k]
        return Game.from_dict(state)
    for s, hand in enumerate(state["hands"]):
        if s == seat or name not in hand:
            continue
        if hand.count(name) <= C.names(known[s]).count(name):
            continue  # only a card the seat knows it holds: not this one
        hand[hand.index(name)] = stock[-1]
        stock[-1] = name
        return Game.from_dict(state)
    return None
