"""The replay's coach marks (issue 24 §2): each decision of the chosen seat marked with its
cost, from the analysis kept in the game log, else worked out in the background and kept; m /
M jump between mistakes; the better move named and its cards highlighted."""

from __future__ import annotations

import threading
from pathlib import Path

from rum500.coach.analysis import analyse_match
from rum500.coach.command import row
from rum500.store import Journal, open_db
from rum500.store.log import load_analysis, load_match, save_analysis
from rum500.tui.replay import ReplayModel, marks_finder
from tests.store.conftest import home, play  # noqa: F401 - the fixture

BUDGET = 8


def finished_match() -> dict:
    with Journal() as j:
        play(j, 1, ["Ann", "Bob"], target=100)
    conn = open_db()
    try:
        return load_match(conn, 1)
    finally:
        conn.close()


def text(model: ReplayModel) -> str:
    return "".join(t for _, t in model.render(ascii_only=True))


def better(model: ReplayModel) -> list[str]:
    return [t for style, t in model.render(ascii_only=True) if "class:better" in style]


def test_marks_from_the_kept_analysis(home: Path) -> None:  # noqa: F811
    match = finished_match()
    kept = row(analyse_match(match, 0, budget=BUDGET))
    conn = open_db()
    save_analysis(conn, 1, kept)
    conn.close()
    model = ReplayModel(match)
    model.find_marks = marks_finder(lambda: None, budget=BUDGET)
    assert "Coach" not in text(model)
    model.choose_seat(0)
    assert model.coach_state == "done"  # kept: nothing to work out
    decisions = kept["summary"]["decisions"]
    assert set(model.marks or {}) == {d["index"] for d in decisions}
    mistakes = sorted(d["index"] for d in decisions if d["loss"] > 0)
    assert len(mistakes) >= 2, "random play makes mistakes"
    model.next_mistake()
    assert model.index == mistakes[0]
    shown = text(model)
    assert "Coach: Ann" in shown and "Ann decides here:" in shown and "better:" in shown
    mark = (model.marks or {})[model.index]
    assert mark["loss"] > 0 and f"costs -{max(1, round(mark['loss']))} points" in shown
    best = mark["best"]
    if best["type"] in ("discard", "layoff", "meld") or isinstance(best.get("index"), int):
        assert better(model), "the better move's cards are highlighted"
    model.next_mistake()
    assert model.index == mistakes[1]
    model.prev_mistake()
    assert model.index == mistakes[0]
    model.choose_seat(None)
    assert "Coach" not in text(model) and not better(model)


def test_marks_worked_out_in_the_background_and_kept(home: Path) -> None:  # noqa: F811
    match = finished_match()
    model = ReplayModel(match)
    done = threading.Event()
    model.find_marks = marks_finder(
        lambda: done.set() if model.coach_state == "done" else None, budget=BUDGET
    )
    model.choose_seat(1)
    assert model.coach_state == "working"
    assert "Coach: working out Bob's decisions" in text(model)
    assert done.wait(120)
    assert model.marks and all(d.get("index") in model.marks for d in model.marks.values())
    conn = open_db()
    kept = load_analysis(conn, 1, 1)
    conn.close()
    assert kept is not None and len(kept["decisions"]) == len(model.marks)
    model.next_mistake()
    assert (model.marks.get(model.index) or {}).get("loss", 0) > 0
    assert "better:" in text(model)
