"""Countdowns the host sends as seconds from now (the review, the claim window, an away
player's takeover), kept as moments on the client's own clock and shown in whole seconds."""

from __future__ import annotations

import math


def deadline(left: object, now: float, cap: float) -> float | None:
    """The host's ``seconds_left`` (untrusted) as a moment on our clock: clamped to
    ``0 … cap`` seconds from ``now``; None when it is not a finite number."""
    if isinstance(left, int | float) and math.isfinite(left):
        return now + max(0.0, min(float(left), cap))
    return None


def whole_seconds_left(at: float | None, now: float) -> int | None:
    """Whole seconds from ``now`` until ``at`` (never below 0), None without a deadline."""
    if at is None:
        return None
    return max(0, math.ceil(at - now))
