"""One worker process for CPU work the table screen must not do on its event loop (the hint's
search, the coach line's analysis): started on first use ("spawn": a clean interpreter,
whatever threads this process runs), stopped on request, started again when needed."""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from rum500.workers import end_with_parent

T = TypeVar("T")
R = TypeVar("R")


class Worker:
    """A lazily started one-process pool (each user keeps its own, so that a hint never
    waits behind an analysis)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_parent,  # a screen killed outright takes it along
            )
        return self._pool

    def shut_down(self) -> None:
        """Stop the worker process, if one was started."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def run(self, work: Callable[[T], R], arg: T, otherwise: Callable[[], R]) -> R:
        """``work(arg)`` in the worker process, the event loop running on meanwhile; when no
        worker can run it (the pool broke, the platform has no processes, ``arg`` does not
        pickle) the worker is stopped and ``otherwise()`` is the answer."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool(), work, arg)
        except (BrokenProcessPool, OSError, pickle.PicklingError, RuntimeError):
            self.shut_down()
            return otherwise()
