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
from rum500.store.salvage import salvage

from .conftest import play

PAGE = 4096


def rum500(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "RUM500_HOME": str(home), "COLUMNS": "200"},  # history: a table
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
        home.parent,
        "host",
        "--headless",
        "--no-announce",
        "--bind",
        "127.0.0.1",
        "--players",
        "2",
        "--bots",
        "2",
        "--target",
        "50",
        "--seed",
        "3",
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
            mid: [
                json.loads(a)
                for (a,) in conn.execute(
                    "SELECT action FROM actions WHERE match_id = ? ORDER BY n", (mid,)
                )
            ]
            for (mid,) in conn.execute("SELECT id FROM matches")
        }
        status = dict(conn.execute("SELECT uid, status FROM matches"))
    finally:
        conn.close()
    whole = [a for a in got.values() if a in (games[0].actions, games[2].actions)]
    assert len(whole) == 2
    partial = [a for a in got.values() if a not in whole]
    for actions in partial:  # what was read of match 2: its first actions, exactly
        assert actions == games[1].actions[: len(actions)] and len(actions) < len(games[1].actions)
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


def leaves(path: Path, table: str) -> list[tuple[int, int]]:
    """(page number, rows) of each leaf page of ``table``, in key order."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path",
            (table,),
        ).fetchall()
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table to find a table's pages")
    finally:
        conn.close()


def garbage_over(path: Path, page: int) -> None:
    with path.open("r+b") as f:
        f.seek((page - 1) * PAGE)
        f.write(random.Random(page).randbytes(PAGE))


def saved(path: Path) -> dict[str, tuple[str, list[dict]]]:
    """The matches of the log at ``path``: uid -> (status, actions)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        return {
            uid: (
                status,
                [
                    json.loads(a)
                    for (a,) in conn.execute(
                        "SELECT action FROM actions WHERE match_id = ? ORDER BY n", (mid,)
                    )
                ],
            )
            for mid, uid, status in conn.execute("SELECT id, uid, status FROM matches")
        }
    finally:
        conn.close()


def uids(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [uid for (uid,) in conn.execute("SELECT uid FROM matches ORDER BY id")]
    finally:
        conn.close()


def test_salvage_keeps_the_last_match_and_unfinished_ones_when_the_matches_table_is_damaged(
    home: Path, tmp_path: Path
) -> None:
    """40 matches (every third finished, the rest unfinished, the last one unfinished too):
    garbage over a leaf of the matches table in the middle, so that the table cannot be read
    whole and salvage finds the matches one id at a time. Every match whose row is on another
    page is kept whole — the first, the unfinished ones ("playing") and the very last — and
    only those on the damaged page are lost, each said."""
    games: list[Game] = []
    for mid in range(1, 41):
        with Journal() as j:
            finished = mid % 3 == 0
            stop = None if finished else (30 if mid == 40 else 6)
            games.append(play(j, seed=mid, stop_after=stop))
    assert not home.with_name(home.name + "-wal").exists()  # all in the main file
    ids = uids(home)
    assert len(ids) == 40
    pages = leaves(home, "matches")
    assert len(pages) >= 3 and sum(n for _, n in pages) == 40
    first, rows = pages[1]  # a page in the middle: neither the first match nor the last
    lost = set(range(pages[0][1] + 1, pages[0][1] + rows + 1))
    assert 1 not in lost and 40 not in lost
    garbage_over(home, first)
    with pytest.raises(sqlite3.DatabaseError):  # the whole table cannot be read any more
        conn = sqlite3.connect(home)
        try:
            conn.execute("SELECT id FROM matches ORDER BY id").fetchall()
        finally:
            conn.close()

    out = tmp_path / "salvaged.sqlite3"
    report = salvage(home, out)
    assert [r["game_id"] for r in report if r["new_id"] is None] == sorted(lost)
    kept = [r for r in report if r["new_id"] is not None]
    assert [r["game_id"] for r in kept] == [m for m in range(1, 41) if m not in lost]
    assert all(r["problem"] is None and r["actions"] == r["of"] for r in kept)
    got = saved(out)
    for mid in range(1, 41):
        if mid in lost:
            assert ids[mid - 1] not in got
            continue
        status, actions = got[ids[mid - 1]]
        assert actions == games[mid - 1].actions, f"match {mid}"
        assert status == ("finished" if mid % 3 == 0 else "playing"), f"match {mid}"
    assert got[ids[-1]] == ("playing", games[-1].actions) and len(games[-1].actions) == 30


def test_salvage_keeps_the_readable_beginning_of_an_unfinished_last_match(
    home: Path, tmp_path: Path
) -> None:
    """The last match is unfinished (the host was still playing it) and garbage covers a page
    of its actions in the middle: salvage keeps its actions before that page, still
    "playing", and an unfinished match before it whole."""
    games = []
    with Journal() as j:
        games.append(play(j, seed=1, names=["Ann", "Bob"], target=300))
    with Journal() as j:
        games.append(play(j, seed=2, stop_after=40))
    with Journal() as j:
        games.append(play(j, seed=3, names=["Ann", "Bob"], target=100000, stop_after=1200))
    assert games[2].to_move is not None and len(games[2].actions) == 1200
    assert not home.with_name(home.name + "-wal").exists()
    pages = leaves_of(home, 3)
    assert len(pages) >= 3
    garbage_over(home, pages[len(pages) // 2])
    out = tmp_path / "salvaged.sqlite3"
    report = salvage(home, out)
    assert [r["game_id"] for r in report] == [1, 2, 3]
    assert all(r["new_id"] is not None for r in report)
    assert [r["problem"] is None for r in report] == [True, True, False]
    got = saved(out)
    ids = uids(home)
    assert got[ids[0]] == ("finished", games[0].actions)
    assert got[ids[1]] == ("playing", games[1].actions)
    status, actions = got[ids[2]]
    assert status == "playing" and report[2]["actions"] == len(actions)
    assert 0 < len(actions) < 1200 and actions == games[2].actions[: len(actions)]


def test_salvage_in_russian_agrees_its_counts(home: Path, tmp_path: Path) -> None:
    """The report counts actions with the number's own form (1 and 21: «действие», 2–4:
    «действия», else «действий»), not one plural for every count."""
    counts = (21, 22, 25)
    for seed, n in enumerate(counts, 1):
        with Journal() as j:
            g = play(j, seed=seed, stop_after=n)
        assert len(g.actions) == n
    r = rum500(home.parent, "--lang", "ru", "salvage", "--out", str(tmp_path / "s.sqlite3"))
    assert r.returncode == 0, r.stderr
    words = {21: "21 действие", 22: "22 действия", 25: "25 действий"}
    for k, n in enumerate(counts, 1):
        assert f"партия {k}: целиком ({words[n]}) как партия" in r.stdout, r.stdout
    assert "Записано партий: 3 из 3" in r.stdout, r.stdout
