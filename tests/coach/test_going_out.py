"""Issue 24: a move that ends the hand (the seat goes out, in the move or the rest of its
turn) is valued from that hand's score sheet — the other seats' cards left in hand count in
full — never as a hand cut short (table points less a fraction of the cards held)."""

from __future__ import annotations

from rum500.coach.analysis import analyse_decision
from rum500.coach.search import value
from tests.coach.conftest import position

#: seat 0 holds a made run and one loose card: melding the run, it goes out by discarding 2C
RUN = position(["7H", "8H", "9H", "2C"], ["KS", "QS", "JD", "10C", "9S", "KD", "QC"], ["4D"])
MELD = {"type": "meld", "cards": ["7H", "8H", "9H"]}


def test_going_out_is_worth_the_score_sheets_margin() -> None:
    after = RUN.copy()
    after.apply(dict(MELD))
    after.apply({"type": "discard", "card": "2C"})
    scores = after.results[0]["scores"]  # 24 on the table; seat 1 caught with 69
    assert value(RUN, MELD, 0) == scores[0] - scores[1]


def test_melding_a_made_run_and_going_out_loses_nothing() -> None:
    """Before the fix this called the meld a mistake of 19 points (better: discard 2C, going
    out a turn later in the playout, whose end was read from the score sheet)."""
    view = RUN.view(0)
    v = analyse_decision(view, [[], []], MELD, budget=16, seed=2)
    assert v.best == MELD and v.loss == 0.0
