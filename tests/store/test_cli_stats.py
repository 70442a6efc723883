"""``rum500 stats`` after a real match between bots: each bot keeps its level."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def rum500(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def test_stats_show_the_bots_level(home: Path) -> None:
    r = rum500(
        "host",
        "--headless",
        "--no-announce",
        "--bind",
        "127.0.0.1",
        "--players",
        "2",
        "--bots",
        "2",
        "--bot-level",
        "easy",
        "--target",
        "100",
        "--seed",
        "4",
    )
    assert r.returncode == 0 and "game over" in r.stdout, r.stderr
    r = rum500("stats")
    assert r.returncode == 0, r.stderr
    assert "Bot 1 (bot: easy)" in r.stdout and "Bot 2 (bot: easy)" in r.stdout
    assert "(bot: bot)" not in r.stdout
