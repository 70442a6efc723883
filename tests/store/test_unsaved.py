"""A host that stops while its game log is behind: last tries, then a match file that
``rum500 import`` takes to catch the log up; and no lock file is left after a host stops."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from rum500.rules import Game, Options
from rum500.store import Journal, load_for_resume

from .conftest import match_info


def fill(disk: Path) -> Path:
    """Fill the file system to the last byte; returns the filler file."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


def test_a_log_still_behind_at_close_writes_a_match_file_that_import_takes(
    tmpfs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUM500_HOME", str(tmpfs))
    spare = tmp_path / "spare-tmp"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    j = Journal(bot_level="hard")
    rng = random.Random(3)
    game = Game(2, 3, Options(target=300))
    info = match_info(game, ["Ann", "Bot 1"])
    info["seats"][1]["bot"] = True
    j.start_match(info)
    for _ in range(20):
        seat = game.to_move
        game.apply(rng.choice(game.legal_actions()), seat)
        j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
    filler = fill(tmpfs)
    for _ in range(30):
        seat = game.to_move
        game.apply(rng.choice(game.legal_actions()), seat)
        j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
    assert j.unsaved == 30
    j.close()
    note = j.closing_note or ""
    assert "30 of 50 actions" in note
    files = list(spare.glob("rum500-unsaved-*.json"))  # the data folder is full: the temp dir
    assert len(files) == 1 and str(files[0]) in note
    assert "rum500 import" in note
    assert not list(tmpfs.glob("*.lock"))
    filler.unlink()
    before, _s, _i = load_for_resume("latest")
    assert len(before.actions) == 20
    r = subprocess.run(
        [sys.executable, "-m", "rum500", "import", str(files[0])],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert r.returncode == 0, r.stderr
    after, seats, _i = load_for_resume("latest")  # the same match, caught up
    assert after.to_dict() == game.to_dict()
    assert [s["bot"] for s in seats] == [None, "hard"]
    r = subprocess.run(
        [sys.executable, "-m", "rum500", "import", str(files[0])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1 and "already in the game log" in r.stderr


def test_a_journal_never_closed_still_saves_at_exit(tmpfs: Path, tmp_path: Path) -> None:
    """The interpreter's exit closes a forgotten journal: last tries, then the match file."""
    spare = tmp_path / "spare-tmp"
    spare.mkdir()
    script = f"""
import os, random, contextlib
from rum500.rules import Game, Options
from rum500.store import Journal
j = Journal()
g = Game(2, 9, Options())
j.start_match({{"players": 2, "seed": 9, "options": g.options.to_dict(), "deck": None,
               "table": "T", "seats": [{{"name": "Ann"}}, {{"name": "Bob"}}]}})
rng = random.Random(1)
def step():
    s = g.to_move
    g.apply(rng.choice(g.legal_actions()), s)
    j.record(len(g.actions) - 1, s, dict(g.actions[-1]))
for _ in range(10):
    step()
fd = os.open({str(tmpfs / "filler")!r}, os.O_WRONLY | os.O_CREAT)
for size in (65536, 4096, 512, 1):
    with contextlib.suppress(OSError):
        while True:
            os.write(fd, b"\\0" * size)
os.close(fd)
for _ in range(5):
    step()
"""
    env = {**os.environ, "RUM500_HOME": str(tmpfs), "TMPDIR": str(spare)}
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert r.returncode == 0, r.stderr
    assert "5 of 15 actions" in r.stderr and "Traceback" not in r.stderr
    assert len(list(spare.glob("rum500-unsaved-*.json"))) == 1
    assert not list(tmpfs.glob("*.lock"))


@pytest.mark.parametrize("stop", ["game over", "SIGTERM"])
def test_no_lock_file_is_left_when_a_host_stops(home: Path, stop: str) -> None:
    target = "100" if stop == "game over" else "1000000000"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rum500",
            "host",
            "--headless",
            "--no-announce",
            "--players",
            "2",
            "--bots",
            "2",
            "--target",
            target,
            "--bind",
            "127.0.0.1",
            "--seed",
            "4",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # blocks until the host is up (or has died)
        assert "hosting table" in line, proc.stderr.read() if proc.stderr else ""
        if stop == "SIGTERM":
            deadline = time.monotonic() + 60  # the match starts at once: all seats are bots
            lock_seen = False
            while not lock_seen and proc.poll() is None and time.monotonic() < deadline:
                lock_seen = bool(list(home.parent.glob("*.lock")))
                time.sleep(0.02)
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert home.exists()
    assert not list(home.parent.glob("*.lock")), list(home.parent.iterdir())
    if stop == "SIGTERM":
        assert lock_seen
