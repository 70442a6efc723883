"""Issue 24's stability goal: two runs with different seeds name the same best move. The
worlds go where the call is in doubt (a loss is never called on one round of worlds, and a
loss in doubt is measured further), the rest of a turn is worked out once per move, and
moves that end the turn in the same position are one move."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rum500 import cards as C
from rum500.coach import search as S
from rum500.coach.analysis import analyse_decision
from tests.coach.conftest import position

LOOSE = position(["2S", "4D", "9C", "JH", "KS", "QD", "7H"], ["3S", "5S", "8D"], ["2C", "9S"])
PLAYED = {"type": "discard", "card": "KS"}
CHALLENGER = {"type": "discard", "card": "2S"}


def _numbering() -> Callable[[object], int]:
    """Number each world in the order it is first valued (0, 1, …)."""
    seen: dict[int, int] = {}
    keep: list[object] = []  # the worlds stay alive, so their ids stay theirs

    def number(w: object) -> int:
        if id(w) not in seen:
            seen[id(w)] = len(seen)
            keep.append(w)
        return seen[id(w)]

    return number


def _scripted(monkeypatch: pytest.MonkeyPatch, later: list[float], first: list[float]) -> None:
    """Value the move played 0 and every move but the challenger -100 in every world; the
    challenger +10 in the worlds of the choice (budget 8: the first 4 worlds sampled), then
    ``first`` in the next 4 (the first round of the measuring) and ``later`` over and over."""
    number = _numbering()

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        n = number(w)
        if S.same_action(action, PLAYED):
            return 0.0
        if not S.same_action(action, CHALLENGER):
            return -100.0
        if n < 4:
            return 10.0
        if n < 8:
            return first[n - 4]
        return later[(n - 8) % len(later)]

    monkeypatch.setattr(S, "value", value)


def test_a_loss_is_never_called_on_one_round_of_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first round shows a loss of 12 at 3.8 standard errors (called at once before:
    beyond 3); the next round takes it back to 0: no mistake."""
    _scripted(monkeypatch, first=[20, 8, 14, 6], later=[-20, -8, -14, -6])
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == PLAYED and v.loss == 0.0
    assert v.worlds == 4 + 4  # the choice's worlds, one round; the race shows it no mistake


def test_a_loss_in_doubt_is_measured_further_before_it_is_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first worlds show a loss of 6 at 2.6 standard errors (called before: beyond 2
    after five rounds); later worlds show no difference. The loss stays between 1 and 4
    standard errors above zero, in doubt, so it is measured through the doubt rounds too
    (rounds of 2 × the budget after the first) — and is then too close to zero to be
    called."""
    _scripted(monkeypatch, first=[16, -4, 14, -2], later=[16, -4, 14, -2] * 4 + [10, -10] * 38)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == PLAYED and v.loss == 0.0
    rounds = S.MORE_ROUNDS + S.DOUBT_ROUNDS
    assert v.worlds == 4 + 4 + S.MEASURE_ROUND * 8 * rounds


def test_a_clear_loss_is_still_called(monkeypatch: pytest.MonkeyPatch) -> None:
    _scripted(monkeypatch, first=[16, 4, 14, 6], later=[16, 4, 14, 6])
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == CHALLENGER and v.loss == pytest.approx(10.0)
    measured = 4 + S.MEASURE_ROUND * 8  # beyond 4 standard errors after round 2
    assert v.measured[2] == measured
    assert v.worlds == 4 + measured + measured  # and as many fresh worlds to tell it again


def test_a_loss_back_at_zero_for_a_round_is_measured_on() -> None:
    """From the second round on, a loss ends the measuring as no mistake only once it is
    more than 1 standard error below zero, not as soon as it is no longer above zero (one
    unlucky round at zero dropped a mistake the other seed called); a loss in doubt is
    measured on from 1 standard error above zero."""
    assert not S._no_mistake(-0.5, 2.0, 2) and not S._no_mistake(0.0, 2.0, 3)
    assert S._no_mistake(-2.5, 2.0, 2)
    assert not S._no_mistake(-2.5, 2.0, 1)  # the first round: only 2 standard errors below
    assert S._in_doubt(2.5, 2.0) and not S._in_doubt(1.5, 2.0) and not S._in_doubt(8.5, 2.0)


def test_one_round_of_sixteen_worlds_ends_the_analysis_only_3_standard_errors_below() -> None:
    """Sixteen worlds seldom see the rare world where two moves part by a hundred points,
    so their standard error is often too small: the first round ends the analysis as no
    mistake only when the challenger is more than 3 standard errors below the move played
    (at 2, about one in six of the runs that called no mistake where another seed called one
    stopped there)."""
    assert not S._no_mistake(-5.5, 2.0, 1) and S._no_mistake(-6.5, 2.0, 1)
    assert S._no_mistake(-2.5, 2.0, 2)  # later rounds: 1 standard error below, as before


def test_a_race_tells_a_move_apart_only_4_standard_errors_below_the_leader() -> None:
    """A race looks again after every round, so at 3 standard errors a close move was now
    and then told apart by chance by one seed and not by the other: a move 3.5 standard
    errors below the leader stays in the race, one 4.5 below is out."""
    spread = [10.0, -10.0] * 50  # a paired difference's standard error of 1.005 points
    leader = [0.0] * 100
    near = [-3.5 + x for x in spread]
    far = [-4.5 + x for x in spread]
    assert S._close({0: leader, 1: near, 2: far}, 0) == [1]


#: seat 0 holds four sevens and 7H 8H 9H 10H (the sevens and the run share 7H); seat 1
#: goes out on its next turn (5S 6S, known, on 2S 3S 4S): holding the melds back is a big loss
SEVENS = position(
    ["7S", "7D", "7C", "7H", "8H", "9H", "10H", "KS", "QD"],
    ["5S", "6S"],
    ["2C", "9S"],
    melds=[["2S", "3S", "4S"]],
)
GOES_OUT = [[], C.parse_many(["5S", "6S"])]


def meld(*cards: str) -> dict:
    return {"type": "meld", "cards": list(cards)}


#: each group ends the turn in one position (the rest of the turn as the hard bot plays it:
#: the other meld, a lay-off of 10H, then the discard of KS)
RUN_WITH_7H = [meld("7H", "8H", "9H"), meld("7H", "8H", "9H", "10H"), meld("7S", "7D", "7C")]
SEVENS_WITH_7H = [meld("8H", "9H", "10H"), meld("7S", "7H", "7D", "7C")]


def _count_bot_choices(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time the hard bot of the rest of a turn chooses."""
    asked: list[int] = []

    class Counting(S.HardBot):
        def choose(self, view):  # type: ignore[no-untyped-def]
            asked.append(1)
            return super().choose(view)

    monkeypatch.setattr(S, "HardBot", Counting)
    return asked


def test_the_rest_of_a_turn_is_worked_out_once_per_move_not_per_world(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hard bot plays the rest of the turn from the seat's view, the same in every
    world: it is asked as often at budget 8 as at budget 32 (before: once a world), and
    each world's value is the one it has with the rest played there."""
    asked = _count_bot_choices(monkeypatch)
    counts = []
    for budget in (8, 32):
        asked.clear()
        analyse_decision(SEVENS.view(0), GOES_OUT, PLAYED, budget=budget, seed=4)
        counts.append(len(asked))
    assert counts[0] == counts[1]
    worlds = S.worlds_of(SEVENS.view(0), GOES_OUT, random.Random(1), 4)
    for action in RUN_WITH_7H + SEVENS_WITH_7H:
        rest, _key = S.rest_of_turn(worlds[0], action, 0)
        assert rest  # the turn goes on after the meld: another meld, a lay-off, a discard
        for w in worlds:
            assert S.value(w, action, 0, rest) == S.value(w, action, 0)


#: seat 0 to draw: the stock or the 9S (the rest of the turn after a stock draw depends on
#: the card drawn, so each world plays it — or replays the one of an earlier world that
#: drew the same card)
DRAWING = position(
    ["7S", "7D", "8H", "9H", "KS", "QD", "4C"], ["5S", "6S"], ["2C", "9S"], phase="draw"
)
STOCK = {"type": "draw", "source": "stock"}


def test_a_stock_draw_replays_the_rest_of_the_turn_of_a_card_drawn_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rest of the turn after a stock draw is the hard bot's from the seat's view: kept
    by that view, it is replayed in a world that draws the same card — each world's value
    is the one it has with the rest played there, the verdict is the same as without the
    memo, and the bot plays one rest per card drawn, not one per world."""
    worlds = S.worlds_of(DRAWING.view(0), GOES_OUT, random.Random(3), 60)
    memo: dict[str, list[dict]] = {}
    for w in worlds:
        assert S.value(w, STOCK, 0, None, memo) == S.value(w, STOCK, 0)
    drawn = {w.stock[-1] for w in worlds}
    assert 1 < len(memo) == len(drawn) < len(worlds)

    asked = _count_bot_choices(monkeypatch)
    real = S.value

    def without_memo(w, a, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        return real(w, a, seat, rest)

    verdicts, counts = [], []
    for memo_on in (True, False):
        asked.clear()
        if not memo_on:
            monkeypatch.setattr(S, "value", without_memo)
        verdicts.append(analyse_decision(DRAWING.view(0), GOES_OUT, STOCK, budget=64, seed=2))
        counts.append(len(asked))
    assert verdicts[0] == verdicts[1]
    assert counts[0] < counts[1]


def test_moves_that_end_the_turn_alike_are_one_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Melding 7H 8H 9H, all four hearts or three sevens (the hard bot melds the rest and
    lays off 10H): the turn ends in the same position, so of such moves one only is valued
    (before: each), and when it is the best the others are its ties."""
    view = SEVENS.view(0)
    world = S.worlds_of(view, GOES_OUT, random.Random(1), 1)[0]

    def end(a: dict) -> str:
        return S.rest_of_turn(world, a, 0)[1]

    assert len({end(a) for a in RUN_WITH_7H}) == len({end(a) for a in SEVENS_WITH_7H}) == 1
    assert end(RUN_WITH_7H[0]) != end(SEVENS_WITH_7H[0])
    valued: list[dict] = []
    real = S.value

    def spy(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if action not in valued:
            valued.append(dict(action))
        return real(w, action, seat, rest, memo)

    monkeypatch.setattr(S, "value", spy)
    v = analyse_decision(view, GOES_OUT, PLAYED, budget=8, seed=2)
    legal = view["legal_actions"]
    assert len(valued) == len({end(a) for a in legal}) < len(legal)
    assert len({end(a) for a in valued}) == len(valued)
    assert v.loss > 0 and v.best["type"] == "meld"
    alike = [a for a in legal if a != v.best and end(a) == end(v.best)]
    assert alike and all(a in v.ties for a in alike)


def test_the_close_finalists_race_before_the_loss_is_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S looks best in the worlds of the choice, 4D close behind; after one round
    2S is no clear loss, so before it is measured further the two race on fresh worlds: 4D
    is far better there, and it is the best move (before: 2S was measured to the end, no
    mistake, and the move played stood)."""
    other = {"type": "discard", "card": "4D"}
    number = _numbering()

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        n = number(w)
        if S.same_action(action, PLAYED):
            return 0.0
        if S.same_action(action, CHALLENGER):
            return [12, 8, 14, 6][n] if n < 4 else [6, -2, 4, -4][n % 4]
        if S.same_action(action, other):
            return [14, 2, 12, 4][n] if n < 4 else [30, 26, 34, 30][n % 4]
        return -100.0

    monkeypatch.setattr(S, "value", value)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == other and v.loss == pytest.approx(30.0)


#: seat 0 lays off 7H and 8H on 4H 5H 6H, then discards: the hard bot would throw a high card
LAYS_OFF = position(["7H", "8H", "KS", "QD", "2D", "9C"], ["3S", "5S"], ["2C"],
                    melds=[["4H", "5H", "6H"]])  # fmt: skip
#: the lay-off of LAYS_OFF the tests judge
LAY_OFF_7H = {"type": "layoff", "card": "7H", "meld": 0}


def test_a_lay_off_is_judged_with_the_discard_the_decision_values_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rest of the turn after a meld or lay-off ends with the discard this decision
    values best (here 2D), not the hard bot's: the lay-off is judged by itself."""
    view = LAYS_OFF.view(0)
    assert LAY_OFF_7H in view["legal_actions"]
    world = S.worlds_of(view, [[], []], random.Random(1), 1)[0]
    hards = S.rest_of_turn(world, LAY_OFF_7H, 0)[0]
    assert hards and hards[-1] != {"type": "discard", "card": "2D"}
    rests: list[list[dict]] = []

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, LAY_OFF_7H):
            rests.append(list(rest or []))
            return 0.0
        return 5.0 if action == {"type": "discard", "card": "2D"} else -10.0

    monkeypatch.setattr(S, "value", value)
    analyse_decision(view, [[], []], LAY_OFF_7H, budget=8, seed=1)
    assert rests and rests[-1] == [*hards[:-1], {"type": "discard", "card": "2D"}]


def _noisy(w: object, salt: str) -> float:
    """A world's own noise for a move (the same world, the same noise): the sampled stock
    order seeds it, so runs with different seeds see different noise."""
    return random.Random(f"{w.to_dict()['stock']}:{salt}").gauss(0.0, 1.0)  # type: ignore[attr-defined]


def _two_noisy(other: dict, mine: float, theirs: float, spread: float) -> Callable[..., float]:
    """A scripted value: the move played 0, discarding 2S (CHALLENGER) ``mine`` and
    ``other`` ``theirs``, each with ``spread`` × its own noise in each world (:func:`_noisy`,
    salted with the card), every other move -100."""

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, PLAYED):
            return 0.0
        if S.same_action(action, CHALLENGER):
            return mine + spread * _noisy(w, CHALLENGER["card"])
        if S.same_action(action, other):
            return theirs + spread * _noisy(w, other["card"])
        return -100.0

    return value


def _rule(view: dict, value: Callable[..., float], moves: list[dict], budget: int = 8) -> dict:
    """The move of ``moves`` the rule names among moves worth the same: the one ``value``
    (a test's scripted one) puts highest on the worlds drawn from the position alone."""
    worlds = S.reference_worlds(view, [[], []], S.REFER * budget)
    return max(moves, key=lambda a: sum(value(w, a, 0) for w in worlds) / len(worlds))


def _rule_favours(monkeypatch: pytest.MonkeyPatch, move: dict) -> None:
    """Script the rule (:meth:`rum500.coach.search._Search.worth`): ``move`` is worth most
    on the position's own worlds, every other move less; no world is valued for it."""

    def worth(self, k):  # type: ignore[no-untyped-def]
        return 1.0 if S.same_action(self.cands[k], move) else 0.0

    monkeypatch.setattr(S._Search, "worth", worth)


def test_moves_the_analysis_cannot_tell_apart_are_named_alike_whatever_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S or 4D is worth the same (+10 over the move played, with each world's
    noise): the race cannot separate them but shows them equal, and the move named best is
    the one the seed-independent rule names (the higher on the worlds drawn from the
    position alone, :func:`rum500.coach.search.reference_worlds`), the other its tie — the
    same at every seed (before: whichever led the race, which changed with the seed)."""
    other = {"type": "discard", "card": "4D"}

    value = _two_noisy(other, 10.0, 10.0, 1.0)

    monkeypatch.setattr(S, "value", value)
    view = LOOSE.view(0)
    named = [analyse_decision(view, [[], []], PLAYED, budget=8, seed=s) for s in range(1, 7)]
    assert {v.loss > 0 for v in named} == {True}
    rule = _rule(view, value, [CHALLENGER, other])
    assert all(v.best == rule for v in named)
    assert all(v.ties == [other if rule == CHALLENGER else CHALLENGER] for v in named)


def test_a_lay_off_ends_its_turn_with_the_discard_the_race_settles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Laying off 7H costs nothing by itself: the lay-off is worth what the discard that ends
    its turn is worth. Discarding 9C looks best in the first worlds only; 2D is better.
    A mistake in doubt has the discards race first, and the lay-off ends its turn with the
    winner, 2D: no mistake (before: the lay-off kept 9C, the first worlds' best discard, and
    was called a loss of 25 against discarding 2D)."""

    def discard(card: str, n: int) -> float:
        if card == "2D":
            return 5.0
        if card == "9C":
            return 12.0 if n < 4 else -20.0
        return -10.0

    _lay_off_worth_its_discard(monkeypatch, discard)
    v = analyse_decision(LAYS_OFF.view(0), [[], []], LAY_OFF_7H, budget=16, seed=1)
    assert v.best == LAY_OFF_7H and v.loss == 0.0


def _lay_off_worth_its_discard(
    monkeypatch: pytest.MonkeyPatch, discard: Callable[[str, int], float]
) -> list[str]:
    """Value discarding a card ``discard(card, n)`` in the n-th world valued (numbered as
    met), laying off 7H what the discard that ends its turn is worth there, and every
    other move -10. Returns the cards the lay-off was valued ending with, in order."""
    number = _numbering()
    ended: list[str] = []

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        n = number(w)
        if S.same_action(action, LAY_OFF_7H):
            assert rest and rest[-1]["type"] == "discard"
            ended.append(rest[-1]["card"])
            return discard(rest[-1]["card"], n)
        if action.get("type") == "discard":
            return discard(action["card"], n)
        return -10.0

    monkeypatch.setattr(S, "value", value)
    return ended


def test_a_lay_off_is_measured_ending_with_the_discard_it_is_measured_against(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Laying off 7H costs nothing by itself: the lay-off is worth what the discard that ends
    its turn is worth. Discarding 2D looks best in the first worlds only (the lay-off ends
    with it from there); over the choice's worlds 9C is best, and is the challenger. The
    lay-off is measured ending with 9C, so every world's difference is 0: no mistake on the
    first round, and nothing is raced (before: charged with 2D, a loss of 10 on the first
    round, which sent the decision to the races)."""

    def discard(card: str, n: int) -> float:
        if card == "2D":
            return 12.0 if n < 4 else 0.0
        return 10.0 if card == "9C" else -10.0

    ended = _lay_off_worth_its_discard(monkeypatch, discard)
    v = analyse_decision(LAYS_OFF.view(0), [[], []], LAY_OFF_7H, budget=16, seed=1)
    assert "2D" in ended and ended[-1] == "9C"
    assert v.best == LAY_OFF_7H and v.loss == 0.0
    assert v.named == {"type": "discard", "card": "9C"} and v.measured == (0.0, 0.0, 8)
    assert v.worlds == 16


def test_the_moves_race_has_worlds_of_its_own_when_the_discards_race_spends_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2D or 9C is worth the same, too noisy to be shown so: the discards' race
    (which discard the lay-off ends its turn with) samples all it may. It may sample only
    half the confirmation's worlds, so the moves' race — the lay-off, 14 points better
    than the move played in every world, against the discards — still races (before: the
    discards' race spent them all, the lay-off was left on its first few worlds, and a
    discard within a few points of it there was named by the rule; another seed named the
    lay-off, a stability match's decision)."""
    played = {"type": "discard", "card": "KS"}

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, LAY_OFF_7H):
            return 14.0
        if S.same_action(action, played):
            return 0.0
        if action.get("type") == "discard" and action["card"] in ("2D", "9C"):
            return 10.0 + 30 * _noisy(w, action["card"])
        return -100.0

    races: list[tuple[int, int]] = []
    race = S._Search.race

    def counted(self, best, runners, table, cap):  # type: ignore[no-untyped-def]
        before = self.raced
        out = race(self, best, runners, table, cap)
        races.append((before, self.raced))
        return out

    monkeypatch.setattr(S, "value", value)
    monkeypatch.setattr(S._Search, "race", counted)
    v = analyse_decision(LAYS_OFF.view(0), [[], []], played, budget=8, seed=1)
    (_, discards), (start, end) = races
    assert discards <= S.CONFIRM_CAP * 8 // 2 + 4  # the discards' share, a round over at most
    assert end > start  # the moves raced on worlds of their own
    assert v.best == LAY_OFF_7H and v.loss == pytest.approx(14.0)


def test_a_move_not_shown_worth_the_same_is_not_named_by_the_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 4D (the move the rule would name: scripted) is 13 points below discarding 2S, too
    noisy to be told apart within the budget and too far to be worth the same (also by the
    estimate the races end with, :data:`rum500.coach.search.NEAR`): the leader, 2S, is
    named (with the rule applied to every move not told apart, 4D was named, and measured
    against the move played), though the races end with 4D not told apart at some seeds
    (where the fresh worlds the loss is told again on may then tell it apart)."""
    other = {"type": "discard", "card": "4D"}
    view = LOOSE.view(0)
    _rule_favours(monkeypatch, other)
    close_at_the_end: list[bool] = []
    race = S._Search.race

    def watched(self, best, runners, table, cap):  # type: ignore[no-untyped-def]
        out = race(self, best, runners, table, cap)
        close_at_the_end.append(any(S.same_action(self.cands[k], other) for k in out[1]))
        return out

    monkeypatch.setattr(S._Search, "race", watched)

    value = _two_noisy(other, 20.0, 7.0, 24.0)

    monkeypatch.setattr(S, "value", value)
    named = []
    for seed in range(1, 9):
        close_at_the_end.clear()
        v = analyse_decision(view, [[], []], PLAYED, budget=8, seed=seed)
        named.append((v, close_at_the_end[-1]))
    assert all(v.best == CHALLENGER for v, _close in named)
    assert sum(close for _v, close in named) >= 2  # not told apart by the races
    assert all(close for v, close in named if other in v.ties)  # ties only where close


def test_moves_a_spent_race_leaves_within_a_few_points_are_named_alike_whatever_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S is worth a point more than discarding 4D, far less than the noise: the
    races sample all they may without telling them apart or showing them equal (the margin
    of 2 standard errors is more than the budget affords). Within 5 points of each other
    (NEAR) by the estimate the races end with, they are worth the same: the rule names one (4D,
    scripted), the other its tie, at every seed (before: whichever led when the races ran out, 2S at
    some seeds and 4D at others)."""
    other = {"type": "discard", "card": "4D"}
    view = LOOSE.view(0)
    _rule_favours(monkeypatch, other)

    value = _two_noisy(other, 20.0, 19.0, 10.0)

    monkeypatch.setattr(S, "value", value)
    named = [analyse_decision(view, [[], []], PLAYED, budget=8, seed=s) for s in range(1, 7)]
    assert all(v.loss > 0 for v in named)
    assert all(v.best == other and v.ties == [CHALLENGER] for v in named)


def _raced_then_measured(
    monkeypatch: pytest.MonkeyPatch,
    measured: Callable[[int], float],
    raced: Callable[[object], float] | None = None,
) -> list[object]:
    """Script the value of discarding 2S (CHALLENGER) against the move played (PLAYED, worth
    0; every other move -100): ``raced(world)`` in the worlds of the choice and of the race
    (else 10 points and a little noise), ``measured(n)`` in the n-th world the loss is
    measured on. Returns the worlds measured on, in order, as they are met."""
    measuring = _watch_measuring(monkeypatch)
    worlds: list[object] = []

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, PLAYED):
            return 0.0
        if not S.same_action(action, CHALLENGER):
            return -100.0
        if not measuring["on"]:  # the choice's worlds and the race's
            return raced(w) if raced else 10.0 + _noisy(w, "2S")
        if w not in worlds:
            worlds.append(w)
        return measured(worlds.index(w))

    monkeypatch.setattr(S, "value", value)
    return worlds


def _watch_measuring(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Watch :meth:`rum500.coach.search._Search.measure` and the measuring again of a loss
    called (:meth:`rum500.coach.search._Search.again`): the dict's ``on`` is 1 while either
    runs, ``done`` counts the measurings ended, ``again`` the worlds measured again."""
    phase = {"on": 0, "done": 0, "again": 0}
    real, real_again = S._Search.measure, S._Search.again

    def measure(self, k, judged=None, rounds=0, **kw):  # type: ignore[no-untyped-def]
        phase["on"] = 1
        try:
            return real(self, k, judged, rounds, **kw)
        finally:
            phase["on"] = 0
            phase["done"] += 1

    def again(self, k, ties, table, n):  # type: ignore[no-untyped-def]
        phase["on"] = 1
        try:
            return real_again(self, k, ties, table, n)
        finally:
            phase["on"] = 0
            phase["again"] += n

    monkeypatch.setattr(S._Search, "measure", measure)
    monkeypatch.setattr(S._Search, "again", again)
    return phase


def test_a_mistake_the_race_told_apart_is_not_dropped_on_a_noisy_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race shows discarding 2S 10 points better than the move played (which races
    too), on worlds of its own; the loss measured after it comes back to zero once, after
    an unlucky round, then shows the 10 points again. The race told the move played apart:
    the measuring goes on until the call is clear, and the mistake is called (before: a
    loss no longer above zero after the second round ended the measuring, no mistake — the
    other seed, without that unlucky round, called it)."""

    def measured(n: int) -> float:
        if n < 4:
            return [20.0, 8.0, 14.0, 6.0][n]  # the first round: 12 at 3.8 standard errors
        if n < 8:
            return [-20.0, -16.0, -18.0, -14.0][n - 4]  # the unlucky round: the mean at -2.5
        return [14.0, 8.0, 12.0, 10.0][n % 4]

    worlds = _raced_then_measured(monkeypatch, measured)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == CHALLENGER and v.loss > 5
    assert len(worlds) > 8  # measured past the noisy zero


def test_a_loss_still_in_doubt_after_the_rounds_is_measured_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S is worth 6 points more than the move played, with a wide spread: after
    the 24 rounds the loss is 2.75 standard errors above zero — the call (at 3.5) in doubt.
    It is measured on until it is not: about 3.9 standard errors after 48 rounds, a mistake
    (before: no mistake at 24 rounds, where another seed's worlds called it)."""
    worlds = _raced_then_measured(monkeypatch, lambda n: [26.0, -14.0, 24.0, -12.0][n % 4])
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == CHALLENGER and v.loss == pytest.approx(6.0)
    assert len(worlds) > 4 * (1 + S.MORE_ROUNDS)


def test_a_spent_race_the_move_played_leads_by_chance_measures_the_closest_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the race, discarding 2S is a point below the move played with a spread of 30 —
    neither told apart nor shown equal when the race has sampled all it may, the move played
    ahead. Its lead may be chance: 2S is measured against it, and the loss the measuring
    shows (10 points in every world) is called (before: the move played leading the spent
    race was no mistake; another seed, 2S ahead in its race, called the loss)."""
    number = _numbering()

    def raced(w: object) -> float:
        return -1.0 + (30.0 if number(w) % 2 else -30.0)

    races: list[tuple[int, list[int]]] = []
    race = S._Search.race

    def watched(self, best, runners, table, cap):  # type: ignore[no-untyped-def]
        out = race(self, best, runners, table, cap)
        races.append((out[0] == self.mine and self.spent, out[1]))
        return out

    monkeypatch.setattr(S._Search, "race", watched)
    _raced_then_measured(monkeypatch, lambda n: 10.0, raced)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert races and races[-1][0] and races[-1][1]  # spent, the move played ahead, 2S close
    assert v.best == CHALLENGER and v.loss == pytest.approx(10.0)


def test_a_move_named_in_the_challengers_place_is_not_dropped_on_the_first_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S leads the worlds of the choice; the first round leaves its loss in
    doubt, and the race names discarding 4D instead, 20 points ahead of the move played. In
    the first round's four worlds 4D happens to be some 20 points below the move played: no
    longer enough to drop it (before: those four worlds ended the measuring, no mistake);
    the fresh worlds show it 10 points better, and the loss is called."""
    other = {"type": "discard", "card": "4D"}
    phase = _watch_measuring(monkeypatch)
    first_round: list[object] = []

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, PLAYED):
            return 0.0
        if phase["on"] and phase["done"] == 0:  # the first round: 2S against the move played
            if w not in first_round:
                first_round.append(w)
            assert S.same_action(action, CHALLENGER)
            return [20.0, -4.0, 14.0, -2.0][first_round.index(w) % 4]
        if S.same_action(action, other):
            if phase["on"]:
                return (
                    [-20.0, -22.0, -18.0, -21.0][first_round.index(w)] if w in first_round else 10.0
                )
            return 20.0 if phase["done"] else 5.0  # the race's worlds; the choice's
        if S.same_action(action, CHALLENGER):
            return 0.0 if phase["done"] else 10.0
        return -100.0

    monkeypatch.setattr(S, "value", value)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert len(first_round) == 4
    assert v.best == other and v.loss > 5


def test_a_loss_followed_for_a_thousand_worlds_is_called_from_2_5_standard_errors() -> None:
    """The line of a mistake is 3.5 standard errors on a few hundred worlds (their standard
    error is often too small), 2.5 once the loss was measured on :data:`S.LONG` worlds."""
    assert not S.called(3.0, 1.0, S.LONG - 1) and S.called(3.0, 1.0, S.LONG)
    assert S.called(3.6, 1.0, 10) and not S.called(2.5, 1.0, S.LONG)
    assert not S.called(0.0, 0.0, S.LONG) and not S.called(-1.0, 0.1, 5 * S.LONG)
    assert S.called(1.0, 0.0, 2)  # every world alike: no spread


def test_the_ladders_budget_never_measures_a_thousand_worlds() -> None:
    """At budget 8 (bench/analyse.py's ladder) the measuring stops short of :data:`S.LONG`
    worlds — the first round's 4, then at most 47 rounds of 16 — so the ladder's figures
    are those of the line at 3.5 alone."""
    budget = 8
    rounds = S.MORE_ROUNDS + S.DOUBT_ROUNDS  # after the first
    assert budget // 2 + rounds * S.MEASURE_ROUND * budget < S.LONG


def test_a_small_loss_measured_long_is_called_and_the_verdict_keeps_what_was_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S is worth 3 points more than the move played, with a wide spread: after
    the 48 rounds at budget 8 (756 worlds) the loss stands about 3 standard errors above
    zero — no mistake at 3.5. Were those worlds :data:`S.LONG` (here lowered to 700), it
    would be a mistake at 2.5. The verdict keeps the loss as measured either way."""
    spread = [30.5, -24.5]
    _raced_then_measured(monkeypatch, lambda n: spread[n % 2])
    short = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    loss, stderr, worlds = short.measured
    assert short.best == PLAYED and short.loss == 0.0
    assert worlds == 4 + S.MEASURE_ROUND * 8 * (S.MORE_ROUNDS + S.DOUBT_ROUNDS)
    assert loss == pytest.approx(3.0, abs=0.1) and 2.5 < loss / stderr < 3.5
    assert short.named == CHALLENGER
    monkeypatch.setattr(S, "LONG", 700)
    _raced_then_measured(monkeypatch, lambda n: spread[n % 2])
    long = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert long.best == CHALLENGER and long.loss == pytest.approx(loss)
    assert long.measured == short.measured


def test_a_loss_read_below_zero_on_a_few_worlds_is_measured_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S is worth 10 points more than the move played, but the first 20 worlds
    measured (budget 8: the first round's 4 and one round of 16) read it 7 points below,
    about 1.1 standard errors. A standard error of so few worlds is not trusted to end the
    measuring (only one 3 standard errors below zero would): measured on, it is a mistake.
    Ending at 1 standard error from the first worlds on, as before (:data:`S.EARLY` 0), it
    is none."""
    values = lambda n: [-34.0, 20.0][n % 2] if n < 20 else [26.0, -6.0][n % 2]  # noqa: E731
    raced = lambda w: 2.0 + 30.0 * _noisy(w, "2S")  # noqa: E731  # the race cannot tell
    _raced_then_measured(monkeypatch, values, raced)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == CHALLENGER and v.loss > 5 and v.measured[2] > 20
    monkeypatch.setattr(S, "EARLY", 0)
    _raced_then_measured(monkeypatch, values, raced)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.best == PLAYED and v.measured[2] == 20


def _stops_at_20_then(fresh: list[float]) -> Callable[[int], float]:
    """Measured values of discarding 2S that stop the measuring after its second round (20
    worlds at budget 8) at a loss of 10.4, about 9 standard errors; ``fresh`` over and over
    after them."""

    def measured(n: int) -> float:
        if n < 4:
            return [20.0, 8.0, 14.0, 6.0][n]
        if n < 20:
            return [16.0, 4.0, 14.0, 6.0][n % 4]
        return fresh[n % len(fresh)]

    return measured


def test_a_called_loss_is_told_on_fresh_worlds_not_on_those_that_stopped_the_measuring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The measuring stops as soon as a loss stands 4 standard errors clear, so the worlds
    that stopped it read the loss high. The loss called is told again on as many fresh
    worlds, and that is the loss reported (here 3 points, not 10.4); the verdict keeps what
    the measuring read. Fresh worlds that show no loss at all drop the call."""
    _raced_then_measured(monkeypatch, _stops_at_20_then([8.0, -2.0]))
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.measured[0] == pytest.approx(10.4) and v.measured[2] == 20
    assert v.best == CHALLENGER and v.loss == pytest.approx(3.0)
    assert v.stderr == pytest.approx(5.0 * (20 / 19) ** 0.5 / 20**0.5)
    _raced_then_measured(monkeypatch, _stops_at_20_then([-4.0, 2.0]))
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.measured[0] == pytest.approx(10.4) and v.named == CHALLENGER
    assert v.best == PLAYED and v.loss == 0.0 and v.ties == []


def _two_discards_raced(
    monkeypatch: pytest.MonkeyPatch,
    other: dict,
    fresh_below: float,
    race: tuple[float, float, float] = (26.0, 20.0, 30.0),
    measured: tuple[float, float] = (30.0, -10.0),
) -> dict[str, int]:
    """Script discarding 2S and ``other`` (4D) against the move played (0; every other move
    -100): in the choice's and the race's worlds 2S is worth ``race[0]`` + side and 4D
    ``race[1]`` - side, side ± ``race[2]`` in alternate worlds (by default 2S leads 4D by 6
    points with a spread of 60); measured, 2S is worth ``measured`` in alternate worlds (by
    default 10 with a spread of 20), and so is 4D on the fresh worlds a loss is told again
    on, less ``fresh_below``. Returns :func:`_watch_measuring`'s dict."""
    phase = _watch_measuring(monkeypatch)
    number = _numbering()
    measuring: list[object] = []

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, PLAYED):
            return 0.0
        if not (S.same_action(action, CHALLENGER) or S.same_action(action, other)):
            return -100.0
        if phase["on"]:
            if w not in measuring:
                measuring.append(w)
            worth = measured[measuring.index(w) % 2]
            return worth if S.same_action(action, CHALLENGER) else worth - fresh_below
        side = race[2] if number(w) % 2 else -race[2]  # the choice's and the race's worlds
        return race[0] + side if S.same_action(action, CHALLENGER) else race[1] - side

    monkeypatch.setattr(S, "value", value)
    return phase


def test_the_move_named_stands_unless_the_fresh_worlds_tell_it_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the race, discarding 2S leads discarding 4D by 6 points with a spread of 60: not
    told apart, and more than 5 points (NEAR) apart, so the race names its leader 2S. On
    the fresh worlds the loss is told again on, 4D is 8 points above 2S: on the race's
    worlds and these together 4D may lead, but it is not told apart from 2S, so the name
    stands — 2S, 4D its tie, the loss 2S's (before, the two were named again on those
    worlds, by the leader or the rule: the rule names one move the same at every seed, but
    which move led the worlds together changed with the seed; on the stability benchmark's
    35 matches, in 22 of the 68 calls the other seed did not repeat, both seeds had
    named the same move and one named another there). Where the fresh worlds show 4D 150
    points above, it is told apart and named."""
    other = {"type": "discard", "card": "4D"}
    view = LOOSE.view(0)
    _rule_favours(monkeypatch, other)
    phase = _two_discards_raced(monkeypatch, other, fresh_below=-8.0)
    v = analyse_decision(view, [[], []], PLAYED, budget=8, seed=1)
    assert v.named == CHALLENGER  # the race's own estimate: 6 points apart
    assert phase["again"] == v.measured[2] > 0
    assert v.best == CHALLENGER and v.ties == [other] and v.loss == pytest.approx(10.0)
    phase = _two_discards_raced(monkeypatch, other, fresh_below=-150.0)
    v = analyse_decision(view, [[], []], PLAYED, budget=8, seed=1)
    assert v.named == CHALLENGER and phase["again"] == v.measured[2] > 0
    assert v.best == other and v.loss == pytest.approx(160.0)


def test_the_move_named_stands_when_the_fresh_worlds_show_the_leader_worth_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The races, spent, put discarding 4D 1 point above discarding 2S with a spread of 30:
    not told apart, within 5 points (NEAR) — worth the same — and the rule names 2S, 4D its
    tie. On the fresh worlds the loss is told again on, 4D is 4 points above 2S in every
    world: on the race's worlds and these together 4D is told apart from 2S, but still
    within 5 points, worth the same as far as the analysis can tell, so the name stands and
    4D stays its tie (naming again the leader of the worlds together, 4D, where the fresh
    worlds tell the two apart, gave the stability benchmark's 35 matches no better figure)."""
    other = {"type": "discard", "card": "4D"}
    _rule_favours(monkeypatch, CHALLENGER)
    # raced: 4D 1 above 2S, a spread of 30; measured and told again: 2S 8 ± 40, 4D 4 above
    phase = _two_discards_raced(
        monkeypatch, other, fresh_below=-4.0, race=(20.0, 21.0, 15.0), measured=(-32.0, 48.0)
    )
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.named == CHALLENGER and phase["again"] == v.measured[2] > 0
    assert v.best == CHALLENGER and v.ties == [other] and v.loss == pytest.approx(8.0)


def test_a_tie_the_fresh_worlds_tell_apart_is_a_tie_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The race cannot tell discarding 2S from discarding 4D (6 points apart, a spread of
    60); the fresh worlds the loss is told again on show 4D 60 points below 2S. On the
    race's worlds and these together the two are told apart: 2S is named, with no ties."""
    other = {"type": "discard", "card": "4D"}
    phase = _two_discards_raced(monkeypatch, other, fresh_below=60.0)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert phase["again"] == v.measured[2] > 0
    assert v.best == CHALLENGER and v.ties == [] and v.loss == pytest.approx(10.0)


def _gap_raced_then_settled(monkeypatch: pytest.MonkeyPatch, other: dict) -> dict[str, int]:
    """Script discarding 2S (CHALLENGER) and ``other`` against the move played (0; every
    other move -100): 2S is worth 26 and ``other`` 20 ± 30 (alternate worlds), 6 points
    below it, in every world but those :meth:`rum500.coach.search._Search.settle` samples,
    where ``other`` is 2 points below it. Returns the worlds settle sampled (``worlds``)."""
    number = _numbering()
    settling = {"on": 0, "worlds": 0}
    real = S._Search.settle

    def settle(self, lead, close, table):  # type: ignore[no-untyped-def]
        settling["on"] = 1
        try:
            return real(self, lead, close, table)
        finally:
            settling["on"] = 0

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        if S.same_action(action, PLAYED):
            return 0.0
        if not (S.same_action(action, CHALLENGER) or S.same_action(action, other)):
            return -100.0
        if S.same_action(action, CHALLENGER):
            return 26.0
        side = 30.0 if number(w) % 2 else -30.0
        if settling["on"]:
            settling["worlds"] += 1
            return 24.0 + side
        return 20.0 + side

    monkeypatch.setattr(S._Search, "settle", settle)
    monkeypatch.setattr(S, "value", value)
    return settling


def test_a_move_about_NEAR_points_from_the_leader_is_valued_further_before_the_rule_is_applied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the races are spent, discarding 4D is 6 points below discarding 2S with a
    standard error of some 3: whether the two are within 5 points (NEAR) is not settled,
    and with the estimate deciding at once, the seed whose race read 4.9 named the rule's
    move and the one that read 5.1 the leader. The two are valued on more worlds (here 4D
    only 2 points below 2S) until it is settled or they have twice the worlds in common:
    now 4 points apart, worth the same, and the rule names 4D. Without settling, 2S."""
    other = {"type": "discard", "card": "4D"}
    view = LOOSE.view(0)
    _rule_favours(monkeypatch, other)
    settling = _gap_raced_then_settled(monkeypatch, other)
    v = analyse_decision(view, [[], []], PLAYED, budget=8, seed=1)
    assert settling["worlds"] > 0
    assert v.best == other and v.ties == [CHALLENGER] and v.loss > 0
    monkeypatch.setattr(S, "SETTLE_Z", 0.0)  # nothing unsettled: the estimate decides at once
    settling = _gap_raced_then_settled(monkeypatch, other)
    v = analyse_decision(view, [[], []], PLAYED, budget=8, seed=1)
    assert settling["worlds"] == 0
    assert v.best == CHALLENGER and other in v.ties


def test_a_move_clearly_more_than_NEAR_points_from_the_leader_is_not_valued_further() -> None:
    """Settling is only for a paired difference within a standard error of NEAR: 20 points
    apart on a standard error of 1, or 1 point apart shown worth the same, is settled."""
    far = [20.0 + (1 if n % 2 else -1) for n in range(64)]
    assert not S._unsettled([0.0] * 64, far) and not S._unsettled(far, [0.0] * 64)
    edge = [5.5 + (8 if n % 2 else -8) for n in range(64)]  # 5.5 ± 1 standard error
    assert S._unsettled(edge, [0.0] * 64) and S._unsettled([0.0] * 64, edge)
    close = [1.0 + (0.1 if n % 2 else -0.1) for n in range(64)]
    assert S._equal(close, [0.0] * 64) and not S._unsettled(close, [0.0] * 64)
    assert not S._unsettled(edge[:8], [0.0] * 8)  # fewer than APART worlds in common


def test_a_challenger_worth_the_move_played_in_every_world_stands_aside_for_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding 2S leads the choice's worlds, so it is the challenger; in every world of
    the first round it is worth exactly what the move played is worth: there it is the move
    played in effect, and says nothing of the other moves. Discarding 4D, the next finalist,
    is measured in its place: 10 points better, named and called (before: no mistake, on a
    difference of 0 with no spread — at budget 32, 284 of the 5,720 verdicts of the
    stability benchmark's two sets ended there, and the other seed called a loss of 5–14
    points in 5 of them)."""
    number = _numbering()
    other = {"type": "discard", "card": "4D"}

    def value(w, action, seat, rest=None, memo=None):  # type: ignore[no-untyped-def]
        n = number(w)
        if S.same_action(action, PLAYED):
            return 0.0
        if S.same_action(action, CHALLENGER):
            return 10.0 if n < 4 else 0.0
        if S.same_action(action, other):
            return 5.0 if n < 4 else 10.0 + (1.0 if n % 2 else -1.0)
        return -100.0

    monkeypatch.setattr(S, "value", value)
    v = analyse_decision(LOOSE.view(0), [[], []], PLAYED, budget=8, seed=1)
    assert v.named == other and v.best == other
    assert v.loss == pytest.approx(10.0, abs=0.5)


def test_a_lay_off_worth_its_ending_in_every_world_is_measured_against_a_discard_it_cannot_end_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Laying off 7H ends its turn with discarding 9C, the challenger: the two are worth the
    same in every world by design, which says nothing of the lay-off. Discarding 2D, a
    discard the lay-off could end with, stands aside too; discarding 7H — which the lay-off
    cannot end with, the card is gone — is measured in the challenger's place: 18 points
    better than laying it off, named and called (before: no mistake)."""
    discard_7h = {"type": "discard", "card": "7H"}

    def discard(card: str, n: int) -> float:
        if card == "9C":
            return 12.0
        if card == "2D":
            return 11.5
        if card == "7H":
            return 11.0 if n < 4 else 30.0
        return -10.0

    ended = _lay_off_worth_its_discard(monkeypatch, discard)
    v = analyse_decision(LAYS_OFF.view(0), [[], []], LAY_OFF_7H, budget=16, seed=1)
    assert "7H" not in ended and ended[-1] == "9C"
    assert v.named == discard_7h and v.best == discard_7h
    assert v.loss == pytest.approx(18.0)


def test_the_rule_names_the_move_worth_most_on_the_positions_own_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discarding JH (the ``hard`` bot's own move here) is 3 points below discarding 2S,
    far less than the noise: the races cannot tell them apart, and within 5 points they are
    worth the same. The rule names 2S, the higher of the two on the worlds drawn from the
    position alone — the same worlds at every seed — and JH is its tie (unless the fresh
    worlds the loss is told again on tell the two apart; before, the rule
    was the ``hard`` bot's move: between a ``hard`` and an ``expert`` bot, the move played
    or the one most like it, most often the lowest of the moves worth the same)."""
    other = {"type": "discard", "card": "JH"}
    view = LOOSE.view(0)
    assert S.same_action(S.HardBot(seed=0).choose(dict(view)), other)

    value = _two_noisy(other, 20.0, 17.0, 10.0)

    assert _rule(view, value, [CHALLENGER, other]) == CHALLENGER
    monkeypatch.setattr(S, "value", value)
    named = [analyse_decision(view, [[], []], PLAYED, budget=8, seed=s) for s in range(1, 7)]
    assert all(v.loss > 0 and v.best == CHALLENGER and v.ties in ([], [other]) for v in named)
    assert sum(v.ties == [other] for v in named) >= 3  # worth the same: the rule named 2S


def test_the_rules_worlds_are_the_positions_own() -> None:
    """The worlds the rule names a move on are drawn from the position alone: the same for
    the same view and memory, others for another position, and each a world of the view."""
    view = LOOSE.view(0)
    stocks = [w.to_dict()["stock"] for w in S.reference_worlds(view, [[], []], 16)]
    again = [w.to_dict()["stock"] for w in S.reference_worlds(view, [[], []], 16)]
    assert len(stocks) == 16 and stocks == again and len({tuple(x) for x in stocks}) == 16
    other = position(["2S", "4D", "9C", "JH", "KS", "QD", "7H"], ["3S", "5S", "8D"], ["2C"])
    elsewhere = [w.to_dict()["stock"] for w in S.reference_worlds(other.view(0), [[], []], 16)]
    assert elsewhere != stocks
    for w in S.reference_worlds(view, [[], []], 4):
        assert sorted(w.hands[0]) == sorted(LOOSE.hands[0]) and w.pile == LOOSE.pile
