"""What the player at the screen sees when the table changes host (issue 21).

- After a planned handoff to this machine, the screen says that it hosts the table now, the
  quit question says that leaving closes it for everyone, and ``H`` hands it on again.
- ``H`` then asks whether the host player keeps the seat or leaves it to a bot (and goes).
- A host that dies with no standby: the banner says so and how long the screen keeps trying,
  no key that would go to the host works, and when it gives up the screen goes back (the
  lobby, or the shell) saying why.

The screens are the real table screen (``play_at``, as ``rum500 join`` and the lobby run it)
on a pipe input, against real hosts on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from net.client import Client
from rum500.handoff import Guest, Room
from rum500.handoff.headless import play_seat
from rum500.host import Host, HostConfig, start_host
from rum500.rules import Options
from rum500.tui import connection, render
from rum500.tui.connection import SessionError
from rum500.tui.keys import key_bar
from rum500.tui.main import play_at
from rum500.tui.model import TableModel
from tests.tui.test_app import home, until  # noqa: F401  (home: fixture)


def keys(model: TableModel) -> set[str]:
    return {k for k, _label, _f in key_bar(model)}


class Table:
    """Ann's table (her host, a bot, Ann's seat played by a random bot through a client that
    can host and follows the table) and Bea at the table screen; Ann's host has just handed
    the table to Bea's machine (at ``port``) and everyone followed it there."""

    def __init__(self, host: Host, ann: Client, ann_guest: Guest, model: TableModel) -> None:
        self.host, self.ann, self.ann_guest, self.model = host, ann, ann_guest, model
        self.input: Any = None
        self.screen: asyncio.Task | None = None
        self.port = 0

    def keys(self, text: str) -> None:
        self.input.send_text(text)


@asynccontextmanager
async def ann_hands_the_table_to_bea() -> AsyncIterator[Table]:
    host = await start_host(
        HostConfig(
            players=3,
            bots=1,
            host_player="Ann",
            seed=5,
            bot_level="random",
            options=Options(target=300),
            failover="off",
        )
    )
    room = Room(host)
    ann = await Client.connect(host.address, host.port, name="Ann", token=host.token, can_host=True)
    t = Table(host, ann, Guest(ann, bind="127.0.0.1", announce=False), TableModel(name="Bea"))
    ann_plays: asyncio.Task | None = None
    try:
        with create_pipe_input() as inp:
            t.input = inp
            t.screen = asyncio.ensure_future(
                play_at(
                    host.address,
                    host.port,
                    name="Bea",
                    ascii=False,
                    input=inp,
                    output=DummyOutput(),
                    model=t.model,
                    guest_bind="127.0.0.1",
                    guest_announce=False,
                )
            )
            await until(
                lambda: t.model.tableview.view is not None
            )  # every seat is taken: it started
            ann_plays = asyncio.ensure_future(play_seat(ann, "random", 3, lambda _line: None))
            assert not t.model.host_player.hosting and "H" not in keys(t.model)
            assert t.model.tableview.my_seat is not None
            _addresses, t.port = await room.mover.hand_over(t.model.tableview.my_seat)
            await until(
                lambda: t.model.tableview.address.endswith(f":{t.port}") and not t.model.feed.banner
            )
            await until(lambda: ann.port == t.port and ann.lost is None)
            yield t
    finally:
        if t.screen is not None and not t.screen.done():
            t.model.exit()
        if t.screen is not None:
            with contextlib.suppress(SessionError):
                await asyncio.wait_for(t.screen, 10)
        if ann_plays is not None:
            ann_plays.cancel()
        await ann.close()
        await t.ann_guest.close()
        room.close()
        await host.close()


async def test_the_new_host_is_told_its_quit_question_says_so_and_h_hands_it_on() -> None:
    async with ann_hands_the_table_to_bea() as t:
        m = t.model
        told = (
            "You host this table now: leaving closes it for everyone; H hands it on once "
            "another player here can host."
        )
        await until(lambda: m.host_player.hosting)
        assert told in m.feed.log
        assert "you host" in "".join(text for _s, text, *_h in render.title(m))
        assert "H" in keys(m) and "HOSTING" in m.help_lines()
        t.keys("q")  # the question says what leaving does here
        await until(lambda: m.overlay == "quit")
        assert m.host_player.quit_question().startswith(
            "You host this table: leaving closes it for everyone"
        )
        t.keys("n")
        await until(lambda: m.overlay is None)

        t.keys("H")  # and the table goes on to Ann's machine, Bea keeping her seat
        await until(lambda: m.overlay == "choose")
        assert [label for label, _a in m.choices] == ["Ann"]
        t.keys("1")
        await until(lambda: m.overlay == "choose" and len(m.choices) == 2)
        assert m.choose_text == "Hand the table to Ann's machine, and your seat?"
        t.keys("1")
        await until(lambda: t.ann_guest.host is not None and not m.host_player.hosting)
        assert "The table moved to Ann's machine." in m.feed.log
        new = t.ann_guest.host
        await until(lambda: m.tableview.address.endswith(f":{new.port}") and not m.feed.banner)
        assert new.server.seats[m.tableview.my_seat].conn is not None  # Bea sits at Ann's table
        assert not new.server.seats[m.tableview.my_seat].bot
        assert "H" not in keys(m) and not m.host_player.quit_question().startswith("You host")
        assert t.screen is not None and not t.screen.done()


async def test_h_can_leave_the_seat_to_a_bot_and_the_screen_goes() -> None:
    async with ann_hands_the_table_to_bea() as t:
        m = t.model
        await until(lambda: m.host_player.hosting)
        seat = m.tableview.my_seat
        t.keys("H")
        await until(lambda: m.overlay == "choose")
        t.keys("1")
        await until(lambda: m.overlay == "choose" and len(m.choices) == 2)
        assert [label for label, _a in m.choices] == [
            "keep my seat: I play on at Ann's table",
            "leave my seat to a bot, and leave the table",
        ]
        t.keys("2")
        assert t.screen is not None
        assert await asyncio.wait_for(t.screen, 10) == 0  # the screen leaves by itself
        new = t.ann_guest.host
        assert new is not None
        assert new.server.seats[seat].bot  # a bot plays Bea's seat at Ann's table
        assert new.server.seats[seat].conn is None  # and she did not follow it there


@asynccontextmanager
async def bob_at_a_table_without_standby() -> AsyncIterator[tuple[Host, TableModel, Any, Any]]:
    """Bob at a table of two (a bot in the other seat, no failover), on his turn."""
    host = await start_host(
        HostConfig(players=2, bots=1, seed=7, bot_level="random", failover="off")
    )
    model = TableModel(name="Bob")
    with create_pipe_input() as inp:
        screen = asyncio.ensure_future(
            play_at(
                host.address,
                host.port,
                name="Bob",
                ascii=False,
                input=inp,
                output=DummyOutput(),
                model=model,
                guest_bind="127.0.0.1",
                guest_announce=False,
            )
        )
        try:
            await until(lambda: model.tableview.view is not None and model.tableview.my_turn)
            yield host, model, inp, screen
        finally:
            if not screen.done():
                model.exit()
            with contextlib.suppress(SessionError):
                await asyncio.wait_for(screen, 10)
            await host.close()


async def test_a_host_gone_without_standby_is_said_the_keys_stop_and_it_gives_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connection, "REJOIN_FOR", 3.0)  # how long it tries: 3 s, not 60
    async with bob_at_a_table_without_standby() as (host, model, inp, screen):
        assert "s" in keys(model)
        await host.abandon()  # the host's process dies: no goodbye, nothing listens
        await until(lambda: model.feed.link_down)
        assert re.fullmatch(
            r"The host is not answering — trying to rejoin for [0-3] s more",
            model.feed.banner_now(),
        ), model.feed.banner_now()
        assert keys(model) == {"?", "q"}  # no "s draw from stock" while the link is down
        inp.send_text("s")
        await until(lambda: "cannot be reached" in model.feed.message)
        assert model.sent == []  # nothing was sent
        with pytest.raises(SessionError, match="the host stopped answering: no answer for 3 s"):
            await asyncio.wait_for(screen, 30)  # … then back where it came from, saying why
        assert model.closed_by_host == (  # and what to do to play on
            "the host stopped answering: no answer for 3 s — the match is kept on the host's "
            "machine: once it hosts it again (rum500 host --resume), join that table again to "
            "take your seat back"
        )


def test_a_new_host_with_nobody_to_hand_it_to_has_no_h_yet() -> None:
    """After a failover the others may all be gone: no H on the key bar until one who can
    host is back, as the words say."""
    from rum500.tui.model import TableModel

    m = TableModel(name="Bea")
    m.host_player.host_here(lambda: [], lambda *a, **k: None, taken_over=True)
    assert m.feed.log[-1].endswith("H hands it on once another player here can host.")
    assert "H" not in keys(m)


def test_an_answer_on_the_status_line_goes_when_the_link_goes() -> None:
    """ "Wait for your turn: Bot 1 is playing." was the table's answer; with the host gone it
    no longer holds (the banner says what does)."""
    from rum500.tui.model import TableModel

    m = TableModel(name="Bob")
    m.feed.say("Wait for your turn: Bot 1 is playing.", error=True)
    m.connection_lost(until=None)
    assert m.feed.message == "" and m.feed.link_down
    assert m.feed.banner.startswith("Connection lost")
