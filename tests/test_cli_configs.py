"""The one wiring site: ``rum500.cli.command_config`` turns the command line into the typed
configs of rum500.configs, and the runners take those (never an argparse Namespace)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from rum500.cli import build_parser, command_config
from rum500.configs import (
    ExportConfig,
    HeadlessGuestConfig,
    HeadlessHostConfig,
    HistoryConfig,
    HostingConfig,
    ImportConfig,
    JoinConfig,
    ListConfig,
    LobbyConfig,
    PlayConfig,
    ReplayConfig,
    SalvageConfig,
    SimConfig,
    StatsConfig,
    host_config,
)
from rum500.rules import Options


def config_of(*argv: str) -> object:
    return command_config(build_parser().parse_args(list(argv)))


def test_each_command_gets_its_config() -> None:
    assert isinstance(config_of(), LobbyConfig)
    play = config_of("play", "--bots", "2", "--lan", "--jokers", "--ascii")
    assert isinstance(play, PlayConfig)
    assert (play.bots, play.lan, play.ascii, play.command) == (2, True, True, "play")
    assert play.options == Options(jokers=True)
    host = config_of("host", "--headless", "--no-announce", "--name", "Den", "--player", "Ann")
    assert isinstance(host, HostingConfig) and host.headless and not host.announce
    assert (host.name, host.player, host.command) == ("Den", "Ann", "host")
    join = config_of("join", "10.0.0.2:5500", "--spectate", "--no-announce")
    assert type(join) is JoinConfig and join.spectate and not join.announce
    guest = config_of("join", "Den", "--headless", "--no-log", "--seed", "4")
    assert isinstance(guest, HeadlessGuestConfig)
    assert (guest.table, guest.keep_log, guest.seed) == ("Den", False, 4)
    listing = config_of("list", "--json", "--timeout", "1")
    assert isinstance(listing, ListConfig) and listing.json and listing.timeout == 1.0


def test_sim_and_the_game_logs_commands_get_their_configs() -> None:
    sim = config_of("sim", "--games", "3", "--bots", "easy,hard", "--ladder", "--jokers")
    assert isinstance(sim, SimConfig) and sim.command == "sim"
    assert (sim.games, sim.bots, sim.ladder, sim.seed, sim.jobs) == (3, "easy,hard", True, 0, None)
    assert sim.options == Options(jokers=True) and sim.target == 500
    history = config_of("history", "--all", "--limit", "7", "--json")
    assert isinstance(history, HistoryConfig)
    assert (history.everything, history.limit, history.json) == (True, 7, True)
    stats = config_of("stats", "Ann")
    assert isinstance(stats, StatsConfig) and (stats.player, stats.json) == ("Ann", False)
    replay = config_of("replay", "last", "--ascii")
    assert isinstance(replay, ReplayConfig) and (replay.game_id, replay.ascii) == ("last", True)
    export = config_of("export", "4", "out.json", "--force")
    assert isinstance(export, ExportConfig)
    assert (export.game_id, export.file, export.force) == ("4", "out.json", True)
    imported = config_of("import", "-")
    assert isinstance(imported, ImportConfig) and imported.file == "-"
    salvage = config_of("salvage", "--out", "new.sqlite3")
    assert isinstance(salvage, SalvageConfig) and salvage.out == "new.sqlite3"
    assert type(config_of("host", "--headless")) is HeadlessHostConfig
    assert type(config_of("host")) is HostingConfig


def test_configs_are_frozen() -> None:
    config = config_of("history")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.limit = 3  # type: ignore[misc, union-attr]


def test_host_config_of_rum500_host() -> None:
    hosting = config_of(
        "host", "--players", "3", "--bots", "1", "--bind", "127.0.0.1", "--password", "pw"
    )
    assert isinstance(hosting, HostingConfig)
    config = host_config(hosting)
    assert (config.players, config.bots, config.bind, config.password) == (
        3,
        1,
        "127.0.0.1",
        "pw",
    )
    assert config.table_name and config.journal is None and config.announce


def test_the_headless_guest_loads_no_screen_package() -> None:
    """``rum500 join --headless`` and its client class import nothing of rum500.tui."""
    code = (
        "import sys, rum500.handoff.headless, rum500.client, rum500.runners, rum500.cli;"
        "print(sorted(m for m in sys.modules if m.startswith('rum500.tui')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "[]"
