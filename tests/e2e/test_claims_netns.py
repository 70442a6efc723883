"""Two players call "Rummy!" on the same discard across a real LAN: the host in one network
namespace, the callers in another (a veth pair between them, as in test_netns.py). The first
call the host receives wins, the other is refused with the reason, and both screens agree.

Needs root and ``ip``; skipped with the reason otherwise. Addresses exist only inside the
namespaces made here."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tests.e2e.test_netns import in_ns, lan  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.netns]

HOST = textwrap.dedent("""
    import asyncio, json, sys
    from rum500.host import HostConfig, start_host
    from rum500.rules import Options
    from rum500.client import RumClient
    from tests.rules.positions import position

    async def main(bind):
        game = position(["7D 2C 9S", "3H 8C JS", "KH QC 10S"], melds=[("4D 5D 6D", 1)],
                        phase="play", options=Options(rummy_calls=True, target=5000))
        seats = [{"name": n, "token": f"token-{i}", "bot": False}
                 for i, n in enumerate(["Ann", "Bea", "Cid"])]
        host = await start_host(HostConfig(resume_game=game, resume_seats=seats, bind=bind,
                                           claim_window=10.0))
        # only the players close this window (a slow machine cannot make a call late)
        host.table.claim_window.clock = lambda: 0.0
        ann = await RumClient.connect(bind, host.port, name="Ann", token="token-0")
        print(json.dumps({"port": host.port}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await ann.act({"type": "discard", "card": "7D"})
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await ann.close()
        await host.close()

    asyncio.run(main(sys.argv[1]))
""")

CALLER = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import ActionRefused
    from rum500.client import RumClient

    async def view_where(c, until):
        async for msg in c.messages():
            if msg["type"] == "state" and until(msg["view"]):
                return msg["view"]

    async def main(host, port, token):
        c = await RumClient.connect(host, port, name="?", token=token)
        print(json.dumps({"seat": c.seat}), flush=True)
        v = await asyncio.wait_for(view_where(c, lambda v: v["phase"] == "claim"), 30)
        print(json.dumps({"claim": v["claim"], "calls": v["legal_actions"]}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        try:
            await c.act({"type": "rummy", "meld": 0})
            answer = {"accepted": True}
        except ActionRefused as e:
            answer = {"refused": str(e)}
        v = c.view if c.view["phase"] == "draw" else await asyncio.wait_for(
            view_where(c, lambda v: v["phase"] == "draw"), 30)
        seen = {k: v[k] for k in ("phase", "turn", "melds", "table_points", "hand_sizes",
                                  "discard_pile", "claim")}
        print(json.dumps({**answer, "view": seen}), flush=True)
        await c.close()

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
""")


def line(p: subprocess.Popen) -> dict:
    text = p.stdout.readline()
    if not text:
        raise AssertionError(f"the process ended: {p.stderr.read()}")
    return json.loads(text)


def test_two_calls_on_one_discard_across_the_lan(lan):  # noqa: F811
    ns_a, addr_a, ns_b, _ = lan
    py = [sys.executable, "-c"]  # the interpreter running the tests, not whatever python3 is
    host = in_ns(ns_a, [*py, HOST, addr_a], stdin=subprocess.PIPE)
    callers: list[subprocess.Popen] = []
    try:
        port = line(host)["port"]
        for token in ("token-1", "token-2"):
            callers.append(
                in_ns(ns_b, [*py, CALLER, addr_a, str(port), token], stdin=subprocess.PIPE)
            )
        assert sorted(line(c)["seat"] for c in callers) == [1, 2]
        host.stdin.write("discard\n")
        host.stdin.flush()
        for c in callers:
            seen = line(c)
            assert seen["claim"]["card"] == "7D" and seen["claim"]["from"] == 0
            assert seen["claim"]["waiting"] == [1, 2]
            assert seen["calls"] and seen["calls"][0]["meld"] == 0
        for c in callers:  # both call at once: the host judges them as they arrive
            c.stdin.write("go\n")
            c.stdin.flush()
        bea, cid = (line(c) for c in callers)
        winner, loser = (bea, cid) if bea.get("accepted") else (cid, bea)
        assert winner.get("accepted") and "refused" not in winner
        assert loser["refused"] == (
            "Rummy! may only be called on a discard, before the next player draws"
        )
        assert bea["view"] == cid["view"]  # both screens agree
        view = bea["view"]
        caller = 1 if winner is bea else 2
        meld = view["melds"][0]
        assert meld["cards"] == ["4D", "5D", "6D", "7D"] and meld["by"][-1] == caller
        assert view["phase"] == "draw" and view["turn"] == 1 and view["claim"] is None
        assert view["table_points"][caller] == (15 if caller == 1 else 0) + 7
        for c in callers:
            assert c.wait(timeout=30) == 0, c.stderr.read()
    finally:
        if host.poll() is None:
            host.stdin.write("done\n")
            host.stdin.flush()
            try:
                host.wait(timeout=30)
            except subprocess.TimeoutExpired:
                host.kill()
        for c in callers:
            if c.poll() is None:
                c.kill()
