"""What the host calls on its game log (``HostConfig.journal``; :class:`rum500.store.journal.
Journal` is one): a :class:`typing.Protocol`, so the calls are checked by the type checker
instead of being looked up by name. The order and meaning of the calls are stated in
:mod:`rum500.host`'s docstring (the journal hook)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from rum500.rules import Game


class GameLog(Protocol):
    """A game log the host feeds: each call made before anyone is told of the change."""

    def start_match(self, info: dict) -> None: ...

    def record(self, seq: int, seat: int | None, action: dict) -> None: ...

    def take_back(self, seq: int) -> None: ...

    def seats(self, seats: list[dict]) -> None: ...

    def finish(self, winner: int | None, totals: list[int]) -> None: ...


@runtime_checkable
class FollowingLog(Protocol):
    """A game log that reads finished hands from the host's live game (``follow(game)``,
    called before ``start_match``) instead of keeping a copy."""

    def follow(self, game: Game) -> None: ...


@runtime_checkable
class WarningLog(Protocol):
    """A game log that never raises but reports its trouble to ``on_warning(message)``
    (:class:`rum500.store.journal.Journal`): :func:`rum500.host.start_host` chains it so that
    the players get a ``log_failed`` notice too."""

    on_warning: Callable[[str], None] | None


@runtime_checkable
class MatchLog(Protocol):
    """A game log that knows the match it writes down (``meta``: its ``uid`` and
    ``created_at``, which a table document carries so that the next host's log goes on with
    the same match) and keeps lines of its own (``note(text)``: where the table went)."""

    meta: dict

    def note(self, text: str) -> None: ...
