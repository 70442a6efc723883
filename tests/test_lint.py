"""The code base is ruff clean (the project's lint settings in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean():
    ruff = shutil.which("ruff")
    cmd = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    try:
        result = subprocess.run(
            [*cmd, "check", "--no-cache", "rum500", "net", "tests", "bench"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except FileNotFoundError:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    assert result.returncode == 0, result.stdout + result.stderr
