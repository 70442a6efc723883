"""Bots calling "Rummy!" (rum500/bots/calls.py, RULES.md §11.2): which call, from the seat's
view alone; each level's reaction time and misses."""

from __future__ import annotations

import statistics

import pytest

from rum500.bots import make_bot
from rum500.bots.calls import MIN_REACTION, REACTIONS, Caller, best_call, calls_of
from rum500.bots.seat import NotAView
from rum500.rules import Game, Options, Phase
from tests.bots import load_bench
from tests.rules.positions import position

CALLS = Options(rummy_calls=True)
JOKER_CALLS = Options(rummy_calls=True, jokers=True)


def discarded(hands: list[str], melds: list[tuple[str, int]], card: str, **kw: object) -> Game:
    """Seat 0 holds ``card`` (first in its hand) and discards it: the claim phase."""
    g = position(hands, melds=melds, phase="play", options=kw.pop("options", CALLS), **kw)  # type: ignore[arg-type]
    g.apply({"type": "discard", "card": card}, seat=0)
    assert g.phase is Phase.CLAIM
    return g


def test_the_worked_position_seat_2_calls_on_7d_and_seat_1_then_draws():
    """§11.5: table 4♦ 5♦ 6♦, seat 0 discards 7♦; seat 2 calls, scores 7; seat 1 draws."""
    g = discarded(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "7D")
    call = best_call(g.view(2))
    assert call == {"type": "rummy", "seat": 2, "meld": 0}
    hand = list(g.hands[2])
    g.apply(call, seat=2)
    assert g.table_points()[2] == 7 and g.turn == 1 and g.phase is Phase.DRAW
    assert g.hands[2] == hand  # the caller's hand does not change


def test_a_bot_never_calls_on_its_own_discard():
    g = discarded(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "7D")
    assert calls_of(g.view(0)) == [] and best_call(g.view(0)) is None
    for level in REACTIONS:
        assert Caller(level, seed=1).decide(g.view(0)) is None
    assert make_bot("medium", 1).choose(g.view(2))["type"] == "rummy"


def test_nothing_to_call_outside_the_claim_phase_or_on_a_card_that_fits_nowhere():
    g = position(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play")
    assert best_call(g.view(1)) is None  # no claim phase without the option
    g = discarded(["2C 7D 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "2C")
    assert best_call(g.view(1)) is None and best_call(g.view(2)) is None


def test_an_ace_is_called_where_it_scores_15_not_low_on_a_run():
    # A♠ fits low on 2♠ 3♠ 4♠ (scores 1) and on the set A♥ A♦ A♣ (scores 15)
    g = discarded(["AS 9C", "3H 8C JS", "KH QC 10S"], [("2S 3S 4S", 1), ("AH AD AC", 2)], "AS")
    assert {a["meld"] for a in calls_of(g.view(1))} == {0, 1}
    assert best_call(g.view(1))["meld"] == 1
    before = g.table_points()[1]
    g.apply(best_call(g.view(1)), seat=1)
    assert g.table_points()[1] - before == 15


def test_the_call_that_keeps_the_callers_options_open_wins_a_tie_on_points():
    """7♦ scores 7 on the set of sevens and on 4♦ 5♦ 6♦; a caller holding 8♦ takes the run
    (its 8♦ can then go down); one without takes the lowest meld id."""
    melds = [("7S 7H 7C", 1), ("4D 5D 6D", 2)]
    g = discarded(["7D 2C 9S", "8D 3H JS", "KH QC 10S"], melds, "7D")
    assert best_call(g.view(1))["meld"] == 1  # holds 8♦
    assert best_call(g.view(2))["meld"] == 0  # holds nothing that cares


def test_a_discarded_joker_is_named_to_suit_the_callers_hand():
    melds = [("7H 8H 9H", 1)]
    hands = ["JK 2C", "5H 3C JS", "JH QC 3S", "10H 4C 2D"]
    g = discarded(hands, melds, "JK", options=JOKER_CALLS)
    names = {a["joker"] for a in calls_of(g.view(1))}
    assert names == {"6H", "10H"}
    assert best_call(g.view(1))["joker"] == "6H"  # then 5♥ goes low
    assert best_call(g.view(2))["joker"] == "10H"  # then J♥ goes high
    assert best_call(g.view(3))["joker"] == "6H"  # 10♥ would lose its place to the joker
    before = g.table_points()[1]
    g.apply(best_call(g.view(1)), seat=1)
    assert g.table_points()[1] - before == 15  # a joker scores 15 whatever it stands for


def test_calls_read_the_view_only():
    g = discarded(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "7D")
    for bad in (g, g.to_dict(), g.view(None)):
        with pytest.raises(NotAView):
            best_call(bad)  # type: ignore[arg-type]
        with pytest.raises(NotAView):
            Caller("hard", 1).decide(bad)  # type: ignore[arg-type]


def test_reaction_times_fit_the_level_and_never_come_before_0_3_s():
    g = discarded(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "7D")
    means = {}
    for level in ("random", "easy", "medium", "hard", "expert"):
        caller = Caller(level, seed=7)
        decided = [caller.decide(g.view(2)) for _ in range(300)]
        delays = [d.delay for d in decided if d is not None]
        assert delays and min(delays) >= MIN_REACTION
        assert all(d.action == {"type": "rummy", "seat": 2, "meld": 0} for d in decided if d)
        means[level] = statistics.mean(delays)
        misses = decided.count(None)
        if REACTIONS[level].miss == 0:
            assert misses == 0, level
        else:
            assert 0 < misses < 300, level
    assert means["expert"] < means["hard"] < means["medium"] < means["easy"]
    assert 0.3 <= means["expert"] < 0.7 and 1.0 < means["medium"] < 1.4
    assert statistics.mean([Caller("expert", s).delay() for s in range(100)]) >= MIN_REACTION


def test_easy_and_random_miss_more_than_medium_and_a_seed_repeats_the_decisions():
    g = discarded(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], [("4D 5D 6D", 1)], "7D")

    def missed(level: str, seed: int) -> list[bool]:
        caller = Caller(level, seed)
        return [caller.decide(g.view(1)) is None for _ in range(400)]

    assert sum(missed("random", 3)) > sum(missed("easy", 3)) > sum(missed("medium", 3))
    a, b = Caller("easy", 11), Caller("easy", 11)
    assert [a.decide(g.view(1)) for _ in range(50)] == [b.decide(g.view(1)) for _ in range(50)]


def test_the_house_rules_bench_runs_short_and_counts_calls(capsys, monkeypatch):
    """bench/house_rules.py with --matches: a short run prints each level's win rate with
    its interval and calls per hand (random discards give the others calls to make)."""
    bench = load_bench("house_rules", monkeypatch)
    argv = ["--matches", "2", "--players", "3", "--levels", "medium,random", "--seed", "3"]
    assert bench.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 matches to 500, 3 players") and "jokers on" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"medium", "random"}
    assert float(rows["medium"][6]) > 0  # medium made calls on random's discards
    seats = sum(int(r[1]) for r in rows.values())
    assert seats == 6
