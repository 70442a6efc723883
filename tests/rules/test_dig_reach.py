"""RULES.md §4.2 with §11.1: a card dug for may be taken when ANY sequence of plays this turn
puts it on the table — also lay-offs at a run's other end that make room for the jokers
between the run and the card (the joker limit kept after every lay-off).

The positions are written by name; a brute force that tries every sequence of plays (its own
reading of RULES.md §5 and §11.1, not the engine's) is the reference for random positions.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options
from rum500.rules.game import MOVE_DIG
from tests.rules.positions import legal, position

TWO_DECKS = Options(jokers=True, decks=2)
OTHER = "2D 3S 9C KS 4C"  # a hand for the seat not to move
#: the issue's table: 8♥ and J♥ with two jokers standing for 9♥ and 10♥
RUN = ("8H JK=9H JK=10H JH", 1)


def dig(index: int) -> dict:
    return {"type": "draw", "source": "discard", "index": index}


def layoff(card: str, meld: int, joker: str | None = None) -> dict:
    a: dict = {"type": "layoff", "card": card, "meld": meld}
    if joker is not None:
        a["joker"] = joker
    return a


def both_doors_offer(g: Game, index: int) -> bool:
    """The dig is listed by the fast path (``legal_moves``) and by ``legal_actions``, and the
    checked door (``apply``) takes it; or none of the three."""
    fast = (MOVE_DIG, index) in g.legal_moves()
    listed = dig(index) in legal(g, "draw")
    try:
        g.copy().apply(dig(index))
        checked = True
    except IllegalMove:
        checked = False
    assert fast == listed == checked, (fast, listed, checked)
    return checked


def play_through(g: Game, actions: list[dict]) -> None:
    """Each action is listed when its turn comes and accepted by ``apply``; the same actions
    as fast-path moves (``apply_move``) on a copy of the start end in the same position."""
    fast = g.copy()
    for a in actions:
        assert a in g.legal_actions(), a
        g.apply(a)
        fast.apply_move(fast.legal_moves()[fast.legal_actions().index(a)])
    assert fast.to_dict() == g.to_dict()


def test_rule_4_2_dug_card_reached_after_a_layoff_at_the_runs_other_end():
    """Issue 22 §3: table 8♥ JK=9♥ JK=10♥ J♥, hand JK Q♥ 2♣ 9♠, pile 3♦ 6♥. Q♥ at the run's
    high end makes room for a third joker (as 7♥), then 6♥ lays off: the dig is legal."""
    g = position(["JK QH 2C 9S", OTHER], pile="3D 6H", melds=[RUN], options=TWO_DECKS)
    assert both_doors_offer(g, 1)
    assert not both_doors_offer(g, 0)  # 3♦ (with 6♥) has no way to the table
    play_through(
        g,
        [
            dig(1),
            layoff("QH", 0),
            layoff("JK", 0, "7H"),
            layoff("6H", 0),
            {"type": "discard", "card": "2C"},
        ],
    )
    assert C.names(g.melds[0].cards) == C.names(C.parse_many("6H 7H 8H 9H 10H JH QH"))
    assert g.melds[0].wild == [False, True, False, True, True, False, False]
    assert g.turn == 1


def test_rule_4_2_with_the_dug_card_held_the_joker_first_is_refused_then_the_way_is_open():
    """After the dig, the joker may not go down first (three jokers on two natural cards), and
    a discard is refused until 6♥ is down; Q♥ first opens the way."""
    g = position(["JK QH 2C 9S", OTHER], pile="3D 6H", melds=[RUN], options=TWO_DECKS)
    g.apply(dig(1))
    assert layoff("JK", 0, "7H") not in legal(g, "layoff")
    with pytest.raises(IllegalMove, match="never more jokers than natural cards"):
        g.apply(layoff("JK", 0, "7H"))
    with pytest.raises(IllegalMove, match="6H must be played"):
        g.apply({"type": "discard", "card": "2C"})
    assert layoff("QH", 0) in legal(g, "layoff")


def test_rule_4_2_the_other_end_below_and_an_ace_at_either_end():
    """The mirror position (the card above, room made below), and the other end's lay-off an
    ace: high on a run reaching the king, low under a 2."""
    low_end = position(
        ["JK 3H 2C 9S", OTHER], pile="3D 9H", melds=[("4H JK=5H JK=6H 7H", 1)], options=TWO_DECKS
    )
    assert both_doors_offer(low_end, 1)
    play_through(low_end, [dig(1), layoff("3H", 0), layoff("JK", 0, "8H"), layoff("9H", 0)])
    high_ace = position(
        ["JK AH 2C 9S", OTHER], pile="3D 8H", melds=[("10H JK=JH JK=QH KH", 1)], options=TWO_DECKS
    )
    assert both_doors_offer(high_ace, 1)
    play_through(high_ace, [dig(1), layoff("AH", 0), layoff("JK", 0, "9H"), layoff("8H", 0)])
    assert high_ace.melds[0].ace == "high"
    dug_ace = position(
        ["JK 7H 2C 9S", OTHER], pile="3D AH", melds=[("3H JK=4H JK=5H 6H", 1)], options=TWO_DECKS
    )
    assert both_doors_offer(dug_ace, 1)
    play_through(dug_ace, [dig(1), layoff("7H", 0), layoff("JK", 0, "2H"), layoff("AH", 0)])
    assert dug_ace.melds[0].ace == "low"


def test_rule_4_2_refused_when_the_chain_breaks_the_joker_limit_or_lacks_a_card():
    """Negative twins: without Q♥ nothing makes room for the joker; with Q♥ alone two jokers
    (7♥ and 6♥, for 5♥) would outnumber the natural cards; Q♥ K♥ make room for both."""
    no_queen = position(["JK 4D 2C 9S", OTHER], pile="3D 6H", melds=[RUN], options=TWO_DECKS)
    assert not both_doors_offer(no_queen, 1)
    with pytest.raises(IllegalMove, match="may not take 6H"):
        no_queen.apply(dig(1))
    one_short = position(["JK JK QH 2C", OTHER], pile="3D 5H", melds=[RUN], options=TWO_DECKS)
    assert not both_doors_offer(one_short, 1)
    enough = position(["JK JK QH KH 2C", OTHER], pile="3D 5H", melds=[RUN], options=TWO_DECKS)
    assert both_doors_offer(enough, 1)
    play_through(
        enough,
        [
            dig(1),
            layoff("QH", 0),
            layoff("KH", 0),
            layoff("JK", 0, "7H"),
            layoff("JK", 0, "6H"),
            layoff("5H", 0),
        ],
    )


def test_rule_4_2_a_joker_at_the_other_end_counts_against_the_jokers_held():
    """Table 6♥ JK=7♥ 8♥; 3♥ dug needs jokers as 5♥ and 4♥, and room for the second: a joker
    as 9♥, then 10♥ J♥ at the other end. With three jokers held the dig is legal; with two the
    chain lacks a joker (and nothing else puts 3♥ down)."""
    table = [("6H JK=7H 8H", 1)]
    three = position(["JK JK JK 10H JH", OTHER], pile="2S 3H", melds=table, options=TWO_DECKS)
    assert both_doors_offer(three, 1)
    play_through(
        three,
        [
            dig(1),
            layoff("JK", 0, "9H"),
            layoff("10H", 0),
            layoff("JH", 0),
            layoff("JK", 0, "5H"),
            layoff("JK", 0, "4H"),
            layoff("3H", 0),
        ],
    )
    two = position(["JK JK 10H JH 2C", OTHER], pile="2S 3H", melds=table, options=TWO_DECKS)
    assert not both_doors_offer(two, 1)


def test_rule_4_2_a_dug_ace_goes_high_after_the_other_end_makes_room():
    """Table 9♥ JK=10♥ JK=J♥ Q♥: A♥ dug goes high once a joker stands for K♥, which 8♥ at the
    low end makes room for."""
    g = position(
        ["JK 8H 2C", OTHER], pile="2S AH", melds=[("9H JK=10H JK=JH QH", 1)], options=TWO_DECKS
    )
    assert both_doors_offer(g, 1)
    play_through(g, [dig(1), layoff("8H", 0), layoff("JK", 0, "KH"), layoff("AH", 0)])
    assert g.melds[0].ace == "high"
    assert not both_doors_offer(
        position(
            ["JK 7H 2C", OTHER], pile="2S AH", melds=[("9H JK=10H JK=JH QH", 1)], options=TWO_DECKS
        ),
        1,
    )


def test_rule_4_2_must_discard_counts_every_card_of_the_chain():
    """With "must discard" the chain (Q♥, JK, 6♥) must leave a card to discard."""
    options = Options(jokers=True, decks=2, must_discard=True)
    short = position(["JK QH", OTHER], pile="3D 6H", melds=[RUN], options=options)
    assert not both_doors_offer(short, 1)
    with pytest.raises(IllegalMove, match="nothing to discard"):
        short.apply(dig(1))
    spare = position(["JK QH 2C", OTHER], pile="3D 6H", melds=[RUN], options=options)
    assert both_doors_offer(spare, 1)


# The reference: every sequence of plays, by brute force ------------------------------------

JOKER = C.JOKER


def valid_meld(cards: tuple[tuple[int, bool], ...]) -> bool:
    """RULES.md §5 and §11.1 read afresh: ``cards`` as (the card it is or stands for, is a
    joker). 3 or 4 of a rank in different suits, or 3 or more in a row of one suit (the ace
    below the 2 or above the king, not both); at least two natural cards and never more
    jokers than natural cards."""
    if len(cards) < 3:
        return False
    jokers = sum(w for _, w in cards)
    naturals = len(cards) - jokers
    if jokers and (naturals < 2 or jokers > naturals):
        return False
    ids = [c for c, _ in cards]
    ranks = [c % 13 for c in ids]
    suits = [c // 13 for c in ids]
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(set(suits)) == len(cards)
    if len(set(suits)) != 1 or len(set(ranks)) != len(ranks):
        return False
    for ace in (1, 14):
        values = sorted(ace if r == 0 else r + 1 for r in ranks)
        if values[-1] - values[0] == len(values) - 1:
            return True
    return False


def names_for(naturals: list[int]) -> list[int]:
    """Cards a joker could stand for beside ``naturals`` (their rank's, or their suit's)."""
    ranks = {c % 13 for c in naturals}
    suits = {c // 13 for c in naturals}
    out: set[int] = set()
    if len(ranks) == 1:
        (r,) = ranks
        out |= {s * 13 + r for s in range(4)}
    if len(suits) == 1:
        (s,) = suits
        out |= {s * 13 + r for r in range(13)}
    return sorted(out)


Table = tuple[tuple[tuple[int, bool], ...], ...]


def plays(hand: tuple[int, ...], table: Table):
    """Every play from ``hand``: (cards it takes from the hand, the table after it, action)."""
    counts = Counter(hand)
    distinct = sorted(counts)

    # new melds: every sub-multiset of the hand of 3 or more cards, jokers named every way
    def subsets(i: int):
        if i == len(distinct):
            yield ()
            return
        c = distinct[i]
        for rest in subsets(i + 1):
            for k in range(counts[c] + 1):
                yield (c,) * k + rest

    for sub in subsets(0):
        if len(sub) < 3:
            continue
        naturals = [c for c in sub if c != JOKER]
        k = len(sub) - len(naturals)
        pools = combinations(names_for(naturals), k) if naturals else ()
        for names in pools:
            meld = tuple(sorted([(c, False) for c in naturals] + [(n, True) for n in names]))
            if valid_meld(meld):
                action = {"type": "meld", "cards": C.names(sub)}
                if k:
                    action["cards"] = C.names(naturals) + ["JK"] * k
                    action["jokers"] = C.names(names)
                yield sub, table + (meld,), action
    # lay-offs: every card held on every meld, a joker under every name
    for i, meld in enumerate(table):
        for c in distinct:
            if c == JOKER:
                options = [(n, True) for n in names_for([x for x, w in meld if not w])]
            else:
                options = [(c, False)]
            for card in options:
                bigger = tuple(sorted(meld + (card,)))
                if valid_meld(bigger):
                    action = layoff(C.name(c), i, C.name(card[0]) if card[1] else None)
                    yield (c,), table[:i] + (bigger,) + table[i + 1 :], action


def remove(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return tuple(left)


def reference(must_discard: bool):
    """``reach(hand, table, card)``: does some sequence of plays put ``card`` (held) on the
    table, each play leaving a card in hand under "must discard"?"""

    @cache
    def reach(hand: tuple[int, ...], table: Table, card: int) -> bool:
        for cards, after, _ in plays(hand, table):
            left = remove(hand, cards)
            if must_discard and not left:
                continue
            if card in cards or reach(left, after, card):
                return True
        return False

    return reach


def table_of(g: Game) -> Table:
    return tuple(
        tuple(sorted((c, bool(m.wild and m.wild[i])) for i, c in enumerate(m.cards)))
        for m in g.melds
    )


@st.composite
def dig_positions(draw) -> tuple[str, str, list[tuple[str, int]], bool]:
    """A two-deck table with jokers: a heart run (jokers in it) and maybe a second meld; a
    hand of hearts, jokers and others; a short pile over them."""
    # mostly an even run, as many jokers as natural cards: only lay-offs make room for more
    length = draw(st.sampled_from([4, 4, 4, 6, 3, 5]))
    start = draw(st.integers(0, 14 - length))  # (a run of at most 6 never holds two aces)
    places = list(range(start, start + length))
    jokers = draw(st.sampled_from([length // 2] * 3 + list(range(length // 2))))
    wild = set(draw(st.permutations(places))[:jokers])
    run = " ".join(
        ("JK=" if p in wild else "") + C.name(C.make(0 if p == 13 else p, 1)) for p in places
    )
    melds = [(run, 1)]
    extra = draw(st.sampled_from(["none", "set", "run"]))
    if extra == "set":
        r = draw(st.integers(0, 12))
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3, unique=True))
        joker = draw(st.booleans())
        melds.append(
            (
                " ".join(
                    ("JK=" if joker and i == 2 else "") + C.name(C.make(r, s))
                    for i, s in enumerate(suits)
                ),
                1,
            )
        )
    elif extra == "run":
        a = draw(st.integers(1, 10))
        melds.append((" ".join(C.name(C.make(p, 1)) for p in range(a, a + 3)), 1))
    # hearts up to three places beyond the run's ends, jokers, and a card that fits nowhere
    end = start + length - 1
    near = [C.make(p % 13, 1) for p in range(max(0, start - 3), min(14, end + 4))]
    near = [c for c in near if not any(c == C.make(p % 13, 1) for p in places)]
    pool = near + [JOKER] * 2 + C.parse_many("9S")
    hand = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5))
    pile = draw(st.lists(st.sampled_from(near + [JOKER]), min_size=1, max_size=2))
    must_discard = draw(st.booleans())
    used = Counter(hand) + Counter(pile)
    for text, _ in melds:
        used += Counter(JOKER if t.startswith("JK=") else C.parse(t) for t in text.split())
    assume(all(n <= (4 if c == JOKER else 2) for c, n in used.items()))
    return " ".join(C.names(hand)), " ".join(C.names(pile)), melds, must_discard


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dig_positions(), st.randoms(use_true_random=False))
def test_rule_4_2_every_dig_and_play_as_a_brute_force_over_every_sequence_of_plays(case, rnd):
    """Each dig is offered (both doors) exactly when some sequence of plays puts the card on
    the table; after a dig, each play (brute-force listed) is accepted exactly when the card
    is in it or some sequence after it still puts the card down."""
    hand_text, pile_text, melds, must_discard = case
    g = position(
        [hand_text, OTHER],
        pile=pile_text,
        melds=melds,
        options=Options(jokers=True, decks=2, must_discard=must_discard),
    )
    reach = reference(must_discard)
    hand = tuple(sorted(g.hands[0]))
    table = table_of(g)
    taken = []
    for i, card in enumerate(g.pile):
        after = tuple(sorted(hand + tuple(g.pile[i:])))
        expected = reach(after, table, card)
        assert both_doors_offer(g, i) == expected, (i, C.name(card))
        if expected:
            taken.append(i)
    if not taken:
        return
    i = rnd.choice(taken)
    g.apply(dig(i))
    card = g.must_play
    now = tuple(sorted(g.hands[0]))
    for cards, after, action in plays(now, table):
        left = remove(now, cards)
        expected = not (must_discard and not left) and (card in cards or reach(left, after, card))
        try:
            g.copy().apply(action)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == expected, action


def test_the_reference_knows_the_issue_position():
    """The brute force itself: 6♥ reaches the issue's run; without Q♥ it does not."""
    reach = reference(False)
    run = ((C.parse("8H"), False), (C.parse("9H"), True), (C.parse("10H"), True))
    run += ((C.parse("JH"), False),)
    table = (tuple(sorted(run)),)
    hand = tuple(sorted(C.parse_many("JK QH 2C 9S 6H")))
    assert reach(hand, table, C.parse("6H"))
    assert not reach(tuple(sorted(C.parse_many("JK 4D 2C 9S 6H"))), table, C.parse("6H"))
