"""The table screen as an Application: keys through a pipe input, a real host on 127.0.0.1,
assertions on the model (what is selected, what was sent, what the host applied)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500 import tokens
from rum500.host import HostConfig, start_host
from rum500.host.addresses import parse_address
from rum500.i18n import set_language
from rum500.tui.app import run_table
from rum500.tui.connection import NetSession
from rum500.tui.keys import key_bar
from rum500.tui.lobby import LobbyModel, build_lobby_app
from rum500.tui.model import TableModel


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    set_language("en")
    return tmp_path


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


@asynccontextmanager
async def lobby_screen(model: LobbyModel) -> AsyncIterator[tuple[Any, asyncio.Task]]:
    """The lobby app running on a pipe input: (input, the app's task)."""
    with create_pipe_input() as inp:
        app = build_lobby_app(model, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(app.run_async())
        await asyncio.sleep(0.05)
        yield inp, task


class Running:
    def __init__(self, host, session, model, inp, task) -> None:  # type: ignore[no-untyped-def]
        self.host, self.session, self.model, self.input, self.task = (
            host,
            session,
            model,
            inp,
            task,
        )

    def keys(self, text: str) -> None:
        self.input.send_text(text)


@asynccontextmanager
async def open_table(**config: Any) -> AsyncIterator[Running]:
    """Ann at a 2-seat table with a random bot, on a real host; the screen on a pipe input,
    running until Ann's first turn. ``config``: more HostConfig fields."""
    host = await start_host(
        HostConfig(
            players=2,
            bots=1,
            host_player="Ann",
            seed=7,
            bot_level="random",
            bot_delay=0.0,
            **config,
        )
    )
    session = NetSession(host.address, host.port, name="Ann", token=host.token)
    await session.open()
    host.start_now()
    model = TableModel(name="Ann")
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(run_table(session, model, input=inp, output=DummyOutput()))
        run = Running(host, session, model, inp, task)
        await until(lambda: model.tableview.view is not None and model.tableview.my_turn)
        try:
            yield run
        finally:
            if not task.done():
                model.exit()
                await asyncio.wait_for(task, 5)
            await host.close()


@pytest.fixture
async def table() -> AsyncIterator[Running]:
    async with open_table(deal_pause=60.0) as run:
        yield run


async def test_keys_draw_select_and_discard(table: Running) -> None:
    m = table.model
    assert m.tableview.names == ["Ann", "Bot 1"]
    table.keys("s")
    await until(lambda: m.tableview.phase == "play")
    assert m.sent == [{"type": "draw", "source": "stock"}]
    table.keys("\x1b[C\x1b[C ")  # right, right, space
    await until(lambda: len(m.selection.selected_cards()) == 1)
    chosen = m.selection.selected_cards()[0]
    assert chosen == m.tableview.hand()[2]
    table.keys("d")
    await until(lambda: len(m.sent) == 2)
    assert m.sent[-1] == {"type": "discard", "card": chosen}
    await until(lambda: {"type": "discard", "card": chosen} in table.host.table.game.actions)


async def test_r_x_and_an_unused_key_at_a_table_without_calls_say_so(table: Running) -> None:
    """Real keys on a real table (no "Rummy!" calls): r and x say the table plays without
    them (x sent a pass the host refused), z that it is no key here; nothing is sent."""
    m = table.model
    for key, said in (
        ("x", 'This table plays without "Rummy!" calls.'),
        ("z", "No key z here: the bar shows the keys for now (? lists all)."),
        ("r", 'This table plays without "Rummy!" calls.'),
    ):
        m.feed.say("")
        table.keys(key)
        await until(lambda: m.feed.message != "")
        assert m.feed.message == said
    assert m.sent == []


async def test_help_and_quit_ask_first(table: Running) -> None:
    m = table.model
    table.keys("?")
    await until(lambda: m.overlay == "help")
    table.keys("\x1b[B")  # down scrolls the help
    await until(lambda: m.help_scroll == 1)
    table.keys("?")
    await until(lambda: m.overlay is None)
    table.keys("q")
    await until(lambda: m.overlay == "quit")
    table.keys("n")
    await until(lambda: m.overlay is None)
    assert not table.task.done()
    table.keys("\x03")  # Ctrl-C asks too
    await until(lambda: m.overlay == "quit")
    table.keys("y")
    assert await asyncio.wait_for(table.task, 5) == 0


async def test_chat_reaches_the_table(table: Running) -> None:
    m = table.model
    table.keys("c")
    await until(lambda: m.overlay == "chat")
    table.keys("hello there\r")
    await until(lambda: any("hello there" in line for line in m.feed.chat_lines))
    assert m.overlay is None


async def test_token_on_disk_and_rejoin_after_a_drop(table: Running, home: Path) -> None:
    m = table.model
    saved = json.loads((home / "tokens.json").read_text())
    (entry,) = [e for e in saved.values() if e["name"] == "Ann"]
    assert (entry["token"], entry["address"]) == (table.host.token, table.session.key)
    assert entry["table_id"] == table.host.table_id  # found again by it, wherever it goes
    assert tokens.get(table.session.key, "Ann")["seat"] == 0
    assert tokens.get(table.session.key)["token"] == table.host.token
    # another player on this machine never gets Ann's token (nor her seat)
    assert tokens.get(table.session.key, "Bob") is None
    client = table.session.client
    assert client is not None
    await client.drop()  # the line goes dead under the screen
    await until(lambda: not m.feed.banner and client.lost is None and not client.closed)
    table.keys("s")
    await until(lambda: m.tableview.phase == "play")
    assert m.sent[-1] == {"type": "draw", "source": "stock"}


async def test_host_closing_the_table_is_final(table: Running) -> None:
    """The host closes the table: the screen says so and leaves (no retry loop, no stale
    s/t offers)."""
    await table.host.close()
    assert await asyncio.wait_for(table.task, 10) == 0
    assert table.model.closed_by_host == "the host closed the table"
    assert "Connection lost" not in table.model.feed.banner


async def test_a_guest_told_the_host_closed_goes_back(home: Path) -> None:
    """play_at (what join and the lobby use) ends with the reason, which the lobby shows."""
    from rum500.tui import render
    from rum500.tui.connection import SessionError
    from rum500.tui.main import play_at

    host = await start_host(HostConfig(players=3, bots=0, host_player="Ann", seed=3))
    model = TableModel(name="Bob")
    try:
        with create_pipe_input() as inp:
            task = asyncio.ensure_future(
                play_at(
                    host.address,
                    host.port,
                    name="Bob",
                    ascii=False,
                    input=inp,
                    output=DummyOutput(),
                    model=model,
                )
            )
            await until(lambda: model.tableview.lobby is not None)
            await until(lambda: model.feed.message == "")
            status = "".join(t for _s, t, *_h in render.status(model))
            assert "waiting for players" in status and "Connecting" not in status
            await host.close()
            with pytest.raises(SessionError, match="the host closed the table"):
                await asyncio.wait_for(task, 10)
    finally:
        await host.close()


def test_parse_address() -> None:
    assert parse_address("127.0.0.1:5500") == ("127.0.0.1", 5500)
    assert parse_address("[::1]:80") == ("::1", 80)
    assert parse_address("myhost:0") is None
    assert parse_address("Friday table") is None
    assert parse_address("host:99999") is None


async def test_lobby_join_by_address_form() -> None:
    model = LobbyModel("Ann")
    async with lobby_screen(model) as (inp, task):
        inp.send_text("a")
        await until(lambda: model.form_kind == "address")
        inp.send_text("nonsense\r\r\r\r")
        await until(lambda: "host:port" in model.message)
        assert model.choice is None
        inp.send_text("\x1b[A\x1b[A\x1b[A")  # back up to the address field
        await until(lambda: model.form_cursor == 0)
        for _ in range(8):
            inp.send_text("\x7f")
        inp.send_text("127.0.0.1:5599\r\r\r\r")
        await asyncio.wait_for(task, 5)
    assert model.choice == {
        "kind": "join",
        "host": "127.0.0.1",
        "port": 5599,
        "name": "Ann",
        "password": None,
        "spectate": False,
    }


async def test_lobby_host_form_changes_options() -> None:
    model = LobbyModel("Ann")
    async with lobby_screen(model) as (inp, task):
        inp.send_text("h")
        await until(lambda: model.form_kind == "host")
        inp.send_text("\x1b[B\x1b[B\x1b[D\x1b[D")  # players: 4 -> 2
        await until(lambda: model.values()["players"] == 2)
        inp.send_text("\x1b[B\x1b[C")  # bots: 0 -> 1
        await until(lambda: model.values()["bots"] == 1)
        for _ in range(len(model.form or []) - model.form_cursor):
            inp.send_text("\x1b[B")
        await until(lambda: model.form_cursor == len(model.form or []))
        inp.send_text("\r")
        await asyncio.wait_for(task, 5)
    assert model.choice is not None
    assert model.choice["kind"] == "host"
    assert (model.choice["players"], model.choice["bots"]) == (2, 1)
    assert model.choice["empty_stock"] == "play_on" and model.choice["target"] == 500


async def test_lobby_q_leaves_and_lists_tables_seen() -> None:
    from net.discovery import TableInfo

    model = LobbyModel("Ann")
    async with lobby_screen(model) as (inp, task):
        t = TableInfo(
            name="Friday",
            address="127.0.0.1",
            port=5500,
            host_player="Bo",
            seats_taken=1,
            seats_total=2,
            state="lobby",
            service="Friday._x",
        )
        model.table_seen("added", t)
        assert [x.name for x in model.table_list()] == ["Friday"]
        model.table_seen("removed", t)
        assert model.table_list() == []
        inp.send_text("q")
        await asyncio.wait_for(task, 5)
    assert model.choice is None


async def test_leave_and_join_again_takes_the_same_seat(home: Path) -> None:
    host = await start_host(HostConfig(players=2, bots=0, seed=5, bot_delay=0.0))
    try:
        first = NetSession(host.address, host.port, name="Cy")
        await first.open()
        other = NetSession(host.address, host.port, name="Di", use_saved_token=False)
        await other.open()  # both seats taken: the match starts
        seat = first.client.seat
        await until(lambda: first.client.view is not None)
        hand = first.client.view["hand"]
        await first.close()
        again = NetSession(host.address, host.port, name="Cy")  # no token given: from disk
        await again.open()
        assert again.client.seat == seat
        await until(lambda: again.client.view is not None)
        assert again.client.view["hand"] == hand
        await again.close()
        await other.close()
    finally:
        await host.close()


async def test_spectator_and_password_messages() -> None:
    from rum500.tui.connection import SessionError

    host = await start_host(
        HostConfig(players=2, bots=1, host_player="Ann", seed=2, password="sesame", bot_delay=0.0)
    )
    try:
        with pytest.raises(SessionError, match="needs a password"):
            await NetSession(host.address, host.port, name="Eve").open()
        with pytest.raises(SessionError, match="Wrong table password"):
            await NetSession(host.address, host.port, name="Eve", password="nope").open()
        watcher = NetSession(host.address, host.port, name="Eve", password="sesame", spectate=True)
        await watcher.open()
        host.start_now()
        model = TableModel(name="Eve")
        model.send, model.send_chat = watcher.act, watcher.chat
        pump = asyncio.ensure_future(watcher.pump(model))
        await until(lambda: model.tableview.view is not None)
        assert model.tableview.spectator and model.tableview.view["hand"] is None
        assert not {k for k, _l, _f in key_bar(model)} & {"s", "t", "m", "d"}
        model.draw_stock()
        assert model.sent == [] and "watching" in model.feed.message
        await watcher.close()
        pump.cancel()
    finally:
        await host.close()


async def test_hosting_waits_for_players_until_g(home: Path) -> None:
    from rum500.tui.main import host_and_play

    config = HostConfig(
        players=3,
        bots=0,
        host_player="Ann",
        seed=9,
        bot_level="random",
        bot_delay=0.0,
        table_name="Ann's table",
    )
    model = TableModel(name="Ann")
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(
            host_and_play(
                config,
                "Ann",
                False,
                interactive_start=True,
                input=inp,
                output=DummyOutput(),
                model=model,
            )
        )
        await until(lambda: model.tableview.lobby is not None and model.host_player.can_start())
        assert model.tableview.view is None and "g" in {k for k, _l, _f in key_bar(model)}
        assert [s.get("name") for s in model.tableview.lobby["seats"]] == ["Ann", None, None]
        inp.send_text("q")  # nothing at stake yet: leaves at once ...
        assert await asyncio.wait_for(task, 5) == 0

    model = TableModel(name="Ann")
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(
            host_and_play(
                config,
                "Ann",
                False,
                interactive_start=True,
                input=inp,
                output=DummyOutput(),
                model=model,
            )
        )
        await until(lambda: model.host_player.can_start())
        inp.send_text("g")  # ... g fills the free seats with bots and starts
        await until(lambda: model.tableview.view is not None)
        assert model.tableview.view["players"] == 3 and len(model.tableview.view["hand"]) == 7
        assert model.tableview.names[0] == "Ann" and all(model.tableview.names[1:])
        inp.send_text("q")
        await until(lambda: model.overlay == "quit")
        inp.send_text("y")
        assert await asyncio.wait_for(task, 5) == 0
    assert (home / "tokens.json").exists()


async def test_closing_a_waiting_room_with_guests_asks_first(home: Path) -> None:
    from net.client import Client
    from rum500.tui.main import host_and_play

    config = HostConfig(players=3, bots=0, host_player="Ann", seed=9, table_name="Ann's table")
    model = TableModel(name="Ann")
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(
            host_and_play(
                config,
                "Ann",
                False,
                interactive_start=True,
                input=inp,
                output=DummyOutput(),
                model=model,
            )
        )
        await until(lambda: model.host_player.can_start() and model.tableview.address is not None)
        host, port = parse_address(model.tableview.address)
        bob = await Client.connect(host, port, name="Bob")
        try:
            await until(lambda: model.host_player.guests_waiting)
            inp.send_text("q")  # Bob is waiting: ask before closing the table under him
            await until(lambda: model.overlay == "quit")
            assert not task.done()
            inp.send_text("n")
            await until(lambda: model.overlay != "quit")
            assert not task.done()
            inp.send_text("q")
            await until(lambda: model.overlay == "quit")
            inp.send_text("y")
            assert await asyncio.wait_for(task, 5) == 0
        finally:
            await bob.close()
