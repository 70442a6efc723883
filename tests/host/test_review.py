"""The hand-end review, the away countdown, notices, addresses and the host's goodbye, with a
real host on 127.0.0.1 and real :class:`net.client.Client` connections (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import subprocess
import sys
from pathlib import Path

import pytest

from net.client import ActionRefused, Client, ConnectionLost
from rum500.bots import make_bot
from rum500.host.addresses import lan_addresses
from rum500.rules import Options
from tests import capability
from tests.net.util import wait_for

ROOT = Path(__file__).resolve().parents[2]
LONG = Options(target=5000)  # no match ends in these tests


async def next_state(client: Client, until, timeout: float = 20.0) -> dict:
    """The next ``state`` message of ``client`` that satisfies ``until(msg)``."""

    async def find() -> dict:
        async for msg in client.messages():
            if msg["type"] == "state" and until(msg):
                return msg
        raise AssertionError(f"the connection ended: {client.lost}")

    return await asyncio.wait_for(find(), timeout)


async def play_to_review(client: Client, seed: int = 0, timeout: float = 30.0) -> dict:
    """Play ``client``'s seat with a random bot until a hand ends; return that first view
    of the review. Other players must be played by the host or by their own tasks."""
    bot = make_bot("random", seed)

    async def play() -> dict:
        async for msg in client.messages():
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if view["phase"] == "hand_over":
                return view
            if msg["seq"] != client.seq:  # an older update: a newer one is queued
                continue
            if view["turn"] == client.seat and view["legal_actions"]:
                try:
                    await client.act(bot.choose(view))
                except ActionRefused:
                    if view is client.view:
                        raise
        raise AssertionError(f"the connection ended: {client.lost}")

    return await asyncio.wait_for(play(), timeout)


async def round_trip(client: Client) -> None:
    """An answered action of a player who is ready already: everything the host did before
    answering has been done (a second ``ready`` is accepted and changes nothing)."""
    await client.act({"type": "ready"}, timeout=10)


# ---------------------------------------------------------------------- the review


async def test_the_review_holds_the_deal_until_every_connected_human_is_ready(make_host, clients):
    host = await make_host(players=3, bots=1, review_timeout=600, options=LONG, seed=11)
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    game = host.table.game
    views = await asyncio.gather(play_to_review(ann, 1), play_to_review(bea, 2))
    n = len(game.actions)
    assert game.phase.value == "hand_over"
    for v in views:
        review = v["review"]
        assert review["hand"] == 1 == v["last_hand"]["hand"]
        assert sorted(review["waiting"]) == sorted([ann.seat, bea.seat])
        assert 0 < review["seconds_left"] <= 600
        assert v["last_hand"]["hands"]  # the score sheet with every hand face up
    # Ann is ready: everyone is told, and the host waits for Bea
    await ann.act({"type": "ready"})
    msg = await next_state(bea, lambda m: {"type": "ready", "seat": ann.seat} in m["events"])
    assert msg["view"]["review"]["waiting"] == [bea.seat]
    await round_trip(ann)  # Ann again: still ready
    await round_trip_chat(bea)
    assert len(game.actions) == n and game.phase.value == "hand_over"  # no bot acted, no deal
    # Bea's "deal" counts as ready (an old client's Enter): now the host deals
    await bea.act({"type": "deal"})
    msg = await next_state(ann, lambda m: m["view"]["hand_number"] == 2)
    assert msg["view"]["review"] is None
    assert game.actions[n] == {"type": "deal"}
    assert msg["events"][0]["type"] == "deal"


async def test_the_timeout_deals_when_nobody_says_ready(make_host, clients):
    host = await make_host(players=2, bots=1, review_timeout=0.3, options=LONG, seed=5)
    ann = await clients(host, "Ann")
    view = await play_to_review(ann)
    assert view["review"]["waiting"] == [ann.seat]
    assert 0 <= view["review"]["seconds_left"] <= 0.3
    n = len(host.table.game.actions)
    msg = await next_state(ann, lambda m: m["view"]["hand_number"] == 2)  # Ann never says ready
    assert msg["view"]["review"] is None
    assert host.table.game.actions[n] == {"type": "deal"}


async def test_with_no_deadline_the_review_waits_for_the_ready(make_host, clients):
    """``review_timeout=None`` (``rum500 play``'s solo table): the view says no seconds, the
    host does not deal however long the player reads, and deals at their ready."""
    host = await make_host(players=2, bots=1, review_timeout=None, options=LONG, seed=5)
    ann = await clients(host, "Ann")
    view = await play_to_review(ann)
    assert view["review"]["waiting"] == [ann.seat] and view["review"]["seconds_left"] is None
    assert host.table.windows()["review"] == {"at": len(host.table.game.actions), "ready": []}
    n = len(host.table.game.actions)
    await asyncio.sleep(1.0)  # bots are instant at this table: a deal would have come
    assert host.table.game.hand_number == 1 and len(host.table.game.actions) == n
    await ann.act({"type": "ready"})
    msg = await next_state(ann, lambda m: m["view"]["hand_number"] == 2)
    assert msg["view"]["review"] is None and host.table.game.actions[n] == {"type": "deal"}


async def test_ready_is_refused_outside_the_review_and_for_spectators(make_host, clients):
    host = await make_host(players=2, bots=1, review_timeout=600, options=LONG)
    ann = await clients(host, "Ann")
    watcher = await clients(host, "Wes", spectate=True)
    await wait_for(lambda: ann.view is not None)
    with pytest.raises(ActionRefused, match="ready is only for the end of a hand") as e:
        await ann.act({"type": "ready"})
    assert e.value.template == "ready is only for the end of a hand"
    await play_to_review(ann)
    with pytest.raises(ActionRefused, match="spectators cannot act"):
        await watcher.act({"type": "ready"})
    assert host.table.waiting() == [ann.seat]


async def test_an_away_player_does_not_hold_the_review(make_host, clients):
    host = await make_host(
        players=3, bots=1, review_timeout=600, takeover_after=600, options=LONG, seed=11
    )
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    await asyncio.gather(play_to_review(ann, 1), play_to_review(bea, 2))
    n = len(host.table.game.actions)
    await bea.drop()
    # Ann is told that the host now waits for her alone (an update with no events)
    msg = await next_state(ann, lambda m: m["view"]["review"]["waiting"] == [ann.seat])
    assert msg["view"]["takeover"][bea.seat] is not None  # Bea's countdown runs
    assert len(host.table.game.actions) == n
    await ann.act({"type": "ready"})
    await next_state(ann, lambda m: m["view"]["hand_number"] == 2)


async def test_a_table_with_no_human_connected_deals_at_once(make_host, clients):
    host = await make_host(players=3, bots=3, review_timeout=600, options=LONG)
    watcher = await clients(host, "Wes", spectate=True)
    host.start_now()
    msg = await next_state(watcher, lambda m: m["view"]["hand_number"] == 3, timeout=60)
    assert msg["view"]["review"] is None
    assert sum(a == {"type": "deal"} for a in host.table.game.actions) == 2


# ---------------------------------------------------------------------- away countdown


async def test_the_takeover_countdown_of_an_away_player(make_host, clients):
    host = await make_host(players=3, bots=1, takeover_after=600, options=LONG)
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    first = await next_state(ann, lambda m: True)  # the start: seq 1, the deal
    assert first["seq"] == 1 and first["events"][0]["type"] == "deal"
    assert first["view"]["takeover"] == [None, None, None]
    await bea.drop()
    await wait_for(lambda: host.server.seats[bea.seat].conn is None)
    watcher = await clients(host, "Wes", spectate=True)
    await wait_for(lambda: watcher.view is not None)
    countdown = watcher.view["takeover"]
    assert countdown[ann.seat] is None and countdown[2] is None  # present, bot
    assert 0 < countdown[bea.seat] <= 600
    # Ann was told too, without waiting for the next move
    await wait_for(lambda: ann.view["takeover"][bea.seat] is not None)


async def test_the_countdown_is_zero_while_a_bot_plays_the_seat(make_host, clients):
    host = await make_host(players=2, bots=1, takeover_after=0.0, options=LONG)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    seat = ann.seat
    await ann.drop()
    game = host.table.game
    n = len(game.actions)  # before Wes comes: every update he is sent is of a later action
    watcher = await clients(host, "Wes", spectate=True)
    msg = await next_state(watcher, lambda m: m["by"] == seat)
    assert len(game.actions) > n
    assert msg["view"]["takeover"] == [0.0 if s == seat else None for s in range(2)]


async def test_no_countdown_when_takeover_is_off(make_host, clients):
    host = await make_host(players=3, bots=1, takeover_after=None, options=LONG)
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    await wait_for(lambda: ann.view is not None)
    await bea.drop()
    watcher = await clients(host, "Wes", spectate=True)
    await wait_for(lambda: watcher.view is not None)
    assert watcher.view["takeover"] == [None, None, None]


# ---------------------------------------------------------------------- notices


class FullDisk:
    """A game log whose every write fails like a full disk."""

    def __init__(self) -> None:
        self.calls = 0

    def start_match(self, info: dict) -> None:
        self.calls += 1
        raise OSError(28, "No space left on device")

    def record(self, seq: int, seat: int, action: dict) -> None:
        self.calls += 1
        raise OSError(28, "No space left on device")

    def seats(self, seats: list) -> None: ...

    def finish(self, winner: object, totals: object) -> None: ...


async def test_a_failing_game_log_is_a_notice_to_every_player(make_host, clients, caplog):
    journal = FullDisk()
    host = await make_host(players=3, bots=1, journal=journal, options=LONG)
    ann = await clients(host, "Ann")
    watcher = await clients(host, "Wes", spectate=True)
    bea = await clients(host, "Bea")  # the match starts: start_match fails

    async def notice(client: Client) -> dict:
        async for msg in client.messages():
            if msg["type"] == "notice":
                return msg
        raise AssertionError("no notice")

    for c in (ann, watcher, bea):
        msg = await asyncio.wait_for(notice(c), 10)
        assert msg["code"] == "log_failed"
        assert "No space left on device" in msg["text"]
    # the game goes on, and a notice is not repeated for every action
    await wait_for(lambda: ann.view is not None and bea.view is not None)
    mover = ann if ann.view["turn"] == ann.seat else bea
    await mover.act({"type": "draw", "source": "stock"})
    seen = await round_trip_chat(ann)
    assert journal.calls >= 2
    assert any(m["type"] == "state" and m["by"] == mover.seat for m in seen)
    assert not [m for m in seen if m["type"] == "notice"]
    assert any(
        r.levelname == "WARNING" and "No space left" in r.getMessage() for r in caplog.records
    )


async def round_trip_chat(client: Client) -> list[dict]:
    """Send a chat and wait for it to come back; return the messages received before it
    (what the host sent before it answered)."""
    await client.chat("ping?")

    async def back() -> list[dict]:
        seen = []
        async for msg in client.messages():
            if msg["type"] == "chat" and msg["text"] == "ping?":
                return seen
            seen.append(msg)
        raise AssertionError("the connection ended")

    return await asyncio.wait_for(back(), 10)


async def test_the_real_game_log_that_cannot_write_is_a_notice(make_host, clients, tmp_path):
    from rum500.store.journal import Journal

    (tmp_path / "file").write_text("not a folder")
    journal = Journal(tmp_path / "file" / "games.sqlite3")  # its folder is a file
    host = await make_host(players=2, bots=1, journal=journal, options=LONG)
    ann = await clients(host, "Ann")

    async def notice() -> dict:
        async for msg in ann.messages():
            if msg["type"] == "notice":
                return msg
        raise AssertionError("no notice")

    msg = await asyncio.wait_for(notice(), 10)
    assert msg["code"] == "log_failed"
    assert "game log" in msg["text"] and str(tmp_path / "file") in msg["text"]
    journal.close()


class Broken:
    """A game log with a bug: not I/O trouble, an exception of another kind."""

    def start_match(self, info: dict) -> None: ...

    def record(self, seq: int, seat: int, action: dict) -> None:
        raise KeyError("a bug in the log")

    def seats(self, seats: list) -> None: ...

    def finish(self, winner: object, totals: object) -> None: ...


@pytest.mark.allow_host_errors
async def test_a_game_log_bug_is_logged_as_an_error(make_host, clients, host_errors):
    host = await make_host(players=2, bots=1, journal=Broken(), options=LONG)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    await wait_for(lambda: len(host.table.game.actions) > 0)
    assert any(
        r.levelname == "ERROR" and r.exc_info and "a bug in the log" in str(r.exc_info[1])
        for r in host_errors
    )


class RaisingBot:
    def choose(self, view: dict) -> dict:
        raise RuntimeError("the bot has a bug")


@pytest.mark.allow_host_errors
async def test_a_bot_that_raises_is_an_error_and_the_table_goes_on(make_host, clients, host_errors):
    host = await make_host(players=2, bots=1, options=LONG)
    host.driver.bots[1] = RaisingBot()
    ann = await clients(host, "Ann")
    game = host.table.game
    await play_until(ann, lambda: len(game.actions) > 6)
    assert any(
        r.name == "rum500.host" and r.levelname == "ERROR" and r.exc_info for r in host_errors
    )


async def play_until(client: Client, done, timeout: float = 30.0) -> None:
    """Play ``client``'s seat with a random bot until ``done()``."""
    bot = make_bot("random", 0)

    async def play() -> None:
        async for msg in client.messages():
            if done():
                return
            if msg["type"] != "state" or msg["seq"] != client.seq:
                continue
            view = msg["view"]
            if view["turn"] == client.seat and view["legal_actions"]:
                await client.act(bot.choose(view))

    await asyncio.wait_for(play(), timeout)


# ---------------------------------------------------------------------- addresses, goodbye


async def test_the_lobby_says_where_a_loopback_host_listens(make_host, clients):
    host = await make_host(players=2, bots=1)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.lobby is not None)
    assert ann.lobby["addresses"] == [f"127.0.0.1:{host.port}"]


ADDRESSES_IN_A_NAMESPACE = """
import asyncio, json
from net.client import Client
from rum500.host import HostConfig, start_host

async def main():
    out = {}
    for bind in ("0.0.0.0", "::"):
        host = await start_host(HostConfig(players=2, bots=1, bind=bind))
        c = await Client.connect("::1" if bind == "::" else "127.0.0.1", host.port, name="Ann")
        while c.lobby is None:
            await asyncio.sleep(0.01)
        out[bind] = {"port": host.port, "addresses": c.lobby["addresses"]}
        await c.close()
        await host.close()
    print(json.dumps(out))

asyncio.run(asyncio.wait_for(main(), 30))
"""


def test_the_lobby_lists_every_lan_address_of_a_wildcard_host():
    """In a private network namespace with one interface whose addresses the test chose."""
    from tests.store import isolated

    isolated.require()
    setup = (
        "ip link add lan0 type veth peer name lan1 && ip link set lan0 up && "
        "ip link set lan1 up && "
        "ip addr add 10.201.0.7/24 dev lan0 && ip -6 addr add fd42::7/64 dev lan0 nodad"
    )
    proc = subprocess.run(
        [
            "unshare",
            "--net",
            "sh",
            "-c",
            f'ip link set lo up && {setup} && exec "$0" -c "$1"',
            sys.executable,
            ADDRESSES_IN_A_NAMESPACE,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode != 0 and "Unknown device type" in proc.stderr:
        capability.missing(f"no veth interfaces here: {proc.stderr.strip()}")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for bind, got in out.items():  # a wildcard listens on both families: both are listed
        port = got["port"]
        addresses = got["addresses"]
        assert addresses[0] == f"10.201.0.7:{port}", bind  # IPv4 first
        assert f"[fd42::7]:{port}" in addresses, bind
        for a in addresses[1:]:  # then IPv6 only, never loopback; link-local names its link
            host = a.rsplit(":", 1)[0]
            assert host.startswith("[") and host.endswith("]"), a
            ip = ipaddress.IPv6Address(host.strip("[]").split("%")[0])
            assert not ip.is_loopback
            assert not ip.is_link_local or host.endswith(("%lan0]", "%lan1]"))


def test_addresses_of_a_host_bound_to_one_address():
    assert lan_addresses("192.0.2.9", 5500) == ["192.0.2.9:5500"]
    assert lan_addresses("fd00::9", 5500) == ["[fd00::9]:5500"]
    assert lan_addresses("127.0.0.1", 5500) == ["127.0.0.1:5500"]


async def test_a_closed_host_says_shutdown_to_every_client(make_host, clients):
    host = await make_host(players=3, bots=1, options=LONG)
    ann = await clients(host, "Ann")
    watcher = await clients(host, "Wes", spectate=True)
    await wait_for(lambda: ann.lobby is not None and watcher.lobby is not None)
    await host.close()

    async def end(client: Client) -> ConnectionLost:
        try:
            async for _msg in client.messages():
                pass
        except ConnectionLost as e:
            return e
        raise AssertionError("the connection ended without an error")

    for c in (ann, watcher):
        lost = await asyncio.wait_for(end(c), 10)
        assert lost.code == "shutdown"
        assert "the host closed the table" in str(lost)


def test_the_review_timeout_comes_from_the_command_line():
    from rum500.cli import build_parser, command_config
    from rum500.configs import host_config

    def config_from_args(args):  # the typed config's HostConfig (the seam moved to cli)
        return host_config(command_config(args))

    args = build_parser().parse_args(["host", "--name", "T", "--review-timeout", "5"])
    assert config_from_args(args).review_timeout == 5.0
    args = build_parser().parse_args(["host", "--name", "T"])
    assert config_from_args(args).review_timeout == 30.0


def test_rum500_play_waits_for_the_player_unless_told_or_open_on_the_lan():
    from rum500.cli import build_parser, command_config
    from rum500.tui.main import solo_config

    def timeout(*argv: str) -> float | None:
        args = command_config(build_parser().parse_args(["play", *argv]))
        return solo_config(args, "Ann").review_timeout

    assert timeout() is None
    assert timeout("--review-timeout", "5") == 5.0
    assert timeout("--lan") == 30.0
    assert timeout("--lan", "--review-timeout", "7") == 7.0


class BlindBot:
    """Plays like the random bot; its ``observe`` has a bug."""

    def __init__(self) -> None:
        self.bot = make_bot("random", 0)

    def choose(self, view: dict) -> dict:
        return self.bot.choose(view)

    def observe(self, events: list[dict], view: dict) -> None:
        raise ZeroDivisionError("observe has a bug")


@pytest.mark.allow_host_errors
async def test_a_listener_that_raises_is_an_error_not_silence(make_host, clients, host_errors):
    host = await make_host(players=2, bots=1, options=LONG)
    host.driver.bots[1] = BlindBot()
    ann = await clients(host, "Ann")
    await play_until(ann, lambda: len(host.table.game.actions) > 4)
    failed = [r for r in host_errors if "listener" in r.getMessage()]
    assert failed and all(r.levelname == "ERROR" and r.exc_info for r in failed)
    assert isinstance(failed[0].exc_info[1], ZeroDivisionError)


def test_the_headless_host_says_where_players_join_by_hand():
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rum500",
            "host",
            "--headless",
            "--no-announce",
            "--bind",
            "127.0.0.1",
            "--players",
            "2",
            "--bots",
            "2",
            "--target",
            "100",
            "--seed",
            "2",
            "--bot-level",
            "random",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=120)  # bots alone: the match plays to its end
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    first, second = out.splitlines()[:2]
    port = first.split(" on ")[1].split()[0].rsplit(":", 1)[1]
    assert second == f"players join by hand at 127.0.0.1:{port}"
