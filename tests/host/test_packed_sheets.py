"""A long match holds little per finished hand (issue 11, goal 3): the host keeps the score
sheets older than the last MAX_RESULTS packed — and they read exactly as the sheets the
engine wrote (a replay of the same actions), in views, in ``to_dict`` and in the game log."""

from __future__ import annotations

import asyncio
import json
import sys

from rum500.host import MAX_RESULTS, PackedSheet
from rum500.rules import Game, Options


async def test_old_score_sheets_are_packed_and_read_as_the_engine_wrote_them(make_host):
    host = await make_host(players=3, bots=3, seed=8, options=Options(target=10**9))
    table = host.table
    wanted = MAX_RESULTS + 25
    done = asyncio.Event()
    host.server.on_events.append(
        lambda by, events: len(table.game.results) >= wanted and done.set()
    )
    host.start_now()
    await asyncio.wait_for(done.wait(), 300)
    host.server.on_events.clear()
    game = table.game
    results = game.results
    n = len(results)
    old, recent = results[: n - MAX_RESULTS - 1], results[n - MAX_RESULTS - 1 :]
    assert len(old) >= 24 and all(isinstance(r, PackedSheet) for r in old)
    assert not any(isinstance(r, PackedSheet) for r in recent[1:])  # what views send
    # each sheet reads as the engine wrote it: a replay of the same actions
    replay = Game.replay(game.players, game.seed, list(game.actions), game.options, game.first_deck)
    assert replay.results == results and results == replay.results
    assert all(dict(r) == e for r, e in zip(results, replay.results, strict=True))
    assert old[0]["scores"] == replay.results[0]["scores"]
    assert "totals" in old[-1] and "nonsense" not in old[-1]
    # the whole position still travels: to_dict is plain data, and restores the same game
    doc = game.to_dict()
    assert json.loads(json.dumps(doc))["results"] == replay.to_dict()["results"]
    assert Game.from_dict(doc).results == replay.results
    # a view's sheets are the newest, whole; every sheet in a full view reads right too
    view = table.view(None)
    assert view["results"] == replay.view(None, MAX_RESULTS)["results"]
    assert game.view(None)["results"] == replay.view(None)["results"]
    # and a packed sheet is small: a quarter of the sheet it stands for, or less
    packed = sum(sys.getsizeof(r) + sys.getsizeof(r._packed) for r in old)
    whole = sum(size(r) for r in replay.results[: len(old)])
    assert packed * 4 < whole, (packed, whole)


def size(obj: object) -> int:
    """Bytes of ``obj`` with every dict and list in it."""
    total = sys.getsizeof(obj)
    if isinstance(obj, dict):
        total += sum(size(v) for v in obj.values())
    elif isinstance(obj, list):
        total += sum(size(v) for v in obj)
    return total


def test_a_packed_sheet_is_a_read_only_mapping():
    sheet = {"hand": 3, "scores": [10, -5], "hands": [["AS"], []], "went_out": None}
    packed = PackedSheet(sheet)
    assert packed == sheet and dict(packed) == sheet and len(packed) == 4
    packed["scores"].append(99)  # a copy: the sheet itself stays as it was
    assert packed["scores"] == [10, -5]
    assert "PackedSheet" in repr(packed)
