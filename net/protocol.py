"""Message vocabulary and validation (see ``docs/protocol.md`` for the whole protocol).

Every message is a map with a string ``"type"``. :func:`check_client_message` validates what
a client sends and returns it normalised, or raises :class:`ProtocolError` whose ``code`` and
message go back to the peer in an ``error`` message.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

PROTOCOL_VERSION = 1
SERVICE_TYPE = "_rum500._tcp.local."

MAX_NAME = 24
MAX_CHAT = 300
MAX_TOKEN = 64
MAX_ACTION_ID = 2**31 - 1
MAX_OPTIONS = 64  # names in hello's "options" (the table options a client knows)
MAX_OPTION_NAME = 40
NONCE_BYTES = 32
MAX_HAND = 100_000  # a hand number in commit / contribute / reveal

#: Error codes an ``error`` message may carry. Those marked fatal close the connection.
ERROR_CODES = {
    "bad_frame": "fatal: the frame is too large or not a valid msgpack map",
    "bad_message": "a field is missing or has the wrong type",
    "unknown_type": "no such message type",
    "handshake": "fatal: the first message must be hello (then auth when asked)",
    "version": "fatal: the client speaks another protocol version",
    "options": "fatal: the table plays an option the client does not know",
    "bad_token": "fatal: no seat has this token",
    "bad_password": "fatal: wrong table password",
    "table_full": "fatal: every seat is taken (join as a spectator)",
    "busy": "fatal: too many connections (from this address, or in all): try again later",
    "flood": "fatal: too many messages too fast",
    "too_slow": "fatal: the client did not read its messages",
    "timeout": "fatal: nothing heard from the client for too long",
    "replaced": "fatal: the same seat connected again elsewhere",
    "shutdown": "fatal: the host is closing",
    "closed": "fatal: goodbye after 'leave'",
    "internal": "fatal: the host met a bug; the table goes on",
    "moved": "fatal: the table moved to another host (the 'moved' message before says where)",
    "standby": "fatal: a standby that does not host the table yet: try again shortly",
    "shoulder": "a seat's 'shoulder' or 'shoulder_end' was refused; nothing changed",
}

CLIENT_TYPES = (
    "hello",
    "auth",
    "action",
    "chat",
    "ping",
    "pong",
    "leave",
    "resync",
    "handoff_ready",
    "handoff_failed",
    "standby_ready",
    "standby_ack",
    "contribute",
    "shoulder",
    "shoulder_end",
)
MAX_ADDRESSES = 16  # addresses in handoff_ready / standby_ready / moved / standby
MAX_ADDRESS = 80  # characters of one address (an IPv6 address with its zone)


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def action_id(msg: dict) -> int | None:
    """The ``id`` of an ``action`` message when it is a usable one, else None."""
    ident = msg.get("id")
    if isinstance(ident, int) and not isinstance(ident, bool) and 0 <= ident <= MAX_ACTION_ID:
        return ident
    return None


def _text(msg: dict, key: str, limit: int, *, required: bool = True) -> str | None:
    value = msg.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ProtocolError("bad_message", f"'{key}' must be text")
    if len(value) > limit:
        raise ProtocolError("bad_message", f"'{key}' is longer than {limit} characters")
    return value


def clean_name(name: str) -> str:
    """A player name fit to show: every run of white space (newlines and tabs included)
    becomes one space, the ends are trimmed, and every other control or format character
    (Unicode category C: the zero-width joiner too, so that two names that look the same
    are the same) is dropped."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in name
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    return " ".join(kept.split())


#: invisible characters that reorder text on screen (bidirectional overrides and isolates)
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def clean_chat(text: str) -> str:
    """A chat line fit to show: every run of white space (newlines and tabs included) becomes
    one space, the ends are trimmed, other control characters, bidirectional controls,
    surrogates, private-use and unassigned code points are dropped. Other format characters
    (the zero-width joiner of emoji sequences …) are kept."""
    kept = []
    for ch in text:
        if ch.isspace():
            kept.append(" ")
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Co", "Cn") or ch in BIDI_CONTROLS:
            continue
        kept.append(ch)
    return " ".join("".join(kept).split())


def check_client_message(msg: dict) -> dict:
    """Validate a message from a client; return it normalised or raise ``ProtocolError``."""
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' (text)")
    if kind == "hello":
        version = msg.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ProtocolError("bad_message", "'version' must be a whole number")
        name = clean_name(_text(msg, "name", MAX_NAME * 4) or "")
        if not name:
            raise ProtocolError("bad_message", "a player name is needed")
        token = _text(msg, "token", MAX_TOKEN, required=False) or None  # "" is no token
        spectate = msg.get("spectate", False)
        if not isinstance(spectate, bool):
            raise ProtocolError("bad_message", "'spectate' must be true or false")
        options = msg.get("options")  # the table options the client knows (None: not said)
        if options is not None and (
            not isinstance(options, list)
            or len(options) > MAX_OPTIONS
            or not all(isinstance(o, str) and 0 < len(o) <= MAX_OPTION_NAME for o in options)
        ):
            raise ProtocolError(
                "bad_message", f"'options' must be a list of at most {MAX_OPTIONS} names"
            )
        deltas = msg.get("deltas", False)
        if not isinstance(deltas, bool):
            raise ProtocolError("bad_message", "'deltas' must be true or false")
        can_host = msg.get("can_host", False)
        if not isinstance(can_host, bool):
            raise ProtocolError("bad_message", "'can_host' must be true or false")
        deal_check = msg.get("deal_check", False)
        if not isinstance(deal_check, bool):
            raise ProtocolError("bad_message", "'deal_check' must be true or false")
        return {
            "type": "hello",
            "version": version,
            "name": name[:MAX_NAME],
            "token": token,
            "spectate": spectate,
            **({"options": options} if options is not None else {}),
            "deltas": deltas,
            **({"can_host": True} if can_host else {}),
            **({"deal_check": True} if deal_check else {}),
        }
    if kind == "auth":
        return {"type": "auth", "proof": _text(msg, "proof", 128)}
    if kind == "action":
        ident = msg.get("id")
        if not isinstance(ident, int) or isinstance(ident, bool) or not 0 <= ident <= MAX_ACTION_ID:
            raise ProtocolError("bad_message", "'id' must be a whole number from 0 to 2^31-1")
        action = msg.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ProtocolError("bad_message", "'action' must be a map with a 'type'")
        seat = msg.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_message", "'seat' must be a whole number")
        return {"type": "action", "id": ident, "action": action, "seat": seat}
    if kind == "chat":
        text = clean_chat(_text(msg, "text", MAX_CHAT) or "")
        if not text:
            raise ProtocolError("bad_message", "an empty chat message")
        return {"type": "chat", "text": text}
    if kind in ("ping", "pong", "leave", "resync"):
        return {"type": kind}
    if kind in ("handoff_ready", "standby_ready"):
        return {
            "type": kind,
            "id": _whole(msg, "id"),
            "addresses": check_addresses(msg.get("addresses")),
            "port": check_port(msg.get("port")),
        }
    if kind == "standby_ack":
        return {"type": kind, "id": _whole(msg, "id"), "seq": _whole(msg, "seq")}
    if kind == "contribute":
        hand = msg.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or not 0 < hand <= MAX_HAND:
            raise ProtocolError(
                "bad_message", f"'hand' must be a whole number from 1 to {MAX_HAND}"
            )
        return {
            "type": kind,
            "hand": hand,
            "commitment": _hex32(msg, "commitment"),
            "contribution": _hex32(msg, "contribution"),
        }
    if kind in ("shoulder", "shoulder_end"):
        return _shoulder(msg, kind)
    if kind == "handoff_failed":
        return {"type": kind, "id": _whole(msg, "id"), "message": _text(msg, "message", MAX_CHAT)}
    raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")


def _shoulder(msg: dict, kind: str) -> dict:
    """``shoulder`` (a seat shows its hand to the spectator ``spectator``, a connection
    number, or ``name``: exactly one of them) and ``shoulder_end``; ``seat`` optional."""
    seat = msg.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ProtocolError("bad_message", "'seat' must be a whole number")
    if kind == "shoulder_end":
        return {"type": kind, "seat": seat}
    ident, name = msg.get("spectator"), msg.get("name")
    if (ident is None) == (name is None):
        raise ProtocolError("bad_message", "'shoulder' needs either 'spectator' or 'name'")
    if ident is not None:
        ident = _whole(msg, "spectator")
    else:
        name = clean_name(_text(msg, "name", MAX_NAME * 4) or "")[:MAX_NAME]
        if not name:
            raise ProtocolError("bad_message", "'name' must name a spectator")
    return {"type": kind, "seat": seat, "spectator": ident, "name": name}


def is_hex32(value: object) -> bool:
    """Whether ``value`` is 32 bytes written as 64 lowercase hex digits."""
    return (
        isinstance(value, str)
        and len(value) == 64
        and all(ch in "0123456789abcdef" for ch in value)
    )


def _hex32(msg: dict, key: str) -> str:
    value = msg.get(key)
    if not is_hex32(value):
        raise ProtocolError("bad_message", f"'{key}' must be 64 lowercase hex digits")
    return value  # type: ignore[return-value]


def _whole(msg: dict, key: str) -> int:
    value = msg.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ACTION_ID:
        raise ProtocolError("bad_message", f"'{key}' must be a whole number from 0 to 2^31-1")
    return value


def check_port(port: object) -> int:
    """A TCP port (1–65535), or ``ProtocolError``."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ProtocolError("bad_message", "'port' must be a whole number from 1 to 65535")
    return port


def check_addresses(addresses: object) -> list[str]:
    """A list of 1–16 host addresses (text, without port), or ``ProtocolError``."""
    if (
        not isinstance(addresses, list)
        or not 0 < len(addresses) <= MAX_ADDRESSES
        or not all(isinstance(a, str) and 0 < len(a) <= MAX_ADDRESS for a in addresses)
    ):
        raise ProtocolError(
            "bad_message", f"'addresses' must be a list of 1 to {MAX_ADDRESSES} addresses"
        )
    return list(addresses)


def apply_state(view: dict | None, seq: int, msg: dict) -> dict | None:
    """The whole view after the ``state`` message ``msg``, given the ``view`` held after the
    update ``seq`` (None: none held). A ``state`` with ``view`` replaces what was held; one
    with ``delta`` (docs/protocol.md §6) applies only to the view of the update just before
    it (``msg["seq"] == seq + 1``): its keys replace the held ones and the keys in ``gone``
    are removed. Returns None when the delta cannot apply (a gap, or no view held): the
    client then asks for the whole view (``resync``). ``view`` itself is never changed."""
    full = msg.get("view")
    if isinstance(full, dict):
        return full
    delta = msg.get("delta")
    if view is None or not isinstance(delta, dict) or msg.get("seq") != seq + 1:
        return None
    out = {**view, **delta}
    gone = msg.get("gone")
    for key in gone if isinstance(gone, list) else ():
        if isinstance(key, str):
            out.pop(key, None)
    return out


def auth_proof(password: str, nonce: str) -> str:
    """The answer to a password challenge: hex HMAC-SHA256, key = the password (UTF-8),
    message = ``"rum500-auth:" + nonce`` (UTF-8)."""
    mac = hmac.new(password.encode(), b"rum500-auth:" + nonce.encode(), hashlib.sha256)
    return mac.hexdigest()
