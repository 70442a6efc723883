"""The game log follows the host's own game (issue 11, goal 3): a host hands the journal its
live ``Game`` and the journal keeps no copy of the match — yet what it writes is the whole
match: every action in the engine's form, every finished hand, the end."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options
from rum500.store import Journal


async def test_a_hosted_match_is_logged_whole_from_the_hosts_own_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    journal = Journal(path)
    host = await start_host(
        HostConfig(
            players=3,
            bots=3,
            bot_level="random",
            seed=5,
            options=Options(target=150),
            takeover_after=None,
            journal=journal,
        )
    )
    try:
        over = asyncio.Event()
        host.server.on_events.append(
            lambda by, events: any(e["type"] == "game_over" for e in events) and over.set()
        )
        host.start_now()
        await asyncio.wait_for(over.wait(), 120)
        game = host.table.game
        assert journal.game is game  # no copy of the match: the host's game is read
        document = journal.match_document()
    finally:
        await host.close()
        journal.close()
    assert len(game.results) >= 2
    with sqlite3.connect(path) as db:
        actions = [json.loads(a) for (a,) in db.execute("SELECT action FROM actions ORDER BY n")]
        hands = [json.loads(r) for (r,) in db.execute("SELECT result FROM hands ORDER BY hand")]
        status, winner, totals, played = db.execute(
            "SELECT status, winner, totals, hands_played FROM matches"
        ).fetchone()
    assert actions == [dict(a) for a in game.actions]
    assert hands == [json.loads(json.dumps(r)) for r in game.results]
    assert (status, winner, json.loads(totals), played) == (
        "finished",
        game.winner,
        list(game.totals),
        len(game.results),
    )
    # the last-resort match file, from the same game, replays to the very end
    assert document is not None
    match = document["match"]
    replay = Game(match["players"], int(match["seed"]), game.options, match["deck"])
    for row in match["actions"]:
        replay.apply(row["action"], row["seat"])
    assert replay.phase.value == "game_over" and replay.totals == game.totals
