"""The table reads the host through a narrow port (HostPort: seats, table id, notices) given
at construction — it holds no server — and the game log's warnings reach the players through
the WarningLog Protocol."""

from __future__ import annotations

from dataclasses import dataclass, field

from net.server import Seat
from rum500.host import HostConfig
from rum500.host.gamelog import GameLog, WarningLog
from rum500.host.table import GameTable, HostPort


@dataclass
class FakeHost:
    """A hand-made HostPort: two seats, a table id, the notices it was asked to send."""

    table_id: str = "feedc0ffee123456"
    seated: list[Seat] = field(default_factory=lambda: [Seat(0), Seat(1)])
    notices: list[tuple[str, str]] = field(default_factory=list)

    def seats(self) -> list[Seat]:
        return self.seated

    def notice(self, code: str, text: str) -> None:
        self.notices.append((code, text))


def test_the_table_reads_seats_id_and_notices_through_its_port() -> None:
    port = FakeHost()
    port.seated[0].name, port.seated[0].token, port.seated[0].conn = "Ann", "t", object()  # type: ignore[assignment]
    port.seated[1].name, port.seated[1].token, port.seated[1].bot = "Bot 1", "u", True
    table = GameTable(HostConfig(players=2, seed=1), "t", host=port)
    typed: HostPort = port  # the type checker's proof that FakeHost is a port
    assert typed is port
    assert not hasattr(table, "server")
    assert table.humans() == [0]  # the connected human, not the bot
    table.start([s.record() for s in port.seated])
    assert table.match_info([s.record() for s in port.seated])["table_id"] == port.table_id
    table.log_trouble("the game log failed")
    table.log_trouble("again")  # once, until the log works again
    assert port.notices == [("log_failed", "the game log failed")]


def test_a_table_alone_has_no_one_seated_and_says_nothing() -> None:
    table = GameTable(HostConfig(players=2, seed=1), "t")
    assert table.humans() == [] and table.takeover() == [None, None]
    table.log_trouble("nobody hears this")  # no port: no notice, no error


class WarningJournal:
    """A game log that never raises: it reports its trouble to on_warning."""

    def __init__(self) -> None:
        self.on_warning = None
        self.said: list[str] = []

    def start_match(self, info: dict) -> None: ...
    def record(self, seq: int, seat: int | None, action: dict) -> None: ...
    def take_back(self, seq: int) -> None: ...
    def seats(self, seats: list[dict]) -> None: ...
    def finish(self, winner: int | None, totals: list[int]) -> None: ...


async def test_a_log_warning_becomes_a_notice_after_its_own_handler(make_host) -> None:  # noqa: ANN001
    journal = WarningJournal()
    before: list[str] = []
    journal.on_warning = before.append  # type: ignore[assignment]
    assert isinstance(journal, WarningLog)
    log: GameLog = journal
    host = await make_host(players=2, journal=log)
    sent: list[dict] = []
    host.broadcast = sent.append  # what Host.notice sends with params; plain notices below
    told: list[tuple[str, str]] = []
    host.server.notice = lambda code, text: told.append((code, text))
    journal.on_warning("disk full")  # type: ignore[misc]
    assert before == ["disk full"]
    assert told == [("log_failed", "disk full")]
