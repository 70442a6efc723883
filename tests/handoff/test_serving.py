"""rum500.handoff.serving: the one place a table is served — host, game log and handoff room
assembled, and taken down in order (room, host, log); a host that cannot start closes the
log too."""

from __future__ import annotations

import pytest

from rum500.handoff import Room
from rum500.handoff.serving import ClosingLog, Served, serving
from rum500.host import Host, HostConfig
from rum500.rules import Options


class Log:
    """A game log that records what is called on it, and its closing."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    def start_match(self, info: dict) -> None:
        self.calls.append("start_match")

    def record(self, seq: int, seat: int | None, action: dict) -> None: ...
    def take_back(self, seq: int) -> None: ...
    def seats(self, seats: list[dict]) -> None: ...
    def finish(self, winner: int | None, totals: list[int]) -> None: ...

    def close(self) -> None:
        self.calls.append("log closed")


def config(**kw: object) -> HostConfig:
    return HostConfig(
        bind="127.0.0.1", players=2, bot_level="random", seed=3, options=Options(target=100), **kw
    )  # type: ignore[arg-type]


async def test_serving_assembles_host_room_and_log_and_closes_them_in_order() -> None:
    calls: list[str] = []
    log = Log(calls)
    assert isinstance(log, ClosingLog)
    async with serving(config(journal=log)) as served:
        assert isinstance(served, Served)
        assert isinstance(served.host, Host) and isinstance(served.room, Room)
        assert served.room.host is served.host and served.host.port > 0
        room_close, host_close = served.room.close, served.host.close

        def closing_room() -> None:
            calls.append("room closed")
            room_close()

        async def closing_host() -> None:
            calls.append("host closed")
            await host_close()

        served.room.close = closing_room  # type: ignore[method-assign]
        served.host.close = closing_host  # type: ignore[method-assign]
    assert calls == ["room closed", "host closed", "log closed"]


async def test_a_host_that_cannot_start_closes_its_log() -> None:
    calls: list[str] = []
    with pytest.raises(ValueError):
        async with serving(config(bots=3, journal=Log(calls))):
            pytest.fail("a table of 2 with 3 bots must not start")
    assert calls == ["log closed"]


async def test_an_error_inside_still_takes_everything_down() -> None:
    calls: list[str] = []
    with pytest.raises(RuntimeError):
        async with serving(config(journal=Log(calls))) as served:
            host = served.host
            raise RuntimeError("the screen failed")
    assert calls == ["log closed"] and host._closed and served.room.closed


async def test_serving_attaches_the_game_log_before_the_host_and_closes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``keep_log``: the game log is attached inside serving (a new match), its line said
    before the host starts (an empty log file is noted), and closed on the way out."""
    import rum500.handoff.serving as serving_module
    from rum500.store import Journal
    from rum500.store.db import db_path

    db_path().parent.mkdir(parents=True, exist_ok=True)
    db_path().write_bytes(b"")  # a log cut to nothing: serving says so
    notes: list[tuple[str, object]] = []
    start = serving_module.start_host

    async def starting(config: HostConfig, sock: object = None) -> Host:
        notes.append(("host started", config.journal))
        return await start(config, sock=sock)  # type: ignore[arg-type]

    monkeypatch.setattr(serving_module, "start_host", starting)
    table = config()
    async with serving(
        table, keep_log=True, on_note=lambda note: notes.append((note, table.journal))
    ) as served:
        journal = table.journal
        assert isinstance(journal, Journal) and served.host.config.journal is journal
        closing = journal.close
        closed: list[bool] = []
        journal.close = lambda: (closed.append(True), closing())[1]  # type: ignore[method-assign]
    assert [n for n, _log in notes][1:] == ["host started"] and "was empty" in notes[0][0]
    assert notes[0][1] is notes[1][1] is journal  # attached, said, then the host started
    assert closed == [True]


async def test_a_match_that_cannot_be_resumed_starts_nothing() -> None:
    from rum500.configs import ResumeAsk
    from rum500.store import StoreError

    table = config()
    with pytest.raises(StoreError):
        async with serving(table, keep_log=True, resume=ResumeAsk("host", "999")):
            pytest.fail("no match 999 to resume: nothing may be served")
    assert table.journal is None


async def test_without_keep_log_the_config_journal_is_used_as_it_is() -> None:
    calls: list[str] = []
    table = config(journal=Log(calls))
    async with serving(table, on_note=calls.append) as served:
        assert served.host.config.journal is table.journal
    assert calls == ["log closed"]
