"""docs/protocol.md and the host agree: one test per point a client author written from the
docs alone would trip on. Every test talks raw msgpack frames over a real socket."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import struct
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from net.framing import MAX_DEPTH, MAX_FRAME, MAX_STR, decode, encode, read_frame
from net.protocol import MAX_CHAT, MAX_NAME, auth_proof
from net.server import Limits
from rum500.rules import Options
from tests.net.util import wait_for

ROOT = Path(__file__).resolve().parents[2]
DOC = " ".join((ROOT / "docs" / "protocol.md").read_text().split())  # one line


def hello(name: str = "X", **kw: object) -> dict:
    return {"type": "hello", "version": 1, "name": name, **kw}


def packed(obj: object) -> bytes:
    data = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(data)) + data


async def raw(host, *first: dict):
    reader, writer = await asyncio.open_connection(host.address, host.port)
    for msg in first:
        writer.write(encode(msg))
    return reader, writer


async def frame(reader: asyncio.StreamReader) -> dict:
    return await asyncio.wait_for(read_frame(reader), 10)


async def until(reader: asyncio.StreamReader, kind: str) -> list[dict]:
    """Frames up to and including the first of type ``kind``."""
    seen: list[dict] = []
    while not seen or seen[-1]["type"] != kind:
        seen.append(await frame(reader))
    return seen


async def to_the_end(reader: asyncio.StreamReader) -> list[dict]:
    """Every frame until the host closes the connection."""
    out: list[dict] = []
    while True:
        try:
            out.append(await asyncio.wait_for(read_frame(reader), 10))
        except TimeoutError:
            raise AssertionError(f"the host kept the connection open after {out[-3:]}") from None
        except Exception:
            return out


def nested(levels: int, kind: str) -> dict:
    """A message ``levels`` deep, counting the message's own map as level 1."""
    inner: object = 0
    for _ in range(levels - 1):
        inner = {"x": inner} if kind == "map" else [inner]
    return {"type": "ping", "extra": inner}


@pytest.mark.parametrize("kind", ["map", "array"])
async def test_nesting_is_sixteen_levels_counting_the_message_itself(make_host, kind):
    assert MAX_DEPTH == 16 and "16 levels" in DOC and "counting the message's own map" in DOC
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, hello("Deep", spectate=True))
    await until(reader, "welcome")
    writer.write(encode(nested(16, kind)))
    assert (await until(reader, "pong"))[-1] == {"type": "pong", "seq": 0}
    writer.write(packed(nested(17, kind)))
    got = await to_the_end(reader)
    assert got[-1]["code"] == "bad_frame" and "16" in got[-1]["message"]
    writer.close()


async def test_the_string_limit_counts_utf8_bytes_the_name_and_chat_limits_characters(make_host):
    assert MAX_STR == 16384 and "16 384 bytes" in DOC
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, hello("é" * (MAX_NAME * 4), spectate=True))
    welcome = (await until(reader, "welcome"))[-1]
    assert welcome["name"] == "é" * MAX_NAME  # 96 characters (192 bytes) taken, 24 kept
    writer.write(encode({"type": "chat", "text": "ж" * MAX_CHAT}))  # 300 characters, 600 bytes
    assert (await until(reader, "chat"))[-1]["text"] == "ж" * MAX_CHAT
    writer.write(encode({"type": "chat", "text": "ж" * (MAX_CHAT + 1)}))
    writer.write(encode({"type": "ping"}))
    seen = await until(reader, "pong")
    assert [m["code"] for m in seen if m["type"] == "error"] == ["bad_message"]
    writer.write(encode({"type": "ping", "pad": "a" * MAX_STR}))  # 16 384 bytes: fine
    await until(reader, "pong")
    # 8 193 characters but 16 386 bytes: over the limit, which counts bytes
    writer.write(packed({"type": "ping", "pad": "é" * (MAX_STR // 2 + 1)}))
    got = await to_the_end(reader)
    assert got[-1]["code"] == "bad_frame"
    writer.close()


async def test_a_bad_field_in_hello_is_not_fatal(make_host):
    assert "bad field in `hello` or `auth`" in DOC
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, {"type": "hello", "version": 1, "name": ""})
    error = await frame(reader)
    assert (
        error["type"] == "error" and error["code"] == "bad_message" and "name" in error["message"]
    )
    writer.write(encode({"type": "hello", "version": 1, "name": "Ann", "spectate": "yes"}))
    assert (await frame(reader))["code"] == "bad_message"
    writer.write(encode(hello("Ann")))
    welcome = await frame(reader)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    writer.close()


async def test_a_bad_field_in_auth_is_not_fatal_a_wrong_proof_is(make_host):
    host = await make_host(players=2, bots=1, password="s3cret")
    reader, writer = await raw(host, hello("Ann"))
    challenge = await frame(reader)
    assert challenge["type"] == "challenge"
    writer.write(encode({"type": "auth", "proof": 42}))
    assert (await frame(reader))["code"] == "bad_message"
    writer.write(encode({"type": "auth", "proof": auth_proof("s3cret", challenge["nonce"])}))
    assert (await frame(reader))["type"] == "welcome"
    writer.close()
    reader, writer = await raw(host, hello("Bob"))
    await frame(reader)
    writer.write(encode({"type": "auth", "proof": "0" * 64}))
    got = await to_the_end(reader)
    assert [m["code"] for m in got] == ["bad_password"]
    writer.close()


async def test_a_bad_action_is_answered_once(make_host):
    assert "answered once" in DOC
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, hello("Ann"))
    await until(reader, "welcome")
    writer.write(encode({"type": "action", "id": 5, "action": "draw"}))  # bad field, usable id
    writer.write(encode({"type": "action", "id": "six", "action": {"type": "draw"}}))  # no id
    writer.write(encode({"type": "ping"}))
    seen = [m for m in await until(reader, "pong") if m["type"] in ("refused", "error")]
    assert [m["type"] for m in seen] == ["refused", "error"]
    assert seen[0]["id"] == 5 and "action" in seen[0]["message"]
    assert seen[1]["code"] == "bad_message" and "id" in seen[1]["message"]
    writer.close()


async def test_game_over_then_the_headless_host_closes_with_shutdown():
    assert "closes the table 1 s after game over" in DOC
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    argv = [
        *(sys.executable, "-m", "rum500", "host", "--headless", "--no-announce"),
        *("--bind", "127.0.0.1", "--players", "2", "--bots", "2", "--bot-level", "random"),
        *("--bot-delay", "0.01", "--target", "300", "--seed", "3"),
    ]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
        port = int(re.search(rb":(\d+) ", line).group(1))  # type: ignore[union-attr]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(encode(hello("Rail", spectate=True)))
        got = await to_the_end(reader)
        states = [m for m in got if m["type"] == "state"]
        lobbies = [m for m in got if m["type"] == "lobby"]
        assert states[-1]["view"]["phase"] == "game_over"
        assert lobbies[-1]["state"] == "finished"
        assert got[-1] == {
            "type": "error",
            "code": "shutdown",
            "message": "the host closed the table",
        }
        writer.close()
        assert await asyncio.wait_for(asyncio.to_thread(proc.wait), 30) == 0
    finally:
        proc.kill()
        proc.wait()


async def test_an_empty_token_is_no_token(make_host):
    assert '`""` counts as no token' in DOC
    host = await make_host(players=3, bots=1)
    reader, writer = await raw(host, hello("Ann", token=""))
    welcome = await frame(reader)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["token"]
    writer.close()


async def test_spectate_wins_over_a_token(make_host):
    assert "`spectate: true` wins" in DOC
    host = await make_host(players=3, bots=1)
    reader, writer = await raw(host, hello("Ann"))
    token = (await frame(reader))["token"]
    rail, rail_writer = await raw(host, hello("Ann again", token=token, spectate=True))
    welcome = await frame(rail)
    assert welcome["seat"] is None and welcome["token"] is None
    writer.write(encode({"type": "ping"}))
    await until(reader, "pong")  # the seat's own connection was not replaced
    assert host.server.seats[0].conn is not None and host.server.seats[0].conn.name == "Ann"
    wrong, wrong_writer = await raw(host, hello("Mallory", token="nope", spectate=True))
    assert (await frame(wrong))["seat"] is None  # the token is not even looked at
    for w in (writer, rail_writer, wrong_writer):
        w.close()


async def test_chat_cleaning_rules(make_host):
    assert "becomes one space" in DOC
    host = await make_host(players=2, bots=1)
    reader, writer = await raw(host, hello("Ann"))
    await until(reader, "welcome")
    sent = {
        "  two\tlines\nhere  ": "two lines here",
        "ring\x07 the\x00bell": "ring thebell",
        "evil\u202etxt.exe": "eviltxt.exe",
        "coder \U0001f469\u200d\U0001f4bb  ok": "coder \U0001f469\u200d\U0001f4bb ok",
        "a" * 30 + " " * 5 + "b": "a" * 30 + " b",  # not cut like a name
    }
    for text, shown in sent.items():
        writer.write(encode({"type": "chat", "text": text}))
        assert (await until(reader, "chat"))[-1]["text"] == shown
    writer.write(encode({"type": "chat", "text": " \n\x01 "}))
    assert (await until(reader, "error"))[-1]["code"] == "bad_message"
    writer.close()


async def test_name_cleaning_rules(make_host):
    """Names: white space as in chat, every other control or format character dropped
    (the zero-width joiner too), then cut to 24 characters (docs/protocol.md §5)."""
    assert "zero-width joiner too" in DOC
    host = await make_host(players=2, bots=0)
    sent = {
        "  Ann\tLee\n ": "Ann Lee",
        "ring\x07 the\x00bell": "ring thebell",
        "evil\u202etxt": "eviltxt",
        "Zoe\u200d\u200b": "Zoe",
        "a" * 30 + " " * 5 + "b": "a" * 24,
    }
    for text, shown in sent.items():
        reader, writer = await raw(host, hello(text, spectate=True))
        assert (await until(reader, "welcome"))[-1]["name"] == shown
        writer.close()


async def test_too_slow_reaches_the_client_as_the_last_frame(make_host, clients):
    assert "`too_slow` is the last frame" in DOC
    limits = Limits(queue_bytes=64 * 1024, rate=1e6, burst=1e6)
    host = await make_host(players=2, bots=0, limits=limits, options=Options(target=5000))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host.address, host.port))
    sock.sendall(encode(hello("Sleeper", spectate=True)))
    ann = await clients(host, "Ann")
    await wait_for(lambda: any(c.name == "Sleeper" for c in host.server.conns))
    sleeper = next(c for c in host.server.conns if c.name == "Sleeper")
    for i in range(100_000):  # chat until the kernel buffers and the sleeper's queue are full
        await ann.chat(f"message {i} " + "x" * 280)
        if sleeper.closed:
            break
        await asyncio.sleep(0)
    assert sleeper.reason == "too_slow"

    def read_all() -> bytes:
        sock.settimeout(10)
        data = b""
        while chunk := sock.recv(1 << 16):
            data += chunk
        return data

    data = await asyncio.to_thread(read_all)
    frames, at = [], 0
    while at < len(data):
        (n,) = struct.unpack(">I", data[at : at + 4])
        frames.append(decode(data[at + 4 : at + 4 + n]))
        at += 4 + n
    assert at == len(data)
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "too_slow"
    assert [m["type"] for m in frames[:-1]].count("error") == 0
    sock.close()


async def test_frames_the_host_sends_keep_the_limits_it_asks_of_clients(make_host, clients):
    assert "The host keeps to the same limits" in DOC
    sizes: list[int] = []
    host = await make_host(players=2, bots=1, options=Options(target=300))
    ann = await clients(host, "Ann", trace=lambda f: sizes.append(len(f)))
    from tests.net.util import play_as_bot

    view = await asyncio.wait_for(play_as_bot(ann, seed=2), 120)
    assert view["phase"] == "game_over"
    # every frame went through the client's decode, which applies the very same limits
    assert len(sizes) > 50 and max(sizes) <= MAX_FRAME + 4


async def test_resync_answers_with_the_whole_view(make_host):
    assert "`resync`" in DOC
    host = await make_host(players=3, bots=1)
    reader, writer = await raw(host, hello("Ann"))
    await until(reader, "lobby")
    writer.write(encode({"type": "resync"}))
    writer.write(encode({"type": "ping"}))
    seen = await until(reader, "pong")
    assert [m["type"] for m in seen] == ["lobby", "pong"] and seen[0]["state"] == "lobby"
    host.start_now()
    await until(reader, "state")
    writer.write(encode({"type": "resync"}))
    writer.write(encode({"type": "ping"}))
    whole = [
        m
        for m in await until(reader, "pong")
        if m["type"] == "state" and m["by"] is None and m["events"] == []
    ]
    assert whole and 1 <= whole[-1]["seq"] <= host.server.seq
    assert whole[-1]["view"]["seat"] == 0 and whole[-1]["view"]["hand"]
    writer.close()


async def first_frames(reader: asyncio.StreamReader, n: int) -> list[dict]:
    return [await frame(reader) for _ in range(n)]


async def test_joining_is_always_welcome_then_lobby_then_state(make_host):
    assert "always `welcome`, then the `lobby` message" in DOC
    host = await make_host(players=3, bots=1)
    # a new seat in the lobby, a spectator in the lobby: welcome, lobby (no match yet)
    ann, ann_writer = await raw(host, hello("Ann"))
    got = await first_frames(ann, 2)
    assert [m["type"] for m in got] == ["welcome", "lobby"]
    token = got[0]["token"]
    rail, rail_writer = await raw(host, hello("Rail", spectate=True))
    assert [m["type"] for m in await first_frames(rail, 2)] == ["welcome", "lobby"]
    # the seat that fills the table: welcome, its lobby, the match's lobby, then seq 1
    bea, bea_writer = await raw(host, hello("Bea"))
    got = await first_frames(bea, 4)
    assert [m["type"] for m in got] == ["welcome", "lobby", "lobby", "state"]
    assert [m["state"] for m in got[1:3]] == ["lobby", "playing"] and got[3]["seq"] == 1
    # a spectator mid-match, and a rejoin mid-match: welcome, lobby, state
    late, late_writer = await raw(host, hello("Late", spectate=True))
    got = await first_frames(late, 3)
    assert [m["type"] for m in got] == ["welcome", "lobby", "state"]
    assert got[1]["state"] == "playing" and got[2]["view"]["seat"] is None
    back, back_writer = await raw(host, hello("Ann", token=token))
    got = await first_frames(back, 3)
    assert [m["type"] for m in got] == ["welcome", "lobby", "state"]
    assert got[0]["seat"] == 0 and got[2]["view"]["seat"] == 0 and got[2]["view"]["hand"]
    for w in (ann_writer, rail_writer, bea_writer, late_writer, back_writer):
        w.close()


async def test_ping_and_pong_carry_the_newest_seq(make_host):
    assert '`{"type": "ping", "seq": 42}` every 15 s' in DOC
    assert "it sends `resync` again — at every ping until it holds the newest `seq`" in DOC
    host = await make_host(players=2, bots=1, limits=Limits(ping_interval=0.2))
    reader, writer = await raw(host, hello("Ann"))
    got = await until(reader, "ping")  # the match starts as Ann fills the table
    states = [m for m in got if m["type"] == "state"]
    assert states and got[-1] == {"type": "ping", "seq": states[-1]["seq"]}
    writer.write(encode({"type": "ping"}))
    got = await until(reader, "pong")
    seqs = [m["seq"] for m in got if m["type"] == "state"] or [states[-1]["seq"]]
    assert got[-1] == {"type": "pong", "seq": seqs[-1]}  # the newest state sent before it
    # a client that lost its last update: resync, and again at each ping that shows it behind
    writer.write(encode({"type": "resync"}))
    whole = [m for m in await until(reader, "ping") if m["type"] == "state"]
    assert whole[0]["by"] is None and whole[0]["events"] == [] and "view" in whole[0]
    writer.close()


async def test_a_call_or_pass_names_its_discard_by_claim_on(hosts):
    assert "**`on` names the discard a call or a pass answers**" in DOC
    from rum500.host import HostConfig, start_host
    from tests.host.claim_tables import claim_position

    game = claim_position()
    seats = [{"name": n, "token": f"token-{i}", "bot": False} for i, n in enumerate("ABC")]
    host = await start_host(
        HostConfig(resume_game=game, resume_seats=seats, bind="127.0.0.1", claim_window=10.0)
    )
    hosts.append((host, []))
    host.table.claim_window.clock = lambda: 1000.0  # only the players close the window
    every = list(Options().to_dict())
    conns = [
        await raw(host, hello(n, token=f"token-{i}", options=every)) for i, n in enumerate("ABC")
    ]
    for reader, _ in conns:
        await until(reader, "state")
    (a, a_w), (b, b_w), (c, c_w) = conns

    async def act(writer, reader, ident: int, action: dict) -> dict:
        writer.write(encode({"type": "action", "id": ident, "action": action}))
        return (await until_id(reader, ident))[-1]

    async def until_id(reader, ident: int) -> list[dict]:
        seen: list[dict] = []
        while not seen or seen[-1].get("id") != ident:
            seen.append(await frame(reader))
        return seen

    assert (await act(a_w, a, 1, {"type": "discard", "card": "7D"}))["type"] == "accepted"
    view: dict = {}
    while view.get("phase") != "claim":
        view = (await until(b, "state"))[-1]["view"]
    claim = view["claim"]
    on = claim["on"]
    assert isinstance(on, int) and claim["card"] == "7D"
    for w, r, i in ((b_w, b, 2), (c_w, c, 3)):
        assert (await act(w, r, i, {"type": "pass", "on": on}))["type"] == "accepted"
    assert (await act(b_w, b, 4, {"type": "draw", "source": "stock"}))["type"] == "accepted"
    assert (await act(b_w, b, 5, {"type": "discard", "card": "3H"}))["type"] == "accepted"
    # Cid's call on Ann's 7♦ reaches the host in the window of Bea's 3♥
    late = await act(c_w, c, 6, {"type": "rummy", "meld": 0, "on": on})
    sentence = "the discard you answered is no longer open to calls"
    assert late["type"] == "refused" and late["message"] == sentence
    assert late["template"] == sentence and late["params"] == {} and sentence in DOC
    late = await act(c_w, c, 7, {"type": "pass", "on": on})
    assert late["type"] == "refused" and late["message"] == sentence
    assert host.table.claim_window.passed == set()  # the open window was not touched
    for _, w in conns:
        w.close()


def test_lobby_addresses_of_a_host_bound_to_one_address_name_just_that_one():
    from rum500.host.addresses import lan_addresses

    assert 'one bound to `::1` gives `["[::1]:PORT"]`' in DOC
    assert lan_addresses("::1", 5500) == ["[::1]:5500"]
    assert lan_addresses("127.0.0.1", 5500) == ["127.0.0.1:5500"]
    assert 'a host bound to `127.0.0.1` (`rum500 play`) gives `["127.0.0.1:PORT"]`' in DOC


async def test_the_password_wait_is_counted_from_the_failure(make_host):
    assert "the wait is counted from the failure, not from the proof" in DOC
    host = await make_host(players=2, bots=1, password="s3cret", limits=Limits(password_delay=0.2))
    reader, writer = await raw(host, hello("Guess"))
    nonce = (await frame(reader))["nonce"]
    writer.write(encode({"type": "auth", "proof": auth_proof("guess", nonce)}))
    assert [m["code"] for m in await to_the_end(reader)] == ["bad_password"]
    writer.close()
    assert 0.0 < host.server.password_delay("127.0.0.1") <= 0.2
    await asyncio.sleep(0.25)  # longer than the wait: a proof now is judged at once
    assert host.server.password_delay("127.0.0.1") == 0.0


async def test_seq_starts_again_at_a_new_host(hosts):
    assert "**`seq` starts again at each new host.**" in DOC
    from rum500.host import HostConfig, start_host
    from tests.host.claim_tables import claim_position

    seats = [{"name": n, "token": f"token-{i}", "bot": False} for i, n in enumerate("ABC")]
    for _ in range(2):  # a match at one host, then at the next: seq 1 at each
        game = claim_position(Options(target=5000))
        host = await start_host(HostConfig(resume_game=game, resume_seats=seats, bind="127.0.0.1"))
        hosts.append((host, []))
        reader, writer = await raw(host, hello("A", token="token-0"))
        got = await until(reader, "state")
        assert got[-1]["seq"] == 1 and got[-1]["view"]["hand"]
        writer.write(
            encode({"type": "action", "id": 1, "action": {"type": "discard", "card": "9S"}})
        )
        assert [m for m in await until(reader, "accepted")][-1]["seq"] == 2
        writer.close()
        await host.close()
