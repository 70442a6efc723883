"""Issue 25 §3: the lobby's four-colour deck (key 4) is kept between runs (settings.json in the
data folder) and every screen of a later run uses it, as ``--four-colour`` would; a settings
file that is not ours reads as none."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500.configs import LobbyConfig, PlayConfig
from rum500.tui import render, settings
from rum500.tui.lobby import LobbyModel, build_lobby_app
from rum500.tui.main import _deck


@pytest.fixture(autouse=True)
def two_colours_after() -> Iterator[None]:
    yield
    render.use_four_colours(False)


async def press_4() -> LobbyModel:
    """Open the lobby, press 4, quit."""
    model = LobbyModel("Ann")
    with create_pipe_input() as inp:
        app = build_lobby_app(model, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(app.run_async())
        await asyncio.sleep(0.05)
        inp.send_text("4")
        for _ in range(200):
            if model.message:
                break
            await asyncio.sleep(0.01)
        inp.send_text("q")
        await asyncio.wait_for(task, 5)
    return model


async def test_the_lobby_key_turns_it_on_for_this_run_and_the_next() -> None:
    assert not settings.four_colour()
    model = await press_4()
    assert model.message == "Four-colour deck: on."
    assert render.four_colours()
    assert settings.path().exists()
    render.use_four_colours(False)  # a new run: the screens read the setting kept
    _deck(PlayConfig())
    assert render.four_colours()
    render.use_four_colours(True)
    model = await press_4()  # and off again, for the next run too
    assert model.message == "Four-colour deck: off."
    _deck(LobbyConfig())
    assert not render.four_colours()
    _deck(LobbyConfig(four_colour=True))  # the flag alone turns it on
    assert render.four_colours()


def test_a_settings_file_not_ours_reads_as_none() -> None:
    settings.path().parent.mkdir(parents=True, exist_ok=True)
    for text in ('["four_colour"]', '{"four_colour": "yes"}', "{", "x" * 5000):
        settings.path().write_text(text)
        assert settings.load() == {}
        assert not settings.four_colour()
    settings.path().write_text('{"four_colour": true, "other": 1}')
    assert settings.load() == {"four_colour": True}
