"""What the benchmarks need of a host comes through its public surface (issue 23): they time
each action with ``Host.wrap_actions`` and hear each update with ``Host.on_told`` — neither
bench/net.py nor bench/long.py reaches into ``host.server`` or a private field."""

from __future__ import annotations

import re
from pathlib import Path

from tests.net.util import wait_for

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_the_benchmarks_use_only_the_hosts_public_surface() -> None:
    for name in ("net.py", "long.py"):
        text = (BENCH / name).read_text()
        assert "host.server" not in text, name
        assert not re.search(r"\bhost\._", text), name  # no private field of the host


async def test_wrap_actions_sees_every_action_a_connection_sends(make_host, clients) -> None:
    host = await make_host(players=2, bots=0, seed=3)
    seen: list[tuple[int | None, str]] = []
    told: list[int | None] = []

    def wrapper(handle):
        def watched(conn, msg):
            seen.append((conn.seat, msg["action"]["type"]))
            handle(conn, msg)  # the server's own handling: apply, tell everyone, accepted

        return watched

    host.wrap_actions(wrapper)
    host.on_told(lambda by, events: told.append(by))
    a = await clients(host, "Ann")
    b = await clients(host, "Bea")
    await wait_for(lambda: a.view is not None and b.view is not None)
    mover = a if a.view["turn"] == a.seat else b
    reply = await mover.act({"type": "draw", "source": "stock"})
    assert reply["seq"] == mover.seq  # accepted, after the update it caused
    assert seen == [(mover.seat, "draw")]
    assert told[-1] == mover.seat
