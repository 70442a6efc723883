"""Helpers shared by the bot tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_bench(name: str, monkeypatch) -> ModuleType:
    """``bench/<name>.py`` loaded as the module ``bench_<name>`` (bench/ is not a package), kept
    in ``sys.modules`` for the test: dataclasses and worker processes find it by name."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, f"bench_{name}", module)
    spec.loader.exec_module(module)
    return module
