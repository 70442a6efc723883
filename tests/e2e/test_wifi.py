"""Wi-Fi faults: 10% packet loss, 100 ± 50 ms delay each way, and the link down for 20 s in
the middle of a player's turn. The match goes on, the dropped client rejoins by itself, and
no action is lost or applied twice: every client's history agrees with the host's game log.

This kernel has no netem qdisc, so the faults are made with what it has: loss with iptables
(``-m statistic --mode random``), delay with a small delaying TCP proxy in the host's
namespace (every chunk held 50–150 ms, order kept), the outage with ``ip link set … down``.
Host, proxy and one player (Cy) sit in one namespace; the other player (Wi) reaches them over
a veth pair from a second namespace. Needs root, iproute2 and iptables."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.e2e import test_netns
from tests.e2e.lan import Lines
from tests.e2e.test_netns import RUM500, in_ns, sh

pytestmark = [pytest.mark.e2e, pytest.mark.netns]
lan = test_netns.lan  # the fixture: two namespaces joined by a veth pair

HOST_PORT, PROXY_PORT = 5500, 5501
OUTAGE = 20.0  # seconds the link is down
PLAYS = ("draw", "meld", "layoff", "discard", "end_hand")  # what a player chooses to do

PROXY = textwrap.dedent("""
    import asyncio, random, sys

    async def pipe(reader, writer):
        loop = asyncio.get_running_loop()
        chunks = asyncio.Queue()

        async def send():
            while True:
                when, data = await chunks.get()
                if data is None:
                    return
                await asyncio.sleep(max(0.0, when - loop.time()))
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(send())
        last = 0.0
        try:
            while data := await reader.read(65536):
                last = max(last, loop.time() + random.uniform(0.05, 0.15))  # 100 +- 50 ms
                chunks.put_nowait((last, data))
        except OSError:
            pass
        chunks.put_nowait((0.0, None))
        try:
            await sender
        finally:
            writer.close()

    async def handle(reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", int(sys.argv[2]))
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                             return_exceptions=True)

    async def main():
        server = await asyncio.start_server(handle, sys.argv[1], int(sys.argv[3]))
        print("proxy up", flush=True)
        await server.serve_forever()

    asyncio.run(main())
""")

PLAYER = textwrap.dedent("""
    import asyncio, json, sys
    from net.client import ActionRefused, Client, ConnectionLost
    from rum500.bots import make_bot

    def say(**fields):
        print(json.dumps(fields), flush=True)

    async def main(host, port, name, seed, pause_at):
        c = await Client.connect(host, port, name=name, idle_timeout=8.0)
        say(seat=c.seat)
        bot = make_bot("random", seed)
        sent, states, paused = [], [], False
        while True:
            try:
                async for msg in c.messages():
                    if msg["type"] != "state":
                        continue
                    states.append([msg["seq"], msg["by"], msg["events"]])
                    view = msg["view"]
                    if view["phase"] == "game_over":
                        say(done=True, sent=sent, states=states, totals=view["totals"])
                        await c.close()
                        return
                    if msg["seq"] != c.seq:
                        continue  # a newer update is queued
                    review = view.get("review") or {}
                    if c.seat in (review.get("waiting") or []):
                        action = {"type": "ready"}
                    elif view["turn"] == c.seat and view["legal_actions"]:
                        action = bot.choose(view)
                    else:
                        continue
                    late = pause_at and msg["seq"] >= pause_at
                    if late and not paused and action["type"] != "ready":
                        paused = True
                        say(paused=msg["seq"])
                        await asyncio.to_thread(sys.stdin.readline)  # the link goes down now
                    record = {"action": action, "outcome": "unknown"}
                    sent.append(record)
                    try:
                        answer = await c.act(action)
                        record["outcome"], record["seq"] = "accepted", answer["seq"]
                    except ActionRefused:
                        record["outcome"] = "refused"
                        if view is c.view:
                            raise
                raise ConnectionLost("the host closed the connection")
            except ConnectionLost as e:
                say(lost=str(e))
                while True:
                    try:
                        await c.reconnect(timeout=3.0)
                        break
                    except ConnectionLost:
                        await asyncio.sleep(0.5)
                states.append(["back", None, []])
                say(back=c.seat)

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]),
                     int(sys.argv[5])))
""")


def plays(actions: list[dict]) -> list[dict]:
    return [a for a in actions if a["type"] in PLAYS]


def is_subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def events_of(states: list) -> list[dict]:
    return [e for seq, _, events in states if seq != "back" for e in events]


def test_loss_delay_and_a_20_s_outage_mid_turn(lan, tmp_path):
    if shutil.which("iptables") is None:
        pytest.skip("needs iptables (loss is made with -m statistic)")
    ns_a, addr_a, ns_b, _ = lan
    for ns in (ns_a, ns_b):  # 10% loss each way, on the veth link only
        dev = f"v{ns}"
        sh(
            *("ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-i", dev),
            *("-m", "statistic", "--mode", "random", "--probability", "0.1", "-j", "DROP"),
        )
    host = in_ns(
        ns_a,
        [
            *RUM500,
            *("host", "--headless", "--no-announce", "--name", "Wifi", "--players", "3"),
            *("--bots", "1", "--bot-level", "random", "--bot-delay", "0", "--target", "100"),
            *("--seed", "9", "--bind", "127.0.0.1", "--port", str(HOST_PORT)),
        ],
    )
    procs = [host]
    try:
        proxy = in_ns(ns_a, [sys.executable, "-c", PROXY, addr_a, str(HOST_PORT), str(PROXY_PORT)])
        procs.append(proxy)
        assert proxy.stdout is not None and proxy.stdout.readline().strip() == "proxy up"
        assert host.stdout is not None and "hosting table" in host.stdout.readline()
        player = [sys.executable, "-c", PLAYER, addr_a, str(PROXY_PORT)]
        wi_proc = in_ns(ns_b, [*player, "Wi", "1", "12"], stdin=subprocess.PIPE)
        procs.append(wi_proc)
        wi = Lines(wi_proc)
        wi.wait("seat", 30)
        cy_proc = in_ns(ns_a, [*player, "Cy", "2", "0"])
        procs.append(cy_proc)
        cy = Lines(cy_proc)
        cy.wait("seat", 30)

        wi.wait("paused", 120)  # Wi's turn, its action not yet sent
        sh("ip", "-n", ns_b, "link", "set", f"v{ns_b}", "down")
        down_at = time.monotonic()
        assert wi_proc.stdin is not None
        wi_proc.stdin.write("go\n")  # Wi plays into a dead link
        wi_proc.stdin.flush()
        lost = wi.wait("lost", 60)
        time.sleep(max(0.0, down_at + OUTAGE - time.monotonic()))  # the fault, not a check
        sh("ip", "-n", ns_b, "link", "set", f"v{ns_b}", "up")
        back = wi.wait("back", 120)
        wi_end = wi.wait("done", 600)
        cy_end = cy.wait("done", 600)
        host.communicate(timeout=60)
        assert host.returncode == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()

    from rum500.store.db import db_path, open_db
    from rum500.store.log import load_match

    conn = open_db(db_path())
    (mid,) = conn.execute("SELECT max(id) FROM matches").fetchone()
    match = load_match(conn, mid)
    conn.close()
    assert match["status"] == "finished" and match["totals"] == cy_end["totals"] == wi_end["totals"]
    seat_of = {"Wi": back["back"], "Cy": cy.seen[0]["seat"]}
    assert lost["lost"] and seat_of["Wi"] == wi.seen[0]["seat"]  # the same seat, back by itself

    # Cy never lost its line: it saw every update, and its events are the host's game
    cy_events = events_of(cy_end["states"])
    for name, end in (("Wi", wi_end), ("Cy", cy_end)):
        seat = seat_of[name]
        logged = plays([a["action"] for a in match["actions"] if a["seat"] == seat])
        accepted = plays([r["action"] for r in end["sent"] if r["outcome"] == "accepted"])
        unknown = plays([r["action"] for r in end["sent"] if r["outcome"] == "unknown"])
        assert is_subsequence(accepted, logged)  # nothing accepted was lost …
        assert len(accepted) <= len(logged) <= len(accepted) + len(unknown)  # … or doubled
        seen = [e for e in cy_events if e.get("seat") == seat and e["type"] in PLAYS]
        assert len(seen) == len(logged)  # every play by this seat, seen once by Cy
    assert [s[0] for s in cy_end["states"]] == sorted({s[0] for s in cy_end["states"]})
    # Wi saw the start and the end of what Cy saw, with the whole view its rejoin brought
    # (by null, no events) in between; it may have missed the updates of its outage
    marks = [i for i, s in enumerate(wi_end["states"]) if s[0] == "back"]
    assert len(marks) == 1 and wi_end["states"][marks[0] + 1][1:] == [None, []]
    before = events_of(wi_end["states"][: marks[0]])
    after = events_of(wi_end["states"][marks[0] + 1 :])
    assert cy_events[: len(before)] == before
    assert cy_events[len(cy_events) - len(after) :] == after and after
    assert len(before) + len(after) <= len(cy_events)
    Path(tmp_path / "wifi.json").write_text(json.dumps({"wi": wi_end, "cy": cy_end}))
