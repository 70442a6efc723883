"""Server._broadcast_state builds every frame of an update before it writes the first (the
writes then go out back to back, as the fan-out floor in bench/net.py does), and the frames
are the same bytes as when each was written as soon as built."""

from __future__ import annotations

from collections.abc import Callable

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
    """What _broadcast_state uses of a Connection: its seat, deltas, base and outlet."""

    def __init__(self, trail: list[str], seat: int | None, deltas: bool) -> None:
        self.trail, self.seat, self.deltas, self.base = trail, seat, deltas, None
        self.frames: list[bytes] = []

    def outlet(self, frame: bytes) -> Callable[[bytes], None]:
        return self.send_frame  # the server writes the frame with it, later

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


class OwnTable(Table):
    """Three seats telling their own keys apart (``own_view``): a hand each, and whose turn
    it is; ``view(seat)`` is the public part with them over it."""

    seats = 3

    def __init__(self, trail: list[str]) -> None:
        super().__init__(trail)
        self.hands = [["AS"], ["2C"], ["3D"]]

    def view(self, seat: int | None) -> dict:
        self.trail.append(f"view {seat}")
        public = {"seat": None, "turn": self.turn, "hand": None, "sizes": [1, 1, 1]}
        return public if seat is None else {**public, **self.own_view(seat)}

    def own_view(self, seat: int) -> dict:
        self.trail.append(f"own {seat}")
        return {"seat": seat, "hand": list(self.hands[seat])}


def test_seats_whose_own_keys_did_not_change_get_the_spectators_frame() -> None:
    trail: list[str] = []
    table = OwnTable(trail)
    server = Server(table, table_name="t")  # type: ignore[arg-type]
    seats = [Conn(trail, seat, True) for seat in (0, 1, 2)]
    watchers = [Conn(trail, None, True) for _ in range(2)]
    whole = Conn(trail, 1, False)  # a seat that asked for whole views
    server.conns = {*seats, *watchers, whole}  # type: ignore[assignment]
    server._broadcast_state([{"type": "deal"}], None)
    table.turn, table.hands[0] = 1, ["AS", "KH"]  # seat 0 drew: its hand and the turn change
    server._broadcast_state([{"type": "draw"}], 0)
    frames = {id(c): c.frames[1] for c in (*seats, *watchers, whole)}
    public = watchers[0].frames[1]
    # one frame for the spectators and every seat whose own keys stayed: packed once
    assert watchers[1].frames[1] is public
    assert seats[1].frames[1] is public and seats[2].frames[1] is public
    assert decode(public[HEADER.size :])["delta"] == {"turn": 1}
    mine = decode(seats[0].frames[1][HEADER.size :])
    assert mine["delta"] == {"turn": 1, "hand": ["AS", "KH"]}
    assert decode(whole.frames[1][HEADER.size :])["view"] == table.view(1)
    assert len({id(f) for f in frames.values()}) == 3  # the public one, seat 0's, the whole
    # no connection is sent another seat's hand
    for conn in (*seats, *watchers):
        held = decode(conn.frames[0][HEADER.size :])["view"]
        for frame in conn.frames[1:]:
            held |= decode(frame[HEADER.size :])["delta"]
        assert held == table.view(conn.seat)
