"""``rum500 host --headless`` as a real process on loopback (no LAN announcement)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from net.client import Client, HandshakeError
from tests.net.util import play_as_bot, wait_for

ROOT = Path(__file__).resolve().parents[2]
HOST = [
    sys.executable,
    "-m",
    "rum500",
    "host",
    "--headless",
    "--no-announce",
    "--bind",
    "127.0.0.1",
]


def game_over(players: int) -> re.Pattern[str]:
    """The headless host's last line of a match: the winner's total, then every total."""
    n = r"-?\d+"
    return re.compile(rf"game over: Bot \d wins with {n} \(totals {n}( / {n}){{{players - 1}}}\)\n")


def env(tmp_path: Path) -> dict:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "RUM500_HOME": str(tmp_path),
    }


def test_a_bot_only_table_plays_to_the_end(tmp_path):
    done = subprocess.run(
        [
            *HOST,
            "--players",
            "3",
            "--bots",
            "3",
            "--bot-level",
            "random",
            "--target",
            "60",
            "--seed",
            "4",
        ],
        env=env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(
        r"game over: Bot \d wins with -?\d+ \(totals -?\d+( / -?\d+){2}\)\n", done.stdout
    )
    assert "table closed" in done.stdout
    assert "draws from the stock" in done.stderr and "hand 1 over" in done.stderr
    assert host_errors(done.stderr) == []


def test_eight_bots_fill_a_table_of_eight_and_play_it_to_the_end(tmp_path):
    """A table of bots only, of the largest size (issue 22 §4: it was refused, "bots from
    0 to 7"): nobody is seated, so no review waits, and the match ends."""
    done = subprocess.run(
        [*HOST, "--players", "8", "--bots", "8", "--bot-level", "random", "--target", "60"],
        env=env(tmp_path),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(
        r"game over: Bot \d wins with -?\d+ \(totals -?\d+( / -?\d+){7}\)\n", done.stdout
    )
    assert "table closed" in done.stdout and host_errors(done.stderr) == []


def host_errors(stderr: str) -> list[str]:
    """The lines of a host process's log that report an error (the in-process tests fail on
    these through tests/conftest.py; a host in a process of its own is checked here)."""
    return [
        line
        for line in stderr.splitlines()
        if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
    ]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--players", "2", "--bots", "3"], "between 0 and 2 bots"),
        (["--players", "2", "--bots", "2", "--player", "Ann"], "no seat is left"),
        (["--players", "8", "--decks", "1"], "one deck is too small"),
    ],
)
def test_impossible_tables_get_a_message(tmp_path, args, message):
    done = subprocess.run(
        [*HOST, *args], env=env(tmp_path), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_port_in_use_gets_a_message(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [*HOST, "--port", str(port)],
            env=env(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert "cannot host" in done.stderr and "Traceback" not in done.stderr


async def test_join_with_a_password_then_sigterm(tmp_path):
    proc = await asyncio.create_subprocess_exec(
        *HOST,
        "--players",
        "2",
        "--bots",
        "1",
        "--bot-level",
        "random",
        "--bot-delay",
        "0",
        "--password",
        "pw",
        "--target",
        "5000",
        env=env(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        with pytest.raises(HandshakeError):
            await Client.connect("127.0.0.1", port, name="Eve", password="nope")
        ann = await Client.connect("127.0.0.1", port, name="Ann", password="pw")
        assert ann.seat == 0
        play = asyncio.create_task(play_as_bot(ann))
        await wait_for(lambda: ann.seq >= 20 or play.done(), timeout=60)
        assert not play.done()  # still playing (a long match: target 5000)
        proc.send_signal(signal.SIGTERM)
        with pytest.raises(Exception) as lost:  # noqa: PT011 - the host says goodbye
            await asyncio.wait_for(play, 30)
        assert getattr(lost.value, "code", None) == "shutdown"
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        out = (await proc.stdout.read()).decode()
        assert "table closed" in out
        assert host_errors((await proc.stderr.read()).decode()) == []
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
