"""The typed configs of every ``rum500`` command: :mod:`rum500.cli` builds one from the
command line (:func:`rum500.cli.command_config`) and hands it to the command's runner
(:data:`rum500.runners.RUNNERS`: config type -> runner); nothing past ``cli.py`` reads an
:class:`argparse.Namespace`.

Every config is a frozen dataclass that carries the screen settings (``lang``, ``ascii``,
``verbose``) and says which command it is (``command``, what
:func:`rum500.store.resume.attach_journal` reads beside ``resume``, ``name`` and
``player_given``); a runner that settles a field (the player's login name, a password typed
at the terminal) makes a new one with :func:`dataclasses.replace`.
"""

from __future__ import annotations

import getpass
import socket
from dataclasses import dataclass, field
from typing import ClassVar

from rum500.claims import CLAIM_WINDOW
from rum500.host.config import HostConfig
from rum500.rules import Options


@dataclass(frozen=True)
class Screen:
    """What every command takes: the language, plain ASCII, how much to log, and the deck's
    colours (``four_colour``: ♠ black, ♥ red, ♦ blue, ♣ green)."""

    lang: str | None = None
    ascii: bool = False
    verbose: int = 0
    four_colour: bool = False


@dataclass(frozen=True)
class LobbyConfig(Screen):
    """``rum500`` (the lobby): ``name``, the player's name (None: the login name)."""

    command: ClassVar[str] = "lobby"
    name: str | None = None


@dataclass(frozen=True)
class PlayConfig(Screen):
    """``rum500 play``: a solo table hosted here (``lan``: announced on the LAN too)."""

    command: ClassVar[str] = "play"
    name: str | None = None
    bots: int = 1
    bot_level: str = "medium"
    seed: int | None = None
    options: Options = field(default_factory=Options)
    lan: bool = False
    resume: str | None = None  # "solo": the newest unfinished solo match, else its id
    bot_delay: float | None = None  # None: the screen's default pause
    review_timeout: float | None = None  # None: wait for the player (30 s with --lan)
    claim_window: float = 3.0


@dataclass(frozen=True)
class LearnConfig(Screen):
    """``rum500 learn``: a first hand that teaches, against one scripted bot."""

    command: ClassVar[str] = "learn"
    name: str | None = None


@dataclass(frozen=True)
class HostingConfig(Screen):
    """``rum500 host`` (``headless``: ``--headless``): ``name`` is the TABLE's name,
    ``player`` the host player's; ``password`` True: ask for it at the terminal."""

    command: ClassVar[str] = "host"
    headless: bool = False
    name: str | None = None
    player: str | None = None
    player_given: bool = True  # --resume: whether the player's name was given, not the login
    players: int = 4
    bots: int | None = None
    bot_level: str = "medium"
    failover: str = "auto"
    port: int = 0
    bind: str = "0.0.0.0"
    password: str | bool | None = None
    resume: str | None = None
    seed: int | None = None
    options: Options = field(default_factory=Options)
    announce: bool = True
    bot_delay: float = 1.0
    review_timeout: float = 30.0
    claim_window: float = 3.0
    coach: bool = False  # --coach: the review's coach line for every player


@dataclass(frozen=True)
class HeadlessHostConfig(HostingConfig):
    """``rum500 host --headless``: the table with no screen, its life logged."""

    headless: bool = True


@dataclass(frozen=True)
class JoinConfig(Screen):
    """``rum500 join TABLE``: ``table`` a name or id on the LAN, or ``HOST:PORT``; ``bind``
    and ``announce``: where this machine listens, and whether it announces, if the table
    comes here; ``password`` True: ask for it."""

    command: ClassVar[str] = "join"
    table: str = ""
    name: str | None = None
    spectate: bool = False
    password: str | bool | None = None
    timeout: float = 3.0
    bind: str = "0.0.0.0"
    announce: bool = True


@dataclass(frozen=True)
class HeadlessGuestConfig(JoinConfig):
    """``rum500 join TABLE --headless``: a bot plays the seat (``bot_level``, ``seed``,
    ``bot_delay``); ``keep_log``: a table that comes here is kept in the game log."""

    bot_level: str = "medium"
    seed: int | None = None
    bot_delay: float = 0.0
    keep_log: bool = True


@dataclass(frozen=True)
class ListConfig(Screen):
    """``rum500 list``: listen up to ``timeout`` seconds; ``json``: machine-readable."""

    command: ClassVar[str] = "list"
    timeout: float = 5.0
    json: bool = False


@dataclass(frozen=True)
class SimConfig(Screen):
    """``rum500 sim``: ``games`` matches (per pair with ``ladder``) of ``players`` bots of the
    levels ``bots`` (comma separated; None: the default), ``hands`` hands each instead of
    whole matches; ``options``: the table options of the flags (``target`` is ``--target``)."""

    command: ClassVar[str] = "sim"
    games: int = 100
    players: int = 2
    bots: str | None = None
    ladder: bool = False
    hands: int | None = None
    seed: int = 0
    jobs: int | None = None  # None: all cores
    json: bool = False
    target: int = 500
    options: Options = field(default_factory=Options)


@dataclass(frozen=True)
class HistoryConfig(Screen):
    """``rum500 history``: the newest ``limit`` matches (``everything``: ``--all``, also those
    left before their first hand ended)."""

    command: ClassVar[str] = "history"
    json: bool = False
    limit: int = 50
    everything: bool = False


@dataclass(frozen=True)
class StatsConfig(Screen):
    """``rum500 stats [PLAYER]``."""

    command: ClassVar[str] = "stats"
    player: str | None = None
    json: bool = False


@dataclass(frozen=True)
class AnalyseConfig(Screen):
    """``rum500 analyse [GAME_ID] [--seat N | --player NAME] [--hand K] [--json] [--budget B]
    [--seed S] [--jobs N]`` (``game_id`` None: the newest match; no seat nor player: every
    seat)."""

    command: ClassVar[str] = "analyse"
    game_id: str | None = None
    seat: int | None = None
    player: str | None = None
    hand: int | None = None
    json: bool = False
    budget: int = 32
    seed: int = 0
    jobs: int = 1


@dataclass(frozen=True)
class ReplayConfig(Screen):
    """``rum500 replay [GAME_ID]`` (None: the newest finished match)."""

    command: ClassVar[str] = "replay"
    game_id: str | None = None
    seat: int | None = None  # --seat: the coach marks this seat's decisions
    player: str | None = None  # --player: the same, by name


@dataclass(frozen=True)
class ExportConfig(Screen):
    """``rum500 export GAME_ID FILE`` (``-``: the standard output; ``force``: over a file)."""

    command: ClassVar[str] = "export"
    game_id: str = "last"
    file: str = "-"
    force: bool = False


@dataclass(frozen=True)
class ImportConfig(Screen):
    """``rum500 import FILE`` (``-``: the standard input)."""

    command: ClassVar[str] = "import"
    file: str = "-"


@dataclass(frozen=True)
class VerifyConfig(Screen):
    """``rum500 verify FILE``: every hand's deal of an exported match checked."""

    command: ClassVar[str] = "verify"
    file: str = "-"


@dataclass(frozen=True)
class SalvageConfig(Screen):
    """``rum500 salvage``: ``out``, the new log (None: beside the game log, dated)."""

    command: ClassVar[str] = "salvage"
    out: str | None = None


@dataclass(frozen=True)
class PlainLobbyConfig(LobbyConfig):
    """``rum500 --plain`` (or ``RUM500_PLAIN=1``): the lobby in typed lines (rum500.plain)."""


@dataclass(frozen=True)
class PlainPlayConfig(PlayConfig):
    """``rum500 --plain play``: the solo table in typed lines, no screen."""


@dataclass(frozen=True)
class PlainLearnConfig(LearnConfig):
    """``rum500 --plain learn``: the first hand that teaches, in typed lines, no screen."""


@dataclass(frozen=True)
class PlainHostConfig(HostingConfig):
    """``rum500 --plain host``: host and play in typed lines, no screen."""


@dataclass(frozen=True)
class PlainJoinConfig(JoinConfig):
    """``rum500 --plain join TABLE``: play at a table in typed lines, no screen."""


#: a command's config -> its plain mode's (``--plain``, ``RUM500_PLAIN=1``)
PLAIN_KINDS: dict[type, type] = {
    LobbyConfig: PlainLobbyConfig,
    PlayConfig: PlainPlayConfig,
    LearnConfig: PlainLearnConfig,
    HostingConfig: PlainHostConfig,
    JoinConfig: PlainJoinConfig,
}


@dataclass(frozen=True)
class ResumeAsk:
    """A match to resume, as :func:`rum500.store.resume.attach_journal` reads it (the
    lobby's "continue": ``ResumeAsk("play", game_id)``)."""

    command: str
    resume: str | None
    name: str | None = None
    player_given: bool = True


def host_config(hosting: HostingConfig) -> HostConfig:
    """The :class:`HostConfig` of ``rum500 host`` (may prompt for a password)."""
    password = hosting.password
    if password is True:
        password = getpass.getpass("table password: ")
    player = hosting.player
    name = hosting.name or player or socket.gethostname().split(".")[0] or "rum500"
    return HostConfig(
        players=hosting.players,
        bots=hosting.bots or 0,
        bot_level=hosting.bot_level,
        seed=hosting.seed,
        options=hosting.options,
        table_name=name,
        host_player=player,
        bind=hosting.bind,
        port=hosting.port,
        password=password or None,
        announce=hosting.announce,
        bot_delay=hosting.bot_delay,
        review_timeout=hosting.review_timeout,
        claim_window=hosting.claim_window or CLAIM_WINDOW,
        journal=None,
        failover=hosting.failover or "auto",
        coach=hosting.coach,
    )


#: every typed config a runner takes (subclasses included: HeadlessHostConfig,
#: HeadlessGuestConfig)
CommandConfig = (
    LobbyConfig
    | PlayConfig
    | LearnConfig
    | HostingConfig
    | JoinConfig
    | ListConfig
    | SimConfig
    | HistoryConfig
    | StatsConfig
    | AnalyseConfig
    | ReplayConfig
    | ExportConfig
    | ImportConfig
    | SalvageConfig
    | VerifyConfig
)

__all__ = [
    "AnalyseConfig",
    "CommandConfig",
    "ExportConfig",
    "HeadlessGuestConfig",
    "HeadlessHostConfig",
    "HistoryConfig",
    "HostingConfig",
    "ImportConfig",
    "JoinConfig",
    "LearnConfig",
    "ListConfig",
    "LobbyConfig",
    "PLAIN_KINDS",
    "PlainHostConfig",
    "PlainJoinConfig",
    "PlainLearnConfig",
    "PlainLobbyConfig",
    "PlainPlayConfig",
    "PlayConfig",
    "ReplayConfig",
    "ResumeAsk",
    "SalvageConfig",
    "Screen",
    "SimConfig",
    "StatsConfig",
    "VerifyConfig",
    "host_config",
]
