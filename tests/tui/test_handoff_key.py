"""The host player hands the table over from the table screen (H, then who): the screen
follows the table to the new host by itself, same seat and hand (issue 13 §1)."""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from net.client import Client
from rum500.handoff import Guest, Room
from rum500.host import HostConfig, start_host
from rum500.rules import Options
from rum500.tui.app import run_table
from rum500.tui.connection import NetSession
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel
from tests.tui.test_app import home, until  # noqa: F401  (home: fixture)


async def test_h_hands_the_table_over_and_the_screen_follows(home) -> None:  # noqa: F811
    host = await start_host(
        HostConfig(
            players=3,
            bots=1,
            host_player="Ann",
            seed=5,
            bot_level="random",
            options=Options(target=100),
            failover="off",
        )
    )
    room = Room(host)
    session = NetSession(host.address, host.port, name="Ann", token=host.token)
    session.guest_bind, session.guest_announce = "127.0.0.1", False
    await session.open()
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    model = TableModel(name="Ann")
    model.host_player.hosting = True
    model.host_player.successors = room.mover.successors
    model.host_player.hand_over = room.mover.hand_over
    try:
        with create_pipe_input() as inp:
            task = asyncio.ensure_future(run_table(session, model, input=inp, output=DummyOutput()))
            await until(lambda: model.tableview.view is not None)
            assert "H" in {k for k, _l, _f in key_bar(model)}
            assert "HOSTING" in model.help_lines()
            hand = list(model.tableview.view["hand"])
            inp.send_text("H")
            await until(lambda: model.overlay == "choose")
            assert [label for label, _a in model.choices] == ["Bea"]
            inp.send_text("1")
            await until(lambda: model.overlay == "choose" and len(model.choices) == 2)
            assert "Bea's machine" in model.choose_text  # then: keep the seat, or a bot
            inp.send_text("1")  # keep my seat
            await until(lambda: guest.host is not None and not model.host_player.hosting)
            assert "The table moved to Bea's machine." in model.feed.log
            await until(
                lambda: (
                    model.tableview.address.endswith(f":{guest.host.port}")
                    and not model.feed.banner
                )
            )
            assert sorted(model.tableview.view["hand"]) == sorted(hand)  # Ann has not played since
            assert model.tableview.my_seat == 0 and not model.host_player.hosting
            assert guest.host.server.seats[0].conn is not None  # Ann sits at the new host
            inp.send_text("q")
            await until(lambda: model.overlay == "quit")
            inp.send_text("y")
            await asyncio.wait_for(task, 10)
    finally:
        await bea.close()
        await guest.close()
        room.close()
        await host.close()
