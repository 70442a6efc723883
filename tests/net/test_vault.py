"""net/vault.py: Shamir shares of a key, the key check, and AES-GCM sealing of a table's records."""

from __future__ import annotations

import base64
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.vault import (
    KEY_BYTES,
    PRIME,
    Opener,
    Sealer,
    VaultError,
    combine,
    key_check,
    new_key,
    share_digest,
    split,
)

keys = st.binary(min_size=KEY_BYTES, max_size=KEY_BYTES)


def _raw(sealed: str) -> bytes:
    return base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))


def _text(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _wrong_or_refused(shares: list[str], key: bytes) -> bool:
    """Whether ``shares`` give a key other than ``key`` (told by its check) or are refused."""
    try:
        got = combine(shares)
    except VaultError as e:
        return "do not give a key" in str(e)
    return got != key and key_check(got) != key_check(key)


# --- keys and shares ---------------------------------------------------------------------------


def test_new_keys_are_fresh_keys():
    made = {new_key() for _ in range(50)}
    assert len(made) == 50
    assert all(len(k) == KEY_BYTES for k in made)


@settings(max_examples=60, deadline=None)
@given(key=keys, data=st.data())
def test_any_threshold_shares_give_the_key_back(key: bytes, data: st.DataObject):
    holders = data.draw(st.integers(1, 12))
    threshold = data.draw(st.integers(1, holders))
    shares = split(key, holders, threshold)
    assert len(shares) == holders
    assert [s.split(":")[0] for s in shares] == [str(x) for x in range(1, holders + 1)]
    some = data.draw(st.lists(st.sampled_from(shares), min_size=threshold, unique=True))
    some = data.draw(st.permutations(some))
    assert combine(some) == key
    assert combine(some + some[:1]) == key  # the same share twice counts once


@settings(max_examples=60, deadline=None)
@given(key=keys, data=st.data())
def test_fewer_than_threshold_shares_do_not(key: bytes, data: st.DataObject):
    holders = data.draw(st.integers(2, 12))
    threshold = data.draw(st.integers(2, holders))
    shares = split(key, holders, threshold)
    few = data.draw(
        st.lists(st.sampled_from(shares), min_size=1, max_size=threshold - 1, unique=True)
    )
    assert _wrong_or_refused(few, key)


def test_every_threshold_subset_of_a_small_split():
    key = new_key()
    shares = split(key, 5, 3)
    for r in range(1, 6):
        for some in itertools.combinations(shares, r):
            if r >= 3:
                assert combine(some) == key
            else:
                assert _wrong_or_refused(some, key)


def test_the_most_holders():
    key = new_key()
    shares = split(key, 255, 200)
    assert combine(shares[55:]) == key
    assert combine(shares[::-1][:200]) == key


def test_leading_zero_bytes_survive():
    for key in (bytes(KEY_BYTES), bytes(KEY_BYTES - 1) + b"\x01", b"\xff" * KEY_BYTES):
        assert combine(split(key, 3, 2)[1:]) == key


def test_a_share_alone_looks_uniform():
    key = b"\x00" * KEY_BYTES  # the most regular key there is
    n = 400
    ys = [int(split(key, 3, 2)[0].split(":")[1], 16) for _ in range(n)]
    assert len(set(ys)) == n  # different splits of one key give different shares
    assert all(0 <= y < PRIME for y in ys)
    for bit in range(521):  # every bit of y, the top one too, is set about half the time
        ones = sum(y >> bit & 1 for y in ys)
        assert n * 0.3 < ones < n * 0.7, (bit, ones)


def test_shares_are_fixed_width_text():
    for share in split(new_key(), 4, 2):
        x, y = share.split(":")
        assert len(y) == 131 and y == y.lower()
        int(y, 16)


def test_mixed_splits_do_not_give_the_key():
    key = new_key()
    a, b = split(key, 3, 2), split(key, 3, 2)
    assert _wrong_or_refused([a[0], b[1]], key)


@pytest.mark.parametrize(
    ("holders", "threshold"),
    [(3, 0), (3, 4), (0, 0), (256, 2), (-1, 1), (3, 1.5), ("3", 2)],
)
def test_split_refuses_impossible_counts(holders, threshold):
    with pytest.raises(VaultError, match="threshold"):
        split(new_key(), holders, threshold)


@pytest.mark.parametrize("secret", [b"", b"x" * 31, b"x" * 33, "x" * 32])
def test_split_takes_only_keys(secret):
    with pytest.raises(VaultError, match="32 bytes"):
        split(secret, 3, 2)


Y = "0" * 130 + "7"


@pytest.mark.parametrize(
    "share",
    [
        "",
        "1",
        ":" + Y,
        "0:" + Y,
        "01:" + Y,
        "-1:" + Y,
        "1000:" + Y,
        "1:" + Y[:-1],
        "1:" + Y + "0",
        "1:" + Y.upper()[:-1] + "A",
        "1:" + "0x" + Y[2:],
        " 1:" + Y,
        "1:" + Y + "\n",
        "1;" + Y,
        b"1:" + Y.encode(),
        (1, 7),
        None,
    ],
)
def test_malformed_shares_are_refused_clearly(share):
    with pytest.raises(VaultError, match="a share is text 'x:y'"):
        combine([share])


@pytest.mark.parametrize("share", ["256:" + Y, "999:" + Y, "1:" + "f" * 131, f"1:{PRIME:0131x}"])
def test_shares_out_of_range_are_refused(share):
    with pytest.raises(VaultError, match="out of range"):
        combine([share])


def test_combine_refuses_no_shares_and_conflicting_ones():
    with pytest.raises(VaultError, match="no shares"):
        combine([])
    with pytest.raises(VaultError, match="no shares"):
        combine(iter(()))
    a, b = split(new_key(), 3, 2), split(new_key(), 3, 2)
    with pytest.raises(VaultError, match="two different shares for x = 2"):
        combine([a[1], b[1]])


def test_key_check_tells_keys_apart():
    key = new_key()
    tag = key_check(key)
    assert len(tag) == 16 and int(tag, 16) >= 0
    assert key_check(bytes(key)) == tag
    assert key_check(key[:-1] + bytes([key[-1] ^ 1])) != tag
    assert len({key_check(new_key()) for _ in range(100)}) == 100
    with pytest.raises(VaultError):
        key_check(b"short")


# --- sealing ------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(key=keys, table=st.text(max_size=40), seq=st.integers(0, 2**63 - 1), data=st.binary())
def test_seal_then_open(key: bytes, table: str, seq: int, data: bytes):
    sealed = Sealer(key, table).seal(seq, data)
    assert isinstance(sealed, str)
    assert set(sealed) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert Opener(key, table).open(seq, sealed) == data


def test_sealed_text_hides_the_data():
    sealer = Sealer(new_key(), "t")
    a, b = sealer.seal(1, b"AS 10H QD 2C"), sealer.seal(1, b"AS 10H QD 2C")
    assert a != b
    assert b"10H" not in _raw(a)
    assert len(_raw(a)) == 12 + len(b"AS 10H QD 2C") + 16  # nonce, ciphertext, tag


def test_every_changed_bit_is_caught():
    key = new_key()
    sealed = Sealer(key, "table-1").seal(7, b"hand of seat 2: AS 10H QD 2C")
    opener = Opener(key, "table-1")
    raw = _raw(sealed)
    for i in range(len(raw)):
        for bit in (0, 3, 7):
            bad = bytearray(raw)
            bad[i] ^= 1 << bit
            with pytest.raises(VaultError, match="does not open"):
                opener.open(7, _text(bytes(bad)))
    for bad in (raw[:-1], raw + b"\x00", raw[1:], raw[:12] + raw[13:]):
        with pytest.raises(VaultError):
            opener.open(7, _text(bad))
    assert opener.open(7, sealed) == b"hand of seat 2: AS 10H QD 2C"


def test_every_changed_character_is_caught():
    key = new_key()
    sealed = Sealer(key, "t").seal(0, b"x" * 20)  # 48 bytes: the last digit has stray bits
    opener = Opener(key, "t")
    for i, ch in enumerate(sealed):
        for other in "AQgw_-":
            if other != ch:
                with pytest.raises(VaultError):
                    opener.open(0, sealed[:i] + other + sealed[i + 1 :])


def test_wrong_key_seq_or_table_is_refused():
    key = new_key()
    sealed = Sealer(key, "table-1").seal(5, b"stock: 3D 4D")
    with pytest.raises(VaultError, match="does not open"):
        Opener(new_key(), "table-1").open(5, sealed)
    with pytest.raises(VaultError, match="does not open"):
        Opener(key, "table-1").open(6, sealed)
    with pytest.raises(VaultError, match="does not open"):
        Opener(key, "table-2").open(5, sealed)
    with pytest.raises(VaultError, match="does not open"):
        Opener(key, "table-").open(5, sealed)
    assert Opener(key, "table-1").open(5, sealed) == b"stock: 3D 4D"


def test_a_record_cannot_be_moved_between_tables_and_seqs():
    key = new_key()
    a = Sealer(key, "ab").seal(1, b"")
    with pytest.raises(VaultError):
        Opener(key, "a").open(1, a)
    with pytest.raises(VaultError):
        Opener(key, "ab").open(2**32 + 1, a)


@pytest.mark.parametrize(
    "sealed",
    [
        "",
        "A",
        "AAAA",
        "A" * 38 + "=",
        "A" * 37 + "+",
        "A" * 37 + "/",
        "A" * 20 + " " + "A" * 20,
        "é" * 40,
        b"A" * 40,
        None,
    ],
)
def test_bad_text_is_refused(sealed):
    with pytest.raises(VaultError):
        Opener(new_key(), "t").open(0, sealed)


def test_a_non_canonical_last_digit_is_refused():
    key = new_key()
    sealed = Sealer(key, "t").seal(0, b"x")  # 29 bytes: the last of 39 digits carries 2 bits
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(sealed[-1])
    twin = sealed[:-1] + alphabet[last ^ 1]  # same bytes, a stray bit set
    assert _raw(twin) == _raw(sealed)
    with pytest.raises(VaultError, match="base64"):
        Opener(key, "t").open(0, twin)


def test_nonces_never_repeat():
    key = new_key()
    sealers = [Sealer(key, "t") for _ in range(3)]
    nonces = set()
    for sealer in sealers:
        for _ in range(3000):
            nonces.add(_raw(sealer.seal(1, b"same"))[:12])  # same seq and data every time
    assert len(nonces) == 9000


@pytest.mark.parametrize("seq", [-1, 2**63, 1.0, "1", None, True])
def test_seq_must_be_a_record_number(seq):
    key = new_key()
    with pytest.raises(VaultError, match="seq"):
        Sealer(key, "t").seal(seq, b"")
    with pytest.raises(VaultError, match="seq"):
        Opener(key, "t").open(seq, Sealer(key, "t").seal(0, b""))


@pytest.mark.parametrize(
    ("key", "table"),
    [
        (b"k" * 16, "t"),
        ("k" * 32, "t"),
        (b"k" * 32, None),
        (b"k" * 32, b"t"),
        (b"k" * 32, "\udc80"),
    ],
)
def test_sealers_need_a_key_and_a_table_id(key, table):
    with pytest.raises(VaultError):
        Sealer(key, table)
    with pytest.raises(VaultError):
        Opener(key, table)


def test_a_share_digest_names_one_share_and_nothing_else():
    shares = split(new_key(), 3, 2)
    digests = [share_digest(s) for s in shares]
    assert all(re.fullmatch(r"[0-9a-f]{64}", d) for d in digests)
    assert len(set(digests)) == 3 and digests == [share_digest(s) for s in shares]
    assert all(
        d not in s and s.split(":")[1][:16] not in d for s, d in zip(shares, digests, strict=True)
    )
