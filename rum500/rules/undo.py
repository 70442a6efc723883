"""What an action changes, saved so that :meth:`rum500.rules.game.Game.pop` puts it back
without replaying the match (python-chess's push/pop; ``docs/rules.md``, "Taking back").

:class:`Undo` is a base of ``Game``: ``_snapshot`` takes the fields an action may change
(the lists copied; melds are replaced, never changed in place, so the list's items are kept
as they are; the random state only when the action may shuffle), ``_restore`` puts such a
snapshot back. Imports nothing of the engine above it."""

from __future__ import annotations

import random

from rum500.rules.melds import Meld
from rum500.rules.notation import Phase


class Undo:
    """The snapshot of a position's changing fields and its restoration (see the module
    docstring)."""

    phase: Phase
    turn: int
    must_play: int | None
    no_discard: int | None
    went_out: int | None
    claim_from: int | None
    next_meld_id: int
    reshuffled: bool
    dealer: int
    hand_number: int
    winner: int | None
    totals: list[int]
    results: list[dict]
    hands: list[list[int]]
    stock: list[int]
    pile: list[int]
    melds: list[Meld]
    rng: random.Random
    _rng_shared: bool
    _cm: list[int]
    opened: list[bool]
    opening: int | None
    _legal: list[tuple] | None
    _legal_dicts: tuple[list[tuple], list[dict]] | None

    def _snapshot(self, rng: bool) -> tuple:
        """What an action may change, for :meth:`pop` (``rng``: it may shuffle). Melds are
        replaced, never changed in place (see ``Game._grow``), so the list's items are kept
        as they are."""
        return (
            self.phase,
            self.turn,
            self.must_play,
            self.no_discard,
            self.went_out,
            self.claim_from,
            self.next_meld_id,
            self.reshuffled,
            self.dealer,
            self.hand_number,
            self.winner,
            self.totals,
            len(self.results),
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.pile),
            list(self.melds),
            self.rng.getstate() if rng else None,
            list(self._cm),
            self.opened,
            self.opening,
        )

    def _restore(self, saved: tuple) -> None:
        (
            self.phase,
            self.turn,
            self.must_play,
            self.no_discard,
            self.went_out,
            self.claim_from,
            self.next_meld_id,
            self.reshuffled,
            self.dealer,
            self.hand_number,
            self.winner,
            self.totals,
            results,
            self.hands,
            self.stock,
            self.pile,
            self.melds,
            rng,
            self._cm,
            self.opened,
            self.opening,
        ) = saved
        del self.results[results:]
        if rng is not None:
            if self._rng_shared:  # (no need to copy a state about to be replaced)
                self.rng = random.Random.__new__(random.Random)
                self._rng_shared = False
            self.rng.setstate(rng)
        self._legal = self._legal_dicts = None
