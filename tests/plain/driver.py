"""A player of ``rum500 --plain`` through pipes only: the process's standard input and output,
read line by line (a thread keeps the lines in a queue), the way a screen reader's user or a
script meets it."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: seconds to wait for a line before the test gives up (a hang is a failure, not a wait)
WAIT = 60.0


class Plain:
    """``python -m rum500 ARGS`` with pipes; every byte it writes is kept in :attr:`raw`."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rum500", *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        )
        self.raw = b""
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.ended = False  # the output has ended
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            self.raw += raw
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def next_line(self, wait: float = WAIT) -> str | None:
        """The next line (None: the output ended); a test fails after ``wait`` seconds."""
        if self.ended:
            return None
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            raise AssertionError(f"no line in {wait} s; last lines: {self.seen[-15:]}") from None
        if line is None:
            self.ended = True
        else:
            self.seen.append(line)
        return line

    def poll(self, wait: float) -> str | None:
        """The next line if one comes within ``wait`` seconds, else "" (None: the output
        ended)."""
        if self.ended:
            return None
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return ""
        if line is None:
            self.ended = True
        else:
            self.seen.append(line)
        return line

    def until(self, *texts: str, wait: float = WAIT) -> str:
        """Read up to the first line containing one of ``texts``; that line."""
        while True:
            line = self.next_line(wait)
            if line is None:
                raise AssertionError(f"output ended before {texts}; last: {self.seen[-15:]}")
            if any(t in line for t in texts):
                return line

    def close(self) -> tuple[int, str]:
        """Close the input (the end of it leaves the table), wait; exit status and stderr."""
        assert self.proc.stdin is not None
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        while self.next_line(WAIT) is not None:
            pass
        assert self.proc.stderr is not None
        return code, self.proc.stderr.read().decode("utf-8", errors="replace")
