"""Engine speed: random agents choose uniformly from legal_actions() and play whole hands.

    python bench/engine.py [--hands N] [--seed S]

Prints hands per second and decisions per second for 2 players (13 cards) and 4 players
(7 cards): the seed game, and beside it the same with jokers on (RULES.md §11.1), with the
ratio of the two (the jokers' game should keep at least half the seed game's speed). A
decision is one legal_actions() call plus one apply().
"""

from __future__ import annotations

import argparse
import random
import time

from rum500.rules import Game, Options, Phase


def run(players: int, hands: int, seed: int, jokers: bool = False) -> tuple[float, float, int]:
    rng = random.Random(seed)
    g = Game(players, seed, Options(target=10**9, jokers=jokers))
    decisions = 0
    start = time.perf_counter()
    while len(g.results) < hands:
        if g.phase is Phase.HAND_OVER:
            g.apply({"type": "deal"})  # dealing is not a decision
            continue
        g.apply(rng.choice(g.legal_actions()))
        decisions += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (2, 4):
        seed_game = None
        for jokers in (False, True):
            hps, dps, n = run(players, args.hands, args.seed, jokers)
            label = "with jokers" if jokers else "seed game  "
            ratio = f" ({dps / seed_game:.2f}× the seed game)" if seed_game else ""
            print(
                f"{players} players, {label}: {args.hands} hands, {n} decisions — "
                f"{hps:,.0f} hands/s, {dps:,.0f} decisions/s{ratio}"
            )
            seed_game = dps


if __name__ == "__main__":
    main()
