"""§12.1 a first meld of N: a bot that has not opened plans its opening — it melds only when
this turn's melds can reach N (the engine's check, rules.opening.can_open), lays the whole
opening down in one turn (no meld of it held back), keeps a meld that cannot open yet, and
does not dig for a card whose opening cannot reach N. Strict bots: an action the engine does
not offer raises instead of being replaced."""

from __future__ import annotations

import pytest

from rum500 import cards as C
from rum500.bots import make_bot
from rum500.bots.easy import EasyBot
from rum500.bots.expert import ExpertBot
from rum500.bots.hard import HardBot
from rum500.bots.medium import MediumBot
from rum500.bots.seat import read_view
from rum500.rules import Game, Options, Phase
from tests.rules.positions import position

LEVELS = [EasyBot, MediumBot, HardBot, ExpertBot]


def unopened(hands: list[str], n: int, **kw: object) -> Game:
    """A position at a first meld of ``n`` whose seat to move began its turn unopened."""
    d = position(hands, options=Options(first_meld=n), **kw).to_dict()  # type: ignore[arg-type]
    d["opening"] = 0
    return Game.from_dict(d)


def turn(bot: object, g: Game) -> list[dict]:
    """Seat 0's plays until its discard."""
    out = []
    for _ in range(8):
        a = bot.choose(g.view(0))  # type: ignore[attr-defined]
        out.append(a)
        g.apply(a, seat=0)
        if a["type"] == "discard":
            break
    return out


def test_the_view_says_what_is_left_to_open() -> None:
    g = unopened(["5S 5H 5D 7C 8C 9C KD 2S", "3C 4C 8S 9S 10D JD KS"], 30, phase="play")
    v = read_view(g.view(0))
    assert (v.first_meld, v.opened, v.to_open) == (30, False, 30)
    g.apply({"type": "meld", "cards": ["5S", "5H", "5D"]}, seat=0)
    assert read_view(g.view(0)).to_open == 15


@pytest.mark.parametrize("cls", LEVELS)
def test_an_unopened_bot_melds_its_whole_opening_in_one_turn(cls: type) -> None:
    g = unopened(["5S 5H 5D 7C 8C 9C 10C KD 2S QH JS", "3C 4C 8S 9S 10D JD KS"], 30, phase="play")
    bot = cls(seed=1, strict=True)
    # the hard bot holds back a meld an opponent could lay off on (seat 1 is known to hold
    # 6C): before opening it would then meld 5S 5H 5D alone and try to discard
    bot.tracker.known = {1: [C.parse("6C")]}
    plays = turn(bot, g)
    melded = {tuple(sorted(C.parse_many(a["cards"]))) for a in plays if a["type"] == "meld"}
    assert tuple(sorted(C.parse_many("5S 5H 5D"))) in melded
    assert sum(len(m) for m in melded) >= 6 and plays[-1]["type"] == "discard"
    assert g.opened[0]


@pytest.mark.parametrize("cls", LEVELS)
def test_a_meld_short_of_the_opening_stays_in_hand(cls: type) -> None:
    g = unopened(["5S 5H 5D KD 2S 9H", "3C 4C 8S 9S 10D JD 6S"], 30, phase="play")
    plays = turn(cls(seed=1, strict=True), g)
    assert [a["type"] for a in plays] == ["discard"]
    if cls is not EasyBot:  # easy discards any card, one of a meld it keeps for later too
        assert plays[0]["card"] not in ("5S", "5H", "5D")


@pytest.mark.parametrize("cls", LEVELS)
def test_no_dig_for_an_opening_short_of_n(cls: type) -> None:
    g = unopened(["KS KD 4H 7C 9D 2S", "3C 4C 8S 9S 10D JD 6S"], 50, pile="3D KC")
    assert cls(seed=1, strict=True).choose(g.view(0)) == {"type": "draw", "source": "stock"}
    # at 30 the same three kings open: the dig is the bot's choice
    g = unopened(["KS KD 4H 7C 9D 2S", "3C 4C 8S 9S 10D JD 6S"], 30, pile="3D KC")
    assert cls(seed=1, strict=True).choose(g.view(0)) == {
        "type": "draw",
        "source": "discard",
        "index": 1,
    }


@pytest.mark.parametrize("n", [30, 50])
@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_every_level_finishes_a_match_with_a_first_meld(level: str, n: int) -> None:
    """A whole match (to 150) of the level against itself at a first meld of ``n``, seeded:
    only offered actions, and the match ends."""
    g = Game(2, seed=n + 3, options=Options(first_meld=n, target=150))
    bots = [make_bot(level, seed=s) for s in range(2)]
    for bot in bots:
        if hasattr(bot, "steps"):
            bot.steps = 100  # the expert's search, small: this is about the rule
    for _ in range(20000):
        if g.phase is Phase.GAME_OVER:
            break
        seat = g.to_move
        assert seat is not None
        view = g.view(seat)
        action = bots[seat].choose(view)
        assert action in view["legal_actions"], (level, action)
        events = g.apply(action, seat=seat)
        for s, bot in enumerate(bots):
            if hasattr(bot, "observe"):
                bot.observe(events, g.view(s))
    assert g.phase is Phase.GAME_OVER
