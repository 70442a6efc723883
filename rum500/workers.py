"""What every worker process of rum500 runs first: it ends when the process that started it
ends, however that one ended.

A pool's worker waits on a queue whose write end it holds too (``spawn`` pickles both ends of
a :class:`multiprocessing.Queue`; ``fork`` inherits them), so a parent killed outright (kill
-9, a crash) leaves it waiting for ever, with the resource tracker beside it. Every pool
rum500 starts (the table screen's worker for the hint and the coach line, ``rum500 analyse
--jobs``, ``rum500 sim --jobs``) is given :func:`end_with_parent` as its initializer (or
calls it first): a thread that waits on the parent's sentinel and ends the process when it
fires.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading


def end_with_parent() -> None:
    """In a worker process: end it as soon as its parent process is gone (nothing to do in a
    process that no ``multiprocessing`` parent started)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)  # no cleanup to wait for: whatever it was doing was for the parent

    threading.Thread(target=watch, name="rum500-parent-watch", daemon=True).start()


def quiet_worker() -> None:
    """A worker that leaves Ctrl-C to its parent (which stops the pool and says so once) and
    ends with it (:func:`end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()
