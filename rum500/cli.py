"""The ``rum500`` command: argparse front door that wires the parts together.

The one wiring site: the command line becomes a typed config (:func:`command_config`: one
builder per command in :data:`CONFIGS`, the frozen dataclasses of :mod:`rum500.configs`),
handed to its ``run_*(config) -> int`` runner, found by the config's type in
:data:`rum500.runners.RUNNERS` (the pattern for a new command is written at the top of
:mod:`rum500.runners`). The runners' modules are imported lazily, after the command line is
read, so ``rum500 --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from rum500.configs import (
    PLAIN_KINDS,
    AnalyseConfig,
    CommandConfig,
    ExportConfig,
    HeadlessGuestConfig,
    HeadlessHostConfig,
    HistoryConfig,
    HostingConfig,
    ImportConfig,
    JoinConfig,
    LearnConfig,
    ListConfig,
    LobbyConfig,
    PlayConfig,
    ReplayConfig,
    SalvageConfig,
    SimConfig,
    StatsConfig,
    VerifyConfig,
)
from rum500.i18n import N_, _, set_language, translate_argparse
from rum500.rules.options import GROUP_TITLES, MAX_PLAYERS, MIN_PLAYERS, OPTION_SPECS, OptionSpec

#: the biggest score target a table accepts (a bigger one would never end)
MAX_TARGET = 1_000_000_000
MAX_SEED = 2**63 - 1


def _whole(low: int, high: int, what: str = N_("a whole number")) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, else a clear message
    (``what``: a message marked with ``N_``, said in the current language)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("not a whole number: {text}").format(text=repr(text))
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("{what} from {low} to {high}").format(what=_(what), low=low, high=high)
            )
        return value

    parse.__name__ = "whole number"
    return parse


def _seconds(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: seconds from ``low`` to ``high`` (no nan, no infinity)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("not a number of seconds: {text}").format(text=repr(text))
            ) from None
        if not low <= value <= high:  # also refuses nan and inf
            raise argparse.ArgumentTypeError(
                _("from {low} to {high} seconds").format(low=f"{low:g}", high=f"{high:g}")
            )
        return value

    parse.__name__ = "seconds"
    return parse


_positive = _whole(1, MAX_TARGET)
_target = _whole(1, MAX_TARGET, N_("a score"))
_seed = _whole(0, MAX_SEED, N_("a seed"))
_port = _whole(0, 65535, N_("a TCP port"))
_players = _whole(MIN_PLAYERS, MAX_PLAYERS, N_("players"))
_host_bots = _whole(0, MAX_PLAYERS, N_("bots"))
_play_bots = _whole(1, MAX_PLAYERS - 1, N_("bots"))
_jobs = _whole(1, 1024, N_("processes"))
_delay = _seconds(0.0, 60.0)
_timeout = _seconds(0.1, 600.0)
_review_timeout = _seconds(1.0, 600.0)
_claim_window = _seconds(0.5, 10.0)


def _review(p: argparse.ArgumentParser, solo: bool = False) -> None:
    p.add_argument(
        "--review-timeout",
        type=_review_timeout,
        default=None if solo else 30.0,
        metavar="SECONDS",
        help=_(
            "after a hand, deal anyway when you have not pressed Enter by then "
            "(default: wait for you; 30 with --lan)"
        )
        if solo
        else _("after a hand, deal anyway when not everyone pressed Enter by then (30)"),
    )


def _common(p: argparse.ArgumentParser, top: bool = False) -> None:
    """--lang, --ascii and -v: accepted before the command (``top``) and after it."""
    prefix = "top_" if top else ""
    p.add_argument(
        "--lang",
        choices=["en", "ru"],
        dest=prefix + "lang",
        help=_("language (default: from the locale)"),
    )
    p.add_argument(
        "--ascii",
        action="store_true",
        dest=prefix + "ascii",
        help=_("no Unicode suit symbols or box lines"),
    )
    p.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        dest=prefix + "verbose",
        help=_("more logging"),
    )


def _table_options(p: argparse.ArgumentParser) -> None:
    """Every table option's flag (RULES.md §9, §11, §12), with ``--seed`` and
    ``--claim-window``: for ``play`` and ``host``."""
    groups = _option_flags(p, claim_window=True)
    groups["§9"].add_argument(
        "--seed", type=_seed, help=_("seed of the shuffles (random by default)")
    )


def _option_flags(
    p: argparse.ArgumentParser, skip: tuple[str, ...] = (), claim_window: bool = False
) -> dict[str, Any]:
    """One flag per option of :data:`~rum500.rules.options.OPTION_SPECS` but ``skip``, in
    argument groups by RULES.md chapter (returned by group); ``claim_window``: the host's
    ``--claim-window`` after ``--rummy-calls``."""
    groups: dict[str, Any] = {}
    for spec in OPTION_SPECS:
        if spec.name in skip:
            continue
        if spec.group not in groups:
            groups[spec.group] = p.add_argument_group(_(GROUP_TITLES[spec.group]))
        g = groups[spec.group]
        g.add_argument(spec.flag, default=spec.default, help=_(spec.help), **_flag_kind(spec))
        if claim_window and spec.name == "rummy_calls":
            g.add_argument(
                "--claim-window",
                type=_claim_window,
                default=3.0,
                metavar="SECONDS",
                help=_(
                    'with --rummy-calls: seconds to call "Rummy!" after each discard (3; 0.5-10)'
                ),
            )
    return groups


def _flag_kind(spec: OptionSpec) -> dict[str, Any]:
    """argparse's arguments for an option of this kind."""
    if spec.kind == "bool":
        return {"action": "store_true"}
    if spec.kind == "int" or spec.high:  # (a choice with a range: any value in it)
        return {"type": _whole(spec.low, spec.high, spec.noun or N_("a whole number"))}
    values = spec.flag_choices()
    return {"choices": values, "type": type(values[0])} if values else {}


def _host_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(  # (--name: the older spelling; your own name is --player)
        "--table",
        "--name",
        dest="name",
        metavar="NAME",
        help=_("the table's name (default: the host's name); --player names you"),
    )
    p.add_argument("--player", help=_("your player name at the table"))
    p.add_argument("--players", type=_players, default=4, help=_("seats at the table (4)"))
    p.add_argument(
        "--bots",
        type=_host_bots,
        default=None,
        help=_("seats filled by bots at the start (default: none)"),
    )
    p.add_argument(
        "--bot-level", default="medium", help=_("bot strength: easy, medium, hard, expert")
    )
    p.add_argument(
        "--failover",
        choices=["auto", "on", "off"],
        default="auto",
        help=_(
            "a standby keeps the match sealed and takes over if this host dies "
            "(auto: on with 2 or more people seated besides you)"
        ),
    )
    p.add_argument(
        "--coach",
        action="store_true",
        help=_("the hand-end review shows each player their biggest mistake of the hand"),
    )
    p.add_argument("--port", type=_port, default=0, help=_("TCP port (default: any free port)"))
    p.add_argument("--bind", default="0.0.0.0", help=_("address to listen on (0.0.0.0)"))
    p.add_argument(
        "--password",
        nargs="?",
        const=True,
        default=None,
        help=_("ask for a table password (or give it)"),
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        default=None,
        metavar="GAME_ID",
        help=_("resume a match from the game log (the newest unfinished one)"),
    )
    _table_options(p)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rum500",
        description=_(
            "Rummy 500 (Michigan rum) on the local network, in the terminal. "
            "With no command: the lobby."
        ),
    )
    _common(parser, top=True)
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_("for screen readers and braille: no screen, one line per event, typed commands"),
    )
    parser.add_argument(
        "--four-colour",
        action="store_true",
        help=_("a four-colour deck: spades black, hearts red, diamonds blue, clubs green"),
    )
    parser.add_argument("--name", dest="top_name", metavar="NAME", help=_("your player name"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _table_commands(sub)
    _sim_command(sub)
    _log_commands(sub)
    for choice in sub._choices_actions:  # `rum500 play --help` says what play is, too
        command = sub.choices[choice.dest]
        if command.description is None:
            command.description = choice.help
    return parser


def _table_commands(sub: Any) -> None:
    """``play``, ``host``, ``join`` and ``list``: the commands that host or join a table."""
    p = sub.add_parser("play", help=_("a solo game against bots, straight away"))
    _common(p)
    p.add_argument("--name", help=_("your player name"))
    p.add_argument(
        "--bots",
        type=_play_bots,
        default=1,
        metavar="N",
        help=_("bots to play against, 1 to 7 (1)"),
    )
    p.add_argument(
        "--bot-level", default="medium", help=_("bot strength: easy, medium, hard, expert")
    )
    p.add_argument("--lan", action="store_true", help=_("announce the table on the LAN too"))
    p.add_argument(
        "--resume",
        nargs="?",
        const="solo",
        default=None,
        metavar="GAME_ID",
        help=_(
            "go on with the newest unfinished solo match (or game GAME_ID); "
            "it keeps its own table options"
        ),
    )
    p.add_argument(
        "--bot-delay",
        type=_delay,
        default=None,
        metavar="SECONDS",
        help=_("pause before each bot move (0.7)"),
    )
    _review(p, solo=True)
    _table_options(p)

    p = sub.add_parser("learn", help=_("a first hand that teaches the game, against one bot"))
    _common(p)
    p.add_argument("--name", help=_("your player name"))
    p = sub.add_parser("host", help=_("host a table (and play at it)"))
    _common(p)
    p.add_argument("--headless", action="store_true", help=_("no screen: log what happens"))
    p.add_argument(
        "--bot-delay",
        type=_delay,
        default=1.0,
        metavar="SECONDS",
        help=_("bots' pause before each action while people are seated (1.0)"),
    )
    p.add_argument("--no-announce", action="store_true", help=_("do not announce on the LAN"))
    _review(p)
    _host_args(p)

    p = sub.add_parser("join", help=_("join a table by name or HOST:PORT"))
    _common(p)
    p.add_argument("table", help=_("table name as listed, or HOST:PORT"))
    p.add_argument("--name", help=_("your player name"))
    p.add_argument("--spectate", action="store_true", help=_("watch without a seat"))
    p.add_argument("--password", nargs="?", const=True, default=None, help=_("table password"))
    p.add_argument(
        "--timeout", type=_timeout, default=3.0, help=_("seconds to look for the table (3)")
    )
    p.add_argument(
        "--headless",
        action="store_true",
        help=_("no screen: a bot plays the seat, one line per event; this machine can host"),
    )
    p.add_argument("--bot-level", default="medium", help=_("with --headless: the bot's strength"))
    p.add_argument("--seed", type=_seed, help=_("with --headless: the bot's seed"))
    p.add_argument(
        "--bot-delay",
        type=_delay,
        default=0.0,
        metavar="SECONDS",
        help=_("with --headless: the bot's pause before each action (0)"),
    )
    p.add_argument(
        "--bind", default="0.0.0.0", help=_("where to listen if the table comes here (0.0.0.0)")
    )
    p.add_argument(
        "--no-announce", action="store_true", help=_("do not announce the table if it comes here")
    )
    p.add_argument(
        "--no-log",
        action="store_true",
        help=_("with --headless: keep no game log if the table comes here"),
    )

    p = sub.add_parser("list", help=_("the tables on the LAN right now"))
    _common(p)
    p.add_argument(
        "--timeout",
        type=_timeout,
        default=5.0,
        help=_("listen at most this many seconds (5); it stops once answers stop coming"),
    )
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))


def _sim_command(sub: Any) -> None:
    """``sim``: bot tournaments."""
    p = sub.add_parser("sim", help=_("bot tournaments"))
    _common(p)
    p.add_argument("--games", type=_positive, default=100, help=_("matches to play (100)"))
    p.add_argument("--players", type=_players, default=2, help=_("players per match (2)"))
    p.add_argument(
        "--bots",
        help=_(
            "bot levels, comma separated (hard,medium; --ladder: random,easy,medium,hard,expert)"
        ),
    )
    p.add_argument(
        "--ladder",
        action="store_true",
        help=_("round robin of two-player matches, --games per pair; Elo ratings with 95%% CIs"),
    )
    p.add_argument("--hands", type=_positive, help=_("play H hands instead of whole matches"))
    p.add_argument("--seed", type=_seed, default=0, help=_("seed of the first match (0)"))
    p.add_argument("--jobs", type=_jobs, help=_("processes (default: all cores)"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    p.add_argument("--target", type=_target, default=500, help=_("score that wins (500)"))
    _option_flags(p, skip=("target",))  # sim's own --target above


def _analyse_command(sub: Any) -> None:
    """``analyse``: the coach (docs/analysis.md)."""
    p = sub.add_parser(
        "analyse",
        help=_("where a match's points were lost, and what was luck"),
        description=_(
            "For every decision of a seat: the move played, the best move found and the "
            "expected points it lost (± its standard error), from what the seat could see "
            "then; per hand and per match the error rate (points lost per decision), the "
            "three biggest mistakes and the luck of the deal and the draws. Kept in the game "
            "log for 'rum500 stats'. docs/analysis.md says what every figure means."
        ),
    )
    _common(p)
    p.add_argument(
        "game_id", nargs="?", metavar="GAME_ID", help=_("the match (default: the newest)")
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=_whole(0, 7), metavar="N", help=_("only this seat (0 to 7)"))
    who.add_argument("--player", metavar="NAME", help=_("only this player's seat"))
    p.add_argument("--hand", type=_positive, metavar="K", help=_("only hand K"))
    p.add_argument("--json", action="store_true", help=_("one record per decision, then summaries"))
    p.add_argument(
        "--budget",
        type=_whole(4, 4096),
        default=32,
        metavar="B",
        help=_("worlds sampled per candidate move: deeper and slower (32)"),
    )
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help=_("seed of the sampling (0)"))
    p.add_argument("--jobs", type=_jobs, metavar="N", help=_("processes (default: 1)"))


def _log_commands(sub: Any) -> None:
    """The game log's commands: ``history``, ``stats``, ``replay``, ``export``, ``import``,
    ``salvage``."""
    p = sub.add_parser("history", help=_("past matches"))
    _common(p)
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    p.add_argument("--limit", type=_positive, default=50, help=_("newest N matches (50)"))
    p.add_argument(
        "--all",
        action="store_true",
        help=_("also the matches left before their first hand ended"),
    )

    p = sub.add_parser("stats", help=_("statistics per player"))
    _common(p)
    p.add_argument("player", nargs="?", help=_("one player's name"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    _analyse_command(sub)

    p = sub.add_parser("replay", help=_("step through a finished match"))
    _common(p)
    p.add_argument(
        "game_id", nargs="?", metavar="GAME_ID", help=_("the match (default: the newest finished)")
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--seat",
        type=_whole(0, 7),
        metavar="N",
        help=_("mark this seat's decisions with their cost (c in the viewer)"),
    )
    who.add_argument(
        "--player", metavar="NAME", help=_("mark the decisions of the seat of this name")
    )

    p = sub.add_parser("export", help=_("write a match to a file"))
    _common(p)
    p.add_argument("game_id")
    p.add_argument("file", help=_("the file to write (-: the standard output)"))
    p.add_argument("--force", action="store_true", help=_("write over a file already there"))

    p = sub.add_parser("verify", help=_("check every deal of an exported match"))
    _common(p)
    p.add_argument("file", help=_("the match file (-: the standard input; at most 16 MiB)"))

    p = sub.add_parser("import", help=_("read a match from a file"))
    _common(p)
    p.add_argument("file", help=_("the match file (-: the standard input; at most 16 MiB)"))

    p = sub.add_parser(
        "salvage", help=_("copy every match a damaged game log can still give into a new log")
    )
    _common(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        help=_("the new log (default: games-salvaged-DATE.sqlite3 beside the game log)"),
    )


#: where a player name given before the command goes (``rum500 --name Ann join …``)
NAME_DEST = {"lobby": "name", "play": "name", "join": "name", "host": "player"}
#: arguments that are file names: any bytes the system allows, so not checked as UTF-8
PATH_ARGS = {"file", "out"}


def _merge(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Options given before the command count as if given after it (``rum500 --ascii play``);
    a name before a command that has no player name is refused with a clear message."""
    command = args.command or "lobby"
    args.lang = getattr(args, "lang", None) or args.top_lang
    args.ascii = bool(getattr(args, "ascii", False) or args.top_ascii)
    args.verbose = getattr(args, "verbose", 0) + args.top_verbose
    if args.top_name is not None:
        dest = NAME_DEST.get(command)
        if dest is None:
            parser.error(
                _("--name before '{command}': that command takes no player name").format(
                    command=command
                )
            )
        if getattr(args, dest, None) is None:
            setattr(args, dest, args.top_name)
    if not hasattr(args, "name"):
        args.name = None
    del args.top_lang, args.top_ascii, args.top_verbose, args.top_name


def _check_text(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every text argument must be valid UTF-8 (``--name $'Bad\\xff'`` is refused)."""
    for dest, value in vars(args).items():
        if not isinstance(value, str) or dest in PATH_ARGS:
            continue
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            positional = dest in ("table", "game_id") or (
                dest == "player" and args.command == "stats"
            )
            what = dest.upper() if positional else "--" + dest.replace("_", "-")
            parser.error(
                _("{what} is not valid UTF-8 text: type it again in plain characters").format(
                    what=what
                )
            )


def _options(args: argparse.Namespace) -> Any:
    """The table options of the command's option flags."""
    from rum500.runners import options_from_args

    return options_from_args(args)


def _lobby(args: argparse.Namespace, screen: dict[str, Any]) -> LobbyConfig:
    return LobbyConfig(**screen, name=getattr(args, "name", None))


def _play(args: argparse.Namespace, screen: dict[str, Any]) -> PlayConfig:
    return PlayConfig(
        **screen,
        name=args.name,
        bots=args.bots,
        bot_level=args.bot_level,
        seed=args.seed,
        options=_options(args),
        lan=args.lan,
        resume=args.resume,
        bot_delay=args.bot_delay,
        review_timeout=args.review_timeout,
        claim_window=args.claim_window,
    )


def _host(args: argparse.Namespace, screen: dict[str, Any]) -> HostingConfig:
    kind = HeadlessHostConfig if args.headless else HostingConfig
    return kind(
        **screen,
        headless=args.headless,
        name=args.name,
        player=args.player,
        players=args.players,
        bots=args.bots,
        bot_level=args.bot_level,
        failover=args.failover,
        port=args.port,
        bind=args.bind,
        password=args.password,
        resume=args.resume,
        seed=args.seed,
        options=_options(args),
        announce=not args.no_announce,
        bot_delay=args.bot_delay,
        review_timeout=args.review_timeout,
        claim_window=args.claim_window,
        coach=args.coach,
    )


def _join(args: argparse.Namespace, screen: dict[str, Any]) -> JoinConfig:
    join: dict[str, Any] = {
        "table": args.table,
        "name": args.name,
        "spectate": args.spectate,
        "password": args.password,
        "timeout": args.timeout,
        "bind": args.bind,
        "announce": not args.no_announce,
    }
    if not args.headless:
        return JoinConfig(**screen, **join)
    return HeadlessGuestConfig(
        **screen,
        **join,
        bot_level=args.bot_level,
        seed=args.seed,
        bot_delay=args.bot_delay,
        keep_log=not args.no_log,
    )


def _list(args: argparse.Namespace, screen: dict[str, Any]) -> ListConfig:
    return ListConfig(**screen, timeout=args.timeout, json=args.json)


def _sim(args: argparse.Namespace, screen: dict[str, Any]) -> SimConfig:
    return SimConfig(
        **screen,
        games=args.games,
        players=args.players,
        bots=args.bots,
        ladder=args.ladder,
        hands=args.hands,
        seed=args.seed,
        jobs=args.jobs,
        json=args.json,
        target=args.target,
        options=_options(args),
    )


def _history(args: argparse.Namespace, screen: dict[str, Any]) -> HistoryConfig:
    return HistoryConfig(**screen, json=args.json, limit=args.limit, everything=args.all)


def _stats(args: argparse.Namespace, screen: dict[str, Any]) -> StatsConfig:
    return StatsConfig(**screen, player=args.player, json=args.json)


def _analyse(args: argparse.Namespace, screen: dict[str, Any]) -> AnalyseConfig:
    return AnalyseConfig(
        **screen,
        game_id=args.game_id,
        seat=args.seat,
        player=args.player,
        hand=args.hand,
        json=args.json,
        budget=args.budget,
        seed=args.seed,
        jobs=args.jobs or 1,
    )


def _replay(args: argparse.Namespace, screen: dict[str, Any]) -> ReplayConfig:
    return ReplayConfig(**screen, game_id=args.game_id, seat=args.seat, player=args.player)


def _export(args: argparse.Namespace, screen: dict[str, Any]) -> ExportConfig:
    return ExportConfig(**screen, game_id=args.game_id, file=args.file, force=args.force)


def _import(args: argparse.Namespace, screen: dict[str, Any]) -> ImportConfig:
    return ImportConfig(**screen, file=args.file)


def _verify(args: argparse.Namespace, screen: dict[str, Any]) -> VerifyConfig:
    return VerifyConfig(**screen, file=args.file)


def _learn(args: argparse.Namespace, screen: dict[str, Any]) -> LearnConfig:
    return LearnConfig(**screen, name=args.name)


def _salvage(args: argparse.Namespace, screen: dict[str, Any]) -> SalvageConfig:
    return SalvageConfig(**screen, out=args.out)


#: subcommand -> the builder of its typed config (the only readers of a parsed command line)
CONFIGS: dict[str, Callable[[argparse.Namespace, dict[str, Any]], CommandConfig]] = {
    "lobby": _lobby,
    "play": _play,
    "learn": _learn,
    "host": _host,
    "join": _join,
    "list": _list,
    "sim": _sim,
    "history": _history,
    "stats": _stats,
    "analyse": _analyse,
    "replay": _replay,
    "export": _export,
    "import": _import,
    "verify": _verify,
    "salvage": _salvage,
}


def command_config(args: argparse.Namespace) -> CommandConfig:
    """The typed config of ``args``'s command (:data:`CONFIGS`; no command: the lobby)."""
    screen: dict[str, Any] = {
        "lang": getattr(args, "lang", None),
        "ascii": bool(getattr(args, "ascii", False)),
        "verbose": int(getattr(args, "verbose", 0) or 0),
        "four_colour": bool(getattr(args, "four_colour", False)),
    }
    config = CONFIGS[args.command or "lobby"](args, screen)
    plain = PLAIN_KINDS.get(type(config))  # --plain or RUM500_PLAIN=1: no screen, lines
    if plain is not None and (args.plain or os.environ.get("RUM500_PLAIN", "") not in ("", "0")):
        return plain(**{f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    return config


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader went away (``rum500 history | head``): stop quietly, as cat does
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 141


#: the options ``rum500`` itself takes before a command, and whether each takes a value
TOP_OPTIONS = {
    "--lang": True,
    "--name": True,
    "--ascii": False,
    "--plain": False,
    "--four-colour": False,
    "-v": False,
    "--verbose": False,
    "-h": False,
    "--help": False,
}


def _misplaced(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """An option of a command given before it (``rum500 --bots 3 play``): say where it goes
    instead of argparse's "invalid choice: '3'"."""
    command = next((a for a in argv if a in CONFIGS), None)
    k = 0
    while k < len(argv) and argv[k] != command:
        word = argv[k]
        if word == "--":
            return
        if word.startswith("-"):
            name = word.split("=", 1)[0]
            if name.startswith("-v") and set(name[1:]) == {"v"}:
                name = "-v"
            if name not in TOP_OPTIONS:
                where = f"rum500 {command or 'COMMAND'} {word}"
                parser.error(
                    _("{option} goes after the command: {where} …").format(option=name, where=where)
                )
            if TOP_OPTIONS[name] and "=" not in word:
                k += 1  # its value
        k += 1


def _language_asked(words: list[str]) -> str | None:
    """The value of ``--lang`` in the command line, wherever it is (before ``--``): the
    language is chosen before argparse reads the line, so that its messages, ``--help`` and
    every error are in that language too."""
    for k, word in enumerate(words):
        if word == "--":
            break
        if word == "--lang" and k + 1 < len(words):
            return words[k + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


def _main(argv: list[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    set_language(_language_asked(words))  # None or unknown: from the locale, as everywhere
    translate_argparse()
    parser = build_parser()
    _misplaced(parser, words)
    args = parser.parse_args(argv)
    _merge(parser, args)
    _check_text(parser, args)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = command_config(args)
    from rum500.runners import runner_of  # the one dispatch: config type -> runner

    try:
        run = runner_of(config)
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("rum500"):
            print(
                "rum500: "
                + _("'{command}' is not available in this build").format(command=config.command),
                file=sys.stderr,
            )
            return 2
        raise
    try:
        code = int(run(config) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except KeyboardInterrupt:
        return 130
