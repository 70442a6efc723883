"""Bots with partners (rum500/bots/teams.py, RULES.md §11.3): positions where playing for
the team changes the bot's choice, and the same position without partnerships."""

from __future__ import annotations

import pytest

from rum500.bots import make_bot
from rum500.bots.seat import read_view
from rum500.bots.teams import discard_key, is_partner, next_opponent, partner_seats
from rum500.rules import Game, Options
from tests.rules.positions import position

# seat 0 to play: two nines and two fours, nothing to meld
HANDS = ["9S 9C 4H 4D", "2S 3D 5C 7S JH KH", "8C 10C 2H 3H QS QD", "6S 6D JC KC 2D 3S"]


def nines(teams: int) -> Game:
    return position(HANDS, phase="play", options=Options(teams=teams))


def told_partner_dug(bot, g: Game) -> None:
    """Seat 0's bot saw seat 2 dig 8♣ 10♣ out of the discard pile earlier this hand."""
    event = {"type": "draw", "seat": 2, "source": "discard", "index": 0, "cards": ["8C", "10C"]}
    bot.observe([event], g.view(0))


def test_who_plays_with_whom():
    v6 = read_view(position([""] * 6, options=Options(teams=3)).view(4))
    assert partner_seats(v6) == [1] and next_opponent(v6) == 5
    v6 = read_view(position([""] * 6, options=Options(teams=2)).view(1))
    assert partner_seats(v6) == [3, 5] and next_opponent(v6) == 2
    v4 = read_view(nines(2).view(0))
    assert is_partner(v4, 2) and not is_partner(v4, 1) and not is_partner(v4, 0)
    solo = read_view(nines(0).view(0))
    assert partner_seats(solo) == [] and next_opponent(solo) == 1
    assert discard_key(solo, 47, lambda s: [46, 48]) == (0, 0)  # no teams: no change


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_discard_goes_to_the_partner_not_the_opponent(level: str):
    """Seat 2 is known to hold 8♣ 10♣. Alone, seat 2 is an opponent: the bot keeps 9♣ and
    throws 9♠. With partners (seats 0 and 2), it throws 9♣ for its partner instead."""
    choices = {}
    for teams in (0, 2):
        g = nines(teams)
        bot = make_bot(level, seed=4)
        told_partner_dug(bot, g)
        choices[teams] = bot.choose(g.view(0))
    assert choices[0] == {"type": "discard", "card": "9S"}
    assert choices[2] == {"type": "discard", "card": "9C"}


def test_a_discard_the_next_opponent_can_use_is_kept_even_when_the_partner_could_use_it():
    """Seat 1 (the next opponent, who draws first) is known to hold 8♣ 10♣ too: 9♣ would
    feed it before the partner's turn, so the team's order puts 9♠ first."""
    g = nines(2)
    v = read_view(g.view(0))
    known = {1: [46, 48], 2: [46, 48]}  # 8♣ 10♣
    assert discard_key(v, 47, lambda s: known.get(s, [])) == (1, 0)  # 9♣ feeds seat 1
    assert discard_key(v, 8, lambda s: known.get(s, [])) == (0, 1)  # 9♠ feeds nobody
    assert min([47, 8], key=lambda c: discard_key(v, c, lambda s: known.get(s, []))) == 8


def test_hard_does_not_hold_back_a_meld_its_partner_can_lay_off_on():
    """Hard holds a meld back while an opponent is known to hold a card that would go on it;
    a partner's lay-off scores for the team, so with partners it melds."""
    hands = [
        "5H 6H 7H 2C 9S KD JD",
        "2S 3D 5C 7S JH KH 4C",
        "8H 10C 2H 3H QS QD 4S",
        "6S 6D JC KC 2D 3S 4D",
    ]
    plays = {}
    for teams in (0, 2):
        g = position(hands, phase="play", options=Options(teams=teams))
        bot = make_bot("hard", seed=2)
        event = {"type": "draw", "seat": 2, "source": "discard", "index": 0, "cards": ["8H"]}
        bot.observe([event], g.view(0))
        plays[teams] = bot.choose(g.view(0))
    assert plays[2] == {"type": "meld", "cards": ["5H", "6H", "7H"]}
    assert plays[0]["type"] == "discard"


def test_hard_counts_what_its_partner_is_caught_holding_against_going_out():
    """Going out catches every other hand: alone, all three count for the seat that goes
    out; with partners, the partner's cards count against the team."""
    hands = ["5H 6H", "2S 3D 5C 7S JH KH 4C", "8H 10C 2H 3H QS QD 4S", "6S 6D JC KC 2D 3S 4D"]
    bot = make_bot("hard", seed=1)
    alone = bot.out_bonus(read_view(position(hands, phase="play").view(0)))
    team = bot.out_bonus(read_view(position(hands, phase="play", options=Options(teams=2)).view(0)))
    assert alone == pytest.approx(6.0 * (7 + 7 + 7) / 3)
    assert team == pytest.approx(6.0 * (7 + 7 - 7) / 3)
