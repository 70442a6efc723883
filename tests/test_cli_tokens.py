"""Files the terminal client writes in the data folder are its owner's only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rum500 import tokens


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_tokens_file_is_written_0600_whatever_the_umask() -> None:
    old = os.umask(0o022)
    try:
        tokens.put("127.0.0.1:5500", "secret-token", "Ann", 0)
    finally:
        os.umask(old)
    path = tokens.data_dir() / tokens.FILE_NAME
    assert mode(path) == 0o600
    assert tokens.get("127.0.0.1:5500", "Ann")["token"] == "secret-token"


def test_an_old_readable_tokens_file_becomes_0600_on_the_next_write() -> None:
    path = tokens.data_dir() / tokens.FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}", encoding="utf-8")
    path.chmod(0o644)
    tokens.put("127.0.0.1:5500", "t2", "Bob", 1)
    assert mode(path) == 0o600
    assert tokens.get("127.0.0.1:5500", "Bob")["token"] == "t2"
