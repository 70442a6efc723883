"""Rejoin tokens kept on disk, one per table address, in ``tokens.json`` of the data dir.

The data dir is ``platformdirs.user_data_dir("rum500")`` unless ``RUM500_HOME`` names
another (tests point it at a temporary directory). Only ``tokens.json`` is ours there.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import platformdirs

FILE_NAME = "tokens.json"


def data_dir() -> Path:
    home = os.environ.get("RUM500_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("rum500"))


def _path() -> Path:
    return data_dir() / FILE_NAME


def load_all() -> dict[str, dict]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def get(address: str) -> dict | None:
    """``{"token", "name", "seat"}`` saved for ``address`` ("host:port"), or None."""
    entry = load_all().get(address)
    return entry if isinstance(entry, dict) and isinstance(entry.get("token"), str) else None


def put(address: str, token: str, name: str | None = None, seat: int | None = None) -> None:
    """Remember the token for ``address``; a disk that refuses is not an error worth a crash."""
    data = load_all()
    data[address] = {"token": token, "name": name, "seat": seat}
    try:
        path = _path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass


def forget(address: str) -> None:
    data = load_all()
    if data.pop(address, None) is not None:
        with contextlib.suppress(OSError):
            _path().write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
