"""The ``rum500`` command: argparse front door that wires the parts together.

Each subcommand hands its parsed arguments to one ``run_*(args) -> int`` function in the
module that owns it; those modules are imported lazily so ``rum500 --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from rum500.rules.options import EMPTY_STOCK_RULES, MAX_PLAYERS, MIN_PLAYERS

#: subcommand -> (module, function)
HANDLERS = {
    "lobby": ("rum500.tui.main", "run_lobby"),
    "play": ("rum500.tui.main", "run_play"),
    "host": ("rum500.tui.main", "run_host"),
    "host-headless": ("rum500.hosting", "run_headless"),
    "join": ("rum500.tui.main", "run_join"),
    "list": ("rum500.hosting", "run_list"),
    "sim": ("rum500.sim", "run"),
    "history": ("rum500.store.commands", "run_history"),
    "stats": ("rum500.store.commands", "run_stats"),
    "replay": ("rum500.store.commands", "run_replay"),
    "export": ("rum500.store.commands", "run_export"),
    "import": ("rum500.store.commands", "run_import"),
}


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be a positive whole number")
    return value


def _review_timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 1.0 <= value <= 600.0:  # also refuses nan and inf
        raise argparse.ArgumentTypeError("from 1 to 600 seconds")
    return value


def _review(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--review-timeout",
        type=_review_timeout,
        default=30.0,
        metavar="SECONDS",
        help="after a hand, deal anyway when not everyone pressed Enter by then (30)",
    )


def _players(text: str) -> int:
    value = int(text)
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{MIN_PLAYERS} to {MAX_PLAYERS} players")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=["en", "ru"], help="language (default: from the locale)")
    p.add_argument("--ascii", action="store_true", help="no Unicode suit symbols or box lines")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging")


def _table_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("table options (RULES.md §9)")
    g.add_argument("--target", type=_positive, default=500, help="score that wins (500)")
    g.add_argument("--decks", type=int, choices=[1, 2], help="decks (auto: 1 up to 4 players)")
    g.add_argument(
        "--top-card-free",
        action="store_true",
        help="the top discard may be taken without playing it",
    )
    g.add_argument("--must-discard", action="store_true", help="go out only by discarding")
    g.add_argument(
        "--empty-stock",
        choices=EMPTY_STOCK_RULES,
        default="play_on",
        help="when the stock runs out (play_on)",
    )
    g.add_argument("--seed", type=int, help="seed of the shuffles (random by default)")


def _host_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", help="table name (default: the host's name)")
    p.add_argument("--player", help="your player name at the table")
    p.add_argument("--players", type=_players, default=4, help="seats at the table (4)")
    p.add_argument(
        "--bots",
        type=int,
        default=None,
        help="seats filled by bots at the start (default: none for host, all but yours for play)",
    )
    p.add_argument("--bot-level", default="medium", help="bot strength: easy, medium, hard")
    p.add_argument("--port", type=int, default=0, help="TCP port (default: any free port)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    p.add_argument(
        "--password",
        nargs="?",
        const=True,
        default=None,
        help="ask for a table password (or give it)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        default=None,
        metavar="GAME_ID",
        help="resume a match from the game log (the newest unfinished one)",
    )
    _table_options(p)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rum500",
        description="Rummy 500 (Michigan rum) on the local network, in the terminal. "
        "With no command: the lobby.",
    )
    _common(parser)
    parser.add_argument("--name", help="your player name")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="a solo game against bots, straight away")
    _common(p)
    p.add_argument("--name", help="your player name")
    p.add_argument(
        "--bots",
        type=int,
        choices=range(1, MAX_PLAYERS),
        default=1,
        metavar="N",
        help="bots to play against, 1 to 7 (1)",
    )
    p.add_argument("--bot-level", default="medium", help="bot strength: easy, medium, hard")
    p.add_argument("--lan", action="store_true", help="announce the table on the LAN too")
    p.add_argument("--bot-delay", type=float, default=None, metavar="SECONDS",
                   help="pause before each bot move (0.7)")
    _review(p)
    _table_options(p)

    p = sub.add_parser("host", help="host a table (and play at it)")
    _common(p)
    p.add_argument("--headless", action="store_true", help="no screen: log what happens")
    p.add_argument("--bot-delay", type=float, default=1.0, metavar="SECONDS",
                   help="bots' pause before each action while people are seated (1.0)")
    p.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    _review(p)
    _host_args(p)

    p = sub.add_parser("join", help="join a table by name or HOST:PORT")
    _common(p)
    p.add_argument("table", help="table name as listed, or HOST:PORT")
    p.add_argument("--name", help="your player name")
    p.add_argument("--spectate", action="store_true", help="watch without a seat")
    p.add_argument("--password", nargs="?", const=True, default=None, help="table password")
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to look for the table")

    p = sub.add_parser("list", help="the tables on the LAN right now")
    _common(p)
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (3)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    p = sub.add_parser("sim", help="bot tournaments")
    _common(p)
    p.add_argument("--games", type=_positive, default=100, help="matches to play (100)")
    p.add_argument("--players", type=_players, default=2, help="players per match (2)")
    p.add_argument("--bots", default="hard,medium", help="bot levels, comma separated")
    p.add_argument("--hands", type=_positive, help="play H hands instead of whole matches")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match (0)")
    p.add_argument("--jobs", type=_positive, help="processes (default: all cores)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--target", type=_positive, default=500, help="score that wins (500)")

    p = sub.add_parser("history", help="past matches")
    _common(p)
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=_positive, default=50)

    p = sub.add_parser("stats", help="statistics per player")
    _common(p)
    p.add_argument("player", nargs="?", help="one player's name")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("replay", help="step through a finished match")
    _common(p)
    p.add_argument("game_id")

    p = sub.add_parser("export", help="write a match to a file")
    _common(p)
    p.add_argument("game_id")
    p.add_argument("file")

    p = sub.add_parser("import", help="read a match from a file")
    _common(p)
    p.add_argument("file")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    command = args.command or "lobby"
    if command == "host" and args.headless:
        command = "host-headless"
    module_name, func_name = HANDLERS[command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and e.name.startswith("rum500"):
            print(f"rum500: '{command}' is not available in this build", file=sys.stderr)
            return 2
        raise
    try:
        return int(getattr(module, func_name)(args) or 0)
    except KeyboardInterrupt:
        return 130
