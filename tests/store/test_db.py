"""The database file: location, schema, migrations, and every file it must refuse."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.store import SCHEMA_VERSION, Journal, StoreError, db_path, open_db
from rum500.store.db import APP_ID, MIGRATIONS

from .conftest import play


def test_rum500_home_sets_the_location(home: Path) -> None:
    assert db_path() == home
    conn = open_db()
    conn.close()
    assert home.is_file()
    assert home.stat().st_mode & 0o077 == 0  # seat tokens are secrets


def test_fresh_file_is_versioned_and_in_wal_mode(home: Path) -> None:
    conn = open_db()
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APP_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"matches", "seats", "actions", "hands"} <= tables
    finally:
        conn.close()


def test_a_version_1_file_is_migrated_and_keeps_its_matches(home: Path) -> None:
    home.parent.mkdir(parents=True)
    old = sqlite3.connect(home)
    old.executescript(MIGRATIONS[0])
    old.execute(f"PRAGMA application_id = {APP_ID}")
    old.execute("PRAGMA user_version = 1")
    old.execute(
        "INSERT INTO matches (uid, created_at, updated_at, players, seed, options, status,"
        " totals) VALUES ('abc', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00', 2,"
        " '7', '{}', 'playing', '[0,0]')"
    )
    old.commit()
    old.close()
    conn = open_db()
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT uid, hands_played, table_id FROM matches").fetchall() == [
            ("abc", 0, "")  # its table id was never logged: a resume gives it a new one
        ]
        conn.execute("SELECT * FROM hands").fetchall()
    finally:
        conn.close()


def test_not_a_database_is_refused_with_a_message(home: Path) -> None:
    home.parent.mkdir(parents=True)
    home.write_bytes(b"these are my holiday notes, not a database\n" * 50)
    with pytest.raises(StoreError, match="not a rum500 game log"):
        open_db()
    assert home.read_bytes().startswith(b"these are my holiday notes")  # untouched


def test_another_programs_database_is_refused(home: Path) -> None:
    home.parent.mkdir(parents=True)
    other = sqlite3.connect(home)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.commit()
    other.close()
    with pytest.raises(StoreError, match="another program"):
        open_db()


def test_a_newer_schema_is_refused(home: Path) -> None:
    conn = open_db()
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer rum500"):
        open_db()


def test_a_damaged_file_gives_a_message_not_a_traceback(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(3):
        with Journal() as j:
            play(j, seed)
    conn = open_db()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(home.read_bytes())
    assert len(data) > 4096 * 3
    data[4096 * 2 : 4096 * 2 + 4096] = b"\x5a" * 4096  # scribble over a b-tree page
    data[100:200] = b"\xff" * 100  # and over the first page's header
    home.write_bytes(bytes(data))
    code = main(["history"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("rum500: ")
    assert "damaged" in err or "not a rum500 game log" in err
    assert "Traceback" not in err


def test_no_game_log_yet(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 1
    assert "no game log yet" in capsys.readouterr().err
    assert not home.exists()  # reading never creates it
    assert main(["history", "--json"]) == 0
    assert capsys.readouterr().out.strip() == "[]"
