"""The hint (``h``) is worked out off the event loop: the screen says it is being worked out,
the host in the same process answers meanwhile, and the hint is applied only if the position
has not moved on when it arrives (issue 23 §3)."""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path

from rum500.rules import Game
from rum500.tui import hint as hints
from rum500.tui.model import TableModel
from tests.tui.test_app import open_table, until
from tests.tui.test_model import seated

WORKING = "Working out a hint…"


def slow_advice(go: str, view: dict) -> dict | None:
    """An adviser that thinks until the file ``go`` exists (at most 30 s), then advises: run
    in the worker process, it stands for an expert's long search."""
    end = time.monotonic() + 30
    while not Path(go).exists() and time.monotonic() < end:
        time.sleep(0.01)
    return hints.advise(view)


async def test_the_host_answers_while_a_hint_is_worked_out(tmp_path: Path) -> None:
    """The host player presses h at a table their own process hosts: while the (slow) hint
    is computed, the host still answers — a chat goes round and comes back before the hint is
    done. Inline on the event loop, the chat would wait for the hint."""
    go = tmp_path / "go"
    async with open_table(deal_pause=60.0) as run:
        model = run.model
        model.advise = functools.partial(
            hints.advise_off_loop, work=functools.partial(slow_advice, str(go))
        )
        view = model.tableview.view
        model.hint()
        assert model.feed.message == WORKING
        assert model.hint_pending is not None
        await run.session.chat("still there?")
        await until(lambda: any("still there?" in line for line in model.feed.chat_lines))
        assert not model.hint_pending.done()  # the host answered while the worker thought
        go.touch()
        await asyncio.wait_for(model.hint_pending, 60)
        assert model.tableview.view is view
        assert model.feed.message.startswith("Hint: "), model.feed.message


async def test_advise_off_loop_gives_what_advise_gives() -> None:
    view = Game(2, seed=3).view(Game(2, seed=3).to_move)
    try:
        assert await hints.advise_off_loop(view) == hints.advise(view)
    finally:
        hints.shut_down()


async def held_hint(model: TableModel) -> tuple[asyncio.Future, asyncio.Event]:
    """``h`` pressed, its advice held back until the event returned is set."""
    release = asyncio.Event()

    async def adviser(view: dict) -> dict | None:
        await release.wait()
        return hints.advise(view)

    model.advise = adviser
    model.hint()
    assert model.feed.message == WORKING
    model.hint()  # a second h while the first is worked out: still one hint on the way
    pending = model.hint_pending
    assert pending is not None
    return pending, release


async def test_a_hint_for_a_position_gone_is_dropped() -> None:
    """A move is made while the hint is worked out: the hint is not applied (no cards
    selected, no "Hint:" line for a position that is no longer there, the "working" line
    gone)."""
    model, session = await seated()
    pending, release = await held_hint(model)
    await session.act({"type": "draw", "source": "stock"})  # the position moves on
    release.set()
    await pending
    assert model.feed.message != WORKING
    assert not model.feed.message.startswith("Hint:") and not model.selection.selected


async def test_a_hint_holds_when_the_same_position_is_sent_again() -> None:
    """The host sends the view again while the hint is worked out (someone came or went):
    a new view of the same position, so the hint is still shown and set up."""
    model, session = await seated()
    view = model.tableview.view
    pending, release = await held_hint(model)
    session._push([])  # the same position sent again
    assert model.tableview.view is not view and hints.same_position(model.tableview.view, view)
    release.set()
    await pending
    assert model.feed.message.startswith("Hint: "), model.feed.message


def test_a_model_advises_off_the_loop_by_default() -> None:
    assert TableModel().advise is hints.advise_off_loop
