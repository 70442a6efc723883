"""Rejoin tokens kept on disk, per table and player name, in ``tokens.json`` of the data dir.

An entry remembers the table's id (``welcome``'s ``table.id``) and name beside the address it
was last seen at, so that the seat is found again wherever the table went (a handoff, a
failover, a resumed match at another port): :func:`get` prefers the table id to the address,
and :func:`put` moves the seat's entry to the table's new address. Entries written before
the table id was kept (``"host:port name"`` keys, no ``table_id``) are still read by address.

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


def _key(address: str, name: str | None, table_id: str | None = None) -> str:
    where = f"#{table_id}" if table_id else address
    return f"{where} {name or ''}".strip()


def load_all() -> dict[str, dict]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _valid(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("token"), str)


def address_of(key: str, entry: dict) -> str:
    """Where the entry's table was last seen ("host:port"): its ``address``, or for an
    entry of the older format the first word of its key."""
    address = entry.get("address")
    return address if isinstance(address, str) else key.split(" ")[0]


def _newest(entries: list[dict]) -> dict | None:
    return max(entries, key=lambda e: e.get("at", 0)) if entries else None


def get(address: str, name: str | None = None, table_id: str | None = None) -> dict | None:
    """``{"token", "name", "seat", "table_id", "table", "address"}`` saved for ``name`` at
    the table with id ``table_id`` (wherever it was), else at ``address`` ("host:port") —
    there, an entry of another table id is not taken when ``table_id`` is given. With no
    name, the newest such entry. None if there is none. A token saved under another name is
    never used: two players on one machine keep their own seats."""
    data = load_all()
    entries = [
        {**e, "address": address_of(k, e)}
        for k, e in data.items()
        if _valid(e) and (not name or e.get("name") == name or k == _key(address, name))
    ]
    if table_id:
        found = _newest([e for e in entries if e.get("table_id") == table_id])
        if found is not None:
            return found
    return _newest(
        [
            e
            for e in entries
            if e["address"] == address and (not table_id or e.get("table_id") in (None, table_id))
        ]
    )


def elsewhere(address: str, name: str) -> bool:
    """Whether ``name`` has a seat saved at a table with an id, last seen at another
    address than ``address`` (that table may be the one at ``address`` now)."""
    return any(
        _valid(e) and e.get("name") == name and e.get("table_id") and address_of(k, e) != address
        for k, e in load_all().items()
    )


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


def put(
    address: str,
    token: str,
    name: str | None = None,
    seat: int | None = None,
    table_id: str | None = None,
    table: str | None = None,
) -> None:
    """Remember the token of ``name``'s seat at the table ``table_id`` (called ``table``),
    now at ``address``. The seat's older entries (the same token, or the same table and
    name) are replaced: the entry moves with the table."""
    data = load_all()
    key = _key(address, name, table_id)
    data = {
        k: e
        for k, e in data.items()
        if k != _key(address, name) and not (_valid(e) and e["token"] == token)
    }
    data[key] = {
        "token": token,
        "name": name,
        "seat": seat,
        "at": time.time(),
        "address": address,
        "table_id": table_id,
        "table": table,
    }
    if len(data) > MAX_ENTRIES:  # forget the oldest
        for k in sorted(data, key=lambda k: data[k].get("at", 0))[: len(data) - MAX_ENTRIES]:
            del data[k]
    _write(data)


def forget(address: str, token: str, table_id: str | None = None) -> None:
    """Drop the entries holding ``token`` of ``address``, or of the table ``table_id``
    wherever it was: the table no longer knows that token."""
    data = load_all()

    def refused(k: str, e: dict) -> bool:
        here = address_of(k, e) == address or bool(table_id and e.get("table_id") == table_id)
        return here and e.get("token") == token

    kept = {k: e for k, e in data.items() if not refused(k, e)}
    if len(kept) != len(data):
        _write(kept)
