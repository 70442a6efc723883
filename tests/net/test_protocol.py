"""Framing and message validation, and docs/protocol.md kept honest."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.framing import MAX_DEPTH, MAX_FRAME, FrameError, decode, encode, encode_parts, pack
from net.protocol import ERROR_CODES, PROTOCOL_VERSION, auth_proof, check_client_message

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
SOURCES = Path(__file__).resolve().parents[2] / "net"


def test_round_trip_and_header():
    msg = {"type": "chat", "text": "hé", "n": [1, {"a": None}]}
    frame = encode(msg)
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert decode(frame[4:]) == msg


_keys = st.text(min_size=1, max_size=12)
_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=8,
)


@given(
    head=st.dictionaries(_keys, _values, max_size=4),
    parts=st.dictionaries(
        _keys, _values | st.dictionaries(_keys, _values, max_size=6).map(lambda d: ("map", d))
    ),
)
def test_a_frame_of_packed_parts_is_the_frame_of_the_whole_message(head, parts):
    """encode_parts (the host's updates: views packed key by key, the keys' names packed
    once and kept) gives the very bytes encode gives for the whole message — for the same
    names met again and for new ones alike."""
    parts = {k: v for k, v in parts.items() if k not in head}
    whole = {**head, **{k: v[1] if isinstance(v, tuple) else v for k, v in parts.items()}}
    packed = {
        k: {i: pack(x) for i, x in v[1].items()} if isinstance(v, tuple) else pack(v)
        for k, v in parts.items()
    }
    for _ in range(2):  # the second time, every name is one met before
        assert encode_parts(head, packed) == encode(whole)


def test_limits():
    with pytest.raises(FrameError, match="limit"):
        encode({"type": "chat", "text": "x" * MAX_FRAME})
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(FrameError, match="nested"):
        decode(msgpack.packb({"type": "x", "d": deep}))
    with pytest.raises(FrameError):
        decode(msgpack.packb({"type": "x", "a": list(range(5000))}))
    with pytest.raises(FrameError):
        decode(msgpack.packb({1: 2}))
    with pytest.raises(FrameError, match="map"):
        decode(msgpack.packb("text"))
    with pytest.raises(FrameError):
        decode(msgpack.packb({"type": "x"}) + b"\x00")


@given(st.binary(max_size=400))
def test_decode_refuses_garbage_with_frame_error_only(data):
    try:
        msg = decode(data)
    except FrameError:
        return
    assert isinstance(msg, dict) and all(isinstance(k, str) for k in msg)


def test_hello_is_normalised():
    msg = check_client_message({"type": "hello", "version": 1, "name": " Ann\x00\n  B "})
    assert msg == {
        "type": "hello",
        "version": 1,
        "name": "Ann B",
        "token": None,
        "spectate": False,
        "deltas": False,
    }


def test_auth_proof_matches_the_documented_example():
    assert auth_proof("s3cret", "00") in DOC


def test_the_document_covers_every_message_and_error_code():
    for code in ERROR_CODES:
        assert f"`{code}`" in DOC, code
    for kind in (
        "hello",
        "auth",
        "action",
        "chat",
        "ping",
        "pong",
        "leave",
        "welcome",
        "challenge",
        "state",
        "accepted",
        "refused",
        "lobby",
        "error",
    ):
        assert f"`{kind}`" in DOC, kind
    assert f"version {PROTOCOL_VERSION}" in DOC


def test_every_error_code_the_host_sends_is_documented():
    used = set()
    for path in SOURCES.glob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r'(?:drop|error|ProtocolError)\(\s*"([a-z_]+)"', text))
    assert used and used <= set(ERROR_CODES), used - set(ERROR_CODES)


def test_net_does_not_know_the_rules():
    import ast

    for path in SOURCES.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "rum500" for n in names), (path.name, names)


def test_the_game_table_speaks_the_table_protocol():
    from net.server import Table
    from rum500.host import GameTable, HostConfig

    assert isinstance(GameTable(HostConfig(players=3), "t"), Table)
