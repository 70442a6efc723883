"""Hidden information over the shoulder (docs/protocol.md §12): a seat shows its hand to one
spectator while a whole match is played. Every frame every connection receives is checked
as tests/net/test_hidden.py checks them, against the host's own game state:

* the spectator shown a hand gets it under ``shoulder`` — exactly that seat's true hand at
  every update while it lasts, and nothing else private (the rest of its frame is checked as
  a spectator's);
* no other spectator and no other seat ever gets a ``shoulder`` or a card it may not see;
* after it ends — the seat ends it, the spectator leaves, the match ends — the spectator is
  sent no ``shoulder`` and no card of that hand.
"""

from __future__ import annotations

import asyncio

from net.client import Client
from net.framing import decode
from net.protocol import apply_state
from rum500.rules import Options
from tests.net.test_hidden import Snapshots, check_frame, start_playing
from tests.net.util import wait_for


def stripped(msg: dict) -> dict:
    """``msg`` (a whole-view ``state``) without the ``shoulder`` key, in the view and in the
    delta as sent."""
    out = {**msg, "view": {k: v for k, v in msg["view"].items() if k != "shoulder"}}
    if isinstance(msg.get("delta"), dict):
        out["delta"] = {k: v for k, v in msg["delta"].items() if k != "shoulder"}
    return out


def check_frames(
    frames: list[bytes], seat: int | None, snaps: Snapshots, shown: dict[int, int]
) -> tuple[int, int]:
    """Check one connection's frames; ``shown``: seq → the seat whose hand this connection
    may be shown in that update (the host's word, noted as each update went out). Returns
    (cards checked, updates that showed a hand)."""
    view, seq, checked, showing = None, 0, 0, 0
    for raw in frames:
        msg = decode(raw[4:])
        if msg.get("type") != "state":
            checked += check_frame(msg, seat, snaps)
            continue
        view = apply_state(view, seq, msg)
        assert view is not None, f"state {msg['seq']} cannot be rebuilt"
        msg, seq = {**msg, "view": view}, msg["seq"]
        got = view.get("shoulder")
        may = shown.get(seq)
        if got is None:
            assert "shoulder" not in (msg.get("delta") or {})
        else:
            assert may is not None, f"{seat} was shown {got} in state {seq}"
            k = snaps.index(seq)
            assert got["seat"] == may and got["hand"] == snaps.hands[k][may], (
                f"state {seq}: shown {got['hand']}, seat {may} holds {snaps.hands[k][may]}"
            )
            listed = [(s["seat"], s["name"]) for s in view["shoulders"]]
            assert (may, "Bea" if may == 0 else "Cid") in listed
            showing += 1
        if may is not None and view["phase"] not in ("game_over",):
            assert got is not None, f"state {seq}: the hand of seat {may} is missing"
        checked += check_frame(stripped(msg), seat, snaps)
    return checked, showing


async def test_only_the_named_spectator_sees_the_hand_and_only_while_it_lasts(make_host):
    snaps = Snapshots(3)
    host = await make_host(players=3, bots=1, seed=2025, journal=snaps, options=Options(target=200))
    snaps.host = host
    frames: dict[str, list[bytes]] = {n: [] for n in ("Ann", "Dan", "Bea", "Cid", "Eve")}

    async def connect(name: str, **kw: object) -> Client:
        return await Client.connect(
            host.address, host.port, name=name, trace=frames[name].append, **kw
        )

    ann, dan = await connect("Ann"), await connect("Dan")
    bea = await connect("Bea", spectate=True)
    cid = await connect("Cid", spectate=True)
    eve = await connect("Eve", spectate=True, deltas=False)
    await wait_for(lambda: host.table.game is not None)
    assert (ann.seat, dan.seat) == (0, 1)
    game = host.table.game
    ids = {w["name"]: w["id"] for w in host.server.lobby_message()["watchers"]}
    #: seq → (spectator name → the seat it may be shown), noted after each update went out
    shown: dict[int, dict[str, int]] = {}

    def note(by: object, events: object) -> None:
        shown[host.server.seq] = {c.name: c.shown for c in host.server.conns if c.shown is not None}

    host.server.on_events.insert(0, note)
    playing = start_playing([ann, dan], 77)

    async def after(actions: int) -> None:
        start = len(game.actions)
        await wait_for(lambda: len(game.actions) >= start + actions or game.winner is not None, 60)
        assert game.winner is None, "the match ended too soon for this test"

    # Ann shows Bea her hand; the seat ends it
    ann.send_now({"type": "shoulder", "spectator": ids["Bea"]})
    await wait_for(lambda: host.table.shoulders)
    await after(30)
    ann.send_now({"type": "shoulder_end"})
    await wait_for(lambda: not host.table.shoulders)
    # Dan shows Cid his hand, by name; Cid leaves: it ends by itself
    dan.send_now({"type": "shoulder", "name": "Cid"})
    await wait_for(lambda: host.table.shoulders)
    await after(20)
    await cid.close()
    await wait_for(lambda: not host.table.shoulders)
    # Ann shows Bea her hand again until the match ends: it ends by itself
    ann.send_now({"type": "shoulder", "name": "Bea"})
    await wait_for(lambda: host.table.shoulders)
    await asyncio.wait_for(asyncio.gather(*playing), 120)
    await wait_for(lambda: not host.table.shoulders and bea.seq == host.server.seq)
    assert bea.view is not None and "shoulder" not in bea.view and bea.view["shoulders"] == []
    for c in (ann, dan, bea, eve):
        await c.close()

    def for_(name: str) -> dict[int, int]:
        return {seq: who[name] for seq, who in shown.items() if name in who}

    counts = {}
    for name, seat in (("Ann", 0), ("Dan", 1), ("Bea", None), ("Cid", None), ("Eve", None)):
        counts[name] = check_frames(frames[name], seat, snaps, for_(name))
    assert counts["Bea"][1] > 30 and counts["Cid"][1] > 15  # the hands were really shown
    assert counts["Ann"][1] == counts["Dan"][1] == counts["Eve"][1] == 0
    # every seat's and spectator's view said who showed their hand to whom, while it did
    assert max(len(w) for w in shown.values()) == 1
    assert sum(c[0] for c in counts.values()) > 3_000
