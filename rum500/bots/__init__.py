"""Bots. A bot sees only what its seat may see: the ``view`` dict of
:meth:`rum500.rules.Game.view`, the same one a network client receives. It never gets the
game itself.

Contract: ``make_bot(level, seed) -> Bot``; ``bot.choose(view) -> action`` returns one of
``view["legal_actions"]`` (it is only asked when ``view["turn"] == view["seat"]``).
"""

from __future__ import annotations

import random
from typing import Protocol


class Bot(Protocol):
    level: str

    def choose(self, view: dict) -> dict: ...


class RandomBot:
    """Plays a uniformly random legal action: the benchmark's agent and a placeholder."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if not legal:
            raise ValueError("this seat has nothing to do")
        return self.rng.choice(legal)


LEVELS: dict[str, type] = {"random": RandomBot}


def make_bot(level: str = "random", seed: int | None = None) -> Bot:
    """A bot of the named level; a bad name raises ``ValueError``."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"no bot level {level!r}: choose from {', '.join(LEVELS)}") from None
    return cls(seed)
