"""While the screen runs, logging goes to rum500.log in the data folder, not the terminal."""

from __future__ import annotations

import io
import logging
import warnings

from rum500.store.db import home
from rum500.tui.main import LOG_FILE, log_away_from_the_screen


def test_log_messages_and_warnings_go_to_the_file_then_back() -> None:
    terminal = io.StringIO()
    handler = logging.StreamHandler(terminal)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        with log_away_from_the_screen() as path:
            logging.getLogger("rum500.store").warning("the disk is full")
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                warnings.warn("an old API", DeprecationWarning, stacklevel=1)
        assert path == home() / LOG_FILE
        text = path.read_text(encoding="utf-8")
        assert "the disk is full" in text and "an old API" in text
        assert terminal.getvalue() == ""  # nothing reached the terminal meanwhile
        assert (path.stat().st_mode & 0o777) == 0o600
        logging.getLogger("rum500.store").warning("after the screen")
        assert "after the screen" in terminal.getvalue()
        assert "after the screen" not in path.read_text(encoding="utf-8")
    finally:
        root.removeHandler(handler)
