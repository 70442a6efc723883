"""A stand-in host for the crash tests: plays one match with random legal actions, journals
each action, and only then prints ``ack N`` (as a host sends its update only after the
journal returned). ``python -m tests.store.crash_driver SEED [RESUME_ID]``."""

from __future__ import annotations

import random
import sys

from rum500.rules import Game, Options
from rum500.store import Journal, load_for_resume

from .conftest import match_info


def main() -> None:
    seed = int(sys.argv[1])
    rng = random.Random(seed * 7919 + 1)
    if len(sys.argv) > 2:
        game, _seats, info = load_for_resume(sys.argv[2])
        journal = Journal(resume_id=info["game_id"], game=game)
        journal.start_match(info)
    else:
        game = Game(2, seed, Options(target=200))
        journal = Journal()
        journal.start_match(match_info(game, ["Ann", "Bob"]))
    print(f"game {journal.game_id}", flush=True)
    while game.to_move is not None:
        seat = game.to_move
        game.apply(rng.choice(game.legal_actions()), seat)
        journal.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
        if game.to_move is None:
            journal.finish(game.winner, list(game.totals))
        print(f"ack {len(game.actions)}", flush=True)
    print("over", flush=True)


if __name__ == "__main__":
    main()
