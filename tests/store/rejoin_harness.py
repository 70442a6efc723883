"""A player at a real host that is killed with SIGKILL; the host is resumed and the player
rejoins with the seat's token and plays on. Prints one JSON report. Run inside a network
namespace of its own (the test uses ``unshare --net``)::

    python -m tests.store.rejoin_harness --work DIR
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
from pathlib import Path

from net.client import Client
from rum500.rules import Game, Options
from rum500.store.db import open_db
from rum500.store.log import load_match, rebuild
from tests.store.kill_harness import public, start


async def play_moves(client: Client, rng: random.Random, moves: int) -> dict:
    """Play ``moves`` actions at our seat; return the view after the last one."""
    updates = client.messages().__aiter__()
    done = 0
    while True:
        view = client.view
        if view and done >= moves:
            return view
        if view and view.get("turn") == client.seat and view.get("legal_actions"):
            await client.act(rng.choice(view["legal_actions"]))
            done += 1
            while client.view is view:  # the update for our own action
                await updates.__anext__()
            continue
        await updates.__anext__()


async def run(work: Path) -> dict:
    rng = random.Random(3)
    seed = 31
    home = work / "home"
    report: dict = {}
    # one free seat for our player, one bot; the bot waits a moment while we are seated
    proc, port = await start_players(seed, home, resume=False)
    ann = await Client.connect("127.0.0.1", port, name="Ann")
    token, seat = ann.token, ann.seat
    report["seat"] = seat
    last = await play_moves(ann, rng, 3)
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    await ann.close()
    last_seen = public(last)
    proc, port = await start_players(seed, home, resume=True)
    ann2 = await Client.rejoin("127.0.0.1", port, token, name="Ann")
    report["same_seat"] = ann2.seat == seat
    updates = ann2.messages().__aiter__()
    while not ann2.view:
        await updates.__anext__()
    first, first_seq = ann2.view, ann2.seq
    report["hand_after_rejoin"] = first["hand"] if first else None
    conn = open_db(home / "games.sqlite3")
    match = load_match(conn, 1)
    conn.close()
    saved = rebuild(match)
    game = Game(match["players"], match["seed"], Options.from_dict(match["options"]))
    views = [public(game.view(seat))]
    for a in saved.actions:
        game.apply(a)
        views.append(public(game.view(seat)))
    report["seen_in_log"] = any(v == last_seen for v in views)
    report["rejoined_view_in_log"] = first is not None and public(first) in views
    after = await play_moves(ann2, rng, 2)  # and the game goes on
    # the game went on from the rejoined position: newer updates, a different position
    report["played_on"] = ann2.seq > first_seq and public(after) != public(first)
    conn = open_db(home / "games.sqlite3")
    report["matches_in_log"] = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
    report["actions_after"] = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    conn.close()
    report["actions_at_resume"] = len(saved.actions)
    await ann2.close()
    proc.send_signal(signal.SIGTERM)
    await proc.wait()
    return report


async def start_players(seed: int, home: Path, resume: bool) -> tuple:
    """Like kill_harness.start, with one seat left for a player."""
    import tests.store.kill_harness as kh

    old = kh.host_cmd

    def cmd(seed: int, resume: bool) -> list[str]:
        c = old(seed, resume)
        c[c.index("--bots") + 1] = "1"
        return c

    kh.host_cmd = cmd
    try:
        return await start(seed, home, resume)
    finally:
        kh.host_cmd = old


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work", type=Path, required=True)
    report = asyncio.run(asyncio.wait_for(run(p.parse_args().work), 120))
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
