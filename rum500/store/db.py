"""The game log database: where it lives, its versioned schema, and opening it safely.

One SQLite file (stdlib ``sqlite3``) in the user's data folder — ``platformdirs``'
``user_data_dir("rum500")``, or the folder named by the environment variable ``RUM500_HOME``
(tests point it at a temporary folder). WAL journal, ``synchronous=FULL``: a committed action
survives ``kill -9`` and a power cut.

The file is marked as ours with ``PRAGMA application_id`` and carries its schema version in
``PRAGMA user_version``; :data:`MIGRATIONS` brings an older file up to date in one
transaction. Every problem a user can meet is a :class:`StoreError` with a message that says
what is wrong and what to do (docs/storage.md describes the schema).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from rum500.i18n import N_, _

#: ``PRAGMA application_id`` of a rum500 game log: "R500" in ASCII.
APP_ID = 0x52353030
DB_NAME = "games.sqlite3"
SQLITE_MAGIC = b"SQLite format 3\x00"

#: Schema migrations: MIGRATIONS[k] takes a file from version k to version k + 1.
MIGRATIONS: list[str] = [
    # 0 -> 1: matches, their seats and every applied action.
    """
    CREATE TABLE matches (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        uid         TEXT    NOT NULL UNIQUE,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        finished_at TEXT,
        table_name  TEXT    NOT NULL DEFAULT '',
        players     INTEGER NOT NULL,
        seed        TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        deck        TEXT,
        status      TEXT    NOT NULL CHECK (status IN ('playing', 'finished')),
        winner      INTEGER,
        totals      TEXT    NOT NULL,
        source      TEXT    NOT NULL DEFAULT 'host'
    );
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        seat     INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        token    TEXT,
        bot      TEXT,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE actions (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        n        INTEGER NOT NULL,
        seq      INTEGER,
        seat     INTEGER,
        action   TEXT    NOT NULL,
        at       TEXT    NOT NULL,
        PRIMARY KEY (match_id, n)
    ) WITHOUT ROWID;
    """,
    # 1 -> 2: finished hands (for stats without replaying), and an index for history/resume.
    """
    CREATE TABLE hands (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        hand     INTEGER NOT NULL,
        result   TEXT    NOT NULL,
        PRIMARY KEY (match_id, hand)
    ) WITHOUT ROWID;
    ALTER TABLE matches ADD COLUMN hands_played INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_by_status ON matches (status, id);
    """,
    # 2 -> 3: what happened to a match besides its actions (the table handed to another host).
    """
    CREATE TABLE notes (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        n        INTEGER NOT NULL,
        at       TEXT    NOT NULL,
        text     TEXT    NOT NULL,
        PRIMARY KEY (match_id, n)
    ) WITHOUT ROWID;
    """,
    # 3 -> 4: the table's id (as announced), so that a resumed match hosts the same table.
    """
    ALTER TABLE matches ADD COLUMN table_id TEXT NOT NULL DEFAULT '';
    """,
    # 4 -> 5: each seat's analysis by ``rum500 analyse`` (docs/analysis.md), for stats.
    """
    CREATE TABLE analyses (
        match_id  INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        seat      INTEGER NOT NULL,
        at        TEXT    NOT NULL,
        budget    INTEGER NOT NULL,
        seed      TEXT    NOT NULL,
        actions   INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        loss      REAL    NOT NULL,
        hands     INTEGER NOT NULL,
        luck      REAL    NOT NULL,
        summary   TEXT    NOT NULL,
        PRIMARY KEY (match_id, seat)
    ) WITHOUT ROWID;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """A problem with the game log that a user can meet. ``str()`` is the message in English
    (as the host's log and its notices to the players carry it); :meth:`said` is the same in
    the current language: ``StoreError(N_("cannot read {file}: {why}"), file=…, why=…)``
    keeps its template and fields, as ``IllegalMove`` does."""

    def __init__(self, message: str, **params: object) -> None:
        self.template = message
        self.params = params
        super().__init__(message.format(**params) if params else message)

    def said(self) -> str:
        """The message in the current language (``why``, itself an English phrase such as
        "the disk is full", translated too when the catalog knows it)."""
        fields = {
            k: _(v) if k == "why" and isinstance(v, str) else v for k, v in self.params.items()
        }
        try:
            return _(self.template).format(**fields) if fields else _(self.template)
        except (KeyError, IndexError, ValueError):
            return str(self)


def home() -> Path:
    """The folder of rum500's data: ``$RUM500_HOME`` or the platform's user data folder."""
    env = os.environ.get("RUM500_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("rum500", appauthor=False))


def db_path() -> Path:
    """Where the game log lives."""
    return home() / DB_NAME


def now() -> str:
    """The current UTC time as ISO 8601 with seconds (what the log stores)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def describe(e: BaseException, where: Path | None = None) -> str:
    """A short human description of an SQLite or OS error (``where``: a file or folder on
    the disk concerned, to tell a full disk behind a bare "disk I/O error")."""
    text = str(e) or type(e).__name__
    low = text.lower()
    if where is not None and ("i/o" in low or "unable to open" in low) and _full(where):
        return N_("the disk is full")
    if "full" in low or "no space" in low:
        return N_("the disk is full")
    if "readonly" in low or "read-only" in low or "read only" in low:
        return N_("the disk or file is read-only")
    if "malformed" in low or "not a database" in low:
        return N_("the file is damaged")
    if "locked" in low or "busy" in low:
        return N_("another program holds the game log locked")
    return text


def _full(where: Path) -> bool:
    folder = where if where.is_dir() else where.parent
    try:
        return shutil.disk_usage(folder).free < 64 * 1024
    except OSError:
        return False


def _damaged(path: Path, e: BaseException) -> StoreError:
    return StoreError(
        N_(
            "the game log {path} is damaged or not a rum500 game log ({why}). 'rum500 "
            "salvage' copies the matches that can still be read into a new log; or move it "
            "aside (rum500 then starts a new one) or set RUM500_HOME to another folder."
        ),
        path=path,
        why=e,
    )


def is_empty(path: Path) -> bool:
    """Whether the log's file exists and has no byte at all (it was cut short: a new one
    is started in its place, and its matches, if it had any, are gone)."""
    try:
        return path.is_file() and path.stat().st_size == 0
    except OSError:
        return False


def open_db(path: Path | None = None, *, create: bool = True) -> sqlite3.Connection:
    """Open (and create or migrate, when ``create``) the game log; :class:`StoreError` if not.

    Refuses a file that is not SQLite, an SQLite file of another program, and a schema newer
    than :data:`SCHEMA_VERSION`. The connection is in autocommit mode: writers use
    :func:`transaction`.
    """
    path = Path(path) if path is not None else db_path()
    exists = path.exists()
    if not exists and not create:
        raise StoreError(
            N_("there is no game log yet ({path}): host or play a match first"), path=path
        )
    if not create and is_empty(path):
        raise StoreError(
            N_(
                "the game log {path} is empty (0 bytes): if it held matches, it was cut short "
                "and they are lost. The next match hosted starts a new log there."
            ),
            path=path,
        )
    if exists:
        if path.is_dir():
            raise StoreError(N_("the game log {path} is a folder, not a file"), path=path)
        try:
            with path.open("rb") as f:
                head = f.read(len(SQLITE_MAGIC))
        except OSError as e:
            raise StoreError(
                N_("cannot read the game log {path}: {why}"), path=path, why=e.strerror or e
            ) from None
        if head and head != SQLITE_MAGIC:
            raise StoreError(
                N_(
                    "{path} is not a rum500 game log (not an SQLite database). Move it aside "
                    "(rum500 then starts a new one) or set RUM500_HOME to another folder."
                ),
                path=path,
            )
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            why = describe(e, path.parent)
            raise StoreError(
                N_("cannot create the folder {folder} for the game log: {why}"),
                folder=path.parent,
                why=why,
            ) from None
    try:
        conn = _connect(path, create)
    except sqlite3.Error as e:
        why = describe(e, path) if _writable(path) else "the disk or folder is read-only"
        raise StoreError(N_("cannot open the game log {path}: {why}"), path=path, why=why) from None
    if not exists:
        with contextlib.suppress(OSError):
            path.chmod(0o600)  # seat tokens are secrets
    return conn


def _connect(path: Path, create: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=10, isolation_level=None, check_same_thread=False)
    try:
        _prepare(conn, path, create)
    except sqlite3.OperationalError:
        conn.close()
        if _writable(path):
            raise
        if create:
            raise StoreError(
                N_("cannot write the game log {path}: the disk or folder is read-only"), path=path
            ) from None
        # Reading a log on a read-only medium: nobody can be writing it, so open it as
        # immutable (WAL otherwise needs to create its shared-memory file beside it).
        uri = f"{path.resolve().as_uri()}?immutable=1"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            _prepare(conn, path, create)
        except BaseException:
            conn.close()
            raise
    except BaseException:
        conn.close()
        raise
    return conn


def _writable(path: Path) -> bool:
    """Whether the log's folder (and the file, if it exists) can be written."""
    return os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def _prepare(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.OperationalError:
        raise  # cannot open or lock it (e.g. a read-only folder): not damage
    except sqlite3.DatabaseError as e:
        raise _damaged(path, e) from None
    if app_id != APP_ID and (tables or app_id):
        raise StoreError(
            N_(
                "{path} is an SQLite database of another program, not a rum500 game log. "
                "Move it aside or set RUM500_HOME to another folder."
            ),
            path=path,
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            N_(
                "the game log {path} was written by a newer rum500 (schema version {version}; "
                "this one knows up to {known}). Upgrade rum500, or set RUM500_HOME to another "
                "folder."
            ),
            path=path,
            version=version,
            known=SCHEMA_VERSION,
        )
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = 10000")
        if create or version:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError as e:
        raise _damaged(path, e) from None
    if version < SCHEMA_VERSION:
        if not create and version == 0 and not tables:
            raise StoreError(
                N_("the game log {path} is empty: host or play a match first"), path=path
            )
        migrate(conn, path, version)


def migrate(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """Bring the schema from ``version`` to :data:`SCHEMA_VERSION` in one transaction."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        # Another process may have migrated meanwhile: read the version again, locked.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for k in range(version, SCHEMA_VERSION):
            for statement in _statements(MIGRATIONS[k]):
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APP_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        if isinstance(e, sqlite3.DatabaseError) and "malformed" in str(e).lower():
            raise _damaged(path, e) from None
        raise StoreError(
            f"cannot set up the game log {path} (schema {version} → {SCHEMA_VERSION}): "
            f"{describe(e)}"
        ) from None


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error: all or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def reading(path: Path | None = None) -> Iterator[sqlite3.Connection]:
    """A connection for the read-only commands (history, stats, replay, export)."""
    p = Path(path) if path is not None else db_path()
    conn = open_db(p, create=False)
    try:
        yield conn
    except sqlite3.OperationalError as e:
        raise StoreError(
            N_("cannot read the game log {path}: {why}"), path=p, why=describe(e)
        ) from None
    except sqlite3.DatabaseError as e:
        raise _damaged(p, e) from None
    finally:
        conn.close()


class MatchLock:
    """The lock a host holds on a match while it plays it, so that two hosts never resume
    (and write) the same match at once. An ``flock`` on a small file beside the log: the
    system releases it when the process dies, so a crashed host never leaves it behind."""

    def __init__(self, db: Path, match_id: int) -> None:
        self.file = db.parent / f"{db.name}.match-{match_id}.lock"
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; False when another live process holds it. Where no lock can be
        made (no ``fcntl``, a read-only folder) it counts as taken."""
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            return True
        try:
            fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    def holder(self) -> str:
        """The pid written by the holder, if readable."""
        try:
            return self.file.read_text().strip() or "?"
        except OSError:
            return "?"

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.file.unlink()
            os.close(self._fd)
            self._fd = None
