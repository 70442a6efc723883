"""Rejoin tokens kept on disk, per table address and player name, in ``tokens.json`` of the
data dir.

The data dir is ``platformdirs.user_data_dir("rum500")`` unless ``RUM500_HOME`` names
another (tests point it at a temporary directory). Only ``tokens.json`` is ours there.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path

import platformdirs

FILE_NAME = "tokens.json"
MAX_ENTRIES = 200


def data_dir() -> Path:
    home = os.environ.get("RUM500_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("rum500"))


def _path() -> Path:
    return data_dir() / FILE_NAME


def _key(address: str, name: str | None) -> str:
    return f"{address} {name or ''}".strip()


def load_all() -> dict[str, dict]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _valid(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("token"), str)


def get(address: str, name: str | None = None) -> dict | None:
    """``{"token", "name", "seat"}`` saved for ``address`` ("host:port") and ``name``; with no
    name, the newest saved for the address (None if there is none). A token saved under
    another name is never used: two players on one machine keep their own seats."""
    data = load_all()
    entry = data.get(_key(address, name))
    if _valid(entry):
        return entry
    if name:
        return None
    mine = [e for k, e in data.items() if k.split(" ")[0] == address and _valid(e)]
    return max(mine, key=lambda e: e.get("at", 0)) if mine else None


def _write(data: dict[str, dict]) -> None:
    """Write the file readable by its owner only (0600, like the game log): tokens are
    secrets that take a seat."""
    with contextlib.suppress(OSError):  # a disk that refuses is not worth a crash
        path = _path()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_suffix(".tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()  # a stale one may have other permissions
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=1, sort_keys=True))
        os.chmod(tmp, 0o600)  # whatever the umask
        tmp.replace(path)


def put(address: str, token: str, name: str | None = None, seat: int | None = None) -> None:
    """Remember the token of ``name``'s seat at ``address``."""
    data = load_all()
    data[_key(address, name)] = {"token": token, "name": name, "seat": seat, "at": time.time()}
    if len(data) > MAX_ENTRIES:  # forget the oldest
        for k in sorted(data, key=lambda k: data[k].get("at", 0))[: len(data) - MAX_ENTRIES]:
            del data[k]
    _write(data)


def forget(address: str, token: str) -> None:
    """Drop the entries of ``address`` holding ``token`` (the host no longer knows it)."""
    data = load_all()
    kept = {
        k: e
        for k, e in data.items()
        if not (k.split(" ")[0] == address and e.get("token") == token)
    }
    if len(kept) != len(data):
        _write(kept)
