"""The game log's group commit: the disk sync off the host's path, a bounded time behind.

The journal commits every action before anyone is told of it, with SQLite's WAL journal at
``synchronous=NORMAL``: the commit has *written* the action to the write-ahead log (the
operating system holds it), so a host killed in any way — ``kill -9`` included — loses
nothing anyone saw, and the commit costs no disk sync. A :class:`Flusher` thread then syncs
the write-ahead log to the disk (``fsync``) at most :data:`SYNC_EVERY` seconds after each
commit, every commit since the last sync in one go: a power cut or a kernel crash can cost
the actions of the last fraction of a second (SQLite syncs the log itself before each
checkpoint, and the database after it, so the file is never damaged).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path

log = logging.getLogger("rum500.store")

#: the longest a committed action waits for its disk sync, seconds
SYNC_EVERY = 0.05


class Flusher:
    """Syncs ``path``'s write-ahead log (``path-wal``) to the disk after commits: call
    :meth:`committed` after each one; :meth:`close` syncs what is left and stops."""

    def __init__(self, path: Path, every: float = SYNC_EVERY) -> None:
        self.wal = Path(f"{path}-wal")
        self.every = every
        self.commits = 0  # commits reported
        self.synced = 0  # commits known to be on the disk
        self.syncs = 0  # fsync calls made
        self._wake = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="rum500-log-sync", daemon=True)
        self._thread.start()

    def committed(self) -> None:
        """A transaction was committed (written, not yet synced)."""
        with self._wake:
            self.commits += 1
            self._wake.notify()

    def wait_synced(self, timeout: float) -> bool:
        """Wait until every commit reported so far is on the disk (tests, close)."""
        end = time.monotonic() + timeout
        with self._wake:
            target = self.commits
            while self.synced < target and not self._stop:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(left)
            return self.synced >= target

    def close(self) -> None:
        """Sync what is left and stop the thread."""
        with self._wake:
            self._stop = True
            self._wake.notify_all()
        self._thread.join(5)

    def _run(self) -> None:
        while True:
            with self._wake:
                while self.commits == self.synced and not self._stop:
                    self._wake.wait()
                if self.commits == self.synced:
                    return  # stopping, nothing left
                # commits meanwhile go to the disk in the same sync; closing does not wait
                end = time.monotonic() + self.every
                while not self._stop and (left := end - time.monotonic()) > 0:
                    self._wake.wait(left)
                target = self.commits
            self._sync()
            with self._wake:
                self.synced = target
                self.syncs += 1
                self._wake.notify_all()

    def _sync(self) -> None:
        """fsync the write-ahead log (any descriptor of a file syncs all of its data)."""
        try:
            fd = os.open(self.wal, os.O_RDONLY)
        except FileNotFoundError:
            return  # checkpointed and removed at close: already on the disk
        except OSError as e:
            log.warning("cannot sync the game log's %s: %s", self.wal.name, e)
            return
        try:
            os.fsync(fd)
        except OSError as e:
            log.warning("cannot sync the game log's %s: %s", self.wal.name, e)
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)
