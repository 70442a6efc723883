"""The one place that decides what a missing capability (network namespaces, tmpfs, unshare,
tmux, root) does to a test: in CI (``CI=true`` in the environment) the test FAILS, saying what
is missing — a CI that silently skipped them would prove nothing; elsewhere it is skipped with
the same clear reason."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """True when the environment says this is a CI run (``CI=true``, as CI services set it)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(reason: str) -> NoReturn:
    """A capability the test needs is missing: fail in CI, skip elsewhere."""
    if in_ci():
        pytest.fail(f"CI lacks a capability this test needs: {reason}", pytrace=False)
    pytest.skip(reason)


def require(reason: str | None) -> None:
    """``missing(reason)`` unless ``reason`` is None (the capability is there)."""
    if reason is not None:
        missing(reason)
