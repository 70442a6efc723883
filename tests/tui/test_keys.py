"""Every key through the real key bindings (a pipe input, the Application running): with an
overlay open, a game key either acts or says in one line why not — never silence; the key bar
offers only keys that work."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500.i18n import set_language
from rum500.tui.app import build_table_app
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel
from tests.tui.local import at_hand_end
from tests.tui.test_app import until

GAME_KEYS = "stmldeuhogn"


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


@pytest.fixture
async def screen() -> AsyncIterator[tuple[TableModel, object]]:
    """A finished hand (so every overlay can open) on a running app."""
    model = at_hand_end()
    sent: list[dict] = []

    async def send(action: dict) -> None:
        sent.append(action)

    model.send = send
    with create_pipe_input() as inp:
        app = build_table_app(model, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(app.run_async())
        await asyncio.sleep(0.05)
        try:
            yield model, inp
        finally:
            app.exit()
            await asyncio.wait_for(task, 5)


@pytest.mark.parametrize("overlay", ["sheet", "scores", "help", "confirm", "quit", "final"])
async def test_a_game_key_in_an_overlay_acts_or_says_why(screen, overlay: str) -> None:  # type: ignore[no-untyped-def]
    model, inp = screen
    if overlay == "confirm":
        model.ask("End the hand now?", lambda: None)
    elif overlay == "final":
        model.tableview.finished = True
        model.overlay = "final"
    else:
        model.overlay = overlay
    for key in GAME_KEYS:
        if key in {k for k, _l, _f in key_bar(model)}:
            continue  # a key the overlay uses acts (tested elsewhere)
        model.feed.message = ""
        before = model.overlay
        inp.send_text(key)
        await until(lambda before=before: model.feed.message != "" or model.overlay != before)
        assert model.overlay == before, (overlay, key)
        assert model.feed.message and "\n" not in model.feed.message, (overlay, key)


async def test_the_key_bar_in_each_overlay_lists_only_keys_that_work(screen) -> None:  # type: ignore[no-untyped-def]
    model, _inp = screen
    model.overlay = "sheet"
    offered = {k for k, _l, _f in key_bar(model)}
    assert offered == {"Enter", "↑↓", "p", "Esc", "c", "?", "q"}
    assert not offered & set(GAME_KEYS)
    model.overlay = "scores"
    assert {k for k, _l, _f in key_bar(model)} == {"↑↓", "p", "Esc", "c", "?", "q"}
