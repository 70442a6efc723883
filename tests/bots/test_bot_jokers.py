"""Each bot level plays jokers sensibly (rum500/bots/jokers.py, RULES.md §11.1): it digs a
joker off the top of the discard pile when it can put it down, puts it down, and never
throws one while another card may go."""

from __future__ import annotations

import pytest

from rum500 import cards as C
from rum500.bots import make_bot
from rum500.rules import Game, Options, Phase
from tests.rules.positions import position

JOKERS = Options(jokers=True)
LEVELS = ["easy", "medium", "hard", "expert"]
OTHERS = ["2S 3D 5C 7S JH KH 4C", "8C 10C 2H 3H QS QC 4D"]


@pytest.mark.parametrize("level", LEVELS)
def test_a_joker_on_top_of_the_pile_is_dug_and_melded(level: str):
    """7♥ 8♥ in hand, a joker on top of the pile: every level takes it (not the stock) and
    melds it — 15 points on the table instead of an unknown card."""
    g = position(["7H 8H 2C KS QD 4S 9C", *OTHERS], pile="5D JK", options=JOKERS)
    bot = make_bot(level, seed=1)
    draw = bot.choose(g.view(0))
    assert draw == {"type": "draw", "source": "discard", "index": 1}
    g.apply(draw, seat=0)
    play = bot.choose(g.view(0))
    assert play["type"] == "meld" and "JK" in play["cards"] and {"7H", "8H"} <= set(play["cards"])
    g.apply(play, seat=0)
    assert g.table_points()[0] == 7 + 8 + 15


@pytest.mark.parametrize("level", LEVELS)
def test_a_free_joker_that_cannot_go_down_yet_is_taken_by_the_levels_that_value_it(level: str):
    """With "top card free" the joker may be taken and kept. With no pair, no near cards and
    no meld on the table it cannot go down this turn: easy and medium leave it (they value
    only what goes down now); hard and expert value a joker in hand at the 15 it will score
    (it fits almost anything later), so they take it."""
    options = Options(jokers=True, top_card_free=True)
    g = position(["2C 9S KD 5H", "2S 3D 5C 7S", "8C 10C 2H 3H"], pile="4D JK", options=options)
    dig = {"type": "draw", "source": "discard", "index": 1}
    assert dig in g.legal_actions()
    want = dig if level in ("hard", "expert") else {"type": "draw", "source": "stock"}
    assert make_bot(level, seed=1).choose(g.view(0)) == want


@pytest.mark.parametrize("level", LEVELS)
def test_a_joker_is_never_discarded_while_another_card_may_go(level: str):
    """A joker with three cards that meld with nothing (and no table): it stays in hand."""
    for seed in range(6):
        g = position(["JK 2C 9S KD", *OTHERS], phase="play", options=JOKERS)
        assert {"type": "discard", "card": "JK"} in g.legal_actions()
        action = make_bot(level, seed=seed).choose(g.view(0))
        assert action["type"] == "discard" and action["card"] != "JK", (level, seed)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_in_whole_hands_with_jokers_no_level_throws_a_joker_it_could_keep(level: str):
    """Three hands of a three-player match with jokers (every seat the same level): each
    discard of a joker came when nothing else might be discarded, and jokers reach the
    table."""
    g = Game(3, seed=21, options=Options(jokers=True, target=10**9))
    bots = [make_bot(level, seed=s) for s in range(3)]
    thrown = melded = 0
    while g.phase is not Phase.GAME_OVER and len(g.results) < 3:
        seat = g.to_move
        assert seat is not None
        view = g.view(seat)
        action = bots[seat].choose(view) if g.phase is not Phase.HAND_OVER else {"type": "deal"}
        if action["type"] == "discard" and action["card"] == C.JOKER_NAME:
            discards = {a["card"] for a in view["legal_actions"] if a["type"] == "discard"}
            assert discards == {C.JOKER_NAME}, (level, view["hand"])
            thrown += 1
        events = g.apply(action, seat=seat)
        for s in range(3):
            if hasattr(bots[s], "observe"):
                bots[s].observe(events, g.view(s))
        melded += sum(
            1
            for e in events
            if (e.get("type") == "meld" and C.JOKER_NAME in e["cards"])
            or (e.get("type") == "layoff" and e.get("card") == C.JOKER_NAME)
        )
    assert len(g.results) == 3
    assert melded >= 1
