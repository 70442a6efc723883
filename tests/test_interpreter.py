"""Tests start Python subprocesses with the interpreter that runs them (``sys.executable``),
never with whatever ``python3`` is first on ``PATH`` (which may lack the project's packages,
or be another Python altogether)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def python_by_name(path: Path) -> list[int]:
    """The lines of ``path`` where a string starts a program named ``python``/``python3``."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            first = node.value.split(" ", 1)[0]
            if first in ("python", "python3") or first.startswith("python3."):
                lines.append(node.lineno)
    return lines


def test_no_test_starts_python_by_name() -> None:
    found = {
        str(p.relative_to(TESTS)): lines
        for p in sorted(TESTS.rglob("*.py"))
        if p != Path(__file__).resolve() and (lines := python_by_name(p))
    }
    assert found == {}, "use sys.executable, not python3 by name: " + repr(found)
