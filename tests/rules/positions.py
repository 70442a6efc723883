"""Build exact engine positions for tests: hands, discard pile and melds by card name."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import strategies as st

from rum500 import cards as C
from rum500.rules import Game, Options
from rum500.rules.melds import make_meld

#: Every table option, for property tests.
options_st = st.builds(
    Options,
    target=st.sampled_from([100, 500]),
    decks=st.sampled_from([None, 2]),
    top_card_free=st.booleans(),
    must_discard=st.booleans(),
    empty_stock=st.sampled_from(["play_on", "reshuffle", "end"]),
    jokers=st.booleans(),
    rummy_calls=st.booleans(),
    ace_always_15=st.booleans(),
    runs_of_four=st.booleans(),  # RULES.md §12.6
    dug_card_new_meld=st.booleans(),  # RULES.md §12.2
    first_meld=st.sampled_from([0, 0, 30, 50]),  # RULES.md §12.1
    five_point_pips=st.booleans(),
).flatmap(  # RULES.md §12.4: the joker as its card only with jokers on
    lambda o: st.builds(replace, st.just(o), joker_as_card=st.just(False) | st.just(o.jokers))
)


def position(
    hands: list[str],
    pile: str = "",
    melds: list[tuple[str, int]] | None = None,
    *,
    turn: int = 0,
    phase: str = "draw",
    options: Options | None = None,
    stock: str | None = None,
    players: int | None = None,
    totals: list[int] | None = None,
    base: Game | None = None,
) -> Game:
    """A game whose seat ``i`` holds ``hands[i]`` (cards separated by spaces), the discard
    pile ``pile`` (bottom first), ``melds`` [(cards, owner)] on the table (a joker standing
    for 9♥ written ``JK=9H``), the rest in the
    stock — or exactly ``stock`` (top last), the other cards then going under the pile.
    With ``base``, the rest of the state (totals, dealer, seed…) comes from that game.
    Built through ``Game.from_dict``, which checks that the cards make up the deck."""
    players = players or len(hands)
    g = base or Game(players, seed=1, options=options or Options())
    d = g.to_dict()
    hand_cards = [C.parse_many(h) for h in hands]
    pile_cards = C.parse_many(pile)
    meld_dicts = []
    used = Counter(c for h in hand_cards for c in h) + Counter(pile_cards)
    for i, (text, owner) in enumerate(melds or []):
        m = meld_from_text(i, text, owner)
        used += Counter(m.physical())
        meld_dicts.append(m.to_dict())
    rest = sorted((Counter(C.deck(g.decks, g.options.jokers)) - used).elements())
    if stock is None:
        stock_cards = rest
    else:
        # only the named stock; every other card goes under the discard pile
        stock_cards = C.parse_many(stock)
        leftover = Counter(rest) - Counter(stock_cards)
        pile_cards = sorted(leftover.elements()) + pile_cards
    d.update(
        hands=[C.names(h) for h in hand_cards],
        discard_pile=C.names(pile_cards),
        stock=C.names(stock_cards),
        melds=meld_dicts,
        next_meld_id=len(meld_dicts),
        turn=turn,
        phase=phase,
        must_play=None,
        no_discard=None,
        actions=[],
    )
    if totals is not None:
        d["totals"] = totals
    return Game.from_dict(d)


def meld_from_text(meld_id: int, text: str, owner: int):
    """A meld from text such as ``"7H 8H JK=9H"`` (a joker standing for 9♥)."""
    tokens = text.split()
    cards = [C.parse(t.split("=")[1] if t.upper().startswith("JK=") else t) for t in tokens]
    wild = [t.upper().startswith("JK=") for t in tokens]
    return make_meld(meld_id, cards, owner, wild if any(wild) else None)


def legal(g: Game, kind: str | None = None) -> list[dict]:
    return [a for a in g.legal_actions() if kind is None or a["type"] == kind]
