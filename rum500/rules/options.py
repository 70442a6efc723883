"""Table options (RULES.md §9). The defaults are the seed game."""

from __future__ import annotations

from dataclasses import dataclass, fields

EMPTY_STOCK_RULES = ("play_on", "reshuffle", "end")
TEAM_COUNTS = (0, 2, 3)
#: the numbers of players each number of teams is for (RULES.md §11.3)
TEAM_PLAYERS = {2: (4, 6), 3: (6,)}
_FLAGS = ("top_card_free", "must_discard", "jokers", "rummy_calls", "ace_always_15")
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
    * ``jokers`` — two jokers per deck, wild (RULES.md §11.1).
    * ``rummy_calls`` — calling "Rummy!" on a discard that could be laid off (§11.2): a claim
      phase follows every discard.
    * ``teams`` — partnerships (§11.3): ``0`` every player alone; ``2`` two teams (4 or 6
      players: teams of two or of three); ``3`` three teams of two (6 players). Seat ``s``
      plays for team ``s % teams``, so partners sit apart.
    * ``ace_always_15`` — an ace scores 15 wherever it is, even low in a run (§11.4).
    """

    target: int = 500
    decks: int | None = None
    top_card_free: bool = False
    must_discard: bool = False
    empty_stock: str = "play_on"
    jokers: bool = False
    rummy_calls: bool = False
    teams: int = 0
    ace_always_15: bool = False

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
        for flag in _FLAGS:
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        if self.teams not in TEAM_COUNTS or isinstance(self.teams, bool):
            raise ValueError("teams must be 0 (every player alone), 2 or 3")
        if self.teams and players not in TEAM_PLAYERS[self.teams]:
            raise ValueError(
                f"{self.teams} teams are for "
                f"{' or '.join(map(str, TEAM_PLAYERS[self.teams]))} players, not {players}"
            )

    def deck_count(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        return 1 if players <= 4 else 2

    def team(self, seat: int) -> int:
        """The team of ``seat`` (seats alternate team by team); its own seat without teams."""
        return seat % self.teams if self.teams else seat

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
