"""The host's side of a deal nobody can stack (docs/protocol.md §17): before each deal it
chooses a secret and sends its commitment (``commit``) to every connection that checks
deals (hello's ``deal_check``); each seated one answers with a random contribution
(``contribute``); the deal is the engine's committed deal action (rum500/rules/shuffle.py)
from the secret and the contributions heard; at the hand's end ``reveal`` gives the secret,
the contributions and the hand's actions, for every client to check the deal.

:class:`DealCommits` keeps the next hand's secret and the contributions heard for it, and
says how long the deal should still wait for them (:data:`CONTRIBUTION_WAIT` after a
checking seat was sent the commitment at most). It holds no socket: the host hands it the
seats (their connections), it answers with messages to send. The hand under way's secret is
in its deal action (``Game.actions``), so a handoff or a failover that carries the match
carries what the next host reveals."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence

from net.server import Seat
from rum500.rules import Game, Phase
from rum500.rules.shuffle import commitment, is_hex32

#: seconds the deal waits, at most, for a checking seat's contribution after its commitment
CONTRIBUTION_WAIT = 1.5


def committed(game: Game | None) -> bool:
    """Whether ``game``'s deals are committed: a resumed match goes on as it was dealt."""
    return game is not None and any(a.get("type") == "deal" and "secret" in a for a in game.actions)


def checks(seat: Seat) -> bool:
    """A connected human whose client checks deals (hello's ``deal_check``)."""
    return not seat.bot and seat.conn is not None and getattr(seat.conn, "deal_check", False)


class DealCommits:
    """The next hand's secret and contributions (see the module docstring)."""

    def __init__(
        self,
        players: int,
        wait: float = CONTRIBUTION_WAIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.players = players
        self.wait = wait
        self.clock = clock
        self.hand = 0
        self.secret = ""
        self.commitment = ""
        self.contributions: list[str | None] = []
        self._sent: dict[int, float] = {}  # id(connection) -> when it was sent the commitment

    def begin(self, hand: int) -> None:
        """A new secret for hand ``hand``; nothing heard and nobody told yet."""
        self.hand = hand
        self.secret = secrets.token_hex(32)
        self.commitment = commitment(self.secret)
        self.contributions = [None] * self.players
        self._sent = {}

    def message(self) -> dict:
        return {"type": "commit", "hand": self.hand, "commitment": self.commitment}

    def to_tell(self, conns: Sequence) -> list:
        """The checking connections in ``conns`` not yet sent this hand's commitment (now
        counted as sent)."""
        out = []
        for conn in conns:
            if getattr(conn, "deal_check", False) and id(conn) not in self._sent:
                self._sent[id(conn)] = self.clock()
                out.append(conn)
        return out

    def contribute(self, seat: int | None, msg: dict) -> bool:
        """Take a seat's ``contribute`` (checked by net.protocol); False when it is not for
        this commitment or comes from no seat. A seat's later one replaces its earlier one
        (a player who left the lobby and the one who took the seat; no one sees another's
        contribution before the reveal, so a change gains nothing)."""
        if seat is None or not 0 <= seat < self.players or not self.hand:
            return False
        if msg.get("hand") != self.hand or msg.get("commitment") != self.commitment:
            return False
        value = msg.get("contribution")
        if not is_hex32(value):
            return False
        self.contributions[seat] = value
        return True

    def due(self, seats: Sequence[Seat]) -> float:
        """Seconds the deal should still wait: until every checking seat that was sent the
        commitment has answered, or :attr:`wait` after it was sent (0.0: deal now)."""
        now, left = self.clock(), 0.0
        for seat in seats:
            if checks(seat) and self.contributions[seat.index] is None:
                sent = self._sent.get(id(seat.conn))
                if sent is not None:
                    left = max(left, sent + self.wait - now)
        return left

    def deal_action(self, seats: Sequence[Seat]) -> dict:
        """The committed deal action of this hand: the contributions of the seats that are
        not bots (a bot's seat is the host's own: it adds nothing)."""
        bots = {s.index for s in seats if s.bot}
        used = [None if i in bots else c for i, c in enumerate(self.contributions)]
        return {
            "type": "deal",
            "commitment": self.commitment,
            "secret": self.secret,
            "contributions": used,
        }


def reveal(game: Game) -> dict | None:
    """The ``reveal`` of the hand that just ended in ``game`` (None: it is not over, or it
    was dealt from the match's random state — then ``deal`` is None): the hand, its dealer,
    the totals before it, its committed deal (commitment, secret, contributions) and the
    actions after the deal."""
    if game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or not game.results:
        return None
    start = None
    for i in range(len(game.actions) - 1, -1, -1):
        if game.actions[i].get("type") == "deal":
            start = i
            break
    deal = game.actions[start] if start is not None else None
    result = game.results[-1]
    scores = list(result["scores"])
    before = [t - s for t, s in zip(result["totals"], scores, strict=True)]
    return {
        "type": "reveal",
        "hand": result["hand"],
        "dealer": result["dealer"],
        "totals": before,
        "deal": (
            {k: deal[k] for k in ("commitment", "secret", "contributions")}
            if deal is not None and "secret" in deal
            else None
        ),
        "actions": [dict(a) for a in game.actions[(start or 0) + 1 if start is not None else 0 :]],
    }
