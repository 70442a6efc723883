"""Server._broadcast_state builds every frame of an update before it writes the first (the
writes then go out back to back, as the fan-out floor in bench/net.py does), and the frames
are the same bytes as when each was written as soon as built."""

from __future__ import annotations

from net.framing import HEADER, decode
from net.server import Server


class Table:
    """A table with no rules: a view per seat that says who asks, each build recorded."""

    seats = 2
    started = True
    finished = False
    to_move = 0

    def __init__(self, trail: list[str]) -> None:
        self.trail = trail
        self.turn = 0

    def view(self, seat: int | None) -> dict:
        self.trail.append(f"view {seat}")
        return {"seat": seat, "turn": self.turn, "public": "same for all"}

    def describe(self) -> dict:
        return {}


class Conn:
    """What _broadcast_state uses of a Connection: its seat, deltas, base and send_frame."""

    def __init__(self, trail: list[str], seat: int | None, deltas: bool) -> None:
        self.trail, self.seat, self.deltas, self.base = trail, seat, deltas, None
        self.frames: list[bytes] = []

    def send_frame(self, frame: bytes) -> None:
        self.trail.append(f"send {self.seat}")
        self.frames.append(frame)


def broadcast(deltas: bool) -> tuple[list[str], list[Conn]]:
    trail: list[str] = []
    table = Table(trail)
    server = Server(table, table_name="t")  # type: ignore[arg-type]
    conns = [Conn(trail, seat, deltas) for seat in (0, 1, None, None)]
    server.conns = set(conns)  # type: ignore[arg-type]
    server._broadcast_state([{"type": "deal"}], None)
    table.turn = 1
    server._broadcast_state([{"type": "draw"}], 0)
    return trail, conns


def test_every_frame_is_built_before_the_first_is_written() -> None:
    trail, _ = broadcast(deltas=True)
    for update in (trail[: len(trail) // 2], trail[len(trail) // 2 :]):
        kinds = [step.split()[0] for step in update]
        assert kinds == sorted(kinds, key=lambda k: k != "view"), update
        assert kinds.count("send") == 4
        assert kinds.count("view") == 3  # once per seat and once for the spectators


def test_each_connection_gets_its_own_view_then_its_delta() -> None:
    for deltas in (True, False):
        _, conns = broadcast(deltas)
        for conn in conns:
            first, second = (decode(f[HEADER.size :]) for f in conn.frames)
            assert first["view"] == {"seat": conn.seat, "turn": 0, "public": "same for all"}
            assert (first["seq"], second["seq"], second["by"]) == (1, 2, 0)
            if deltas:
                assert second["delta"] == {"turn": 1} and "view" not in second
            else:
                assert second["view"]["turn"] == 1
        spectators = [c for c in conns if c.seat is None]
        assert spectators[0].frames[1] is spectators[1].frames[1]  # packed once per audience
