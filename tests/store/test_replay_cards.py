"""The replay's event line shows cards as the rest of the screen does (3♦, not 3D)."""

from __future__ import annotations

import re
from pathlib import Path

from rum500.store import Journal, open_db
from rum500.store.log import load_match
from rum500.tui.replay import ReplayModel

from .conftest import play

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RAW = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


def screen_text(model: ReplayModel, ascii_only: bool = False) -> list[str]:
    return "".join(text for _style, text in model.render(ascii_only)).splitlines()


def test_event_line_shows_suit_symbols(home: Path) -> None:
    with Journal() as j:
        play(j, seed=21)
        mid = j.game_id
    conn = open_db()
    match = load_match(conn, int(mid or 0))
    conn.close()
    model = ReplayModel(match)
    kinds: dict[str, int] = {}
    for k, entry in enumerate(match["actions"], start=1):
        kinds.setdefault(entry["action"]["type"], k)
    assert {"discard", "meld"} <= set(kinds)
    for kind, step in kinds.items():
        model.go(step)
        event_line = screen_text(model)[2]
        assert not RAW.search(event_line), (kind, event_line)
        if kind == "discard":
            card = match["actions"][step - 1]["action"]["card"]
            assert f"discarded {card[:-1]}{SUIT[card[-1]]}" in event_line
            ascii_line = screen_text(model, ascii_only=True)[2]
            assert f"discarded {card}" in ascii_line
