"""The saved position: :meth:`Persistence.to_dict` writes a game's exact position in plain
msgpack-able types (the random state included), :meth:`Persistence.from_dict` restores it and
refuses a malformed one (``docs/rules.md``, "Saving and restoring").

:class:`Persistence` is a base of :class:`rum500.rules.game.Game`; it reads and writes the
game's fields and imports nothing of the engine above it."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from rum500 import cards as C
from rum500.rules.melds import Meld, card_mask
from rum500.rules.notation import Phase
from rum500.rules.options import Options

#: The version of :meth:`Persistence.to_dict`'s format.
STATE_VERSION = 1


class Persistence:
    """A game's exact position to and from a plain dict (see the module docstring)."""

    players: int
    seed: int
    options: Options
    first_deck: list[str] | None
    rng: random.Random
    actions: list[dict]
    totals: list[int]
    results: list[dict]
    winner: Any
    hand_number: int
    lot: Any
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    pile: list[int]
    melds: list[Meld]
    next_meld_id: int
    turn: int
    phase: Phase
    must_play: int | None
    no_discard: int | None
    reshuffled: bool
    went_out: int | None
    claim_from: int | None
    opened: list[bool]
    opening: int | None

    if TYPE_CHECKING:  # Game's own (and MoveGen's), which restoring calls

        def _deck(self) -> list[int]: ...

        def _fast_flags(self) -> None: ...

    def to_dict(self) -> dict:
        """The exact position, in plain msgpack-able types (see :meth:`from_dict`)."""
        version, internal, gauss = self.rng.getstate()
        return {
            "version": STATE_VERSION,
            "players": self.players,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "deck": self.first_deck,
            "rng": [version, list(internal), gauss],
            "actions": [dict(a) for a in self.actions],
            "totals": list(self.totals),
            "results": [dict(r) for r in self.results],
            "winner": self.winner,
            "hand_number": self.hand_number,
            "lot": self.lot,
            "dealer": self.dealer,
            "hands": [C.names(h) for h in self.hands],
            "stock": C.names(self.stock),
            "discard_pile": C.names(self.pile),
            "melds": [m.to_dict() for m in self.melds],
            "next_meld_id": self.next_meld_id,
            "turn": self.turn,
            "phase": self.phase.value,
            "must_play": C.name(self.must_play) if self.must_play is not None else None,
            "no_discard": C.name(self.no_discard) if self.no_discard is not None else None,
            "reshuffled": self.reshuffled,
            "went_out": self.went_out,
            "claim_from": self.claim_from,
            "opened": list(self.opened),
            "opening": self.opening,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Self:
        """Restore a position saved by :meth:`to_dict`; a malformed one raises ``ValueError``."""
        try:
            return cls._from_dict(d)
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"not a saved rum500 game: {e!r}") from None

    @classmethod
    def _from_dict(cls, d: dict) -> Self:
        if d.get("version") != STATE_VERSION:
            raise ValueError(f"unknown saved game version {d.get('version')!r}")
        g = cls.__new__(cls)
        g.players = d["players"]
        g.options = Options.from_dict(d["options"])
        g.options.validate(g.players)
        g.seed = d["seed"]
        g.decks = g.options.deck_count(g.players)
        g.hand_size = g.options.hand_size(g.players)
        g.first_deck = d["deck"]
        g.rng = random.Random.__new__(random.Random)  # (no seeding: the state is set)
        g._rng_shared = False
        version, internal, gauss = d["rng"]
        g.rng.setstate((version, tuple(internal), gauss))
        g.actions = [dict(a) for a in d["actions"]]
        g.totals = list(d["totals"])
        g.results = [dict(r) for r in d["results"]]
        g.winner = d["winner"]
        g.hand_number = d["hand_number"]
        g.lot = d["lot"]
        g.dealer = d["dealer"]
        g.hands = [C.parse_many(h) for h in d["hands"]]
        g._cm = [card_mask(h) for h in g.hands]
        g.stock = C.parse_many(d["stock"])
        g.pile = C.parse_many(d["discard_pile"])
        g.melds = [Meld.from_dict(md) for md in d["melds"]]
        g.next_meld_id = d["next_meld_id"]
        g.turn = d["turn"]
        g.phase = Phase(d["phase"])
        g.must_play = C.parse(d["must_play"]) if d["must_play"] is not None else None
        g.no_discard = C.parse(d["no_discard"]) if d["no_discard"] is not None else None
        g.reshuffled = d["reshuffled"]
        g.went_out = d["went_out"]
        g.claim_from = d.get("claim_from")
        g.opened = [bool(x) for x in d.get("opened", [False] * g.players)]
        g.opening = d.get("opening")
        if len(g.opened) != g.players or not (
            g.opening is None or (type(g.opening) is int and g.opening >= 0)
        ):
            raise ValueError("the opened seats (§12.1) do not fit this table")
        g._legal = g._legal_dicts = None
        g._undo = []
        g._seats = None  # rebuilt by replay when asked (not part of the stored position)
        g._table = None
        g._fast_flags()
        if (g.phase is Phase.CLAIM) != (g.claim_from is not None) or (
            g.claim_from is not None
            and (not g.pile or g.claim_from not in range(g.players) or not g.options.rummy_calls)
        ):
            raise ValueError("a claim phase needs the option, the discarder and a discard")
        g._check_cards()
        return g

    def _check_cards(self) -> None:
        """Every card of the deck(s) is somewhere, exactly once per copy."""
        everywhere = [c for h in self.hands for c in h] + self.stock + self.pile
        everywhere += [c for m in self.melds for c in m.physical()]
        if Counter(everywhere) != Counter(self._deck()):
            raise ValueError("the cards of this position do not make up the deck")
