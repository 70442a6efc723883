"""Host.document() and Host.log_note(): what the handoff room reads of a table to build its
document, and how it writes a line into the game log — through the Host's public surface,
never its fields (handoff/document.py and planned.py)."""

from __future__ import annotations

from collections.abc import Callable

from rum500.handoff.document import FORMAT, VERSION, table_document
from rum500.host.gamelog import MatchLog
from tests.net.util import wait_for


class Log:
    """A game log that knows its match and keeps lines (a MatchLog)."""

    def __init__(self) -> None:
        self.meta = {"uid": "u-1", "created_at": "2026-01-02T03:04:05+00:00"}
        self.notes: list[str] = []

    def start_match(self, info: dict) -> None: ...
    def record(self, seq: int, seat: int | None, action: dict) -> None: ...
    def take_back(self, seq: int) -> None: ...
    def seats(self, seats: list[dict]) -> None: ...
    def finish(self, winner: int | None, totals: list[int]) -> None: ...

    def note(self, text: str) -> None:
        self.notes.append(text)


async def test_the_document_of_a_table_as_it_stands(make_host: Callable) -> None:
    log = Log()
    assert isinstance(log, MatchLog)
    host = await make_host(players=3, bots=1, host_player="Ann", journal=log, password="pw")
    assert host.document() is None  # the match has not started
    host.start_now()
    await wait_for(lambda: host.game() is not None)
    table = host.document()
    assert table is not None
    game = host.game()
    assert (table["table"], table["table_id"]) == (host.table_name, host.table_id)
    assert (table["players"], table["seed"], table["deck"]) == (3, game.seed, game.first_deck)
    assert table["options"] == game.options.to_dict()
    assert table["actions"] == [dict(a) for a in game.actions]
    assert table["action_seats"] == host.action_seats()
    assert [s["name"] for s in table["seats"]] == [s.name for s in host.seats()]
    assert table["seats"][0]["token"] == host.token
    assert table["config"]["password"] == "pw" and table["config"]["bot_level"] == "random"
    assert table["match"] == log.meta and table["chat"] == host.chat()
    assert table["windows"] == host.windows()
    document = table_document(host)
    assert document == {"format": FORMAT, "version": VERSION, **table}
    assert list(document)[:4] == ["format", "version", "table", "table_id"]


async def test_a_log_without_its_match_gives_none_and_takes_no_note(make_host: Callable) -> None:
    host = await make_host(players=2, bots=2)
    host.start_now()
    await wait_for(lambda: host.game() is not None)
    assert host.document()["match"] == {"uid": None, "created_at": None}  # type: ignore[index]
    host.log_note("handed over")  # no game log: nothing to write, no error


async def test_log_note_writes_into_a_log_that_keeps_lines(make_host: Callable) -> None:
    log = Log()
    host = await make_host(players=2, bots=2, journal=log)
    host.log_note("handed over to Bea at 127.0.0.1 port 5500")
    assert log.notes == ["handed over to Bea at 127.0.0.1 port 5500"]
