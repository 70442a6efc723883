"""The command line's flags: each is checked, with a clear one-line message (issue 9)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rum500.cli import build_parser


def rum500(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``rum500 ARGV`` as a real process (stdin not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("command", ["host", "play"])
def test_review_timeout_is_read(command: str) -> None:
    args = build_parser().parse_args([command, "--review-timeout", "12.5"])
    assert args.review_timeout == 12.5
    assert build_parser().parse_args([command]).review_timeout == 30.0


@pytest.mark.parametrize("value", ["0.5", "601", "nan", "inf", "soon", "-3"])
def test_review_timeout_out_of_range_is_refused(value: str) -> None:
    r = rum500("play", f"--review-timeout={value}")
    assert r.returncode == 2
    assert "--review-timeout" in r.stderr
    assert "Traceback" not in r.stderr
