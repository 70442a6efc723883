"""Hidden information: every frame every client receives — each seat's and a spectator's —
over whole matches with digs into the discard pile and a host that goes away and is resumed
mid-match, holds no card its seat could not see at that moment.

The ground truth is the host's :class:`Game` itself (its full state, ``Game.to_dict``, never a
view), snapshotted through the journal hook after the start and after every action. Per seat
and per hand the test keeps the cards the seat has been allowed to see so far: its own hand,
and every card that has been on the discard pile or on a meld. EVERY key of every frame is
checked — nothing is stripped first — with three keys held to stricter rules instead:

* ``lot`` (the cards turned face up to choose the first dealer) must be exactly the game's;
* ``last_hand``, the ``hand_end`` event and any score line that holds ``hands`` must be the
  sheet of a hand that has really ended, its ``hands`` exactly the true hands at that end;
  only then are those hands public;
* ``hand`` must be exactly the seat's true hand (``None`` for a spectator).

A card named anywhere else (a value or a key, however deep) must be one the seat may see.
"""

from __future__ import annotations

import asyncio
import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from net.client import Client, ConnectionLost
from net.client import Client as NetClient
from net.framing import decode
from net.protocol import apply_state
from rum500.client import RumClient
from rum500.rules import Game, Options
from tests.net.util import play_as_bot, wait_for

CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]$")


def cards_in(obj: object, out: set[str] | None = None) -> set[str]:
    """Every card named in ``obj``: in strings, lists, map values and map keys."""
    out = set() if out is None else out
    if isinstance(obj, str):
        if CARD.match(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            cards_in(k, out)
            cards_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            cards_in(v, out)
    return out


class Snapshots:
    """Journal hook: the truth after every action, from the host's game state."""

    def __init__(self, players: int, carry: Snapshots | None = None) -> None:
        self.players = players
        self.game: Game | None = None  # set for a resumed host (its game exists before start)
        self.host = None
        self.seqs: list[int] = []  # the first state seq each snapshot is shown in
        self.allowed: list[dict] = []  # per snapshot: seat (None: spectator) -> cards
        self.hands: list[list[list[str]]] = []  # per snapshot: every seat's true hand
        self.hand_numbers: list[int] = []
        self.ended: dict[int, list[list[str]]] = dict(carry.ended) if carry else {}
        self.lot: object = carry.lot if carry else None
        self._seen: dict = dict(carry._seen) if carry else {}
        self._hand = carry._hand if carry else 0
        self.actions = 0

    def _state(self) -> dict:
        game = self.host.table.game if self.host is not None else self.game
        assert game is not None
        return game.to_dict()

    def _snap(self, seq: int) -> None:
        state = self._state()
        hand_number = state["hand_number"]
        if hand_number != self._hand:
            self._hand = hand_number
            self._seen = {s: set() for s in [*range(self.players), None]}
        public = set(state["discard_pile"]) | cards_in(state["melds"])
        for s in self._seen:
            self._seen[s] = self._seen[s] | public
            if s is not None:
                self._seen[s] |= set(state["hands"][s])
        if state["phase"] in ("hand_over", "game_over"):
            self.ended[hand_number] = [list(h) for h in state["hands"]]
        self.lot = state["lot"]
        self.seqs.append(seq)
        self.allowed.append({s: frozenset(v) for s, v in self._seen.items()})
        self.hands.append([list(h) for h in state["hands"]])
        self.hand_numbers.append(hand_number)

    def _coming(self) -> int:
        return self.host.server.seq + 1 if self.host is not None else 0

    def start_match(self, info: dict) -> None:
        # a fresh match is first shown in update 1; a resumed one in the welcome state (0)
        self._snap(self.host.server.seq + 1 if self.host is not None else 0)

    def record(self, seq: int, seat: int, action: dict) -> None:
        self.actions += 1
        self._snap(self._coming())

    def take_back(self, seq: int) -> None:
        self._snap(self._coming())

    def seats(self, seats: list) -> None: ...

    def finish(self, winner: object, totals: object) -> None: ...

    def index(self, seq: int) -> int:
        """The snapshot shown in state ``seq`` (an update with no action — a player's
        ``ready`` — shows the position of the one before)."""
        k = bisect.bisect_right(self.seqs, seq) - 1
        assert k >= 0, f"state {seq} came before the match started"
        return k


def check_sheet(sheet: object, snaps: Snapshots, hand_number: int) -> set[str]:
    """A score sheet (``last_hand``, ``hand_end``, a score line with hands): it must be the
    sheet of a hand that has ended by now, with exactly the true hands at that end. Returns
    the cards it may show."""
    assert isinstance(sheet, dict), sheet
    if "hands" not in sheet:
        return set()
    hand = sheet.get("hand")
    assert hand in snaps.ended and hand <= hand_number, f"a sheet of hand {hand} in play"
    assert sheet["hands"] == snaps.ended[hand], f"the sheet of hand {hand} shows other hands"
    return cards_in(sheet["hands"])


def check_frame(msg: dict, seat: int | None, snaps: Snapshots) -> int:
    """Assert ``msg`` (received by ``seat``) leaks nothing; return how many cards it named."""
    if msg.get("type") != "state":
        named = cards_in(msg)
        assert not named, f"a {msg.get('type')!r} message names {sorted(named)}"
        return 0
    k = snaps.index(msg["seq"])
    allowed = snaps.allowed[k][seat]
    hand_number = snaps.hand_numbers[k]
    view, events = msg["view"], msg["events"]
    named = cards_in(msg)
    public: set[str] = set()
    # the strict keys
    assert view["hand"] == (snaps.hands[k][seat] if seat is not None else None), (
        f"seat {seat}'s hand in state {msg['seq']}"
    )
    assert view["lot"] == snaps.lot
    public |= cards_in(view["lot"])
    if view["last_hand"] is not None:
        public |= check_sheet(view["last_hand"], snaps, hand_number)
    else:
        assert all(h >= hand_number for h in snaps.ended), "no last_hand after a hand ended"
    for line in view["results"]:
        public |= check_sheet(line, snaps, hand_number)
    for e in events:
        if e.get("type") == "hand_end":
            public |= check_sheet(e, snaps, hand_number)
    # and every other card anywhere in the frame
    leaked = named - allowed - public
    assert not leaked, f"seat {seat} got {sorted(leaked)} in state {msg['seq']}"
    return len(named)


def check_reveal(msg: dict, seat: int | None, snaps: Snapshots, k: int) -> int:
    """A ``reveal`` (docs/protocol.md §17) comes after its hand ended, and names no card the
    seat could not see by then: its own cards, the discard pile's and the melds' so far, and
    the hands shown on the sheet."""
    hand = msg.get("hand")
    assert hand in snaps.ended and snaps.hand_numbers[k] >= hand, f"a reveal of hand {hand} in play"
    named = cards_in(msg)
    leaked = named - snaps.allowed[k][seat] - cards_in(snaps.ended[hand])
    assert not leaked, f"seat {seat} got {sorted(leaked)} in the reveal of hand {hand}"
    return len(named)


@dataclass
class Segment:
    """One host's life: its snapshots and the raw frames each connection received."""

    snaps: Snapshots
    frames: dict = field(default_factory=dict)  # seat (None: the spectator) -> [bytes]
    reveals: int = 0  # reveal frames checked

    def check(self) -> int:
        checked = 0
        for seat, frames in self.frames.items():
            assert frames, f"seat {seat} received nothing"
            view, seq = None, 0
            for raw in frames:
                msg = decode(raw[4:])
                if msg.get("type") == "state":  # the delta as sent is checked too (in msg)
                    view = apply_state(view, seq, msg)
                    assert view is not None, f"state {msg['seq']} cannot be rebuilt"
                    msg, seq = {**msg, "view": view}, msg["seq"]
                if msg.get("type") == "reveal":  # after the state that ended its hand
                    checked += check_reveal(msg, seat, self.snaps, self.snaps.index(seq))
                    self.reveals += 1
                    continue
                checked += check_frame(msg, seat, self.snaps)
        return checked


def start_playing(humans: list[Client], seed: int) -> list[asyncio.Task]:
    """The humans play with bots until game over (or until their host goes away)."""
    return [asyncio.create_task(play_as_bot(c, seed=seed + i)) for i, c in enumerate(humans)]


async def one_match(
    make_host,
    players: int,
    bots: int,
    seed: int,
    cut: Callable[[Game], bool] | None,
    committed: bool = False,
) -> dict:
    """A whole match, its host closed as soon as ``cut(game)`` holds and resumed from the
    actions played (``cut`` None: no resume). Returns counts of what was checked.
    ``committed``: no fixed seed and clients that check deals (commit, contribute, reveal)."""
    options = Options(target=300)
    first = Segment(Snapshots(players))
    Client = RumClient if committed else NetClient  # noqa: N806
    host = await make_host(
        players=players,
        bots=bots,
        seed=None if committed else seed,
        journal=first.snaps,
        options=options,
    )
    first.snaps.host = host
    digs: list[dict] = []  # draws of more than one card from the discard pile

    def count_digs(by: int | None, events: list[dict]) -> None:
        digs.extend(e for e in events if e["type"] == "draw" and len(e.get("cards") or []) > 1)

    host.server.on_events.append(count_digs)
    humans: list[Client] = []
    for i in range(players - bots):
        got: list[bytes] = []
        c = await Client.connect(host.address, host.port, name=f"P{i}", trace=got.append)
        first.frames[c.seat] = got
        humans.append(c)
    watched: list[bytes] = []
    first.frames[None] = watched
    watcher = await Client.connect(
        host.address, host.port, name="W", spectate=True, trace=watched.append
    )
    await wait_for(lambda: host.table.game is not None)
    game = host.table.game
    segments = [first]
    playing = start_playing(humans, seed * 10)
    if cut is None:
        await asyncio.wait_for(asyncio.gather(*playing), 60)
    else:
        await wait_for(lambda: cut(game) or game.winner is not None, 60)
        assert game.winner is None, "the match ended before the cut"
        await host.close()  # the host goes away mid-match: the players are told so
        ends = await asyncio.wait_for(asyncio.gather(*playing, return_exceptions=True), 10)
        assert all(isinstance(e, ConnectionLost) and e.code == "shutdown" for e in ends), ends
        tokens = {c.seat: c.token for c in humans}
        seats = [s.record() for s in host.server.seats]
        for c in [*humans, watcher]:
            await c.close()
        # resume from the actions played, as `rum500 host --resume` does from the log
        second = Segment(Snapshots(players, carry=first.snaps))
        restored = Game.replay(players, game.seed, list(game.actions), options)
        assert restored.to_dict() == game.to_dict()
        second.snaps.game = restored
        host = await make_host(
            resume_game=restored, resume_seats=seats, journal=second.snaps, options=options
        )
        second.snaps.host = host
        host.server.on_events.append(count_digs)
        humans = []
        for seat, token in tokens.items():
            got = []
            c = await Client.rejoin(host.address, host.port, token, trace=got.append)
            assert c.seat == seat
            second.frames[seat] = got
            humans.append(c)
        watched = []
        second.frames[None] = watched
        watcher = await Client.connect(
            host.address, host.port, name="W", spectate=True, trace=watched.append
        )
        segments.append(second)
        game = host.table.game
        await asyncio.wait_for(asyncio.gather(*start_playing(humans, seed * 10 + 5)), 60)
    assert game.phase.value == "game_over"
    await wait_for(lambda: watcher.seq == host.server.seq)
    for c in [*humans, watcher]:
        await c.close()
    checked = sum(s.check() for s in segments)
    await host.close()
    reveals = sum(s.reveals for s in segments)
    return {"checked": checked, "digs": len(digs), "hands": game.hand_number, "reveals": reveals}


CUTS = [
    None,  # a whole match on one host
    lambda game: len(game.actions) >= 35,  # cut in the first hand, resumed
    lambda game: game.hand_number >= 2 and len(game.melds) >= 2,  # cut in a later hand
]


@pytest.mark.parametrize(
    "players,bots", [(2, 0), (3, 1), (5, 2)], ids=["2p", "3p-1bot", "5p-2bots"]
)
async def test_no_frame_holds_a_card_the_seat_may_not_see(make_host, players, bots):
    results = [
        await one_match(make_host, players, bots, 1000 + 10 * players + m, cut)
        for m, cut in enumerate(CUTS)
    ]
    assert sum(r["checked"] for r in results) > 5_000  # the check really looked at cards
    assert sum(r["digs"] for r in results) > 0  # digs into the discard pile were played
    assert any(r["hands"] > 1 for r in results)  # sheets of ended hands were shown


async def test_committed_deals_leak_nothing_before_the_hands_end(make_host):
    """The same with committed deals: every frame of every seat and the spectator, the
    ``commit`` and ``reveal`` frames included, across a resume mid-hand."""
    results = [
        await one_match(make_host, 3, 1, 1100 + m, cut, committed=True)
        for m, cut in enumerate(CUTS[:2])
    ]
    assert sum(r["checked"] for r in results) > 2_000
    assert sum(r["reveals"] for r in results) >= 2  # reveals were sent and checked


def test_the_check_catches_a_leak():
    """Guard: an opponent's card anywhere in a frame — any key, even a score sheet key or a
    map key — fails the check; a score sheet with live hands fails too."""
    snaps = Snapshots(2)
    snaps.seqs = [1]
    snaps.allowed = [
        {0: frozenset({"AS", "2S", "9D"}), 1: frozenset({"KH", "9D"}), None: frozenset({"9D"})}
    ]
    snaps.hands = [[["AS", "2S"], ["KH"]]]
    snaps.hand_numbers = [2]
    snaps.ended = {1: [["QC"], ["3D", "4D"]]}
    snaps.lot = {"rounds": [[[0, "5C"], [1, "6C"]]], "dealer": 0}

    def frame(**view: object) -> dict:
        base = {
            "hand": ["AS", "2S"],
            "discard_pile": ["9D"],
            "phase": "play",
            "lot": snaps.lot,
            "last_hand": {"hand": 1, "hands": [["QC"], ["3D", "4D"]]},
            "results": [{"hand": 1, "scores": [5, -5]}],
        }
        return {"type": "state", "seq": 1, "events": [], "view": {**base, **view}}

    check_frame(frame(), 0, snaps)  # the honest frame passes
    leaks = [
        frame(other=["KH"]),
        frame(nested={"deep": [{"x": "KH"}]}),
        frame(keyed={"KH": 1}),
        frame(last_hand={"hand": 2, "hands": [["AS", "2S"], ["KH"]]}),  # live hands as a sheet
        frame(last_hand={"hand": 1, "hands": [["QC"], ["KH"]]}),  # a wrong sheet
        frame(results=[{"hand": 1, "scores": [5, -5], "hands": [["AS"], ["KH"]]}]),
        frame(lot={"rounds": [[[0, "KH"]]], "dealer": 0}),
        frame(hand=["AS", "2S", "KH"]),
    ]
    for leaky in leaks:
        with pytest.raises(AssertionError):
            check_frame(leaky, 0, snaps)
    with pytest.raises(AssertionError):
        check_frame({"type": "chat", "text": "hi", "card": "KH"}, 0, snaps)
    spectator = frame(hand=None)
    check_frame(spectator, None, snaps)
    with pytest.raises(AssertionError):
        check_frame(frame(hand=None, shown=["AS"]), None, snaps)


async def test_a_closed_host_ends_the_session_as_shutdown(make_host):
    """The cut in the resume matches: the clients are told ``shutdown`` (not a crash)."""
    host = await make_host(players=2, bots=1)
    c = await Client.connect(host.address, host.port, name="P")
    await wait_for(lambda: c.view is not None)
    await host.close()
    with pytest.raises(ConnectionLost) as lost:
        async for _ in c.messages():
            pass
    assert lost.value.code == "shutdown"
    await c.close()
