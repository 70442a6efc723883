"""Real host processes in a private network namespace (``unshare --net``, root only), so
their LAN announcements never leave that namespace's loopback."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests import capability

ROOT = Path(__file__).resolve().parents[2]


def why_not() -> str | None:
    """Why a private network namespace cannot be made here, or None."""
    if os.geteuid() != 0:
        return "needs root for a private network namespace (unshare --net)"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True)
    if probe.returncode != 0:
        return f"cannot make a network namespace here: {probe.stderr.decode().strip()}"
    return None


def require() -> None:
    """Where no private network namespace can be made: skip the test saying why (fail in CI)."""
    capability.require(why_not())


def argv(command: str) -> list[str]:
    """The argv that runs the shell ``command`` in a new namespace with loopback up."""
    return ["unshare", "--net", "sh", "-c", f"ip link set lo up && exec {command}"]


def run(command: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``command`` to its end in a private namespace (see :func:`require`)."""
    require()
    return subprocess.run(argv(command), cwd=ROOT, capture_output=True, text=True, timeout=timeout)
