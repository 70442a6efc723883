"""The command line's flags: each is checked, with a clear one-line message (issue 9)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rum500.cli import build_parser


def rum500(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``rum500 ARGV`` as a real process (stdin not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("command", ["host", "play"])
def test_review_timeout_is_read(command: str) -> None:
    args = build_parser().parse_args([command, "--review-timeout", "12.5"])
    assert args.review_timeout == 12.5
    # play's own default: none (rum500.tui.main.solo_config: wait for the player, 30 on --lan)
    default = None if command == "play" else 30.0
    assert build_parser().parse_args([command]).review_timeout == default


@pytest.mark.parametrize("value", ["0.5", "601", "nan", "inf", "soon", "-3"])
def test_review_timeout_out_of_range_is_refused(value: str) -> None:
    r = rum500("play", f"--review-timeout={value}")
    assert r.returncode == 2
    assert "--review-timeout" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["host", "--headless", "--port", "70000"], "--port"),
        (["host", "--headless", "--port", "-1"], "--port"),
        (["host", "--headless", "--target", "1000000000000000000000"], "--target"),
        (["play", "--target", "0"], "--target"),
        (["play", "--seed", "99999999999999999999999"], "--seed"),
        (["play", "--bots", "9"], "--bots"),
        (["host", "--headless", "--bots", "-2"], "--bots"),
        (["host", "--headless", "--bot-delay", "nan"], "--bot-delay"),
        (["join", "--timeout", "inf", "127.0.0.1:5500"], "--timeout"),
        (["list", "--timeout", "0"], "--timeout"),
        (["history", "--limit", "100000000000000000000"], "--limit"),
        (["sim", "--jobs", "100000"], "--jobs"),
        (["host", "--headless", "--players", "9"], "--players"),
        (["sim", "--players", "x"], "--players"),
    ],
)
def test_every_numeric_flag_is_checked(argv: list[str], flag: str) -> None:
    r = rum500(*argv)
    assert r.returncode == 2, r.stdout + r.stderr
    assert flag in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()[-1]) < 100


def test_a_target_in_range_still_hosts(tmp_path) -> None:
    """The biggest target allowed is accepted by the host (no 'internal error')."""
    from rum500.rules import Game, Options

    game = Game(2, 1, Options(target=1_000_000_000))
    assert game.options.target == 1_000_000_000
    args = build_parser().parse_args(["play", "--target", "1000000000"])
    assert args.target == 1_000_000_000


@pytest.mark.parametrize(
    "argv",
    [
        ["join", "--name", "Bad\udcff", "127.0.0.1:5500"],
        ["play", "--name", "Bad\udcff"],
        ["host", "--headless", "--name", "Bad\udcff"],
        ["host", "--headless", "--player", "Bad\udcff"],
        ["--name", "Bad\udcff", "join", "127.0.0.1:5500"],
    ],
)
def test_a_name_that_is_not_utf8_is_refused_in_one_line(argv: list[str]) -> None:
    # the shell passes the bytes b"Bad\xff"; Python shows them as a lone surrogate
    r = subprocess.run(
        [sys.executable, "-m", "rum500", *(a.encode("utf-8", "surrogateescape") for a in argv)],
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2
    assert "not valid UTF-8" in err and "Traceback" not in err
    assert "codec" not in err


def test_host_player_is_named_by_player_and_table_by_name() -> None:
    from rum500.cli import command_config
    from rum500.configs import host_config
    from rum500.tui.main import player_name

    args = build_parser().parse_args(["host", "--name", "Kitchen", "--player", "Ann"])
    assert player_name(args) == "Ann"
    config = host_config(command_config(args))
    assert (config.table_name, config.host_player) == ("Kitchen", "Ann")
    args = build_parser().parse_args(["play", "--name", "Ann"])
    assert player_name(args) == "Ann"
    args = build_parser().parse_args(["host", "--table", "Kitchen", "--player", "Ann"])
    config = host_config(command_config(args))  # --table: the same as host's --name
    assert (config.table_name, config.host_player) == ("Kitchen", "Ann")


def test_options_before_the_command_count() -> None:
    from rum500.cli import _merge

    parser = build_parser()
    for argv, want in [
        (["--name", "Ann", "join", "127.0.0.1:1"], ("name", "Ann")),
        (["--ascii", "play"], ("ascii", True)),
        (["--lang", "ru", "history"], ("lang", "ru")),
        (["--name", "Ann", "host"], ("player", "Ann")),
        (["--name", "Ann", "join", "--name", "Bob", "x:1"], ("name", "Bob")),
    ]:
        args = parser.parse_args(argv)
        _merge(parser, args)
        assert getattr(args, want[0]) == want[1], argv
    r = rum500("--name", "Ann", "stats")
    assert r.returncode == 2 and "--name" in r.stderr and "Traceback" not in r.stderr


def test_lang_before_the_command_reaches_the_command() -> None:
    """A real process: ``rum500 --lang ru join …`` speaks Russian (it was ignored)."""
    r = rum500("--lang", "ru", "join", "127.0.0.1:notaport")
    assert r.returncode == 2
    assert "не номер порта" in r.stderr


@pytest.mark.parametrize("table", ["127.0.0.1:notaport", "[::1]:x", "localhost:", "10.0.0.1:99999"])
def test_join_with_a_wrong_port_says_so(table: str) -> None:
    r = rum500("join", table)
    assert r.returncode == 2
    assert "port" in r.stderr and "Traceback" not in r.stderr
    assert "answered on the LAN" not in r.stderr  # not taken for a table name


def test_a_closed_pipe_ends_quietly() -> None:
    """``rum500 history | head``: the reader is gone before rum500 writes."""
    import os

    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run(
            [sys.executable, "-m", "rum500", "history", "--json"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    finally:
        os.close(write)
    assert "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
    assert r.stderr == ""


@pytest.mark.parametrize("command", ["play", "host"])
def test_review_timeout_reaches_the_host_config(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``rum500 play|host --review-timeout 12`` hands to the host it starts."""
    import rum500.tui.main as tui_main
    from rum500.cli import command_config

    seen: list = []

    async def capture(config, name, args, interactive_start, note=None):  # noqa: ANN001, ANN202
        seen.append(config)
        return 0

    monkeypatch.setattr(tui_main, "_no_terminal", lambda: None)
    monkeypatch.setattr(tui_main, "_cli_host", capture)
    args = build_parser().parse_args(
        [command, "--review-timeout", "12", "--password", "pw"]
        if command == "host"
        else [command, "--review-timeout", "12"]
    )
    args.ascii = False
    run = tui_main.run_play if command == "play" else tui_main.run_host
    assert run(command_config(args)) == 0
    assert seen and seen[0].review_timeout == 12.0


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "999999999999999999999"],
        ["export", "999999999999999999999", "out.json"],
        ["host", "--headless", "--no-announce", "--resume", "999999999999999999999"],
    ],
)
def test_a_huge_game_id_is_no_game(argv: list[str]) -> None:
    from rum500.store.db import open_db

    open_db().close()  # a game log exists (with no match)
    r = rum500(*argv)
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr, r.stderr
    assert "no game 999999999999999999999" in r.stderr


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--bots", "3", "play"], "--bots goes after the command: rum500 play --bots"),
        (["--target=300", "host"], "--target goes after the command: rum500 host --target=300"),
    ],
)
def test_a_command_option_before_the_command_says_where_it_goes(argv: list[str], said: str) -> None:
    r = rum500(*argv)
    assert r.returncode == 2 and said in r.stderr
    assert "invalid choice" not in r.stderr


def test_top_options_with_values_that_look_like_commands() -> None:
    from rum500.cli import _merge, _misplaced

    parser = build_parser()
    argv = ["-vv", "--name", "history", "--lang=ru", "play"]
    _misplaced(parser, argv)  # no error: "history" is the name here
    args = parser.parse_args(argv)
    _merge(parser, args)
    assert (args.command, args.name, args.lang, args.verbose) == ("play", "history", "ru", 2)
