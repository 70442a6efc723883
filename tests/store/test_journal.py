"""The journal: what the host writes, resume from it, crashes, and disks that fail."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.rules import Game, Options, Phase
from rum500.store import Journal, StoreError, load_for_resume, open_db
from rum500.store.log import load_match

from .conftest import match_info, mount, play

ROOT = Path(__file__).resolve().parents[2]


def rows(path: Path, sql: str, *params: object) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("players", [2, 3, 5])
def test_resume_rebuilds_every_position_exactly(home: Path, players: int) -> None:
    names = ["Ann", "Bob", "Cleo", "Dan", "Eve"][:players]
    rng = random.Random(players)
    with Journal() as j:
        game = Game(players, 40 + players, Options(target=150))
        j.start_match(match_info(game, names))
        checks = sorted(rng.sample(range(1, 120), 6))
        while game.to_move is not None and checks:
            seat = game.to_move
            game.apply(rng.choice(game.legal_actions()), seat)
            j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
            if len(game.actions) == checks[0]:
                checks.pop(0)
                restored, seats, info = load_for_resume("latest")
                assert restored.to_dict() == game.to_dict()
                assert [s["name"] for s in seats] == names
                assert seats[0]["token"] == f"token-0-{game.seed}"
                assert info["table"] == "Kitchen" and info["game_id"] == j.game_id


def test_resumed_journal_appends_to_the_same_match(home: Path) -> None:
    with Journal() as j:
        live = play(j, seed=11, stop_after=60)
    game, seats, info = load_for_resume("latest")
    assert len(game.actions) == 60
    with Journal(resume_id=info["game_id"], game=game) as j2:
        j2.start_match(info)  # the host calls it again on resume: seats only
        play(j2, seed=99, game=game)
    assert rows(home, "SELECT count(*) FROM matches") == [(1,)]
    conn = open_db()
    match = load_match(conn, info["game_id"])
    conn.close()
    assert match["status"] == "finished"
    assert [a["action"] for a in match["actions"][:60]] == live.actions[:60]
    assert [a["action"] for a in match["actions"]] == game.actions
    assert match["winner"] == game.winner and match["totals"] == game.totals
    hands = rows(home, "SELECT count(*) FROM hands")[0][0]
    assert hands == len(game.results) == match["hands_played"]
    with pytest.raises(StoreError, match="finished"):
        load_for_resume(info["game_id"])
    with pytest.raises(StoreError, match="no unfinished match"):
        load_for_resume("latest")


def test_seats_keep_their_tokens_when_a_bot_takes_over(home: Path) -> None:
    with Journal() as j:
        play(j, seed=3, stop_after=10)
        j.seats([{"name": "Ann", "token": None, "bot": True}, {"name": "Bob", "bot": None}])
    assert rows(home, "SELECT seat, name, token, bot FROM seats ORDER BY seat") == [
        (0, "Ann", "token-0-3", "bot"),
        (1, "Bob", "token-1-3", None),
    ]


def test_bad_input_from_the_host_never_raises(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    j = Journal()
    j.start_match({"players": "many"})
    j.record(0, 0, {"type": "nonsense"})
    j.seats(None)  # type: ignore[arg-type]
    j.finish(None, ["x"])  # type: ignore[list-item]
    j.close()
    assert j.warning is not None
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "could not start this match" in warnings[0]


def test_a_damaged_log_warns_once_and_the_match_goes_on(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home.parent.mkdir(parents=True)
    home.write_bytes(b"garbage" * 1000)
    seen: list[str] = []
    j = Journal(on_warning=seen.append)
    game = play(j, seed=5)
    assert game.phase is Phase.GAME_OVER  # the match went on to the end
    assert len(seen) == 1 and "not a rum500 game log" in seen[0]
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    assert home.read_bytes() == b"garbage" * 1000  # never overwritten


def test_kill_9_never_loses_an_acknowledged_action(home: Path) -> None:
    """A stand-in host journals, then acknowledges; SIGKILL at random moments, resume."""
    rng = random.Random(2024)
    env = {**os.environ, "RUM500_HOME": str(home.parent)}
    killed_mid_match = 0
    for round_ in range(12):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.crash_driver", str(round_)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        game_id = proc.stdout.readline().split()[1]
        kill_at = rng.randrange(1, 150)
        acked = 0
        over = False
        for line in proc.stdout:
            if line.startswith("ack"):
                acked = int(line.split()[1])
                if acked >= kill_at:
                    break
            over = over or line.strip() == "over"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        assert rows(home, "PRAGMA integrity_check") == [("ok",)]
        # the last ack read may be the match's last action: it can have been recorded
        # finished before the kill, with "over" still unread — then there is nothing to resume
        conn = open_db()
        over = over or load_match(conn, int(game_id))["status"] == "finished"
        conn.close()
        if not over:
            killed_mid_match += 1
            game, _seats, info = load_for_resume(game_id)
            assert len(game.actions) >= acked
            assert str(info["game_id"]) == game_id
            done = subprocess.run(  # resume in a new process and play on to the end
                [sys.executable, "-m", "tests.store.crash_driver", str(round_), game_id],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr
            assert done.stdout.splitlines()[-1] == "over"
            assert rows(home, "PRAGMA integrity_check") == [("ok",)]
        conn = open_db()
        match = load_match(conn, int(game_id))
        conn.close()
        assert match["status"] == "finished"
        if not over:
            assert [a["action"] for a in match["actions"][: len(game.actions)]] == game.actions
    assert killed_mid_match >= 6


def test_full_disk_warns_once_keeps_playing_and_catches_up(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RUM500_HOME", str(tmpfs))
    seen: list[str] = []
    j = Journal(on_warning=seen.append)
    rng = random.Random(8)
    game = Game(2, 8, Options(target=300))
    j.start_match(match_info(game, ["Ann", "Bob"]))

    def step() -> None:
        seat = game.to_move
        game.apply(rng.choice(game.legal_actions()), seat)
        j.record(len(game.actions) - 1, seat, dict(game.actions[-1]))

    for _ in range(20):
        step()
    filler = tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk to the last byte
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    for _ in range(30):
        step()
    assert len(seen) == 1 and "disk is full" in seen[0]
    assert j.pending > 0 and j.warning is not None
    saved, _s, _i = load_for_resume("latest")
    assert len(saved.actions) < len(game.actions)  # nothing half-written is read back
    assert (
        saved.to_dict()
        == Game.replay(2, 8, game.actions[: len(saved.actions)], Options(target=300)).to_dict()
    )
    filler.unlink()
    step()
    assert j.pending == 0 and j.warning is None
    restored, _s, _i = load_for_resume("latest")
    assert restored.to_dict() == game.to_dict()
    j.close()
    assert rows(tmpfs / "games.sqlite3", "PRAGMA integrity_check") == [("ok",)]
    assert "writable again" in caplog.text


def test_read_only_disk_warns_and_catches_up_when_writable(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmpfs / "data"
    view = tmpfs / "view"
    data.mkdir()
    view.mkdir()
    with Journal(data / "games.sqlite3") as j0:
        play(j0, seed=1)  # a finished match already in the log
    mount(["--bind", str(data), str(view)])
    try:
        mount(["-o", "remount,bind,ro", str(view)])
        monkeypatch.setenv("RUM500_HOME", str(view))
        conn = open_db(create=False)  # the log can still be read from a read-only disk
        assert conn.execute("SELECT status FROM matches").fetchall() == [("finished",)]
        conn.close()
        seen: list[str] = []
        j = Journal(on_warning=seen.append)
        game = play(j, seed=2, stop_after=40)
        assert len(game.actions) == 40  # the match goes on in memory
        assert len(seen) == 1
        assert "read-only" in seen[0]
        mount(["-o", "remount,bind,rw", str(view)])
        play(j, seed=2, game=game)
        j.close()
        assert j.warning is None and j.pending == 0
        conn = open_db()
        match = load_match(conn, j.game_id or 0)
        conn.close()
        assert [a["action"] for a in match["actions"]] == game.actions
        assert match["status"] == "finished"
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)


def test_two_hosts_never_resume_the_same_match(home: Path) -> None:
    j = Journal()
    play(j, seed=12, stop_after=20)  # the first host is still running this match
    game, _seats, info = load_for_resume("latest")
    with pytest.raises(StoreError, match="being hosted right now"):
        Journal(resume_id=info["game_id"], game=game)
    j.close()  # that host stopped (a crash releases the lock too: see the kill tests)
    with Journal(resume_id=info["game_id"], game=game) as again:
        assert again.lock is not None


def test_resume_command_line_messages(home: Path) -> None:
    env = {**os.environ, "RUM500_HOME": str(home.parent)}
    cmd = [
        sys.executable,
        "-m",
        "rum500",
        "host",
        "--headless",
        "--no-announce",
        "--bind",
        "127.0.0.1",
    ]
    for extra, needle in (
        (["--resume"], "no game log yet"),
        (["--resume", "7"], "no game 7"),
    ):
        if needle == "no game 7":
            with Journal() as j:
                play(j, seed=1)
        done = subprocess.run([*cmd, *extra], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and needle in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    done = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no unfinished match" in done.stderr
    done = subprocess.run(
        [*cmd, "--resume", "1"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "game 1 is finished" in done.stderr


async def test_a_resumed_match_hosts_the_same_table(home: Path) -> None:
    """``host --resume`` brings back the table's name and its id (the TXT record's ``id``,
    ``welcome``'s ``table.id``): a player's client that looks the table up by its id after
    the host went down finds it again."""
    import argparse

    from rum500.host import HostConfig, start_host
    from rum500.store.resume import attach_journal
    from tests.net.util import wait_for

    config = HostConfig(players=2, bots=2, bot_level="random", table_name="Attic", seed=4)
    attach_journal(config)
    host = await start_host(config)
    try:
        first = host.server.table_id
        # the bots play a few moves, then the host goes away
        await wait_for(lambda: host.table.game is not None and len(host.table.game.actions) >= 10)
    finally:
        await host.close()
        config.journal.close()
    game, _seats, info = load_for_resume("latest")
    assert info["table_id"] == first and len(first) == 16

    again = HostConfig(bot_level="random")
    args = argparse.Namespace(command="host", resume="latest", name=None)
    assert "resuming game" in attach_journal(again, args)
    assert (again.table_id, again.table_name) == (first, "Attic")
    resumed = await start_host(again)
    try:
        assert resumed.server.table_id == first
        assert resumed.table.game.actions[: len(game.actions)] == game.actions
    finally:
        await resumed.close()
        again.journal.close()
    # the resumed host's journal kept the id: a later --resume finds it again
    assert load_for_resume("latest")[2]["table_id"] == first
