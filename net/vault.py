"""The vault: a standby keeps the host's game log sealed under a key the players hold in shares.

Trust contract (what this module promises, and what it does not):

- :func:`new_key` makes a fresh 256-bit AES key from the operating system's random source.
- :func:`split` cuts a key into ``holders`` Shamir shares over the prime field of
  ``p = 2**521 - 1`` with fresh random coefficients from :mod:`secrets`. Any ``threshold``
  distinct shares give the key back through :func:`combine`; fewer than ``threshold`` tell
  nothing about it (each value of the key is equally likely given them). With fewer,
  :func:`combine` returns a wrong value or raises :class:`VaultError` — it cannot tell;
  callers compare :func:`key_check` of the result with the tag published with the shares.
- A share is text ``"x:y"``: ``x`` in decimal (1..255), ``y`` in lower-case hex, always 131
  digits (msgpack on the wire carries no ``bin``). A share is as secret as the key for whoever
  holds ``threshold - 1`` others.
- :func:`key_check` is a short public tag of a key (HMAC-SHA-256 of a fixed label, 64 bits):
  it tells whether a combined key is the right one and, HMAC being a PRF, nothing else.
- :class:`Sealer` seals with AES-256-GCM. The 96-bit nonce is a random 64-bit prefix drawn per
  sealer and a 32-bit counter of that sealer's seals, so no nonce repeats: not when a seq is
  sealed again (a take-back reuses seqs), nor across sealers under one key (but for a 2**-64
  chance per pair). The additional data binds the table id and the seq, so a sealed record
  opens only for the table and seq it was sealed for. The sealed text is URL-safe base64
  without padding of ``nonce | ciphertext | tag``.
- :class:`Opener` raises :class:`VaultError` for anything that is not exactly such a text
  sealed under this key, for this table id and seq: a wrong key, seq or table id, any changed,
  added or removed character, bad base64. It never returns tampered data.
- Nothing here hides lengths or the order of records, and nothing protects a key or a share
  once it is in a machine's memory.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Iterable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_BYTES = 32
PRIME = 2**521 - 1
MAX_HOLDERS = 255
_Y_DIGITS = 131  # hex digits of the largest field element, p - 1
_SHARE = re.compile(rf"([1-9][0-9]{{0,2}}):([0-9a-f]{{{_Y_DIGITS}}})")
_B64 = re.compile(r"[A-Za-z0-9_-]*")
_CHECK_LABEL = b"rum500 vault key check v1"
_NONCE_BYTES = 12
_PREFIX_BYTES = 8
_TAG_BYTES = 16
_MAX_SEQ = 2**63 - 1
_MAX_SEALS = 2**32


class VaultError(Exception):
    """A share, key or sealed text that cannot be used; the message says why."""


def new_key() -> bytes:
    """A fresh random key of :data:`KEY_BYTES` bytes."""
    return secrets.token_bytes(KEY_BYTES)


def _check_key(key: bytes) -> None:
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        raise VaultError(f"a key is {KEY_BYTES} bytes")


def split(secret: bytes, holders: int, threshold: int) -> list[str]:
    """``holders`` shares of ``secret`` (a key), any ``threshold`` of which give it back."""
    _check_key(secret)
    if not (
        isinstance(holders, int)
        and isinstance(threshold, int)
        and 1 <= threshold <= holders <= MAX_HOLDERS
    ):
        raise VaultError(
            f"shares need 1 <= threshold <= holders <= {MAX_HOLDERS}"
            f" (got threshold {threshold!r}, holders {holders!r})"
        )
    coeffs = [int.from_bytes(secret, "big")]
    coeffs += [secrets.randbelow(PRIME) for _ in range(threshold - 1)]
    shares = []
    for x in range(1, holders + 1):
        y = 0
        for c in reversed(coeffs):  # Horner
            y = (y * x + c) % PRIME
        shares.append(f"{x}:{y:0{_Y_DIGITS}x}")
    return shares


def _parse_share(share: object) -> tuple[int, int]:
    m = _SHARE.fullmatch(share) if isinstance(share, str) else None
    if m is None:
        shown = repr(share)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        raise VaultError(
            f"a share is text 'x:y' with x in 1..{MAX_HOLDERS} and y {_Y_DIGITS} lower-case"
            f" hex digits (got {shown})"
        )
    x, y = int(m[1]), int(m[2], 16)
    if x > MAX_HOLDERS or y >= PRIME:
        raise VaultError(f"share {x} is out of range")
    return x, y


def combine(shares: Iterable[str]) -> bytes:
    """The key behind ``shares`` (Lagrange interpolation at 0 over distinct x).

    Raises :class:`VaultError` for a malformed share, two shares with one x and different y,
    no share at all, or a result that is not a key. Too few shares give a wrong key or this
    error: check the result with :func:`key_check`."""
    points: dict[int, int] = {}
    for share in shares:
        x, y = _parse_share(share)
        if points.setdefault(x, y) != y:
            raise VaultError(f"two different shares for x = {x}")
    if not points:
        raise VaultError("no shares to combine")
    secret = 0
    for xi, yi in points.items():
        num = den = 1
        for xj in points:
            if xj != xi:
                num = num * xj % PRIME
                den = den * (xj - xi) % PRIME
        secret = (secret + yi * num * pow(den, -1, PRIME)) % PRIME
    if secret >= 1 << (8 * KEY_BYTES):
        raise VaultError("the shares do not give a key (too few, or not from one split)")
    return secret.to_bytes(KEY_BYTES, "big")


def share_digest(share: str) -> str:
    """SHA-256 (hex) of a share's text: what a host tells a standby so that it takes the
    holders' shares and no one else's. A digest tells nothing of the share (a share is a
    521-bit random-looking number)."""
    return hashlib.sha256(share.encode()).hexdigest()


def key_check(key: bytes) -> str:
    """A short public hex tag of ``key``, to tell whether a combined key is the right one."""
    _check_key(key)
    return hmac.new(key, _CHECK_LABEL, hashlib.sha256).hexdigest()[:16]


class _Keyed:
    def __init__(self, key: bytes, table_id: str) -> None:
        _check_key(key)
        try:
            tid = table_id.encode()
        except (AttributeError, UnicodeError):
            raise VaultError(f"a table id is text (got {table_id!r})") from None
        self._aead = AESGCM(key)
        self._label = b"rum500 vault v1" + struct.pack(">I", len(tid)) + tid
        self.table_id = table_id

    def _aad(self, seq: int) -> bytes:
        """What binds a record to this table and ``seq``."""
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= _MAX_SEQ:
            raise VaultError(f"seq must be an integer in 0..2**63-1 (got {seq!r})")
        return self._label + struct.pack(">Q", seq)


class Sealer(_Keyed):
    """Seals records of one table under one key; each seal has a nonce never used before."""

    def __init__(self, key: bytes, table_id: str) -> None:
        super().__init__(key, table_id)
        self._prefix = secrets.token_bytes(_PREFIX_BYTES)
        self._count = 0

    def seal(self, seq: int, data: bytes) -> str:
        """``data`` sealed for this table and ``seq``, as URL-safe base64 text."""
        aad = self._aad(seq)
        if self._count >= _MAX_SEALS:
            raise VaultError("this sealer has sealed all it may; start a new one")
        nonce = self._prefix + struct.pack(">I", self._count)
        self._count += 1
        sealed = nonce + self._aead.encrypt(nonce, bytes(data), aad)
        return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")


class Opener(_Keyed):
    """Opens what a :class:`Sealer` with the same key and table id sealed."""

    def open(self, seq: int, sealed: str) -> bytes:
        """The data sealed for ``seq``; :class:`VaultError` if it does not open."""
        aad = self._aad(seq)
        if not isinstance(sealed, str) or not _B64.fullmatch(sealed):
            raise VaultError("sealed data is URL-safe base64 text without padding")
        try:
            raw = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
        except (binascii.Error, ValueError):
            raise VaultError("sealed data is not valid base64") from None
        if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != sealed:
            raise VaultError("sealed data is not valid base64")  # stray bits in the last digit
        if len(raw) < _NONCE_BYTES + _TAG_BYTES:
            raise VaultError("sealed data is too short")
        try:
            return self._aead.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], aad)
        except InvalidTag:
            raise VaultError(
                "sealed data does not open: wrong key, table id or seq, or it was changed"
            ) from None
