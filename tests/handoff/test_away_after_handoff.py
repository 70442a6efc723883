"""After a planned handoff every seat starts away at the new host until its player rejoins
there; once everyone is back, no view counts a seat down to a bot any more — at once, not
after the next move (issue 21: "(bot in 55 s)" stayed on every screen until someone played)."""

from __future__ import annotations

from net.client import Client
from rum500.handoff import Guest, TableMover
from tests.handoff.test_handoff import lost, table_of_three
from tests.net.util import wait_for


def counting_down(client: Client) -> list[int]:
    """The seats ``client``'s latest view shows as away, counting down to a bot."""
    takeover = (client.view or {}).get("takeover") or []
    return [seat for seat, left in enumerate(takeover) if left is not None]


async def test_once_every_player_rejoined_the_new_host_no_view_counts_a_seat_down() -> None:
    host, clients = await table_of_three(takeover_after=60.0)
    ann, bea, cy = clients
    guest = Guest(bea, bind="127.0.0.1", announce=False)
    try:
        assert all(counting_down(c) == [] for c in clients)
        moves = len(host.table.game.actions)
        await TableMover(host).hand_over(bea.seat)
        for c in clients:
            assert (await lost(c)).code == "moved"
            await c.follow(timeout=10)  # one by one: the first back sees the others away
        new = guest.host
        assert new is not None
        await wait_for(lambda: all(s.conn is not None for s in new.server.seats))
        # everyone is back and nobody has played since the handoff: the views say so anyway
        await wait_for(lambda: all(counting_down(c) == [] for c in clients))
        assert len(new.table.game.actions) == moves
    finally:
        for c in clients:
            await c.close()
        await guest.close()
        await host.close()
