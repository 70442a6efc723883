"""The expert's search: the worlds it samples agree with everything its seat has seen, its
playouts end, and its choices are reproducible and legal."""

from __future__ import annotations

import random

import pytest

import rum500.bots.expert as expert_module
from rum500 import cards as C
from rum500.bots import make_bot
from rum500.bots.expert import (
    DISCARD_CLOSE,
    ExpertBot,
    determinize,
    outcome,
    paired_count,
    playout,
    policy,
)
from rum500.bots.hands import plan
from rum500.bots.seat import read_view
from rum500.rules import Game, Options, Phase
from rum500.rules.game import MOVE_DIG

from . import load_bench
from .test_strategy import position

SEEN = (
    "hand",
    "hand_sizes",
    "stock",
    "discard_pile",
    "melds",
    "must_play",
    "no_discard",
    "phase",
    "turn",
    "legal_actions",
    "totals",
)


def mid_hand(players: int, seed: int, options: Options, steps: int) -> Game:
    g = Game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.phase not in (Phase.DRAW, Phase.PLAY):
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("jokers", [False, True])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_worlds_show_the_seat_exactly_what_it_saw(players: int, jokers: bool) -> None:
    for seed in range(6):
        g = mid_hand(players, seed, Options(jokers=jokers), 5 + 7 * seed)
        if g.phase not in (Phase.DRAW, Phase.PLAY):
            continue
        seat = g.turn
        view = g.view(seat)
        v = read_view(view)
        other = (seat + 1) % players
        known = [[] for _ in range(players)]
        known[other] = list(g.hands[other][:2])  # as if the tracker saw it take these
        rng = random.Random(seed)
        worlds = [determinize(v, known, rng) for _ in range(5)]
        for w in worlds:
            assert w is not None
            seen = w.view(seat)
            assert {k: seen[k] for k in SEEN} == {k: view[k] for k in SEEN}
            assert sorted(w.hands[other][:2]) == sorted(known[other])
        # the hidden cards really are resampled
        assert len({tuple(w.stock) for w in worlds}) > 1


def test_playouts_end_and_score_from_the_seats_side() -> None:
    g = mid_hand(2, 3, Options(), 10)
    v = read_view(g.view(g.turn))
    w = determinize(v, [[], []], random.Random(1))
    assert w is not None
    a, b = w.copy(), w.copy()
    steps = playout(a, v.seat, turns=10**6, cap=10**6)
    assert steps > 0 and a.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert outcome(a, 0, 0) == -outcome(a, 1, 0)  # two players: one's gain, the other's loss
    playout(b, v.seat, turns=1)
    # stopped when the seat was about to draw again, one more turn of its own played
    assert b.results or (b.turn == v.seat and b.phase is Phase.DRAW)
    assert [x["type"] for x in b.actions].count("discard") >= 2
    assert w.to_dict() == determinize(v, [[], []], random.Random(1)).to_dict()  # untouched


def test_the_search_constants_are_read_when_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--set HORIZON=…`` and ``--set STEP_BUDGET=…`` (bench/expert_tuning.py) change the
    module's constants after import: the playout and the bot must read them then, not keep
    the values they had when the module was loaded."""
    g = mid_hand(2, 3, Options(), 10)
    v = read_view(g.view(g.turn))
    w = determinize(v, [[], []], random.Random(1))
    assert w is not None
    steps = {}
    for horizon in (1, 3):
        monkeypatch.setattr(expert_module, "HORIZON", horizon)
        steps[horizon] = playout(w.copy(), v.seat)
    assert steps[1] < steps[3]
    monkeypatch.setattr(expert_module, "STEP_BUDGET", 1234)
    assert ExpertBot(seed=1).steps == 1234 and ExpertBot(seed=1, steps=7).steps == 7


def test_the_expert_is_reproducible_and_searches(monkeypatch) -> None:
    """Its wall-clock guard lifted: under load the guard cut one search of a pair sooner than
    the other and the two chose differently."""
    monkeypatch.setattr(expert_module, "TIME_GUARD_S", 600.0)
    searched = 0
    for seed in range(6):
        g = mid_hand(2, 40 + seed, Options(), 12 + 6 * seed)
        rng = random.Random(seed)
        while g.phase is Phase.PLAY:  # to the next draw
            g.apply(rng.choice(g.legal_actions()))
        if g.phase is not Phase.DRAW:
            continue
        view = g.view(g.turn)
        one, two = ExpertBot(seed=9), ExpertBot(seed=9)
        a = one.choose(view)
        assert a == two.choose(view) and a in view["legal_actions"]
        assert one.stats == two.stats
        searched += one.stats["searches"]
    assert searched >= 1
    assert make_bot("expert", seed=1).level == "expert"


def test_the_playout_policy_digs_for_the_deepest_card_it_can_put_down() -> None:
    game = position("9S 9H 2C 4D 6H 8C 10S QD 3H 5C 7D JH KC", "", "4S 9D 2H QC")
    deepest = min(m[1] for m in game.legal_moves() if m[0] == MOVE_DIG)
    assert policy(game) == (MOVE_DIG, deepest) == (MOVE_DIG, 1)


def test_the_expert_searches_close_discards_and_plays_one_of_them() -> None:
    """KC, QH and 2D are all loose: the hard bot values some of them alike, and the expert
    plays those out in its worlds."""
    view = position("KC QH 2D", "", "3C 8H", phase="play", size=6).view(0)
    v = read_view(view)
    scored = ExpertBot(seed=3).discard_scores(v, plan(v.hand, v.melds, v.seat))
    close = [c for x, c in scored if x >= scored[0][0] - DISCARD_CLOSE]
    assert len(close) >= 2
    expert = ExpertBot(seed=3)
    a = expert.choose(view)
    assert a["type"] == "discard" and expert.stats["searches"] == 1
    assert C.parse(a["card"]) in close


def test_sampled_opponents_keep_cards_that_have_partners(monkeypatch: pytest.MonkeyPatch) -> None:
    """With STRUCTURE_TRIES > 1 an opponent's sampled hand has more cards with a partner than
    a hand drawn at random, and the worlds still hold exactly the unseen cards."""
    g = mid_hand(2, 5, Options(), 30)
    v = read_view(g.view(g.turn))
    other = 1 - v.seat
    hidden = sorted(g.hands[other] + g.stock)
    mean = {}
    for tries in (1, 4):
        monkeypatch.setattr(expert_module, "STRUCTURE_TRIES", tries)
        rng = random.Random(1)
        total = 0
        for _ in range(200):
            w = determinize(v, [[], []], rng)
            assert w is not None and sorted(w.hands[other] + w.stock) == hidden
            assert len(w.hands[other]) == len(g.hands[other])
            total += paired_count(w.hands[other])
        mean[tries] = total / 200
    assert mean[4] > mean[1] + 0.5


def test_the_tuning_bench_refuses_what_is_not_a_constant_of_the_expert(monkeypatch):
    import argparse

    bench = load_bench("expert_tuning", monkeypatch)
    assert bench.parse_setting("HELD_WEIGHT=0.8") == ("HELD_WEIGHT", 0.8)
    assert bench.parse_setting("HELD_WEIGHT=1") == ("HELD_WEIGHT", 1.0)
    assert bench.parse_setting(" HORIZON = 3") == ("HORIZON", 3)
    assert bench.parse_setting("SEARCH_DISCARDS=False") == ("SEARCH_DISCARDS", False)
    for bad in ("FOO=1", "HORIZON", "HORIZON=1.5", "HORIZON=x", "SEARCH_DISCARDS=0",
                "HELD_WEIGHT='0.8'", "math=1", "STRUCTURE_TRIES=True"):  # fmt: skip
        with pytest.raises(argparse.ArgumentTypeError):
            bench.parse_setting(bad)


def test_the_tuning_bench_plays_each_deal_twice_and_its_settings_reach_the_workers(
    monkeypatch, capsys
):
    """Two matches per deal, the expert in each seat; a --set changes the expert in the
    worker processes (one candidate: it never searches, so it plays other games), and a run
    is reproducible."""
    import json

    bench = load_bench("expert_tuning", monkeypatch)

    def run(*settings: str) -> dict:
        argv = ["--seed", "7", "--pairs", "1", "--target", "150", "--jobs", "1"]
        for s in settings:
            argv += ["--set", s]
        assert bench.main(argv) == 0
        return json.loads(capsys.readouterr().out)

    searched = run()
    plain, again = run("MAX_CANDIDATES=1"), run("MAX_CANDIDATES=1")
    assert searched["matches"] == plain["matches"] == 2
    assert plain["set"] == {"MAX_CANDIDATES": 1} and searched["set"] == {}
    assert 0.0 <= searched["win"] <= 1.0 and searched["win_ci"][0] <= searched["win"]
    drop = {"seconds", "decision_ms_p95", "decision_ms_max"}
    strip = lambda d: {k: v for k, v in d.items() if k not in drop}  # noqa: E731
    assert strip(plain) == strip(again)
    assert strip(plain) != {**strip(searched), "set": plain["set"]}
