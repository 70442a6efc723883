"""The engine split by concern (issue 23): the seams between ``game`` and its helper modules,
and ``Game.action_seats`` (who played each action), kept exact by every way a game moves."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rum500.rules import Game, Options, Phase
from rum500.rules.deal import draw_lot, first_order
from tests.rules.positions import options_st

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = Path(__file__).resolve().parents[2] / "rum500" / "rules"
ALL_ON = Options(
    top_card_free=True, must_discard=True, jokers=True, rummy_calls=True, ace_always_15=True
)


def replayed_seats(g: Game) -> list[int | None]:
    """Who played each action, learned by replay (as the host did before the engine kept it)."""
    replay = Game(g.players, g.seed, g.options, g.first_deck)
    seats: list[int | None] = []
    for a in g.actions:
        kind = a.get("type")
        seat = None if kind == "close_claims" else a.get("seat", replay.to_move)
        seats.append(seat if isinstance(seat, int) else None)
        replay.apply(a, None if kind in ("rummy", "close_claims") else seat)
    return seats


def step(g: Game, rng: random.Random) -> None:
    """One random action: through the dict API ("Rummy!" calls included) or the fast path."""
    if rng.random() < 0.5:
        moves = [(None, a) for a in g.legal_actions()]
        moves += [(s, a) for s in range(g.players) for a in g.claims(s)]
        seat, action = rng.choice(moves)
        g.apply(action, seat=seat)
    else:
        g.apply_move(rng.choice(g.legal_moves()))


@SETTINGS
@given(st.integers(2, 6), st.integers(0, 2**32), options_st, st.integers(1, 250))
def test_action_seats_follow_apply_pop_copy_and_restore(players, seed, options, steps):
    g = Game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.actions and (g.phase is Phase.GAME_OVER or rng.random() < 0.2):
            g.pop()
        else:
            step(g, rng)
        assert len(g.action_seats()) == len(g.actions)
    assert g.action_seats() == replayed_seats(g)
    c = g.copy()
    restored = Game.from_dict(g.to_dict())
    for other in (c, restored):
        for _ in range(10):
            if other.phase is Phase.GAME_OVER:
                break
            step(other, rng)
        if other.actions:
            other.pop()
        assert other.action_seats() == replayed_seats(other)
    assert g.action_seats() == replayed_seats(g)  # the copies left the original alone


def test_action_seats_name_the_caller_and_none_for_the_host():
    g = Game(3, 7, ALL_ON)
    rng = random.Random(7)
    while not any(a["type"] == "rummy" for a in g.actions) and g.phase is not Phase.GAME_OVER:
        calls = [a for s in range(g.players) for a in g.claims(s)]
        if calls:
            call = rng.choice(calls)
            g.apply(call, seat=call["seat"])
        else:
            g.apply(rng.choice(g.legal_actions()))
    seats = g.action_seats()
    for a, seat in zip(g.actions, seats, strict=True):
        if a["type"] == "rummy":
            assert seat == a["seat"]
        elif a["type"] == "close_claims":
            assert seat is None
        else:
            assert isinstance(seat, int)
    assert seats == replayed_seats(g)


@pytest.mark.parametrize("options", [Options(), ALL_ON])
def test_action_seats_after_a_playout_are_learnt_by_replay(options):
    """``apply_move(…, undo=False)`` (a playout) keeps no record of who played, as it keeps
    nothing for pop: action_seats learns them by replay (the actions before, during and
    after the playout), in the game and in a copy of it played on."""
    g = Game(3, 5, options)
    rng = random.Random(5)
    for undo in [True] * 20 + [False] * 40 + [True] * 20:
        if g.phase is Phase.GAME_OVER:
            break
        g.apply_move(rng.choice(g.legal_moves()), undo=undo)
    assert g.action_seats() == replayed_seats(g)
    c = g.copy()
    for _ in range(5):
        step(c, rng)
    assert c.action_seats() == replayed_seats(c)


def test_the_lot_and_a_stacked_deck_are_the_games():
    g = Game(4, 11)
    assert draw_lot(4, g.decks, random.Random(11)) == g.lot
    with pytest.raises(ValueError, match="more than 1 time"):
        first_order(["AS", "AS"], g._deck(), random.Random(1))
    order = first_order(["AS", "KH"], g._deck(), random.Random(1))
    assert order[:2] == [0, 25] and sorted(order) == sorted(g._deck())


def test_the_old_names_stay_importable_from_game():
    from rum500.rules import game

    for name in (
        "MOVE_STOCK",
        "MOVE_DIG",
        "MOVE_END_HAND",
        "MOVE_MELD",
        "MOVE_LAYOFF",
        "MOVE_DISCARD",
        "MOVE_DEAL",
        "MOVE_CLOSE_CLAIMS",
        "MAX_MELD_CARDS",
        "STATE_VERSION",
        "UNDO_KEPT",
        "Game",
        "Phase",
        "action_of",
    ):
        assert hasattr(game, name), name


def imports(path: Path) -> set[str]:
    """The modules of ours ``path`` imports, at any level of the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "rum500":
            found.update(f"rum500.{a.name}" for a in node.names)  # from rum500 import cards
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m == "rum500" or m.startswith("rum500.")}


def test_rules_import_only_cards_and_each_other_one_way():
    graph = {p.stem: imports(p) for p in RULES.glob("*.py")}
    for name, mods in graph.items():
        for m in mods:
            assert m == "rum500.cards" or m.startswith("rum500.rules"), (name, m)
    # only game (and the package's __init__) builds on game: the helpers never import it back
    for name, mods in graph.items():
        if name not in ("game", "__init__"):
            assert "rum500.rules.game" not in mods, name
    # no cycle between the files of rules/
    edges = {
        name: {m.rsplit(".", 1)[1] for m in mods if m.startswith("rum500.rules.")}
        for name, mods in graph.items()
    }
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " → ".join((*path, name))
        if name in done:
            return
        for nxt in edges.get(name, ()):
            visit(nxt, (*path, name))
        done.add(name)

    for name in edges:
        visit(name, ())
