"""The store is storage only (issue 23): no prompt_toolkit and no screen in it, its modules
import each other one way, and the replay's positions are read without a terminal."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.store import Journal, StoreError
from rum500.store.commands import finished_match
from rum500.store.replay import Replay, plain_what

from .conftest import play

STORE = Path(__file__).resolve().parents[2] / "rum500" / "store"


def store_imports() -> dict[str, set[str]]:
    """Each module of rum500/store and the store modules it imports (at any level)."""
    names = {p.stem for p in STORE.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in names:
        tree = ast.parse((STORE / f"{name}.py").read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                if parts[:2] == ["rum500", "store"]:
                    found |= {parts[2]} if len(parts) > 2 else {a.name for a in node.names}
        graph[name] = found & names - {name}
    return graph


def test_the_store_modules_import_each_other_one_way() -> None:
    graph = store_imports()
    assert graph["matchfile"] == set() and graph["db"] == set()
    done: set[str] = set()
    order = []
    while len(done) < len(graph):  # a topological order exists exactly when there is no circle
        ready = sorted(m for m, deps in graph.items() if m not in done and deps <= done)
        assert ready, f"import circle among {sorted(set(graph) - done)}"
        done |= set(ready)
        order += ready
    assert order.index("journal") < order.index("exchange")


def test_the_store_loads_no_screen() -> None:
    code = (
        "import sys, rum500.store, rum500.store.commands, rum500.store.replay, "
        "rum500.store.exchange, rum500.store.salvage, rum500.store.resume\n"
        "bad = [m for m in sys.modules if m.startswith(('prompt_toolkit', 'rum500.tui', "
        "'rum500.cli', 'rum500.host'))]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_replay_steps_without_a_terminal(home: Path) -> None:
    with Journal() as j:
        game = play(j, 4, ["Ann", "Bob"], target=150)
    match = finished_match("1")
    replay = Replay(match)
    assert len(replay.frames) == len(game.actions) + 1
    assert plain_what(replay.frames[0].what).endswith("dealt")
    assert all(plain_what(f.what) for f in replay.frames)
    replay.next_hand()
    assert replay.frame.hand_number == 2 and replay.frame.move == 0
    assert plain_what(replay.frame.what).endswith("dealt hand 2")
    replay.go(10**6)
    assert replay.frame.winner == game.winner


def test_an_unfinished_match_is_not_replayed(home: Path) -> None:
    with Journal() as j:
        play(j, 3, ["Ann", "Bot"], stop_after=10)
    with pytest.raises(StoreError) as e:
        finished_match(1)
    assert "rum500 play --resume 1" in e.value.said()


def test_replay_with_no_game_id_takes_the_newest_finished_match(home: Path) -> None:
    with Journal() as j:
        play(j, seed=1, names=["Ann", "Bob"], stop_after=30)
    with pytest.raises(StoreError, match="no finished match to replay yet"):
        finished_match(None)
    for seed, stop in ((2, None), (3, None), (4, 30)):  # the newest is unfinished
        with Journal() as j:
            play(j, seed=seed, names=["Ann", "Bob"], stop_after=stop)
    assert finished_match(None)["id"] == 3
