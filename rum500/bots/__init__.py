"""Bots. A bot sees only what its seat may see: the ``view`` dict of
:meth:`rum500.rules.Game.view`, the same one a network client receives. It never gets the
game itself: every bot reads the view through :func:`rum500.bots.seat.read_view`, which
refuses a :class:`~rum500.rules.Game`, its full ``to_dict()`` state, or a spectator's view.

Contract: ``make_bot(level, seed) -> Bot``; ``bot.choose(view) -> action`` returns one of
``view["legal_actions"]`` (it is only asked when ``view["turn"] == view["seat"]``). Bots that
remember the hand have ``observe(events, view)``: call it after every update with the public
events and that seat's new view. ``hint(view)`` is what the ``expert`` bot would play there.

Levels: ``random`` (uniform legal moves), ``easy``, ``medium``, ``hard``, ``expert``
(Monte Carlo search over the cards its seat cannot see, :mod:`rum500.bots.expert`).
"""

from __future__ import annotations

import random
from typing import Protocol

from rum500.bots.easy import EasyBot
from rum500.bots.expert import ExpertBot
from rum500.bots.hard import HardBot
from rum500.bots.medium import MediumBot
from rum500.bots.seat import NotAView, read_view


class Bot(Protocol):
    level: str

    def choose(self, view: dict) -> dict: ...


class RandomBot:
    """Plays a uniformly random legal action: the benchmark's agent and a placeholder."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict) -> dict:
        legal = read_view(view).legal
        if not legal:
            raise ValueError("this seat has nothing to do")
        return self.rng.choice(legal)


LEVELS: dict[str, type] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}


def make_bot(level: str = "random", seed: int | None = None) -> Bot:
    """A bot of the named level; a bad name raises ``ValueError``."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"no bot level {level!r}: choose from {', '.join(LEVELS)}") from None
    return cls(seed)


def hint(view: dict) -> dict:
    """What the ``expert`` bot would do in this seat now (from the view alone, no memory of
    the hand; within the expert's time per decision)."""
    return ExpertBot(seed=0).choose(view)


__all__ = ["LEVELS", "Bot", "NotAView", "RandomBot", "hint", "make_bot"]
