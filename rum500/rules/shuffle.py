"""A committed deal: how a hand's whole order follows from the host's secret and the seated
clients' contributions (docs/rules.md, "A deal nobody can stack"; docs/protocol.md §17).

Pure: SHA-256 only, no clock, no global random. Everything is specified here precisely
enough for an outside client to re-derive the same order:

* a **secret** and a **contribution** are 32 bytes, written as 64 lowercase hex digits;
  the **commitment** to a secret is ``SHA-256(secret)`` in hex;
* the hand's **key** is ``SHA-256(b"rum500 deal v1" || secret || c_0 || … || c_{n-1})``
  over the raw bytes, where ``c_s`` is ``0x01`` followed by seat ``s``'s 32 bytes when its
  contribution was used, else the single byte ``0x00``;
* a **stream** with a label (``b"deal"`` or ``b"reshuffle"``) is the blocks
  ``SHA-256(key || label || i)`` for ``i = 0, 1, 2, …`` (``i`` as 8 bytes, big-endian),
  each block read as four 64-bit big-endian unsigned numbers, in order;
* ``below(m)`` takes numbers from the stream until one is under
  ``2**64 - (2**64 mod m)`` and returns it modulo ``m`` (no bias);
* **shuffle** (Fisher–Yates): for ``i`` from ``len - 1`` down to ``1``, swap items ``i``
  and ``below(i + 1)``;
* the **deal order**: the table's cards in their fixed order (:func:`rum500.cards.deck`:
  ``AS 2S … KS AH … KH AD … KD AC … KC``, then the jokers ``JK`` when they play, the whole
  repeated per deck), shuffled with the ``deal`` stream; then the cut ``1 + below(len - 1)``
  from the same stream, and the order is ``order[cut:] + order[:cut]``;
* a **reshuffle** of the discard pile into the stock (RULES.md §7): the pile bottom to top
  without its top card, shuffled with the ``reshuffle`` stream; the shuffled list's last
  card is the new stock's top.

How an order is dealt (the seat left of the dealer gets the first card …, then the
upcard, then the stock, its top first) is :func:`layout`.
"""

from __future__ import annotations

import hashlib
import re

from rum500 import cards as C

KEY_TAG = b"rum500 deal v1"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_TWO64 = 1 << 64


def is_hex32(value: object) -> bool:
    """Whether ``value`` is 32 bytes written as 64 lowercase hex digits."""
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def commitment(secret: str) -> str:
    """The commitment to ``secret`` (64 hex digits): SHA-256 of its 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(secret)).hexdigest()


def hand_key(secret: str, contributions: list[str | None]) -> bytes:
    """The hand's key from the host's secret and each seat's contribution (None: not used)."""
    h = hashlib.sha256(KEY_TAG)
    h.update(bytes.fromhex(secret))
    for c in contributions:
        h.update(b"\x00" if c is None else b"\x01" + bytes.fromhex(c))
    return h.digest()


class Stream:
    """The numbers of one labelled stream of a key (see the module docstring)."""

    def __init__(self, key: bytes, label: bytes) -> None:
        self._key, self._label = key, label
        self._block = 0
        self._numbers: list[int] = []

    def next64(self) -> int:
        if not self._numbers:
            digest = hashlib.sha256(
                self._key + self._label + self._block.to_bytes(8, "big")
            ).digest()
            self._block += 1
            self._numbers = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._numbers.pop()

    def below(self, m: int) -> int:
        """A number from 0 to ``m - 1``, without bias."""
        limit = _TWO64 - _TWO64 % m
        while True:
            u = self.next64()
            if u < limit:
                return u % m

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place: for i from the end down to 1, swap i and below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def deal_order(key: bytes, deck: list[int]) -> tuple[list[int], int]:
    """The hand's order (shuffled, then cut) of the table's cards ``deck`` (in their fixed
    order), and the cut."""
    stream = Stream(key, b"deal")
    order = list(deck)
    stream.shuffle(order)
    cut = 1 + stream.below(len(order) - 1)
    return order[cut:] + order[:cut], cut


def reshuffled(key: bytes, cards: list[int]) -> list[int]:
    """The new stock of a reshuffle: ``cards`` (the discard pile bottom to top, without its
    top card) shuffled; the last is the stock's top."""
    out = list(cards)
    Stream(key, b"reshuffle").shuffle(out)
    return out


def layout(order: list[int], players: int, dealer: int, hand_size: int) -> dict:
    """How ``order`` is dealt: ``hands`` (per seat: seat ``dealer + k`` gets cards ``k - 1``,
    ``k - 1 + players``, … for ``k`` from 1), ``upcard`` (the next card), ``stock`` (the
    rest, its top first) — as card names."""
    pos = players * hand_size
    hands: list[list[str]] = [[] for _ in range(players)]
    for k in range(1, players + 1):
        hands[(dealer + k) % players] = C.names(order[k - 1 : pos : players])
    return {"hands": hands, "upcard": C.name(order[pos]), "stock": C.names(order[pos + 1 :])}


def check_deal(deal: object, players: int) -> str | None:
    """Why ``deal`` (a deal action's commitment fields: ``commitment``, ``secret``,
    ``contributions``) is malformed or its secret does not match its commitment; None when
    it is sound."""
    if not isinstance(deal, dict):
        return "a committed deal is a map"
    if not is_hex32(deal.get("commitment")) or not is_hex32(deal.get("secret")):
        return "a committed deal needs a commitment and a secret of 64 hex digits"
    given = deal.get("contributions")
    if not isinstance(given, list) or len(given) != players:
        return "a committed deal lists one contribution (or none) per seat"
    if not all(c is None or is_hex32(c) for c in given):
        return "a contribution is 64 hex digits"
    if commitment(deal["secret"]) != deal["commitment"]:
        return "the secret does not match the commitment"
    return None
