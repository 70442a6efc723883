"""A committed deal (rum500/rules/shuffle.py, docs/rules.md "A deal nobody can stack"): the
documented derivation, pinned by a test vector an outside client can check against; the
engine deals exactly that order; replay, save/restore and take-back stay exact; a wrong
secret is refused; a reshuffle follows the hand's key."""

from __future__ import annotations

import hashlib

import pytest

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options
from rum500.rules import shuffle as S

SECRET = "11" * 32
MINE = "22" * 32


def committed(secret: str = SECRET, contributions: list | None = None) -> dict:
    return {
        "type": "deal",
        "commitment": S.commitment(secret),
        "secret": secret,
        "contributions": contributions if contributions is not None else [MINE, None],
    }


def test_the_documented_test_vector() -> None:
    """docs/rules.md gives these figures: an outside client re-derives them from the text."""
    assert S.commitment(SECRET) == hashlib.sha256(bytes.fromhex(SECRET)).hexdigest()
    assert S.commitment(SECRET) == (
        "02d449a31fbb267c8f352e9968a79e3e5fc95c1bbeaa502fd6454ebde5a4bedc"
    )
    key = S.hand_key(SECRET, [MINE, None])
    assert (
        key
        == hashlib.sha256(
            b"rum500 deal v1" + bytes.fromhex(SECRET) + b"\x01" + bytes.fromhex(MINE) + b"\x00"
        ).digest()
    )
    order, cut = S.deal_order(key, C.deck(1))
    assert cut == 49
    assert C.names(order[:8]) == ["10D", "9D", "10S", "QC", "AD", "KC", "JC", "9S"]
    lay = S.layout(order, 2, 0, 13)
    assert lay["upcard"] == "6D" and lay["stock"][:3] == ["4D", "QH", "5H"]


def test_below_is_uniform_fisher_yates_over_the_stream() -> None:
    stream = S.Stream(b"k" * 32, b"deal")
    first = hashlib.sha256(b"k" * 32 + b"deal" + (0).to_bytes(8, "big")).digest()
    assert stream.next64() == int.from_bytes(first[:8], "big")
    assert stream.next64() == int.from_bytes(first[8:16], "big")
    counts = [0] * 3
    for _ in range(3000):
        counts[S.Stream(bytes([_ % 256, _ // 256]), b"x").below(3)] += 1
    assert all(900 < c < 1100 for c in counts)  # no value left out or favoured


def test_the_engine_deals_the_committed_order_and_replays_it() -> None:
    g = Game(2, 5)
    g.apply(committed())
    assert g.hand_number == 1 and len(g.actions) == 1
    order, _ = S.deal_order(S.hand_key(SECRET, [MINE, None]), C.deck(1))
    lay = S.layout(order, 2, g.dealer, g.hand_size)
    assert [C.names(h) for h in g.hands] == lay["hands"]
    assert C.name(g.pile[0]) == lay["upcard"]
    assert C.names(g.stock[::-1]) == lay["stock"]
    again = Game.replay(2, 5, g.actions)
    assert again.to_dict() == g.to_dict() == Game.from_dict(g.to_dict()).to_dict()
    before = Game(2, 5).to_dict()
    g.pop()
    assert g.to_dict() == before


def test_a_later_hand_and_its_reshuffle_follow_the_key() -> None:
    options = Options(target=5000, empty_stock="reshuffle")
    g = Game(2, 3, options)
    g.apply(committed())
    while g.hand_number == 1:  # play the hand out: stock draws and the first discard
        if g.phase.value == "hand_over":
            break
        if g.phase.value == "draw":
            g.apply({"type": "end_hand"} if not g.stock else {"type": "draw", "source": "stock"})
        else:
            g.apply({"type": "discard", "card": C.name(g.hands[g.turn][0])})
        if g.reshuffled:  # the discard just played: the pile under it became the stock
            before = Game.replay(2, 3, g.actions[:-1], options)
            expected = S.reshuffled(S.hand_key(SECRET, [MINE, None]), before.pile)
            assert C.names(g.stock) == C.names(expected)
            assert C.names(expected) != C.names(before.pile)  # shuffled indeed
            break
    assert g.reshuffled


def test_a_wrong_secret_or_a_late_first_deal_is_refused() -> None:
    g = Game(2, 5)
    bad = committed()
    bad["secret"] = "33" * 32
    with pytest.raises(IllegalMove):
        g.apply(bad)
    with pytest.raises(IllegalMove):
        g.apply({**committed(), "contributions": [MINE]})  # not one per seat
    g.apply({"type": "draw", "source": "stock"})
    g.apply({"type": "discard", "card": C.name(g.hands[g.turn][0])})
    with pytest.raises(IllegalMove):
        g.apply(committed())  # only as the match's first action
