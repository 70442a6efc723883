"""How to host a table: :class:`HostConfig` and the constants the host's parts share."""

from __future__ import annotations

from dataclasses import dataclass, field

from net.server import Limits
from rum500.claims import CLAIM_WINDOW
from rum500.host.gamelog import GameLog
from rum500.rules import Game, Options

SEED_OPTIONS = ("target", "decks", "top_card_free", "must_discard", "empty_stock")
MAX_RESULTS = 40  # finished hands' score sheets sent in a view (the frame limit is 64 KiB)


@dataclass
class HostConfig:
    """How to host a table. See the module docstring."""

    players: int = 4
    bots: int = 0
    bot_level: str = "medium"
    seed: int | None = None
    options: Options = field(default_factory=Options)
    table_name: str = "rum500"
    host_player: str | None = None
    bind: str = "127.0.0.1"
    port: int = 0
    password: str | None = None
    announce: bool = False
    bot_delay: float = 0.0  # seconds a bot waits before each action while humans are seated
    journal: GameLog | None = None  # the game log (rum500/host/gamelog.py)
    resume_game: Game | None = None
    resume_seats: list[dict] | None = None
    #: after a hand, deal anyway when not all are ready by then (None: no deadline — the
    #: next hand waits for every connected player's ready: ``rum500 play``'s solo table)
    review_timeout: float | None = 30.0
    claim_window: float = CLAIM_WINDOW  # "Rummy!" calls: seconds after each discard
    deal_pause: float = 3.0  # unused since the hand-end review (kept for old callers)
    takeover_after: float | None = 60.0  # None: never play an away player's seat
    interfaces: list[str] | None = None  # addresses zeroconf uses (None: all)
    limits: Limits | None = None
    table_id: str | None = None  # None: a new random id (a table handed over keeps its own)
    #: who played each action of ``resume_game`` (None: the host's own); None: worked out
    resume_action_seats: list[int | None] | None = None
    chat: list[dict] = field(default_factory=list)  # chat that came with a handed-over table
    #: the review / claim window open when the table moved here (GameTable.windows())
    resume_windows: dict | None = None
    failover: str = "auto"  # "auto" | "on" | "off": a standby streams the log (handoff.py)
    announce_later: bool = False  # a handed-over table: announce when the old host is gone
    #: seconds a deal waits, at most, for a checking seat's contribution (rum500/host/commit.py)
    contribution_wait: float = 1.5
    #: the review's coach line (rum500/tui/coachline.py) at this table: the lobby's ``coach``
    coach: bool = False
