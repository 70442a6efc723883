"""Table options (RULES.md §9). The defaults are the seed game."""

from __future__ import annotations

from dataclasses import dataclass, fields

EMPTY_STOCK_RULES = ("play_on", "reshuffle", "end")
MIN_PLAYERS = 2
MAX_PLAYERS = 8


def hand_size(players: int) -> int:
    """7 cards each, 13 when there are two players (RULES.md §3)."""
    return 13 if players == 2 else 7


@dataclass(frozen=True, slots=True)
class Options:
    """The table's rule options.

    * ``target`` — the score that ends the match (500).
    * ``decks`` — ``None`` for auto (1 deck for 2–4 players, 2 for 5–8), or 1 or 2.
    * ``top_card_free`` — the top card of the discard pile alone may be taken without playing
      it this turn (it may not be discarded again this turn).
    * ``must_discard`` — a player may only go out by discarding their last card.
    * ``empty_stock`` — ``"play_on"`` (draw from the discard pile or end the hand),
      ``"reshuffle"`` (once per hand), or ``"end"`` (the hand ends).
    """

    target: int = 500
    decks: int | None = None
    top_card_free: bool = False
    must_discard: bool = False
    empty_stock: str = "play_on"

    def validate(self, players: int) -> None:
        """Raise ``ValueError`` when these options cannot be played by ``players`` players."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("the number of players must be a whole number")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Rummy 500 is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise ValueError("the target score must be a positive whole number")
        if self.decks not in (None, 1, 2) or isinstance(self.decks, bool):
            raise ValueError("decks must be auto, 1 or 2")
        if self.decks == 1 and players * hand_size(players) + 1 > 52:
            raise ValueError(
                f"one deck is too small for {players} players "
                f"({players} × {hand_size(players)} cards and the upcard)"
            )
        if self.empty_stock not in EMPTY_STOCK_RULES:
            raise ValueError(f"empty_stock must be one of {', '.join(EMPTY_STOCK_RULES)}")
        for flag in ("top_card_free", "must_discard"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")

    def deck_count(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        return 1 if players <= 4 else 2

    def to_dict(self) -> dict:
        return {f: getattr(self, f) for f in _FIELDS}

    @classmethod
    def from_dict(cls, d: dict) -> Options:
        """Build from a plain dict; unknown keys are refused with a ``ValueError``."""
        if not isinstance(d, dict):
            raise ValueError("options must be a map")
        unknown = set(d) - set(_FIELDS)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**d)

    def changed(self) -> dict:
        """The options that differ from the seed game."""
        default = Options()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


_FIELDS = tuple(f.name for f in fields(Options))
