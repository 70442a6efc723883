"""The match file's fixed parts, shared by the journal, export/import and salvage.

The lowest layer of ``rum500.store`` after :mod:`rum500.store.db`: it imports nothing of the
store, so :mod:`~rum500.store.journal` (a match file beside a log it cannot write),
:mod:`~rum500.store.exchange` (``rum500 export`` / ``import``) and
:mod:`~rum500.store.salvage` all read it without reading each other. See docs/storage.md.
"""

from __future__ import annotations

import hashlib
import json

FORMAT = "rum500-match"
FORMAT_VERSION = 1


def dumps(value: object) -> str:
    """Compact JSON as the log stores it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def canonical(match: dict) -> bytes:
    """The bytes the checksum covers."""
    return json.dumps(match, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def checksum(match: dict) -> str:
    """The ``sha256`` field of a match file: hex SHA-256 of :func:`canonical`."""
    return hashlib.sha256(canonical(match)).hexdigest()


def document(match: dict) -> dict:
    """``match`` wrapped as a match file: format, version, checksum, the match."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "sha256": checksum(match),
        "match": match,
    }
