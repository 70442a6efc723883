"""A damaged game log: a log cut to 0 bytes is not reused silently; with garbage over some
pages, history says which matches are damaged and ``rum500 salvage`` copies every match that
can still be read into a new log."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.rules import Game
from rum500.store import Journal

from .conftest import play

PAGE = 4096


def rum500(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
        env={**os.environ, "RUM500_HOME": str(home)},
    )


def leaves_of(path: Path, mid: int) -> list[int]:
    """The pages of the actions table that hold only match ``mid``'s actions (in key order:
    dbstat lists a b-tree's leaves by path)."""
    conn = sqlite3.connect(path)
    try:
        try:
            leaves = conn.execute(
                "SELECT pageno, ncell FROM dbstat WHERE name = 'actions' AND pagetype = 'leaf'"
                " ORDER BY path"
            ).fetchall()
        except sqlite3.OperationalError:
            pytest.skip("this SQLite has no dbstat table to find a match's pages")
        counts = dict(conn.execute("SELECT match_id, count(*) FROM actions GROUP BY match_id"))
    finally:
        conn.close()
    start = sum(n for m, n in counts.items() if m < mid)
    end = start + counts[mid]
    pages, at = [], 0
    for pageno, ncell in leaves:
        if start <= at and at + ncell <= end:
            pages.append(pageno)
        at += ncell
    return pages


def test_a_log_cut_to_zero_bytes_is_said_not_reused_silently(home: Path) -> None:
    with Journal() as j:
        play(j, seed=1)
    home.write_bytes(b"")
    r = rum500(home.parent, "history")
    assert r.returncode == 1 and "empty (0 bytes)" in r.stderr and "lost" in r.stderr
    r = rum500(
        home.parent, "host", "--headless", "--no-announce", "--bind", "127.0.0.1",
        "--players", "2", "--bots", "2", "--target", "50", "--seed", "3",
    )
    assert r.returncode == 0, r.stderr
    assert "was empty (0 bytes)" in r.stdout
    assert "game over" in r.stdout


def test_garbage_pages_history_names_the_damaged_match_and_salvage_recovers_the_rest(
    home: Path, tmp_path: Path
) -> None:
    games: list[Game] = []
    for seed in (1, 2, 3):
        with Journal() as j:
            games.append(play(j, seed=seed, names=["Ann", "Bob"], target=300))
    assert not home.with_name(home.name + "-wal").exists()  # all in the main file
    pages = leaves_of(home, 2)
    assert len(pages) >= 2
    bad = pages[len(pages) // 2]
    with home.open("r+b") as f:  # garbage over one page in the middle of match 2
        f.seek((bad - 1) * PAGE)
        f.write(random.Random(0).randbytes(PAGE))

    r = rum500(home.parent, "history")
    assert r.returncode == 0, r.stderr
    lines = {line.split()[0]: line for line in r.stdout.splitlines() if line[:4].strip()}
    assert "DAMAGED" in lines["2"]
    assert "DAMAGED" not in lines["1"] and "DAMAGED" not in lines["3"]
    assert "rum500 salvage" in r.stdout
    r = rum500(home.parent, "history", "--json")
    assert [m["damaged"] is not None for m in json.loads(r.stdout)] == [False, True, False]
    assert rum500(home.parent, "export", "2", str(tmp_path / "two.json")).returncode == 1

    out = tmp_path / "salvaged.sqlite3"
    r = rum500(home.parent, "salvage", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "game 1: whole" in r.stdout and "game 3: whole" in r.stdout
    assert "game 2:" in r.stdout and "game 2: whole" not in r.stdout
    assert "3 of 3 matches" in r.stdout or "2 of 3 matches" in r.stdout
    conn = sqlite3.connect(out)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        got = {
            mid: [json.loads(a) for (a,) in conn.execute(
                "SELECT action FROM actions WHERE match_id = ? ORDER BY n", (mid,))]
            for (mid,) in conn.execute("SELECT id FROM matches")
        }
        status = dict(conn.execute("SELECT uid, status FROM matches"))
    finally:
        conn.close()
    whole = [a for a in got.values() if a in (games[0].actions, games[2].actions)]
    assert len(whole) == 2
    partial = [a for a in got.values() if a not in whole]
    for actions in partial:  # what was read of match 2: its first actions, exactly
        assert actions == games[1].actions[: len(actions)] and len(actions) < len(
            games[1].actions
        )
    assert sorted(status.values()).count("finished") == 2
    # the salvaged log is a game log like any other: history, export and replay read it
    new_home = tmp_path / "new-home"
    new_home.mkdir()
    out.rename(new_home / "games.sqlite3")
    r = rum500(new_home, "history", "--all")
    assert r.returncode == 0 and "DAMAGED" not in r.stdout
    r = rum500(new_home, "export", "1", str(tmp_path / "one.json"))
    assert r.returncode == 0, r.stderr


def test_salvage_of_a_log_that_is_not_there_says_so(home: Path, tmp_path: Path) -> None:
    r = rum500(home.parent, "salvage")
    assert r.returncode == 1 and "no game log" in r.stderr and "Traceback" not in r.stderr
    with Journal() as j:
        play(j, seed=1)
    nowhere = tmp_path / "no-such-folder"
    r = rum500(home.parent, "salvage", "--out", str(nowhere / "new.sqlite3"))
    assert r.returncode == 1 and "does not exist" in r.stderr
    assert not nowhere.exists()  # no folder is made for it
    r = rum500(home.parent, "salvage", "--out", str(home))
    assert r.returncode == 1 and "already exists" in r.stderr
