"""Helpers of the coach's tests: matches between bots as the game log keeps them, and
positions built card by card."""

from __future__ import annotations

from rum500.coach.selfplay import bot_record
from rum500.rules import Game

ALL = [
    r + s
    for s in "SHDC"
    for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
]


def committed_deal() -> dict:
    """A committed deal action for two seats (docs/rules.md "A deal nobody can stack"): a
    fixed secret, seat 1's contribution, seat 0 contributing none."""
    from rum500.rules.shuffle import commitment

    secret = "ab" * 32
    return {
        "type": "deal",
        "commitment": commitment(secret),
        "secret": secret,
        "contributions": [None, "cd" * 32],
    }


def bot_match(levels: list[str], seed: int, hands: int = 1) -> dict:
    """The first ``hands`` hands of a match between bots, as the game log keeps it."""
    return bot_record(levels, seed, hands)


def position(
    hand0: list[str],
    hand1: list[str],
    pile: list[str],
    phase: str = "play",
    melds: list[list[str]] = (),  # type: ignore[assignment]
) -> Game:
    """A two-player game with seat 0 to play (``phase``): these hands, discard pile and
    melds (runs or sets put down by seat 1), the other cards in the stock (in deck order, its
    top last)."""
    used = set(hand0) | set(hand1) | set(pile) | {c for m in melds for c in m}
    state = Game(2, seed=1).to_dict()
    state.update(
        hands=[list(hand0), list(hand1)],
        discard_pile=list(pile),
        stock=[c for c in ALL if c not in used],
        melds=[
            {"id": k, "kind": kind(m), "cards": m, "by": [1] * len(m), "owner": 1, "ace": None}
            for k, m in enumerate(melds)
        ],
        next_meld_id=len(melds),
        turn=0,
        phase=phase,
        must_play=None,
        no_discard=None,
        actions=[],
    )
    return Game.from_dict(state)


def kind(cards: list[str]) -> str:
    """``set`` when the cards share a rank, else ``run``."""
    return "set" if len({c[:-1] for c in cards}) == 1 else "run"
