"""The table's packed view (``GameTable.packed_view``, what the server sends): at every
position of whole matches it unpacks to the very view ``view(seat)`` builds — hand ends and
take-backs included — and a value whose source did not change (the melds, the score sheets,
the options, the names) is packed once, not again for every update."""

from __future__ import annotations

import random

import msgpack
import pytest

from rum500.host import GameTable, HostConfig
from rum500.rules import Options


def unpacked(parts: dict[str, bytes]) -> dict:
    return {key: msgpack.unpackb(value, raw=False) for key, value in parts.items()}


def timeless(view: dict) -> dict:
    """``view`` without the countdowns, which move between two reads."""
    out = dict(view)
    for key in ("review", "claim"):
        if isinstance(out.get(key), dict):
            out[key] = {k: v for k, v in out[key].items() if k != "seconds_left"}
    return out


def table_of(players: int, options: Options) -> GameTable:
    table = GameTable(HostConfig(players=players, seed=5 + players, options=options), "t")
    table.start([{"name": f"P{i}", "token": f"t{i}", "bot": False} for i in range(players)])
    return table


def step(table: GameTable, rng: random.Random) -> None:
    game = table.game
    assert game is not None
    seat = game.to_move
    if game.phase.value == "hand_over":
        table.apply(seat, {"type": "deal"}, by_host=True)
    elif game.phase.value == "claim":  # a call or a pass, or the host closes the window
        who = next((s for s in range(game.players) if game.claims(s)), None)
        if who is None or rng.random() < 0.3:
            table.apply(seat, {"type": "close_claims"}, by_host=True)
        else:
            table.apply(who, rng.choice(game.claims(who)))
    else:
        table.apply(seat, rng.choice(game.legal_actions()))


@pytest.mark.parametrize(
    "players,options",
    [(2, Options(target=300)), (4, Options(target=300, jokers=True, rummy_calls=True, teams=2))],
)
def test_the_packed_view_is_the_view_at_every_position(players, options):
    table = table_of(players, options)
    rng = random.Random(players)
    positions = hands = taken_back = 0
    while not table.finished and positions < 2500:
        for seat in (None, *range(players)):
            packed = timeless(unpacked(table.packed_view(seat)))
            assert packed == timeless(table.view(seat)), (positions, seat)
        game = table.game
        assert game is not None
        last = game.actions[-1] if game.actions else {}
        if last.get("type") in ("meld", "layoff") and rng.random() < 0.3:
            table.apply(game.turn, {"type": "take_back"})  # no other human: allowed
            taken_back += 1
        else:
            step(table, rng)
            hands += table.game is not None and table.game.phase.value == "hand_over"
        positions += 1
    assert positions > 100 and hands and taken_back


def test_what_did_not_change_is_packed_once():
    table = table_of(3, Options(target=500))
    first = table.packed_view(None)
    again = table.packed_view(None)
    for key in ("melds", "table_points", "results", "last_hand", "options", "lot", "names"):
        assert again[key] is first[key], key
    rng = random.Random(1)
    game = table.game
    assert game is not None
    while len(game.melds) == len(table.view(None)["melds"]) and not game.melds:
        step(table, rng)  # until someone melds
    after = table.packed_view(None)
    assert after["melds"] is not first["melds"]
    assert msgpack.unpackb(after["melds"]) == table.view(None)["melds"] != []


def test_what_did_not_change_is_not_even_built(monkeypatch):
    """The melds, the table's points, the score sheets and the options the host holds packed
    are not built again for a view while their sources stay the same objects (the costliest
    part of the spectators' view late in a hand): only when they change."""
    from rum500.rules.melds import Meld

    table = table_of(3, Options(target=500))
    game = table.game
    assert game is not None
    rng = random.Random(2)
    while len(game.melds) < 2:
        step(table, rng)
    built: list[str] = []
    to_dict, points, options = Meld.to_dict, type(game).table_points, type(game.options).to_dict
    monkeypatch.setattr(Meld, "to_dict", lambda m: built.append("meld") or to_dict(m))
    monkeypatch.setattr(type(game), "table_points", lambda g: built.append("points") or points(g))
    monkeypatch.setattr(
        type(game.options), "to_dict", lambda o: built.append("options") or options(o)
    )
    table.packed_view(None)
    built.clear()
    for _ in range(3):
        assert unpacked(table.packed_view(None)) == unpacked(table.packed_view(None))
    assert built == []  # nothing changed: nothing built
    melds = len(game.melds)
    while len(game.melds) == melds:
        step(table, rng)
    after = unpacked(table.packed_view(None))
    assert built.count("points") == 1 and built.count("meld") == len(game.melds)
    assert "options" not in built
    assert after["melds"] == [m.to_dict() for m in game.melds]


def test_a_seats_own_keys_are_the_same_map_while_they_stay_the_same():
    """``packed_own_view``: a seat's own keys packed; the very same map while they are the
    same (the server then sends that seat the spectators' frame at once), a new one as soon
    as one of them changes — and it always unpacks to ``own_view``."""
    table = table_of(3, Options(target=500))
    game = table.game
    assert game is not None
    rng = random.Random(3)
    kept = {seat: table.packed_own_view(seat) for seat in range(3)}
    reused = renewed = 0
    for _ in range(300):
        if table.finished:
            break
        step(table, rng)
        for seat in range(3):
            parts = table.packed_own_view(seat)
            assert unpacked(parts) == table.own_view(seat)
            if unpacked(kept[seat]) == table.own_view(seat):
                assert parts is kept[seat]
                reused += 1
            else:
                assert parts is not kept[seat]
                renewed += 1
            kept[seat] = parts
    assert reused > 100 and renewed > 100


def test_the_own_keys_of_a_seat_that_may_not_act_are_not_even_built_while_its_hand_stays():
    """A seat that may not act (not its turn, no claim window) has no legal actions: while
    its hand is as it was, ``packed_own_view`` hands back the kept map without building the
    own view again — and it still always unpacks to ``own_view``."""
    table = table_of(3, Options(target=500))
    game = table.game
    assert game is not None
    built: list[int | None] = []
    real = game.own_view

    def watched(seat: int | None) -> dict:
        built.append(seat)
        return real(seat)

    game.own_view = watched  # type: ignore[method-assign]
    rng = random.Random(5)
    for seat in range(3):
        table.packed_own_view(seat)
    skipped = 0
    for _ in range(200):
        if table.finished:
            break
        hands = [list(h) for h in game.hands]
        step(table, rng)
        for seat in range(3):
            quiet = not game.may_act(seat) and game.hands[seat] == hands[seat]
            built.clear()
            parts = table.packed_own_view(seat)
            if quiet and not unpacked(parts)["legal_actions"]:
                assert built == [], seat  # not built again
                skipped += 1
            assert unpacked(parts) == real(seat)
    assert skipped > 100
