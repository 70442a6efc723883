"""Flat cost over a long match (issue 11, goal 3): what the host builds for each update and
what it keeps per action do not grow with the number of hands played. Not timed: the
structures themselves are measured (bench/long.py gives the speed and memory)."""

from __future__ import annotations

import asyncio

import msgpack

from rum500.host import MAX_RESULTS
from rum500.rules import Game, Options
from rum500.rules.game import UNDO_KEPT


async def test_a_long_bot_match_keeps_its_views_and_undo_bounded(make_host):
    host = await make_host(players=3, bots=3, seed=4, options=Options(target=10**9))
    table = host.table
    sizes: dict[int, int] = {}
    done = asyncio.Event()

    def at_hand_end(by: int | None, events: list[dict]) -> None:
        if not any(e["type"] == "hand_end" for e in events):
            return
        game = table.game
        hands = len(game.results)
        if hands in (50, 200):
            view = table.view(None)
            assert view["results_start"] == hands - MAX_RESULTS
            assert len(view["results"]) == MAX_RESULTS
            # the newest sheets' summaries, in order
            assert [r["hand"] for r in view["results"]] == [
                r["hand"] for r in game.results[-MAX_RESULTS:]
            ]
            assert view["results"][-1]["totals"] == game.results[-1]["totals"]
            sizes[hands] = len(msgpack.packb(view["results"]))
            # equal actions are one dict: the history costs a reference per action
            distinct = len({id(a) for a in game.actions})
            assert distinct < len(game.actions) / 4, (distinct, len(game.actions))
        assert len(game._undo) <= 2 * UNDO_KEPT  # what pop() keeps is bounded too
        if hands >= 200:
            done.set()

    host.server.on_events.append(at_hand_end)
    host.start_now()
    await asyncio.wait_for(done.wait(), 300)
    # the score lines of hand 200 take the room those of hand 50 did (give or take digits)
    assert abs(sizes[200] - sizes[50]) <= MAX_RESULTS * 3 * 4, sizes


def test_view_results_keeps_the_last_sheets_and_pop_still_works_past_the_bound():
    game = Game(2, seed=3, options=Options(target=10**9))
    while len(game.results) < 6 or len(game.actions) <= 2 * UNDO_KEPT + 10:
        moves = game.legal_actions()
        game.apply(moves[-1] if game.phase.value == "play" else moves[0])
    whole = game.view(0)
    assert len(whole["results"]) == len(game.results) >= 6
    assert game.view(0, 2)["results"] == whole["results"][-2:]
    assert game.view(0, 0)["results"] == []
    assert game.view(0, 99)["results"] == whole["results"]
    # more actions than the undo stack keeps: taking back past it replays, and agrees
    assert len(game._undo) <= 2 * UNDO_KEPT < len(game.actions)
    before = [dict(a) for a in game.actions]
    for _ in range(len(game._undo) + 3):
        game.pop()
    after = Game.replay(2, 3, before[: len(game.actions)], Options(target=10**9))
    assert game.to_dict() == after.to_dict()
