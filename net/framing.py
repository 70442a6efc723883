"""Framing: one msgpack map per frame, behind a 4-byte big-endian length prefix.

A frame on the wire is ``length (uint32, big-endian) | payload (length bytes)``, where the
payload is exactly one msgpack-encoded map whose keys are strings. Decoding is bounded so a
peer can never make us allocate much: payloads over :data:`MAX_FRAME` bytes are refused before
they are read, strings, arrays and maps have length caps, nesting is at most
:data:`MAX_DEPTH` levels of maps and arrays (the message's own map is level 1), and
extension types, binary strings and non-string map keys are refused (string lengths count
UTF-8 bytes). Every refusal raises :class:`FrameError` with a message fit to send back to the peer.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any, NoReturn

import msgpack

MAX_FRAME = 64 * 1024
MAX_STR = 16 * 1024
MAX_ARRAY = 4096
MAX_MAP = 256
MAX_DEPTH = 16
HEADER = struct.Struct(">I")


class FrameError(ValueError):
    """A frame that may not be accepted: too large, not msgpack, not a map, too deep …"""


class ConnectionClosed(Exception):
    """The peer closed the connection (cleanly or half way through a frame)."""


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise FrameError(f"msgpack extension types are not allowed (got type {code})")


def encode(message: dict) -> bytes:
    """One frame (header and payload) for ``message``; ``FrameError`` if it is too large."""
    payload = msgpack.packb(message, use_bin_type=True)
    if len(payload) > MAX_FRAME:
        raise FrameError(f"frame of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(payload)) + payload


#: one packer for every part (building a packer costs more than packing a small value); its
#: ``pack`` is one call into C, whole under the GIL, so threads may share it
_PACKER = msgpack.Packer(use_bin_type=True)


def pack(value: Any) -> bytes:
    """``value`` alone in msgpack (a part of a frame that :func:`encode_parts` puts together)."""
    return _PACKER.pack(value)


#: map keys packed (the few dozen names of messages and views, packed once each)
_KEYS: dict[str, bytes] = {}


def _key(key: str) -> bytes:
    """``key`` packed; a string is kept in :data:`_KEYS` while it holds fewer than 1,024."""
    packed = _PACKER.pack(key)
    if type(key) is str and len(_KEYS) < 1024:
        _KEYS[key] = packed
    return packed


def encode_parts(head: dict, parts: dict[str, dict[str, bytes] | bytes]) -> bytes:
    """One frame for the map ``head`` plus the fields in ``parts``, each already packed
    (:func:`pack`) — or a map of packed values, packed here as a map. The same bytes as
    :func:`encode` of the whole message, without packing the parts again (the host packs a
    view's keys once and sends them to many connections). ``FrameError`` if too large."""
    packer = _PACKER
    keys = _KEYS
    out = [packer.pack_map_header(len(head) + len(parts))]
    for key, value in head.items():
        out.append(keys.get(key) or _key(key))
        out.append(packer.pack(value))
    for key, part in parts.items():
        out.append(keys.get(key) or _key(key))
        if isinstance(part, dict):
            out.append(packer.pack_map_header(len(part)))
            for inner, packed in part.items():
                out.append(keys.get(inner) or _key(inner))
                out.append(packed)
        else:
            out.append(part)
    payload = b"".join(out)
    if len(payload) > MAX_FRAME:
        raise FrameError(f"frame of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(payload)) + payload


def _check_depth(obj: Any) -> None:
    """Maps and arrays count as levels (the message's own map is level 1); scalars do not."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise FrameError(f"message nested deeper than {MAX_DEPTH} levels")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((v, depth + 1) for v in children)
        elif isinstance(item, bytes):
            raise FrameError("binary strings are not allowed: use text")


#: What a decoding error means, where msgpack's own message says little.
_WHY: dict[type, str] = {
    msgpack.FormatError: "a byte that starts no msgpack value",
    msgpack.ExtraData: "bytes left after the message",
    msgpack.StackError: "nested too deeply",
    RecursionError: "nested too deeply",
}


def decode(payload: bytes) -> dict:
    """The message in ``payload`` (a frame without its header), checked against the limits."""
    if len(payload) > MAX_FRAME:
        raise FrameError(f"frame of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    try:
        message = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            max_str_len=MAX_STR,
            max_bin_len=0,
            max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP,
            max_ext_len=0,
            use_list=True,
        )
    except FrameError:
        raise
    except (
        ValueError,
        TypeError,
        msgpack.ExtraData,
        msgpack.FormatError,
        msgpack.StackError,
        RecursionError,
        UnicodeDecodeError,
    ) as e:
        why = _WHY.get(type(e)) or str(e)[:120] or type(e).__name__
        raise FrameError(f"not a valid msgpack message: {why}") from None
    if not isinstance(message, dict):
        raise FrameError("a message must be a msgpack map")
    _check_depth(message)
    return message


async def read_frame(reader: asyncio.StreamReader) -> dict:
    """Read one frame. ``ConnectionClosed`` at end of stream, ``FrameError`` if refused.

    An oversized frame is refused from its header alone, without reading its payload; the
    stream cannot be resynchronised after that, so the caller should close the connection."""
    try:
        header = await reader.readexactly(HEADER.size)
        (length,) = HEADER.unpack(header)
        if length > MAX_FRAME:
            raise FrameError(f"frame of {length} bytes is over the {MAX_FRAME}-byte limit")
        payload = await reader.readexactly(length)
    except (asyncio.IncompleteReadError, ConnectionError) as e:
        raise ConnectionClosed(str(e) or "connection closed") from None
    return decode(payload)
