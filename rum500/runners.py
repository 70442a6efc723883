"""Every ``rum500`` command's runner, in one table: :data:`RUNNERS` maps each typed config
(:mod:`rum500.configs`) to the ``run_*(config) -> int`` that runs it; :mod:`rum500.cli` builds
the config from the command line and calls :func:`runner_of` — the one dispatch.

Adding a command (the pattern; ``tests/test_shape.py`` fails on a command without it):

1. its subparser in :func:`rum500.cli.build_parser` (its flags, ``_common(p)``);
2. a frozen dataclass in :mod:`rum500.configs`: a subclass of ``Screen`` with
   ``command: ClassVar[str] = "NAME"`` and one typed field per argument (add it to
   ``CommandConfig`` and ``__all__``);
3. a builder in :data:`rum500.cli.CONFIGS` (``"NAME": _name``): the only code that reads that
   command's ``argparse.Namespace``, returning the config;
4. its runner ``run_name(config) -> int`` (the exit status) in the module of its family, and
   one line here: ``NameConfig: ("rum500.module", "run_name")`` — imported lazily, at run time.

This module also holds the runners with no screen of their own: ``rum500 host --headless``
(:func:`run_headless`) and ``rum500 list`` (:func:`run_list`); :func:`options_from_args`, the
table options' flags; and the lines the headless host logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rum500.configs import (
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
    PlainHostConfig,
    PlainJoinConfig,
    PlainLearnConfig,
    PlainLobbyConfig,
    PlainPlayConfig,
    PlayConfig,
    ReplayConfig,
    SalvageConfig,
    SimConfig,
    StatsConfig,
    VerifyConfig,
    host_config,
)
from rum500.host import Host, HostConfig
from rum500.narrate import options_text, plain
from rum500.rules import Options
from rum500.rules.options import options_from

if TYPE_CHECKING:
    from rum500.handoff import Room

log = logging.getLogger(__name__)

#: config type -> (module, runner): the one dispatch of :mod:`rum500.cli` (the exact type:
#: ``HeadlessHostConfig`` is a ``HostingConfig`` with a runner of its own)
RUNNERS: dict[type, tuple[str, str]] = {
    LobbyConfig: ("rum500.tui.main", "run_lobby"),
    PlayConfig: ("rum500.tui.main", "run_play"),
    LearnConfig: ("rum500.tui.main", "run_learn"),
    HostingConfig: ("rum500.tui.main", "run_host"),
    HeadlessHostConfig: ("rum500.runners", "run_headless"),
    JoinConfig: ("rum500.tui.main", "run_join"),
    HeadlessGuestConfig: ("rum500.handoff.headless", "run_guest"),
    ListConfig: ("rum500.runners", "run_list"),
    SimConfig: ("rum500.sim", "run"),
    HistoryConfig: ("rum500.store.commands", "run_history"),
    StatsConfig: ("rum500.store.commands", "run_stats"),
    AnalyseConfig: ("rum500.coach.command", "run_analyse"),
    ReplayConfig: ("rum500.tui.replay", "run_replay"),
    ExportConfig: ("rum500.store.commands", "run_export"),
    ImportConfig: ("rum500.store.commands", "run_import"),
    SalvageConfig: ("rum500.store.commands", "run_salvage"),
    VerifyConfig: ("rum500.store.verify", "run_verify"),
    PlainLobbyConfig: ("rum500.plain.main", "run_lobby"),
    PlainPlayConfig: ("rum500.plain.main", "run_play"),
    PlainHostConfig: ("rum500.plain.main", "run_host"),
    PlainJoinConfig: ("rum500.plain.main", "run_join"),
    PlainLearnConfig: ("rum500.plain.learn", "run_learn"),
}


def runner_of(config: CommandConfig) -> Callable[[Any], int]:
    """The runner of ``config`` (its module imported now: ``ModuleNotFoundError`` in a build
    without it; ``KeyError`` for a config with no runner)."""
    module_name, func_name = RUNNERS[type(config)]
    return getattr(importlib.import_module(module_name), func_name)


def options_from_args(args: Any) -> Options:
    """The table's :class:`Options` from the command line's option flags (one per
    :data:`~rum500.rules.options.OPTION_SPECS` entry, its ``dest`` the option's name; a flag
    the command does not have, or ``None``, is the option's default)."""
    return options_from(lambda spec: getattr(args, spec.name, None))


def run_headless(hosting: HeadlessHostConfig) -> int:
    """``rum500 host --headless``: host a table with no screen, log what happens."""
    if hosting.verbose == 0:
        logging.getLogger().setLevel(logging.INFO)
    try:
        config = host_config(hosting)
    except (EOFError, KeyboardInterrupt):
        print("rum500: no password given", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"rum500: {e}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_headless(config, hosting))
    except KeyboardInterrupt:
        return 130


async def _headless(config: HostConfig, hosting: HeadlessHostConfig) -> int:
    from rum500.handoff.serving import serving  # host + game log + handoff room
    from rum500.store import StoreError

    started = False
    try:
        async with serving(
            config, keep_log=True, resume=hosting, on_note=lambda note: print(note, flush=True)
        ) as served:
            started = True
            return await _serve_headless(config, served.host, served.room)
    except StoreError as e:  # the match to resume cannot be loaded
        if started:
            raise
        print(f"rum500: {e.said()}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as e:
        if started:
            raise
        print(f"rum500: cannot host: {e}", file=sys.stderr)
        return 2


async def _serve_headless(config: HostConfig, host: Host, room: Room) -> int:
    """Log the table's life until its match ends, a signal stops it, or it moves away; the
    caller's :func:`~rum500.handoff.serving.serving` closes it after."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    where = f"{config.bind}:{host.port}"
    print(
        f"hosting table {host.table_name!r} on {where} "
        f"({'announced on the LAN' if config.announce else 'not announced'})",
        flush=True,
    )
    print(f"players join by hand at {', '.join(host.addresses)}", flush=True)
    log.info(
        "table %r: %d seats, bots in %d of them",
        host.table_name,
        len(host.seats()),
        config.bots,
    )
    host.on_change(_logger(host))
    host.on_told(_event_logger(host))
    from rum500.handoff.headless import read_commands

    moved = asyncio.Event()
    commands = read_commands(room.mover, lambda line: print(line, flush=True), moved)
    room.failover.on_cut_off.append(moved.set)  # the table goes on at the standby
    finished = asyncio.create_task(host.finished())
    stopping = asyncio.create_task(stop.wait())
    gone = asyncio.create_task(moved.wait())
    await asyncio.wait({finished, stopping, gone}, return_when=asyncio.FIRST_COMPLETED)
    commands.cancel()
    gone.cancel()
    room.close()
    if room.failover.cut_off:
        print(
            "cut off from the table: the standby takes it over; this host stopped serving",
            flush=True,
        )
    if moved.is_set():
        stopping.cancel()
        finished.cancel()
        await host.close()
        return 0
    if finished.done() and not stopping.done():
        game = host.game()
        assert game is not None
        names = host.names()
        winner = game.winner or 0
        totals = " / ".join(str(t) for t in game.totals)
        print(
            f"game over: {names[winner]} wins with {game.totals[winner]} (totals {totals})",
            flush=True,
        )
        await asyncio.sleep(1.0)  # let clients take in the last update
    stopping.cancel()
    finished.cancel()
    await host.close()
    print("table closed", flush=True)
    return 0


def _logger(host: Host) -> Any:
    """Log the table's seats when they change."""
    seen = {"lobby": ""}

    def log_change() -> None:
        lobby = ", ".join(
            f"{s.name or '-'}{'' if s.bot or s.conn or not s.taken else ' (away)'}"
            for s in host.seats()
        )
        if lobby != seen["lobby"]:
            seen["lobby"] = lobby
            log.info("seats: %s [%s]", lobby, host.state)

    return log_change


def _event_logger(host: Host) -> Any:
    def log_events(by: int | None, events: list[dict]) -> None:
        for event in events:
            log.info("%s", plain(event, host.names()))

    return log_events


def run_list(listing: ListConfig) -> int:
    """``rum500 list``: the tables announced on the LAN right now (in the language of
    ``--lang``, which the command line has set)."""
    from net.discovery import browse
    from rum500.i18n import _, pgettext

    try:
        tables = asyncio.run(browse(listing.timeout))
    except KeyboardInterrupt:
        return 130
    except OSError as e:
        print("rum500: " + _("cannot look for tables: {why}").format(why=e), file=sys.stderr)
        return 2
    if listing.json:
        print(json.dumps([t.to_dict() for t in tables], indent=2))
        return 0
    if not tables:
        print(_("no tables found on the LAN (join by HOST:PORT if multicast is blocked)"))
        return 0
    states = {
        "lobby": pgettext("table state", "lobby"),
        "playing": pgettext("table state", "playing"),
        "finished": pgettext("table state", "finished"),
    }
    for t in tables:
        opts = options_text(t.options)
        lock = " " + _("[password]") if t.password else ""
        line = _("{table}  {where}  host {host}  seats {taken}/{seats}  {state}").format(
            table=t.name,
            where=t.where,
            host=t.host_player or "-",
            taken=t.seats_taken,
            seats=t.seats_total,
            state=states.get(t.state, t.state),
        )
        print(f"{line}{lock}{'  ' + opts if opts else ''}")
    return 0
