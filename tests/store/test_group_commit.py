"""The game log's group commit (rum500/store/flusher.py): every action is written before
``record`` returns (so ``kill -9`` loses nothing: tests/store/test_kill_e2e.py and
test_journal.py kill real processes), and synced to the disk by the flusher thread shortly
after, many commits in one sync."""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

from rum500.rules import Game, Options
from rum500.store import Journal
from rum500.store.flusher import Flusher

from .conftest import match_info


def test_every_commit_is_synced_by_the_flusher_many_at_a_time(home: Path) -> None:
    rng = random.Random(5)
    with Journal() as j:
        game = Game(2, 17, Options(target=150))
        j.start_match(match_info(game, ["Ann", "Bob"]))
        assert j.flusher is not None
        assert j._conn.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL
        for _ in range(60):
            seat = game.to_move
            game.apply(rng.choice(game.legal_actions()), seat)
            j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
            # written: another connection (another process would too) reads it at once
            conn = sqlite3.connect(home)
            try:
                (n,) = conn.execute("SELECT count(*) FROM actions").fetchone()
            finally:
                conn.close()
            assert n == len(game.actions)
        flusher = j.flusher
        assert flusher.wait_synced(10)
        assert flusher.synced == flusher.commits == 61  # the start and every action
        assert 1 <= flusher.syncs < flusher.commits  # commits went to the disk together
    assert j.flusher is None  # closed with the log


def test_the_flusher_syncs_what_is_left_when_closed(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite3"
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"x" * 10)
    flusher = Flusher(db, every=60.0)  # would wait a minute before syncing …
    flusher.committed()
    flusher.close()  # … but closing syncs at once
    assert flusher.synced == flusher.commits == 1 and flusher.syncs == 1
    gone = Flusher(tmp_path / "none.sqlite3", every=0.0)  # no WAL file: nothing to sync
    gone.committed()
    assert gone.wait_synced(10)
    gone.close()
    assert os.path.exists(wal)
