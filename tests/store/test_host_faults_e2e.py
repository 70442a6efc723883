"""A real host whose disk fills up mid-match, or whose log is read-only: it warns once and
plays the match to the end; the log stays consistent. Runs in a private network namespace."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rum500.store import open_db
from rum500.store.log import load_match, rebuild
from tests import capability
from tests.store import isolated


def _host(home: Path, seed: int, target: int) -> subprocess.Popen[str]:
    cmd = (
        f"{sys.executable} -m rum500 host --headless --bind "
        f"127.0.0.1 --players 2 --bots 2 --target {target} --seed {seed} --name f{seed}"
    )
    spare = home.parent / "spare-tmp"  # where a host whose log is behind writes the match
    spare.mkdir(exist_ok=True)
    return subprocess.Popen(
        isolated.argv(cmd),
        cwd=isolated.ROOT,
        env={**os.environ, "RUM500_HOME": str(home), "TMPDIR": str(spare)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _fill(where: Path) -> None:
    fd = os.open(where / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


@pytest.mark.e2e
@pytest.mark.netns
def test_disk_full_mid_match_the_host_plays_on(tmpfs: Path) -> None:
    isolated.require()
    proc = _host(tmpfs, seed=5, target=500)
    db = tmpfs / "games.sqlite3"
    for _ in range(600):  # wait until some actions are logged
        if db.exists():
            with contextlib.suppress(sqlite3.Error):
                conn = sqlite3.connect(db)
                n = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
                conn.close()
                if n >= 20:
                    break
        time.sleep(0.02)
    else:
        raise AssertionError("the host logged fewer than 20 actions in 12 s")
    _fill(tmpfs)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    assert "game over:" in out  # the match went on to the end
    warnings = [line for line in err.splitlines() if "disk is full" in line]
    assert len(warnings) == 1, err[-2000:]  # warned once
    (tmpfs / "filler").unlink()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    # what was saved is consistent (the host's last tries at exit may even have saved it all)
    conn = open_db(db)
    game = rebuild(load_match(conn, 1))
    conn.close()
    assert len(game.actions) >= 20


@pytest.mark.e2e
@pytest.mark.netns
def test_read_only_log_the_host_plays_on(tmp_path: Path) -> None:
    isolated.require()
    if shutil.which("mount") is None:
        capability.missing("mount(8) is not installed")
    data, view = tmp_path / "data", tmp_path / "view"
    data.mkdir()
    view.mkdir()
    subprocess.run(["mount", "--bind", str(data), str(view)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        proc = _host(view, seed=6, target=100)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        assert "game over:" in out
        assert "read-only" in out and "will not be saved" in out  # said at the start
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)
    assert list(data.iterdir()) == []
