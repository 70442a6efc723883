"""Over the shoulder at a change of host (docs/protocol.md §12): nothing of it is carried.
A seat shows its hand to a spectator, the table is handed to another machine: at the new
host every view says that no hand is shown, the spectator is sent no ``shoulder`` there, and
the terminal client's log says that it ended with the move."""

from __future__ import annotations

import asyncio

from net.client import Client
from net.framing import decode
from rum500.handoff import Guest, TableMover
from rum500.rules import Game
from rum500.tui.model import TableModel
from tests.handoff.test_handoff import lost, table_of_three
from tests.net.util import wait_for


async def test_a_handoff_ends_it_and_the_new_host_shows_no_hand(tmp_path):
    host, clients = await table_of_three()
    ann, bea, cy = clients
    frames: list[bytes] = []
    dee = await Client.connect(
        host.address, host.port, name="Dee", spectate=True, trace=frames.append
    )
    guest = Guest(bea, bind="127.0.0.1", announce=False, log_path=tmp_path / "bea.sqlite3")
    try:
        await wait_for(lambda: dee.view is not None)
        ann.send_now({"type": "shoulder", "name": "Dee"})
        await wait_for(lambda: (dee.view or {}).get("shoulder") is not None)
        assert dee.view["shoulder"]["hand"] == ann.view["hand"]
        assert [s["name"] for s in ann.view["shoulders"]] == ["Dee"]
        before = len(frames)

        await TableMover(host).hand_over(bea.seat)
        everyone = [*clients, dee]
        for c in everyone:
            assert (await lost(c)).code == "moved"
        await asyncio.gather(*(c.follow(timeout=10) for c in everyone))
        new = guest.host
        await wait_for(
            lambda: all(c.view is not None and c.seq == new.server.seq for c in everyone)
        )
        assert new.table.shoulders == []
        for c in everyone:
            assert c.view["shoulders"] == [] and "shoulder" not in c.view
        # nothing of Ann's hand reaches Dee at the new host, even after moves
        turn = ann.view["turn"]
        mover = {c.seat: c for c in clients}[turn]
        await mover.act({"type": "draw", "source": "stock"})
        await wait_for(lambda: dee.seq == new.server.seq)
        after = [decode(raw[4:]) for raw in frames[before:]]
        states = [m for m in after if m.get("type") == "state"]
        assert states and all("shoulder" not in (m.get("view") or m.get("delta")) for m in states)
    finally:
        for c in [*clients, dee]:
            await c.close()
        await guest.close()
        await host.close()


def test_the_screen_log_says_it_ended_with_the_move():
    model = TableModel(name="Dee")
    model.apply_message({"type": "welcome", "seat": None, "name": "Dee", "table": "T"})
    game = Game(players=2, seed=1)
    hand = game.view(0)["hand"]
    view = {
        **game.view(None),
        "names": ["Ann", "Bob"],
        "results_start": 0,
        "review": None,
        "takeover": [None, None],
        "shoulders": [{"seat": 0, "spectator": 3, "name": "Dee"}],
        "shoulder": {"seat": 0, "hand": hand, "legal_actions": []},
    }
    model.set_view(view, [])
    assert "Ann shows their hand to Dee (over the shoulder)." in model.feed.log
    assert model.shoulder.shown() == (0, hand)
    model.apply_message({"type": "moved", "addresses": ["127.0.0.1"], "port": 9})
    assert model.feed.log[-1] == "The table changed host: no hand is shown any more."
    model.set_view({**view, "shoulders": [], "shoulder": None}, [])
    assert model.feed.log[-1] == "The table changed host: no hand is shown any more."
    assert model.shoulder.shown() is None
