"""The replay's coach marks (issue 24 §2): each decision of the chosen seat marked with its
cost, from the analysis kept in the game log, else worked out in the background and kept; m /
M jump between mistakes; the better move named and its cards highlighted."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500.coach.analysis import analyse_match
from rum500.coach.command import row
from rum500.store import Journal, open_db
from rum500.store.log import load_analysis, load_match, save_analysis
from rum500.tui.replay import ReplayModel, build_app, marks_finder
from tests.store.conftest import home, play  # noqa: F401 - the fixture
from tests.tui.test_app import until

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


def analysed_match() -> tuple[dict, dict]:
    """A finished match and Ann's analysis of it, kept in the game log."""
    match = finished_match()
    kept = row(analyse_match(match, 0, budget=BUDGET))
    conn = open_db()
    save_analysis(conn, 1, kept)
    conn.close()
    return match, kept


def test_marks_from_the_kept_analysis(home: Path) -> None:  # noqa: F811
    match, kept = analysed_match()
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


def test_m_and_m_say_why_they_do_not_jump(home: Path) -> None:  # noqa: F811
    """m / M with no seat marked, while the coach works, and past the last (first) mistake:
    a line says why nothing moved (they did nothing, silently); the next move clears it."""
    match, _kept = analysed_match()
    model = ReplayModel(match)
    model.next_mistake()
    assert "No seat's decisions are marked: c chooses a seat." in text(model)
    model.next_move()
    assert model.notice == "" and "No seat" not in text(model)
    model.find_marks = lambda m, seat: setattr(m, "coach_state", "working")
    model.choose_seat(0)
    model.prev_mistake()
    assert "The coach is still working out the decisions: m works once done." in text(model)
    model.find_marks = marks_finder(lambda: None, budget=BUDGET)
    model.choose_seat(0)
    mistakes = model.mistakes()
    assert mistakes, "random play makes mistakes"
    model.go(mistakes[-1])
    model.next_mistake()
    assert model.index == mistakes[-1]
    assert "No mistake after this point (M goes back)." in text(model)
    model.go(mistakes[0])
    model.prev_mistake()
    assert model.index == mistakes[0]
    assert "No mistake before this point (m goes on)." in text(model)
    # the coach's lines are wrapped at a space to the screen's width, never cut in a word
    wide = "".join(t for _, t in model.render(ascii_only=True, width=200)).splitlines()
    said = next(line for line in wide if "Ann decides here:" in line)
    narrow = "".join(t for _, t in model.render(ascii_only=True, width=40)).splitlines()
    k = next(i for i, line in enumerate(narrow) if "Ann decides here:" in line)
    rest = [narrow[k]]
    while narrow[k + len(rest)].startswith("  "):
        rest.append(narrow[k + len(rest)])
    assert len(said) > 40 and len(rest) > 1 and max(map(len, rest)) <= 40
    assert " ".join(line.strip() for line in rest) == said
    assert "(m: next mistake)" in text(model)
    model.marks = {k: {**d, "loss": 0} for k, d in (model.marks or {}).items()}  # none
    assert "Coach: Ann — no mistake found" in text(model) and "m: next" not in text(model)


async def test_a_key_the_viewer_does_not_use_says_so(home: Path) -> None:  # noqa: F811
    """The real viewer's key bindings: z says it is no key here, n moves on and clears it."""
    model = ReplayModel(finished_match())
    with create_pipe_input() as inp:
        app = build_app(model, ascii_only=True, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(app.run_async())
        inp.send_text("z")
        await until(lambda: bool(model.notice))
        assert "No key z here: the keys are on the bottom line." in text(model)
        at = model.index
        inp.send_text("n")
        await until(lambda: model.index != at)
        assert model.notice == ""
        inp.send_text("?")  # help at the table: here the keys, in words
        await until(lambda: bool(model.notice))
        assert "Keys: left/right: move, up/down: hand" in text(model) and "q: quit" in model.notice
        inp.send_text("q")
        await asyncio.wait_for(task, 5)
