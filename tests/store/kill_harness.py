"""Kill real hosts with SIGKILL mid-match, resume them, and report what was found.

Run inside a network namespace of its own (the test does ``unshare --net``, so the hosts'
LAN announcements never leave it)::

    python -m tests.store.kill_harness --matches 100 --jobs 8 --work DIR

For each match: a ``rum500 host --headless`` process of bots only; a spectator connects over
loopback and notes the last update it received; after a random number of updates the host
gets SIGKILL; the game log must pass ``PRAGMA integrity_check`` and hold at least the
position the spectator saw; ``rum500 host --headless --resume`` then plays the match to the
end. One JSON object per match is printed; the test checks them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

from net.client import Client, ClientError
from rum500.rules import Game, Options
from rum500.store import load_for_resume, open_db
from rum500.store.log import load_match, rebuild

TARGET = 100


def host_cmd(seed: int, resume: bool) -> list[str]:
    cmd = [sys.executable, "-m", "rum500", "host", "--headless", "--bind", "127.0.0.1"]
    cmd += ["--players", "2", "--bots", "2", "--target", str(TARGET), "--name", f"k{seed}"]
    cmd += ["--resume"] if resume else ["--seed", str(seed)]
    return cmd


async def start(seed: int, home: Path, resume: bool) -> tuple[asyncio.subprocess.Process, int]:
    env = {**os.environ, "RUM500_HOME": str(home)}
    proc = await asyncio.create_subprocess_exec(
        *host_cmd(seed, resume),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        if not line:
            raise RuntimeError(f"the host of match {seed} ended before listening")
        if line.startswith("hosting table"):
            port = int(line.split(" on ")[1].split()[0].rsplit(":", 1)[1])
            return proc, port


def public(view: dict) -> dict:
    """The engine's part of a host's view (the host adds seat names, where its list of
    score sheets starts, the hand-end review, the away countdown and who shows their hand
    over whose shoulder)."""
    host_only = ("names", "results_start", "review", "takeover", "shoulders")
    return {k: v for k, v in view.items() if k not in host_only}


def prefix_seen(match: dict, saved: Game, last_view: dict | None) -> int | None:
    """The number of actions after which the spectator's last view was the position (found
    among the positions the log holds), or None."""
    if last_view is None:
        return 0
    game = Game(match["players"], match["seed"], Options.from_dict(match["options"]))
    views = [public(game.view(None))]
    for a in saved.actions:
        game.apply(a)
        views.append(public(game.view(None)))
    for k in range(len(views) - 1, -1, -1):
        if views[k] == last_view:
            return k
    return None


async def one_match(seed: int, work: Path, gate: asyncio.Semaphore) -> dict:
    async with gate:
        rng = random.Random(seed)
        home = work / f"home{seed}"
        report: dict = {"seed": seed}
        proc, port = await start(seed, home, resume=False)
        kill_after = rng.randrange(1, 50)
        last_view = None
        received = 0
        try:
            watcher = await Client.connect("127.0.0.1", port, name="watcher", spectate=True)
            try:
                async for msg in watcher.messages():
                    if msg.get("type") == "state" and msg.get("view"):
                        received += 1
                        last_view = public(msg["view"])
                        if received >= kill_after or last_view.get("phase") == "game_over":
                            break
            except ClientError:
                pass
        except (OSError, ClientError) as e:
            report["watch_error"] = repr(e)
        if proc.returncode is None:
            proc.send_signal(signal.SIGKILL)
        await proc.wait()
        report["killed"] = proc.returncode == -signal.SIGKILL
        report["updates_seen"] = received
        report["over_before_kill"] = bool(last_view and last_view.get("phase") == "game_over")
        db = home / "games.sqlite3"
        report["integrity_after_kill"] = integrity(db)
        conn = open_db(db)
        (mid,) = conn.execute("SELECT max(id) FROM matches").fetchone()
        match = load_match(conn, mid)
        conn.close()
        report["saved_actions"] = len(match["actions"])
        saved = rebuild(match)
        report["seen_at"] = prefix_seen(match, saved, last_view)
        if match["status"] == "finished":
            report["resumed"] = False
            report["finished"] = True
            report["replays_to_end"] = saved.to_move is None and saved.winner == match["winner"]
            return report
        resumed, _seats, _info = load_for_resume("latest", db)
        report["resume_position_ok"] = resumed.to_dict() == saved.to_dict()
        proc, _port = await start(seed, home, resume=True)
        assert proc.stdout is not None
        out = (await asyncio.wait_for(proc.stdout.read(), 120)).decode()
        await proc.wait()
        report["resumed"] = True
        report["resume_exit"] = proc.returncode
        report["resume_said_game_over"] = "game over:" in out
        report["integrity_after_resume"] = integrity(db)
        conn = open_db(db)
        final = load_match(conn, mid)
        conn.close()
        game = rebuild(final)
        report["finished"] = final["status"] == "finished"
        report["replays_to_end"] = game.to_move is None and game.winner == final["winner"]
        report["prefix_kept"] = [
            a["action"] for a in final["actions"][: len(saved.actions)]
        ] == saved.actions
        # where the spectator's last view is among ALL the positions of the match (the
        # resumed host played on): never beyond what the log held at the kill
        report["seen_at_final"] = prefix_seen(final, game, last_view)
        report["matches_in_log"] = len(list_ids(db))
        return report


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


def list_ids(db: Path) -> list[int]:
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM matches")]
    finally:
        conn.close()


async def main_async(args: argparse.Namespace) -> int:
    gate = asyncio.Semaphore(args.jobs)
    tasks = [
        asyncio.create_task(one_match(seed, args.work, gate))
        for seed in range(args.first, args.first + args.matches)
    ]
    for task in asyncio.as_completed(tasks):
        try:
            report = await task
        except Exception as e:  # reported, and the test fails on it
            report = {"error": repr(e)}
        print(json.dumps(report), flush=True)
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--jobs", type=int, default=8)
    p.add_argument("--work", type=Path, required=True)
    return asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
