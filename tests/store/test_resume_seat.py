"""``rum500 host --resume``: the host player takes back the seat with their name, never
someone else's (docs/storage.md, Resume). A name that matches no seat — given with
``--player``, or the login name at a match of several people — is refused with one line that
names the seats, exit status 2; the login name takes the only human seat of a match that has
one (the terminal host's default)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options
from rum500.store import Journal, StoreError
from rum500.store.resume import attach_journal

from .conftest import play

REFUSAL = (
    "no seat of game 1 is called {name}: its seats are Ann, Cy, Bot 1 (bot); "
    "use --player with the name of yours"
)


def leave_a_match(names: list[str], bots: int = 1) -> None:
    """A match of ``names`` (people) and ``bots`` bots, left unfinished in the game log."""
    game = Game(len(names) + bots, 7, Options(target=300))
    seats = [{"name": n, "token": f"token-{n}", "bot": None} for n in names]
    seats += [
        {"name": f"Bot {k + 1}", "token": f"token-b{k}", "bot": "random"} for k in range(bots)
    ]
    with Journal() as j:
        j.start_match(
            {
                "players": game.players,
                "seed": game.seed,
                "options": game.options.to_dict(),
                "deck": game.first_deck,
                "table": "Kitchen",
                "seats": seats,
            }
        )
        play(j, seed=7, game=game, stop_after=30)


def resume(player: str, given: bool) -> HostConfig:
    config = HostConfig(host_player=player, bot_level="random")
    args = argparse.Namespace(command="host", resume="1", name=None, player_given=given)
    attach_journal(config, args)
    return config


@pytest.mark.parametrize("given", [True, False])
async def test_a_name_that_matches_no_seat_is_refused(home: Path, given: bool) -> None:
    """``--player Bob``, or no --player with the login name Bob: Ann's seat is not Bob's.
    Cy, named, gets Cy's seat (its token) from a real host."""
    leave_a_match(["Ann", "Cy"])
    config = HostConfig(host_player="Bob")
    with pytest.raises(StoreError) as refused:
        attach_journal(
            config, argparse.Namespace(command="host", resume="1", name=None, player_given=given)
        )
    assert str(refused.value) == REFUSAL.format(name="Bob")
    assert config.journal is None and config.resume_game is None
    config = resume("Cy", given=given)
    host = await start_host(config)
    try:
        assert host.seat == 1 and host.token == "token-Cy"
    finally:
        await host.close()
        config.journal.close()  # type: ignore[attr-defined]


async def test_the_login_name_takes_the_only_human_seat(home: Path) -> None:
    leave_a_match(["Ann"], bots=2)
    config = resume("root", given=False)
    assert config.host_player == "Ann"
    config.journal.close()  # type: ignore[attr-defined]
    with pytest.raises(StoreError, match="no seat of game 1 is called Bob"):
        resume("Bob", given=True)  # a name given must be the seat's


def test_headless_resume_with_a_player_of_no_seat(home: Path) -> None:
    leave_a_match(["Ann", "Cy"])
    env = {**os.environ, "RUM500_HOME": str(home.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "rum500", "host", "--headless", "--no-announce"]
        + ["--bind", "127.0.0.1", "--resume", "1", "--player", "Bob"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == ["rum500: " + REFUSAL.format(name="Bob")]


def test_a_new_solo_game_says_an_older_one_waits_unfinished(home: Path) -> None:
    """``rum500 play`` with a solo match left unfinished: the new screen's first line names
    it and how to go on with it; with --resume, or with none left, there is no such line."""
    from rum500.cli import build_parser, command_config
    from rum500.tui.main import _left_note

    args = command_config(build_parser().parse_args(["play", "--name", "Ann"]))
    assert _left_note(args) is None  # nothing left yet
    leave_a_match(["Ann"], bots=1)
    note = _left_note(args)
    assert note is not None and note.startswith("Game 1 is unfinished (after ")
    assert "rum500 play --resume 1" in note
    resuming = command_config(build_parser().parse_args(["play", "--resume"]))
    assert _left_note(resuming) is None
