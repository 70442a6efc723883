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
