"""The rules engine: pure, deterministic Rummy 500 (RULES.md). No I/O, no clock, no global
random — a match is (players, seed, options) plus a list of actions."""

from rum500.rules.game import Game, Phase
from rum500.rules.melds import IllegalMove, Meld
from rum500.rules.options import Options, hand_size

__all__ = ["Game", "IllegalMove", "Meld", "Options", "Phase", "hand_size"]
