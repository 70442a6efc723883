"""The table screen as a prompt_toolkit Application, wired to a session.

``build_table_app(model, input=None, output=None)`` makes the Application (tests pass
``create_pipe_input()`` and ``DummyOutput()``); ``run_table(session, model)`` runs it with the
session's messages pumped into the model by a background task, so the network never blocks
the screen and every update redraws at once.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from rum500.tui import coachline
from rum500.tui import hint as hints
from rum500.tui.keys import build_key_bindings
from rum500.tui.layout import build_layout
from rum500.tui.model import TableModel
from rum500.tui.render import STYLE


class Session(Protocol):
    async def act(self, action: dict) -> None: ...

    async def chat(self, text: str) -> None: ...

    async def pump(self, model: TableModel) -> None: ...

    async def close(self) -> None: ...


def build_table_app(
    model: TableModel, input: Input | None = None, output: Output | None = None
) -> Application[Any]:
    app: Application[Any] = Application(
        layout=build_layout(model),
        key_bindings=build_key_bindings(model),
        style=STYLE,
        full_screen=True,
        mouse_support=True,
        input=input,
        output=output,
    )
    app.ttimeoutlen = 0.05  # Esc acts at once (tmux and terminals send sequences whole)
    model.on_change = app.invalidate
    model.spawn = app.create_background_task
    model.exit = lambda: app.exit(result=0) if app.is_running else None
    return app


async def tick(model: TableModel, app: Application[Any]) -> None:
    """Redraw each second while a countdown is on screen (the review, an away seat, the
    "Rummy!" window and its banner, the time left to rejoin a host that is not answering)."""
    while True:
        await asyncio.sleep(1.0)
        if (
            model.review.open
            or model.tableview.takeover
            or model.claim.open
            or model.banner_text()
            or model.feed.rejoin_left() is not None
        ):
            app.invalidate()


async def run_table(
    session: Session, model: TableModel, input: Input | None = None, output: Output | None = None
) -> int:
    """Play at the table until the player leaves; returns an exit status."""
    model.send = session.act
    model.send_chat = session.chat
    model.shoulder.send = getattr(session, "message", None)  # over the shoulder's messages
    app = build_table_app(model, input, output)

    def start() -> None:
        app.create_background_task(session.pump(model))
        app.create_background_task(tick(model, app))

    try:
        result = await app.run_async(pre_run=start)
    finally:
        await session.close()
        hints.shut_down()  # the hint's worker process, if the player asked for a hint
        coachline.shut_down()  # the coach line's worker process, if it ran
    return int(result or 0)
