"""A tmux server of a test's own (its own socket) with one window of a fixed size: the
e2e tests run ``rum500`` in it, type with ``send-keys`` and read with ``capture-pane``."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections import deque
from collections.abc import Callable
from pathlib import Path


class Tmux:
    """One tmux server (own socket) with one window of a fixed size."""

    def __init__(self, home: Path, width: int = 100, height: int = 30) -> None:
        self.socket = f"rum500-test-{uuid.uuid4().hex[:8]}"
        self.home = home
        self.width, self.height = width, height
        #: the last distinct screens read and keys sent, with when (for a failure's message:
        #: what led to it)
        self.seen: deque[tuple[float, str]] = deque(maxlen=10)
        self.born = time.monotonic()

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        return out.stdout

    def start(self, command: str, env: dict[str, str] | None = None) -> None:
        full_env = {
            "RUM500_HOME": str(self.home),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            **(env or {}),
        }
        exports = " ".join(f"{k}={v}" for k, v in full_env.items())
        log = self.home / "stderr.txt"
        self.tmux(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            f"env {exports} {command} 2>{log}; sleep 600",
        )

    def keys(self, *keys: str) -> None:
        self.seen.append((time.monotonic() - self.born, f"[keys sent: {' '.join(keys)}]"))
        self.tmux("send-keys", "-t", "0", *keys)

    def literal(self, text: str) -> None:
        self.tmux("send-keys", "-t", "0", "-l", text)

    def screen(self) -> str:
        """The screen as drawn: read until two reads a moment apart agree, so that a frame
        tmux has only half taken in (an overlay opening: the new box over the old key bar)
        is not read as a state of the game (a few tries, then the last read)."""
        text = self.tmux("capture-pane", "-p", "-t", "0")
        for _ in range(5):
            time.sleep(0.02)
            again = self.tmux("capture-pane", "-p", "-t", "0")
            if again == text:
                break
            text = again
        if not any(old == text for _t, old in list(self.seen)[-2:]):
            self.seen.append((time.monotonic() - self.born, text))
        return text

    def history(self) -> str:
        """The screens read and keys sent before the last screen, oldest first, with times."""
        return "".join(f"--- at {t:.2f} s:\n{text}\n" for t, text in list(self.seen)[:-1])

    def wait(self, check: Callable[[str], bool], timeout: float = 15.0, what: str = "") -> str:
        end = time.monotonic() + timeout
        while True:
            text = self.screen()
            if check(text):
                return text
            if time.monotonic() > end:
                err = self.home / "stderr.txt"
                raise AssertionError(
                    f"screen never showed {what or check}:\n{text}\n"
                    f"stderr: {err.read_text() if err.exists() else ''}\n"
                    f"the screens before it:\n{self.history()}"
                )
            time.sleep(0.05)

    def wait_text(self, needle: str, timeout: float = 15.0) -> str:
        return self.wait(lambda s: needle in s, timeout, repr(needle))

    def close(self) -> None:
        self.tmux("kill-server")
