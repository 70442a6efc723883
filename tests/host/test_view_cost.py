"""What an update costs the host (issue 11, goal 1): the public part of the views is built
once per update and only the keys particular to a seat (``own_view``) per seat — and what a
seat is sent that way is its whole view, at every position; no seat gets another's hand."""

from __future__ import annotations

import asyncio
import random

import pytest

from net.client import Client
from rum500.host import GameTable, HostConfig
from rum500.rules import Game, Options
from tests.net.util import play_as_bot, wait_for


def composed(game_or_table: Game | GameTable, seat: int) -> dict:
    """A seat's view as the host builds it for an update."""
    return {**game_or_table.view(None), **game_or_table.own_view(seat)}


@pytest.mark.parametrize(
    "players,options",
    [
        (2, Options(target=500)),
        (4, Options(target=500, jokers=True, rummy_calls=True, teams=2)),
        (3, Options(target=500, top_card_free=True, must_discard=True)),
    ],
)
def test_the_public_view_plus_a_seats_own_keys_is_its_whole_view(players, options):
    game = Game(players, seed=7 + players, options=options)
    rng = random.Random(players)
    positions = 0
    while game.phase.value != "game_over" and positions < 3000:
        for seat in range(players):
            whole = game.view(seat)
            assert composed(game, seat) == whole, (positions, seat)
            # the public part holds no hand: a seat's cards come from its own keys only
            assert game.view(None)["hand"] is None
        assert {**game.view(None), **game.own_view(None)} == game.view(None)
        moves = game.legal_actions()
        if not moves:  # a claim phase: somebody passes or calls
            seat = next(s for s in range(players) if game.claims(s))
            game.apply(rng.choice(game.claims(seat)), seat=seat)
        else:
            game.apply(rng.choice(moves))
        positions += 1
    assert positions > 100
    assert game.results  # finished hands too


async def test_a_host_builds_one_public_view_per_update(make_host):
    host = await make_host(players=3, bots=0, seed=9, options=Options(target=150))
    table: GameTable = host.table
    builds: dict[int | None, int] = {}
    owns: dict[tuple[int, int], int] = {}
    build, own = table.view, table.own_view

    def view(seat, *known):
        builds[seat] = builds.get(seat, 0) + 1
        return build(seat, *known)

    def own_view(seat):
        key = (host.server.seq, seat)
        owns[key] = owns.get(key, 0) + 1
        return own(seat)

    table.view = view  # watched only: the host's own views go out unchanged
    table.own_view = own_view
    seats = [await Client.connect(host.address, host.port, name=f"P{i}") for i in range(3)]
    watchers = [
        await Client.connect(host.address, host.port, name=f"W{i}", spectate=True) for i in range(3)
    ]
    await wait_for(lambda: host.table.game is not None)
    await asyncio.wait_for(asyncio.gather(*(play_as_bot(c, seed=c.seat) for c in seats)), 120)
    updates = host.server.seq
    assert updates > 50
    # one spectators' view per update (and one per whole view a joiner or resync got) —
    # never a seat's whole view — and each seat's own keys once per update
    assert set(builds) == {None}
    assert updates <= builds[None] <= updates + len(seats) + len(watchers)
    assert set(owns.values()) == {1}
    assert {seat for _, seat in owns} == {0, 1, 2}
    for c in seats:  # and what each seat holds is its whole view
        assert c.view == GameTable.view(table, c.seat)
    for c in [*seats, *watchers]:
        await c.close()


def test_a_table_not_started_has_no_own_keys():
    table = GameTable(HostConfig(players=2), "t")
    assert table.own_view(0) == {}
    assert table.view(None) == {}


async def test_a_host_nobody_watches_builds_no_update(make_host):
    host = await make_host(players=2, bots=2, seed=3, options=Options(target=10**6))
    table: GameTable = host.table
    built: list = []
    build, own = table.view, table.own_view
    table.view = lambda seat, *known: built.append(("view", seat)) or build(seat, *known)
    table.own_view = lambda seat: built.append(("own", seat)) or own(seat)
    host.start_now()
    await wait_for(lambda: table.game is not None and len(table.game.actions) >= 60, timeout=60)
    # the bots read their seats' views; no update is built for connections there are not
    assert built and all(kind == "view" and seat is not None for kind, seat in built)


async def test_the_host_reads_who_waits_once_per_update(make_host):
    """What the views show of the players' presence (the review's waiting list, the away
    seats, the claim window's) is read once per update — for the next change of seats to be
    compared with — not again by the on-change check that follows every update."""
    host = await make_host(players=2, bots=2, seed=3, options=Options(target=10**6))
    reads: list[int] = []
    who = host._who_waits
    host._who_waits = lambda: reads.append(host.server.seq) or who()
    first = host.server.seq + 1  # (a table of bots alone may have started already)
    host.start_now()
    await wait_for(lambda: host.table.game is not None and len(host.table.game.actions) >= 60)
    last = host.server.seq  # (its on-change check may be still to come)
    per_update = [reads.count(seq) for seq in range(first, last)]
    assert len(per_update) > 50 and set(per_update) == {1}, per_update
