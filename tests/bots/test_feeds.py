"""``hands.feeds``, the hard bot's (and so the expert's and the coach's) question "would this
discard let a player dig for something new?", must answer what comparing
:func:`hands.diggable` with and without the card on the pile answers, card by card — it only
asks fewer cards."""

from __future__ import annotations

import random

from rum500 import cards as C
from rum500.bots import make_bot
from rum500.bots.hands import diggable, feeds, held_masks, outs
from rum500.rules import Game, Options


def walked(k: int, players: int, options: Options, steps: int) -> Game | None:
    """Game ``k`` after ``steps`` random moves (fewer if the match ends: then None)."""
    g = Game(players, seed=k, options=options)
    walker = make_bot("random", seed=k)
    for _ in range(steps):
        if g.to_move is None:
            break
        g.apply(walker.choose(g.view(g.to_move)))
    return None if g.to_move is None else g


def by_comparing(hand, pile, card, table, min_run, new_meld) -> bool:  # type: ignore[no-untyped-def]
    before = diggable(hand, pile, table, min_run, new_meld)
    after = diggable(hand, [*pile, card], table, min_run, new_meld)
    return after[-1] or any(a and not b for a, b in zip(after, before, strict=False))


def test_feeds_answers_as_comparing_the_whole_pile() -> None:
    rng = random.Random(5)
    fed = kept = 0
    for k in range(80):
        options = rng.choice([Options(), Options(jokers=True, decks=2), Options(runs_of_four=True)])
        g = walked(k, rng.randint(2, 5), options, rng.randint(10, 150))
        if g is None:
            continue
        table, pile, min_run = g.melds, g.pile, g._min_run
        unseen = [c for h in g.hands for c in h] + list(g.stock)
        for _ in range(12):
            hand = rng.sample(unseen, min(len(unseen), rng.randint(1, 12)))
            card = rng.choice(unseen)
            for new_meld in (False, True):
                before = diggable(hand, pile, table, min_run, new_meld)
                want = by_comparing(hand, pile, card, table, min_run, new_meld)
                assert feeds(hand, pile, card, before, table, min_run, new_meld) == want, (
                    C.names(hand),
                    C.names(pile),
                    C.name(card),
                )
                fed += want
                kept += not want
    assert fed >= 100 and kept >= 100  # both answers were asked for, many times


def test_outs_read_only_the_cards_of_its_rank_and_suit() -> None:
    """The hard bot's feeding risk counts a discard's outs once for every hand that holds the
    same cards of its rank and suit (``hands.held_masks``): hands alike there get the same
    count."""
    rng = random.Random(9)
    counts: dict[tuple, set[int]] = {}
    for k in range(40):
        players = rng.randint(2, 4)
        g = walked(k, players, rng.choice([Options(), Options(jokers=True)]), rng.randint(10, 120))
        if g is None:
            continue
        unseen = [0] * (C.DECK_SIZE + 1)
        for c in g.stock:
            unseen[c] += 1
        pool = [c for h in g.hands for c in h]
        for _ in range(40):
            hand = rng.sample(pool, min(len(pool), 8))
            card = rng.choice([c for c in pool if c < C.DECK_SIZE])
            ranks, suits = held_masks(hand, g.pile)
            key = (k, card, ranks[card % 13] & ~(1 << card // 13), suits[card // 13])
            n = len(outs(card, hand + g.pile, unseen, g.melds, g._min_run))
            counts.setdefault(key, set()).add(n)
    assert all(len(ns) == 1 for ns in counts.values())
    assert len(counts) < 40 * 40  # hands met again: keys shared
