"""Fixtures of the game log tests: a private RUM500_HOME and matches played by random seats."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rum500.rules import Game, Options
from rum500.store import Journal
from tests import capability


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """RUM500_HOME pointed at a fresh folder; returns the game log's path."""
    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "games.sqlite3"


def match_info(game: Game, names: list[str], table: str = "Kitchen") -> dict:
    """What the host passes to ``Journal.start_match``."""
    return {
        "players": game.players,
        "seed": game.seed,
        "options": game.options.to_dict(),
        "deck": game.first_deck,
        "table": table,
        "seats": [
            {"name": n, "token": f"token-{k}-{game.seed}", "bot": "random" if k else None}
            for k, n in enumerate(names)
        ],
    }


def play(
    journal: Journal | None,
    seed: int,
    names: list[str] | None = None,
    target: int = 100,
    stop_after: int | None = None,
    game: Game | None = None,
) -> Game:
    """Play a match with uniformly random legal actions, journaling as a host does."""
    names = names or ["Ann", "Bob"]
    rng = random.Random(seed)
    if game is None:
        game = Game(len(names), seed, Options(target=target))
        if journal is not None:
            journal.start_match(match_info(game, names))
    while game.to_move is not None:
        if stop_after is not None and len(game.actions) >= stop_after:
            break
        seat = game.to_move
        game.apply(rng.choice(game.legal_actions()), seat)
        if journal is not None:
            journal.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
            if game.to_move is None:
                journal.finish(game.winner, list(game.totals))
    return game


def mount(args: list[str]) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 4 MiB file system (tmpfs), so the disk can really fill up or turn read-only."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        capability.missing("needs root and mount(8) to make a small file system")
    where = tmp_path / "fs"
    where.mkdir()
    try:
        mount(["-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)])
    except subprocess.CalledProcessError as e:
        capability.missing(f"cannot mount a tmpfs here: {e.stderr!r}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)
