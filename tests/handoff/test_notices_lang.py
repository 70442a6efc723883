"""What the host tells the players about failover and a failed handoff reaches a Russian
client in Russian (issue 22 §4): the lobby's ``failover.note`` and a ``notice`` carry an
English ``template`` and ``params`` beside the English sentence (docs/protocol.md §6), and
the terminal client says them in its player's language. Real host, real sockets on
loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from net.client import Client
from rum500.handoff import Guest, Room
from rum500.host import HostConfig, start_host
from rum500.i18n import N_, set_language
from rum500.rules import Options
from rum500.tui.model import TableModel
from tests.handoff.test_failover import Table
from tests.net.util import wait_for


@pytest.fixture
def russian() -> Iterator[None]:
    set_language("ru")
    yield
    set_language("en")


async def test_the_failover_note_reaches_a_russian_client_in_russian(russian: None) -> None:
    host = await start_host(
        HostConfig(players=3, bots=1, host_player="Hal", seed=21, options=Options(target=200))
    )
    room = Room(host)
    bea = await Client.connect(host.address, host.port, name="Bea", can_host=True)
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:  # two people: auto leaves failover off, and says why
        await wait_for(lambda: (bea.lobby or {}).get("failover"))
        lobby = bea.lobby
        note = lobby["failover"]
        assert note["note"].startswith("failover is off: with two people at the table")
        assert note["template"] == note["note"] and note["params"] == {}
        model = TableModel(name="Bea")
        model.apply_message(lobby)
        assert model.feed.log[-1].startswith("автоматическое восстановление выключено"), (
            model.feed.log
        )
        assert "--failover on" in model.feed.log[-1]
        assert "failover is off" not in "\n".join(model.feed.log)
    finally:
        await bea.close()
        await guest.close()
        room.close()
        await host.close()


async def test_the_armed_note_names_the_standby_in_russian(russian: None) -> None:
    table = await Table().open(["Bea", "Cy"], ann=False, bots=1)
    try:
        await table.armed()
        fo = table.room.failover
        name = table.host.server.seats[fo.standby_seat].name
        watcher = table.clients[0]
        await wait_for(
            lambda: "{name}" in (watcher.lobby or {}).get("failover", {}).get("template", "")
        )
        note = watcher.lobby["failover"]
        assert note["params"] == {"name": name}
        assert note["note"] == note["template"].format(name=name)  # old clients: English
        model = TableModel(name=watcher.name)
        model.apply_message(watcher.lobby)
        assert model.feed.log[-1] == (
            "автоматическое восстановление включено: если хозяин стола пропадёт, стол "
            f"подхватит машина игрока {name}"
        ), model.feed.log
    finally:
        await table.close()


async def test_a_handoff_failed_notice_reaches_a_russian_client_in_russian(
    russian: None,
) -> None:
    host = await start_host(HostConfig(players=2, bots=1, seed=3, options=Options(target=200)))
    ann = await Client.connect(host.address, host.port, name="Ann")
    try:
        await wait_for(lambda: ann.view is not None)
        host.notice(
            "handoff_failed",
            N_("the table stays here: the handoff failed ({why})"),
            {"why": N_("no answer")},
        )
        model = TableModel(name="Ann")

        async def notice() -> dict:
            async for msg in ann.messages():
                if msg.get("type") == "notice":
                    return msg
            raise AssertionError("the connection ended before the notice")

        msg = await asyncio.wait_for(notice(), 30)
        assert msg["text"] == "the table stays here: the handoff failed (no answer)"
        model.apply_message(msg)
        assert model.feed.notice == "стол остаётся здесь: передать его не удалось (нет ответа)"
        assert model.feed.log[-1] == model.feed.notice
    finally:
        await ann.close()
        await host.close()


def test_an_unknown_template_is_never_formatted(russian: None) -> None:
    """A template the catalog does not know (another host's) shows the sentence as sent."""
    model = TableModel(name="Ann")
    model.apply_message(
        {
            "type": "notice",
            "code": "x",
            "text": "as sent",
            "template": "{why:>999999}",
            "params": {"why": "x"},
        }
    )
    assert model.feed.notice == "as sent"
