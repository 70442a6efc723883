"""Hidden information: every frame every client receives, over many whole games, holds no
card that its seat could not see at that moment.

The ground truth comes from the host's game, snapshotted (through the journal hook) after the
start and after every action. Per seat and per hand we keep the cards it has been allowed to
see so far: its own hand, and every card that has been on the discard pile or on a meld. A
card named anywhere in a frame — views and events alike — must be among those, except in the
score sheet of a finished hand (``hand_end`` events, ``results``, ``last_hand``), where every
hand is public (checked against the true hands at the end of that hand), and the draw for the
first dealer (``lot``: cards turned face up from a pack that is shuffled again to deal).
"""

from __future__ import annotations

import asyncio
import bisect
import re

import pytest

from net.client import Client
from net.framing import decode
from rum500.rules import Options
from tests.net.util import play_as_bot, wait_for

CARD = re.compile(r"^(10|[2-9AJQK])[SHDC]$")
PUBLIC_SHEETS = ("results", "last_hand", "lot")  # score sheets; the draw for the first deal


def cards_in(obj: object, out: set[str]) -> set[str]:
    if isinstance(obj, str):
        if CARD.match(obj):
            out.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            cards_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            cards_in(v, out)
    return out


class Snapshots:
    """Journal hook: what each seat (and a spectator, key None) may have seen, per state."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.host = None
        self.allowed: list[dict] = []  # per snapshot
        self.hands: list[list[list[str]]] = []  # the true hands, per snapshot
        self.seqs: list[int] = []  # the state seq each snapshot is first sent with
        self._seen: dict = {}
        self._hand = 0

    def _snap(self) -> None:
        game = self.host.table.game
        if game.hand_number != self._hand:
            self._hand = game.hand_number
            self._seen = {s: set() for s in [*range(self.players), None]}
        public = set(game.view(None)["discard_pile"])
        for m in game.melds:
            public |= cards_in(m.to_dict()["cards"], set())
        for s in self._seen:
            self._seen[s] |= public
            if s is not None:
                self._seen[s] |= set(game.view(s)["hand"])
        self.allowed.append({s: set(v) for s, v in self._seen.items()})
        self.hands.append([game.view(s)["hand"] for s in range(self.players)])
        self.seqs.append(self.host.server.seq + 1 if self.host else 1)  # the coming update

    def index(self, seq: int) -> int:
        """The snapshot of state ``seq`` (an update with no action, e.g. a player's
        ``ready`` during the hand-end review, shows the position of the one before)."""
        return bisect.bisect_right(self.seqs, seq) - 1

    def start_match(self, info: dict) -> None:
        self._snap()

    def record(self, seq: int, seat: int, action: dict) -> None:
        self._snap()

    def seats(self, seats: list) -> None: ...

    def finish(self, winner: object, totals: object) -> None: ...


def check_frame(msg: dict, seat: int | None, snaps: Snapshots) -> int:
    """Assert ``msg`` (received by ``seat``) leaks nothing; return the cards checked."""
    if msg["type"] != "state":
        assert not cards_in(msg, set()), msg  # lobby, chat, welcome …: no cards at all
        return 0
    k = snaps.index(msg["seq"])
    allowed = snaps.allowed[k]
    view = dict(msg["view"])
    for key in PUBLIC_SHEETS:
        view.pop(key, None)
    if seat is not None:
        assert view["hand"] == snaps.hands[k][seat]
    else:
        assert view["hand"] is None
    live_events = [e for e in msg["events"] if e["type"] != "hand_end"]
    named = cards_in(view, set()) | cards_in(live_events, set())
    leaked = named - allowed[seat]
    assert not leaked, f"seat {seat} got {sorted(leaked)} in state {msg['seq']}"
    for e in msg["events"]:
        if e["type"] == "hand_end":  # the score sheet: the hands as they were at the end
            assert e["hands"] == snaps.hands[k]
    return len(named)


@pytest.mark.parametrize("players,bots,games", [(2, 0, 6), (3, 1, 6), (5, 2, 3)])
async def test_no_frame_holds_a_card_the_seat_may_not_see(make_host, players, bots, games):
    checked = 0
    for g in range(games):
        snaps = Snapshots(players)
        host = await make_host(
            players=players, bots=bots, seed=1000 + g, journal=snaps, options=Options(target=120)
        )
        snaps.host = host
        recorded: dict[int, list[bytes]] = {}
        humans = []
        for i in range(players - bots):
            frames: list[bytes] = []
            c = await Client.connect(host.address, host.port, name=f"P{i}", trace=frames.append)
            recorded[c.seat] = frames
            humans.append(c)
        spectator_frames: list[bytes] = []
        watcher = await Client.connect(
            host.address, host.port, name="W", spectate=True, trace=spectator_frames.append
        )
        await asyncio.wait_for(
            asyncio.gather(*(play_as_bot(c, seed=g * 10 + i) for i, c in enumerate(humans))), 60
        )
        await wait_for(lambda: watcher.seq == host.server.seq)  # noqa: B023
        for seat, frames in [*recorded.items(), (None, spectator_frames)]:
            assert frames
            for raw in frames:
                checked += check_frame(decode(raw[4:]), seat, snaps)
        for c in [*humans, watcher]:
            await c.close()
        await host.close()
    assert checked > 10_000  # the check really looked at cards


def test_the_check_catches_a_leak():
    """Guard: a frame naming an opponent's card fails the check."""
    snaps = Snapshots(2)
    snaps.allowed = [{0: {"AS", "2S"}, 1: {"KH"}, None: set()}]
    snaps.hands = [[["AS", "2S"], ["KH"]]]
    snaps.seqs = [1]
    leaky = {
        "type": "state",
        "seq": 1,
        "events": [],
        "view": {"hand": ["AS", "2S"], "discard_pile": [], "other": ["KH"]},
    }
    with pytest.raises(AssertionError, match="KH"):
        check_frame(leaky, 0, snaps)
    leaky["view"]["other"] = []
    check_frame(leaky, 0, snaps)
