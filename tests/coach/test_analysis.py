"""The coach's analysis (issue 24 §1): a blunder costs, the best move costs nothing, the
hidden cards are sampled from the seat's view, the JSON records, the ladder's ends."""

from __future__ import annotations

import json

import pytest

from rum500 import cards as C
from rum500.bots.seat import NotAView
from rum500.coach.analysis import analyse_decision, analyse_match, analyse_seats
from tests.coach.conftest import bot_match, position

HAND0 = ["7H", "7D", "7C", "2S", "4D", "9C", "JH", "KS"]
HAND1 = ["3S", "5S", "8D", "10C", "QH", "6H", "AD"]
NOBODY = [[], []]


#: seat 0 holds a made set of sevens; seat 1 holds 5S 6S (known: taken from the pile) and
#: goes out on its next turn by laying them off on 2S 3S 4S
SEVENS = (["7H", "7D", "7C", "KS", "QD"], ["5S", "6S"], ["2C", "9H"], [["2S", "3S", "4S"]])
GOES_OUT = [[], C.parse_many(["5S", "6S"])]


def test_throwing_away_a_made_set_is_a_big_loss_and_the_meld_the_best_move() -> None:
    hand0, hand1, pile, melds = SEVENS
    view = position(hand0, hand1, pile, melds=melds).view(0)
    v = analyse_decision(view, GOES_OUT, {"type": "discard", "card": "7H"}, budget=16, seed=3)
    assert v.best == {"type": "meld", "cards": ["7H", "7D", "7C"]}
    assert v.loss > 30  # 21 points on the table instead of in hand: 42, less a discard's 10


def test_the_best_move_played_loses_nothing() -> None:
    hand0, hand1, pile, melds = SEVENS
    view = position(hand0, hand1, pile, melds=melds).view(0)
    meld = {"type": "meld", "cards": ["7H", "7D", "7C"]}
    v = analyse_decision(view, GOES_OUT, meld, budget=16, seed=3)
    assert v.loss == 0.0 and v.best == meld


def test_two_moves_the_analysis_cannot_tell_apart_are_ties_a_clear_best_has_none() -> None:
    """Seat 0 holds two made sets and discards a king: melding either set first is the same
    (the rest of the turn melds the other), so the best move's tie is the other meld; with
    one made set the meld is best alone."""
    view = position(["7H", "7D", "7C", "9H", "9D", "9C", "KS", "QD"], ["5S", "6S"],
                    ["2C", "9S"], melds=[["2S", "3S", "4S"]]).view(0)  # fmt: skip
    v = analyse_decision(view, GOES_OUT, {"type": "discard", "card": "KS"}, budget=16, seed=1)
    sevens, nines = (
        {"type": "meld", "cards": ["7H", "7D", "7C"]},
        {"type": "meld", "cards": ["9H", "9D", "9C"]},
    )
    assert v.loss > 30 and [v.best, *v.ties] in ([sevens, nines], [nines, sevens])
    hand0, hand1, pile, melds = SEVENS
    view = position(hand0, hand1, pile, melds=melds).view(0)
    v = analyse_decision(view, GOES_OUT, {"type": "discard", "card": "KS"}, budget=16, seed=1)
    assert v.best == {"type": "meld", "cards": ["7H", "7D", "7C"]} and v.ties == []


def test_the_analysis_reads_a_view_only_never_the_game() -> None:
    game = position(HAND0, HAND1, ["2C", "9S"])
    with pytest.raises(NotAView):
        analyse_decision(game.to_dict(), NOBODY, {"type": "discard", "card": "7H"}, budget=4)


def test_hidden_cards_are_sampled_two_positions_that_differ_only_there_agree() -> None:
    """The opponent's hand differs (3S and 5S are in the stock instead): the seat sees the
    same, so the analysis is the same for the same seed."""
    a = position(HAND0, HAND1, ["2C", "9S"])
    other = ["8S", "6S"] + HAND1[2:]  # 8S and 6S were in the stock
    b = position(HAND0, other, ["2C", "9S"])
    assert a.hands[1] != b.hands[1] and a.view(0) == b.view(0)
    played = {"type": "discard", "card": "KS"}
    va = analyse_decision(a.view(0), NOBODY, played, budget=8, seed=5)
    vb = analyse_decision(b.view(0), NOBODY, played, budget=8, seed=5)
    assert va == vb


def test_two_logs_that_differ_only_in_an_opponents_hidden_cards_give_the_same_analysis() -> None:
    """The same first turns of a match dealt from two decks that differ only in two cards
    of seat 1's hand (swapped with two cards deep in the stock) that seat 1 never plays in
    them: seat 0's analysis is the same."""
    record = bot_match(["hard", "hard"], seed=11, hands=1)
    from rum500.coach.analysis import new_game

    game = new_game(record)
    deck_a = _deck_of(game)
    played = set()
    for entry in record["actions"][:12]:
        a = entry["action"]
        played |= set(a.get("cards") or []) | {a.get("card")}
    hidden = [c for c in game.hands[1] if _name(c) not in played][:2]
    deep = [c for c in game.stock[:10]][:2]
    deck_b = [_swap(c, hidden, deep) for c in deck_a]
    ra = dict(record, deck=[_name(c) for c in deck_a], actions=record["actions"][:12])
    rb = dict(record, deck=[_name(c) for c in deck_b], actions=record["actions"][:12])
    ga, gb = new_game(ra), new_game(rb)
    assert ga.hands[1] != gb.hands[1] and ga.view(0) == gb.view(0)
    aa = analyse_match(ra, 0, budget=6, seed=2)
    ab = analyse_match(rb, 0, budget=6, seed=2)
    assert aa.decisions and list(aa.records()) == list(ab.records())


def _name(c: int) -> str:
    from rum500 import cards as C

    return C.name(c)


def _swap(c: int, a: list[int], b: list[int]) -> int:
    if c in a:
        return b[a.index(c)]
    if c in b:
        return a[b.index(c)]
    return c


def _deck_of(game) -> list[int]:  # type: ignore[no-untyped-def]
    """The card order that deals ``game``'s first hand (rum500.rules.game._deal, reversed)."""
    n, size = game.players, game.hand_size
    order = [0] * (n * size)
    for k in range(1, n + 1):
        order[k - 1 : n * size : n] = game.hands[(game.dealer + k) % n]
    return order + list(game.pile) + list(game.stock[::-1])


def test_the_json_has_a_record_per_decision_per_hand_and_a_summary() -> None:
    record = bot_match(["easy", "medium"], seed=3, hands=1)
    a = analyse_match(record, 1, budget=4, seed=0)
    records = json.loads(json.dumps(list(a.records())))
    kinds = [r["type"] for r in records]
    assert kinds == ["decision"] * len(a.decisions) + ["hand"] + ["summary"]
    d = records[0]
    assert set(d) >= {"index", "hand", "seat", "kind", "played", "best", "loss", "stderr", "ties"}
    assert set(d["position"]) == {"hand", "discard_pile", "melds", "stock"}
    assert all(r["loss"] >= 0 for r in records if r["type"] == "decision")
    assert d["kind"] in ("draw", "end_hand", "meld", "layoff", "discard", "rummy")
    assert record["actions"][d["index"]]["seat"] == 1
    summary = records[-1]
    assert summary["decisions"] == len(a.decisions) and summary["seat"] == 1
    assert set(records[-2]) >= {"luck", "deal_luck", "draw_luck", "error_rate", "mistakes"}


def test_the_same_seed_gives_the_same_analysis_with_one_process_or_two() -> None:
    record = bot_match(["easy", "easy"], seed=4, hands=1)
    one = analyse_seats(record, [0, 1], budget=4, seed=9, jobs=1)
    two = analyse_seats(record, [0, 1], budget=4, seed=9, jobs=2)
    assert [list(a.records()) for a in one] == [list(a.records()) for a in two]


def test_random_has_a_higher_error_rate_than_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each plays hard (whose play is seeded) for one hand of four matches. The expert's
    wall-clock guard is lifted, so its search ends on its own rule and its play is the same
    under any load (under load it searched less and the test could fail). The confirmation
    of a mistake (docs/analysis.md step 4) races at most twice the budget: most of random's
    decisions are confirmed, and at the full depth the test took 1.65 times the CPU time."""
    from rum500.bots import expert
    from rum500.coach import search

    monkeypatch.setattr(expert, "TIME_GUARD_S", 600.0)
    monkeypatch.setattr(search, "CONFIRM_CAP", 2)
    rate = {}
    for level in ("random", "expert"):
        lost = decisions = 0.0
        for seed in (1, 2, 3, 4):
            record = bot_match([level, "hard"], seed=seed, hands=1)
            a = analyse_match(record, 0, budget=16, seed=seed, jobs=2)
            lost += a.loss
            decisions += len(a.decisions)
        rate[level] = lost / decisions
    assert rate["random"] > 1.5 * rate["expert"], rate


def test_a_committed_match_measures_hand_1s_luck_on_the_hand_the_seat_held() -> None:
    """A host without --seed deals hand 1 again from a commitment as the match's first
    action (docs/rules.md "A deal nobody can stack"): the deal's luck and every decision are
    taken from the re-dealt hand, the one the seat saw — never the seed's, shown to no one."""
    from rum500.coach.analysis import new_game, tasks_of
    from rum500.coach.selfplay import bot_record
    from tests.coach.conftest import committed_deal

    record = bot_record(["hard", "hard"], 6, hands=1, committed=committed_deal())
    game = new_game(record)
    seed_dealt = [list(game.view(s)["hand"]) for s in (0, 1)]
    game.apply(dict(record["actions"][0]["action"]), record["actions"][0]["seat"])
    held = [list(game.view(s)["hand"]) for s in (0, 1)]
    assert held != seed_dealt  # the committed deal is another hand
    tasks, _ = tasks_of(record, [0, 1], budget=4, seed=0)
    deals = [t for t in tasks if t.what == "deal"]
    assert [(t.seat, t.hand) for t in deals] == [(0, 1), (1, 1)]
    assert [list(t.view["hand"]) for t in deals] == held
    assert all(t.index >= 1 and t.hand == 1 for t in tasks)  # the deal is no decision
    first = min((t for t in tasks if t.what == "decision"), key=lambda t: t.index)
    assert first.index == 1 and list(first.view["hand"]) == held[first.seat]
