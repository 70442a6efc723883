"""Calling "Rummy!" (RULES.md §11.2), partnerships (§11.3), ace scoring (§11.4) and their
§11.5 worked positions."""

from __future__ import annotations

import pytest

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options, Phase
from tests.rules.positions import position

RUMMY = Options(rummy_calls=True)


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


# "Rummy!" --------------------------------------------------------------------------------


def test_rule_11_5_rummy_three_players_seat_2_calls_and_seat_1_draws_as_usual():
    """("Rummy!", three players) Table 4♦ 5♦ 6♦; seat 0 discards 7♦; seat 2 calls within the
    window, lays 7♦ off and scores 7; seat 1 (next after seat 0) then draws as usual."""
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY
    )
    hands_before = [list(h) for h in g.hands]
    assert g.claim_seats() == []
    g.apply(discard("7D"))
    assert g.phase is Phase.CLAIM and g.turn == 1 and g.claim_from == 0
    assert g.claim_seats() == [1, 2]
    assert g.view(2)["claim"] == {"card": "7D", "from": 0}
    assert g.view(2)["legal_actions"] == [{"type": "rummy", "seat": 2, "meld": 0}]
    assert g.claims(0) == [] and g.view(0)["legal_actions"] == []
    # the next player may not draw while the window is open
    with pytest.raises(IllegalMove, match="Rummy! may still be called"):
        g.apply({"type": "draw", "source": "stock"}, seat=1)
    events = g.apply({"type": "rummy", "meld": 0}, seat=2)
    assert events[0] == {"type": "rummy", "seat": 2, "meld": 0, "card": "7D", "from": 0}
    assert g.actions[-1] == {"type": "rummy", "seat": 2, "meld": 0}
    assert g.melds[0].to_dict()["cards"] == ["4D", "5D", "6D", "7D"]
    assert g.melds[0].by[-1] == 2 and g.table_points() == [0, 15, 7]
    assert g.hands[2] == hands_before[2]  # the caller's hand does not change
    assert "7D" not in C.names(g.pile)
    assert g.phase is Phase.DRAW and g.turn == 1
    g.apply({"type": "draw", "source": "stock"}, seat=1)
    assert g.phase is Phase.PLAY


def test_rummy_the_first_valid_call_wins_the_second_is_refused():
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY
    )
    g.apply(discard("7D"))
    g.apply({"type": "rummy", "meld": 0}, seat=1)  # the next player may call too
    before = g.to_dict()
    with pytest.raises(IllegalMove, match="only be called on a discard"):
        g.apply({"type": "rummy", "meld": 0}, seat=2)
    assert g.to_dict() == before
    assert g.table_points()[1] == 15 + 7


def test_rummy_on_a_card_that_cannot_be_laid_off_is_refused_and_costs_nothing():
    g = position(
        ["KC 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY
    )
    g.apply(discard("KC"))
    before = g.to_dict()
    assert g.claims(1) == [] and g.claims(2) == []
    with pytest.raises(IllegalMove, match="KC is not of the suit of the run 4D 5D 6D"):
        g.apply({"type": "rummy", "meld": 0}, seat=2)
    with pytest.raises(IllegalMove, match="your own discard"):
        g.apply({"type": "rummy", "meld": 0}, seat=0)
    with pytest.raises(IllegalMove, match="no meld"):
        g.apply({"type": "rummy", "meld": 5}, seat=2)
    with pytest.raises(IllegalMove, match="for yourself"):
        g.apply({"type": "rummy", "seat": 1, "meld": 0}, seat=2)
    with pytest.raises(IllegalMove, match="host closes"):
        g.apply({"type": "close_claims"}, seat=1)
    assert g.to_dict() == before
    # the host closes the window: the next player draws
    assert g.legal_actions() == [{"type": "close_claims"}]
    assert g.apply({"type": "close_claims"}) == [{"type": "close_claims"}]
    assert g.phase is Phase.DRAW and g.turn == 1 and C.names(g.pile)[-1] == "KC"


def test_rummy_no_claim_on_the_discard_that_goes_out_nor_on_the_upcard():
    g = position(["7D", "3H 8C JS"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY)
    g.apply(discard("7D"))
    assert g.phase is Phase.HAND_OVER and g.claims(1) == []
    g.apply({"type": "deal"})
    assert g.phase is Phase.DRAW and g.view(0)["claim"] is None


def test_rummy_a_discarded_joker_is_claimed_with_a_name():
    opts = Options(rummy_calls=True, jokers=True)
    g = position(
        ["JK 2C 9S", "3H 8C JS", "KH QC 10S"],
        melds=[("4D 5D 6D", 1), ("8S 8H 8D", 2)],
        phase="play",
        options=opts,
    )
    g.apply(discard("JK"))
    calls = g.claims(2)
    assert {"type": "rummy", "seat": 2, "meld": 0, "joker": "3D"} in calls
    assert {"type": "rummy", "seat": 2, "meld": 0, "joker": "7D"} in calls
    assert {"type": "rummy", "seat": 2, "meld": 1, "joker": "8C"} in calls
    with pytest.raises(IllegalMove, match="name the card the joker stands for: 3D 7D"):
        g.apply({"type": "rummy", "meld": 0}, seat=2)
    g.apply({"type": "rummy", "meld": 0, "joker": "7D"}, seat=2)
    assert g.melds[0].to_dict()["stands_for"] == [None, None, None, "7D"]
    assert g.table_points()[2] == 8 + 8 + 8 + 15


def test_rummy_calls_replay_and_pop():
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY
    )
    start = g.to_dict()
    g.apply(discard("7D"))
    g.apply({"type": "rummy", "meld": 0}, seat=2)
    d = g.to_dict()
    assert Game.from_dict(d).to_dict() == d
    # a restored position replays the same actions to the same place
    h = Game.from_dict(start)
    for a in g.actions:
        h.apply(a)
    assert h.to_dict() == d


def test_rummy_with_the_stock_empty_and_end_at_once_the_hand_ends_after_the_window():
    opts = Options(rummy_calls=True, empty_stock="end")
    g = position(
        ["7D 2C 9S", "3H 8C JS"], melds=[("4D 5D 6D", 1)], phase="play", options=opts, stock=""
    )
    g.apply(discard("2C"))
    assert g.phase is Phase.CLAIM
    g.apply({"type": "close_claims"})
    assert g.phase is Phase.HAND_OVER and g.results[-1]["reason"] == "stock"


# partnerships ----------------------------------------------------------------------------


def test_rule_11_3_teams_and_seating():
    assert [Options(teams=2).team(s) for s in range(4)] == [0, 1, 0, 1]
    assert [Options(teams=3).team(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [Options(teams=2).team(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    for players, teams in [(4, 2), (6, 2), (6, 3)]:
        Options(teams=teams).validate(players)
    for players, teams in [(2, 2), (3, 2), (5, 2), (4, 3), (8, 2), (6, 4), (4, 1)]:
        with pytest.raises(ValueError, match="teams"):
            Options(teams=teams).validate(players)
    with pytest.raises(ValueError):
        Options(teams=True).validate(4)  # type: ignore[arg-type]


def test_rule_11_5_partners_seats_0_and_2_score_40_and_minus_5_their_team_adds_35():
    """(Partnerships, four players) Seats 0 and 2 score +40 and −5 in a hand: their team adds
    35."""
    opts = Options(teams=2)
    # seat 0 goes out laying off 10H: 10 + 10 + 10 + 10 = 40 on the table (its run) …
    g = position(
        ["10H", "2C", "5C", "9S"],
        melds=[("JH QH KH", 0)],
        phase="play",
        options=opts,
    )
    g.apply({"type": "layoff", "card": "10H", "meld": 0})
    r = g.results[-1]
    assert r["scores"] == [40, -2, -5, -9]
    assert r["team_scores"] == [35, -11]
    assert r["team_totals"] == [35, -11] == g.team_totals()
    assert g.view(1)["teams"] == [0, 1, 0, 1]
    assert g.view(1)["team_totals"] == [35, -11]
    assert g.view(1)["results"][-1]["team_scores"] == [35, -11]


def test_rule_11_3_the_target_and_the_tie_rule_are_on_team_totals():
    opts = Options(teams=2, target=500)
    # team 0: 300 + 190 = 490; team 1: 480 + 0 — seat 1 alone is above neither total
    g = position(
        ["10H", "2C", "5C", "9S"],
        melds=[("JH QH KH", 0)],
        phase="play",
        options=opts,
        totals=[300, 480, 190, 0],
    )
    g.apply({"type": "layoff", "card": "10H", "meld": 0})
    # team 0: 490 + 35 = 525, team 1: 480 − 11 = 469: team 0 wins
    assert g.phase is Phase.GAME_OVER
    assert g.results[-1]["team_totals"] == [525, 469]
    assert g.winner == 0
    tied = position(
        ["10H", "2C", "5C", "9S"],
        melds=[("JH QH KH", 0)],
        phase="play",
        options=opts,
        totals=[300, 300, 190, 236],
    )
    events = tied.apply({"type": "layoff", "card": "10H", "meld": 0})
    # 525 and 300 − 2 + 236 − 9 = 525: tied, another hand
    assert tied.results[-1]["team_totals"] == [525, 525]
    assert tied.phase is Phase.HAND_OVER and tied.winner is None
    assert events[-1] == {"type": "tie", "seats": [0, 1, 2, 3], "teams": [0, 1], "total": 525}


def test_rule_11_3_a_lone_player_above_the_target_does_not_win_when_the_team_is_behind():
    opts = Options(teams=2, target=500)
    g = position(
        ["10H", "2C", "5C", "9S"],
        melds=[("JH QH KH", 0)],
        phase="play",
        options=opts,
        totals=[600, 400, -200, 400],
    )
    events = g.apply({"type": "layoff", "card": "10H", "meld": 0})
    # team 0: 640 − 205 = 435; team 1: 398 + 391 = 789
    assert g.phase is Phase.GAME_OVER and g.winner == 1
    assert events[-1]["team"] == 1 and events[-1]["winners"] == [1, 3]


# ace scoring -----------------------------------------------------------------------------


def test_rule_11_4_ace_always_15_even_low_in_a_run():
    for opts, expected in [(Options(), 1 + 2 + 3), (Options(ace_always_15=True), 15 + 2 + 3)]:
        g = position(["AS 2S 3S 9C", "3H 8C JS"], phase="play", options=opts)
        g.apply({"type": "meld", "cards": ["AS", "2S", "3S"]})
        assert g.table_points()[0] == expected
        g.apply(discard("9C"))
        assert g.results[-1]["table_points"][0] == expected


def test_a_saved_claim_phase_is_checked_on_restore():
    g = position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)], phase="play", options=RUMMY
    )
    g.apply(discard("7D"))
    d = g.to_dict()
    assert Game.from_dict(d).claims(2) == g.claims(2)
    for bad in ({"claim_from": None}, {"claim_from": 7}, {"claim_from": "0"}, {"phase": "draw"}):
        with pytest.raises(ValueError):
            Game.from_dict({**d, **bad})
    with pytest.raises(ValueError):
        Game.from_dict({**d, "options": {**d["options"], "rummy_calls": False}})


def test_house_rule_options_round_trip_and_are_validated():
    o = Options(jokers=True, rummy_calls=True, teams=2, ace_always_15=True)
    assert o.changed() == {"jokers": True, "rummy_calls": True, "teams": 2, "ace_always_15": True}
    assert Options().changed() == {}
    assert Options.from_dict(o.to_dict()) == o
    assert Options.from_dict({"jokers": True}) == Options(jokers=True)  # older maps: defaults
    o.validate(4)
    for flag in ("jokers", "rummy_calls", "ace_always_15"):
        with pytest.raises(ValueError, match=f"{flag} must be true or false"):
            Options(**{flag: 1}).validate(4)
    with pytest.raises(ValueError, match="unknown option"):
        Options.from_dict({"jokerz": True})
