"""A bot reads only its seat's view: handing it the game, or the full state, is refused."""

from __future__ import annotations

import pytest

from rum500.bots import LEVELS, NotAView, hint, make_bot
from rum500.bots.seat import read_view
from rum500.bots.tracker import Tracker
from rum500.rules import Game


@pytest.fixture
def game() -> Game:
    return Game(2, seed=11)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bot_refuses_the_game_itself(game: Game, level: str) -> None:
    bot = make_bot(level, seed=1)
    with pytest.raises(NotAView, match="not a Game"):
        bot.choose(game)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bot_refuses_the_full_state(game: Game, level: str) -> None:
    bot = make_bot(level, seed=1)
    with pytest.raises(NotAView, match="full game state"):
        bot.choose(game.to_dict())


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bot_refuses_a_view_with_the_hands_added(game: Game, level: str) -> None:
    """Even a seat view that someone enriched with every hand is refused."""
    view = game.view(game.to_move)
    view["hands"] = game.to_dict()["hands"]
    with pytest.raises(NotAView):
        make_bot(level, seed=1).choose(view)


def test_spectator_view_and_junk_are_refused(game: Game) -> None:
    with pytest.raises(NotAView, match="spectator"):
        read_view(game.view(None))
    with pytest.raises(NotAView, match="not a seat view"):
        read_view({"seat": 0})
    with pytest.raises(NotAView):
        read_view([1, 2, 3])
    with pytest.raises(NotAView):
        hint(game)  # type: ignore[arg-type]


def test_observe_refuses_the_game_too(game: Game) -> None:
    bot = make_bot("hard", seed=1)
    with pytest.raises(NotAView):
        bot.observe([], game.to_dict())


def test_seat_view_is_accepted_and_read(game: Game) -> None:
    seat = game.to_move
    v = read_view(game.view(seat))
    assert v.seat == seat
    assert len(v.hand) == 13
    assert v.stock == 25
    # what this seat has not seen: the other hand and the stock
    assert sum(v.unseen()) == 13 + 25


def test_tracker_remembers_what_an_opponent_took() -> None:
    t = Tracker()
    view = {"seat": 0, "hand_number": 1, "discard_pile": ["4C", "9D"]}
    t.observe([], view)
    t.observe(
        [{"type": "draw", "seat": 1, "source": "discard", "index": 0, "cards": ["4C", "9D"]}],
        {"seat": 0, "hand_number": 1, "discard_pile": []},
    )
    assert sorted(t.known_cards(1)) == [8 + 26, 3 + 39]  # 9D, 4C
    t.observe(
        [
            {"type": "meld", "seat": 1, "meld": 0, "cards": ["4C", "5C", "6C"]},
            {"type": "discard", "seat": 1, "card": "KS"},
        ],
        {"seat": 0, "hand_number": 1, "discard_pile": ["KS"]},
    )
    assert t.known_cards(1) == [8 + 26]
    assert t.avoided(1) == [12]  # KS thrown away
    # a stock draw passes over the top card
    t.observe(
        [{"type": "draw", "seat": 1, "source": "stock", "stock": 20}],
        {"seat": 0, "hand_number": 1, "discard_pile": ["KS"]},
    )
    assert t.avoided(1) == [12, 12]
    # a new hand forgets
    t.observe([{"type": "deal", "hand": 2}], {"seat": 0, "hand_number": 2, "discard_pile": []})
    assert t.known_cards(1) == []


def _hidden_shuffled(game: Game, seat: int, seed: int) -> Game:
    """The same position for ``seat``, with every card it cannot see dealt again at random
    (the other hands and the stock, sizes kept)."""
    import random

    from rum500 import cards as C

    d = game.to_dict()
    others = [s for s in range(game.players) if s != seat]
    hidden = [c for s in others for c in d["hands"][s]] + d["stock"]
    random.Random(seed).shuffle(hidden)
    for s in others:
        n = len(d["hands"][s])
        d["hands"][s], hidden = hidden[:n], hidden[n:]
    d["stock"] = hidden
    out = Game.from_dict(d)
    assert out.view(seat) == game.view(seat)
    assert C.parse_many(d["stock"]) != game.stock or game.players == 1
    return out


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_choice_depends_only_on_what_the_seat_may_see(level: str) -> None:
    """Redealing the cards a seat cannot see never changes its bot's choice (the expert's
    search samples those cards itself, from its own seed)."""
    import random

    from rum500.rules import Options

    for seed in (3, 8):
        game = Game(3, seed=seed, options=Options(jokers=seed == 8))
        rng = random.Random(seed)
        for _ in range(12 * seed):  # into the hand, with a discard pile to dig in
            game.apply(rng.choice(game.legal_actions()))
        seat = game.to_move
        twin = _hidden_shuffled(game, seat, seed)
        a = make_bot(level, seed=5).choose(game.view(seat))
        b = make_bot(level, seed=5).choose(twin.view(seat))
        assert a == b
