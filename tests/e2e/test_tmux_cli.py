"""The command line in a real terminal (tmux): ``play --resume`` goes on with the solo match
that was left, and ``host --resume`` gives the host player their own seat back.

Each test plays a little, leaves with q (confirmed), and checks that the resumed screen shows
the very same hand, stock and discard pile — the position is the one that was left.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


class Term(Tmux):
    """A tmux window of 100×30 running one ``rum500`` command at a time."""

    def run(self, args: str, private_net: bool = False) -> None:
        """Run ``rum500 ARGS``; ``private_net``: in a network namespace of its own (the lobby
        looks for tables on the LAN: its multicast must not leave the test)."""
        env = f"env RUM500_HOME={self.home} LANG=C.UTF-8 LC_ALL=C.UTF-8"
        command = f"{env} {sys.executable} -m rum500 {args}"
        if private_net:
            inner = f"ip link set lo up && exec {command}"
            command = f"unshare --net sh -c {shlex.quote(inner)}"
        command += f" 2>>{self.home}/stderr.txt"
        self.tmux("kill-server")
        self.socket = f"rum500-cli-{uuid.uuid4().hex[:8]}"  # a fresh server each time
        self.tmux(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "100",
            "-y",
            "30",
            f"{command}; echo EXITED $?; sleep 600",
        )

    def wait(self, check: Callable[[str], bool], what: str, timeout: float = 30.0) -> str:
        return super().wait(check, timeout, what)


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Term]:
    t = Term(tmp_path)
    yield t
    t.close()


def position(screen: str) -> tuple[list[str], str, str]:
    """(my hand, the stock line, the players block) as the table screen shows them."""
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Your hand"))
    hand = CARD.findall(lines[at + 1])
    k = next(i for i, line in enumerate(lines) if line.startswith("Stock:"))
    stock = lines[k].replace("*", "")  # the mark of the last discard may differ
    players = "\n".join(line.rstrip() for line in lines[1:k])
    return sorted(hand), stock, players


def my_turn_to_play(screen: str) -> bool:
    return "Your turn: meld" in screen and "Your hand" in screen


def leave(term: Term) -> None:
    term.keys("q")
    term.wait(lambda s: "y leave" in s, "the leave question")
    term.keys("y")
    term.wait(lambda s: "EXITED 0" in s, "rum500 ending")


def rows(home: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(home / "games.sqlite3")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_play_resume_goes_on_with_the_solo_match(term: Term) -> None:
    before = leave_a_solo_match(term)
    assert len(before[0]) == 8  # 3 players: 7 cards each, and the one drawn
    assert not list(term.home.glob("*.lock"))
    assert rows(term.home, "SELECT status, hands_played FROM matches") == [("playing", 0)]
    out = subprocess.run(
        [sys.executable, "-m", "rum500", "history"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"RUM500_HOME": str(term.home)},
    ).stdout
    assert "Ann" not in out and "--all" in out  # left in its first hand: not in history

    term.run("play --resume --bot-delay 0")  # another name by default: the seat is Ann's
    screen = term.wait(my_turn_to_play, "the resumed table")
    after = position(screen)
    assert after == before
    assert "Resumed game 1 where it was left: hand 1" in screen
    assert "Ann" in after[2] and "(you)" in after[2]
    assert rows(term.home, "SELECT count(*) FROM matches") == [(1,)]  # the same match
    term.keys("d")  # it goes on: a discard is asked (or made) as in any turn
    term.wait(lambda s: "Your turn: meld" not in s, "the turn going on")


def test_a_new_solo_game_says_on_screen_that_an_older_one_waits(term: Term) -> None:
    """The note stays in sight (the log) once the status line has moved on to the turn."""
    leave_a_solo_match(term)
    term.run("play --bots 2 --seed 12 --bot-delay 0 --name Ann")
    screen = term.wait(lambda s: "Your turn: draw" in s, "my turn in the new game")
    assert "Game 1 is unfinished (after 0 hands" in " ".join(screen.split()), screen


def leave_a_solo_match(term: Term) -> tuple[list[str], str, str]:
    """Play a solo match up to my first draw, then leave it; the position left."""
    term.run("play --bots 2 --seed 11 --bot-delay 0 --name Ann")
    term.wait(lambda s: "Your turn: draw" in s, "my turn")
    term.keys("s")  # draw from the stock
    before = position(term.wait(my_turn_to_play, "the drawn card"))
    leave(term)
    return before


def test_lobby_continue_goes_on_with_the_solo_match(term: Term) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare for a private network namespace")
    before = leave_a_solo_match(term)
    term.run("--name Bob", private_net=True)  # the lobby
    lobby = term.wait(lambda s: "continue your solo match" in s, "the Continue line")
    assert "game 1: Ann, Bot 1, Bot 2" in lobby
    term.keys("r")
    after = position(term.wait(my_turn_to_play, "the resumed table"))
    assert after == before
    assert "Ann" in after[2] and "(you)" in after[2]


def test_host_resume_gives_the_host_player_their_seat_back(term: Term) -> None:
    term.run(
        "host --players 2 --name Kitchen --player Ann --no-announce --bind 127.0.0.1 "
        "--seed 5 --bot-delay 0"
    )
    term.wait(lambda s: "g" in s and "Kitchen" in s, "the waiting room")
    term.keys("g")  # the free seat gets a bot: start
    first = term.wait(lambda s: "Your turn" in s or "Bot" in s and "Stock:" in s, "the table")
    assert "Ann" in first
    term.wait(lambda s: "Your turn: draw" in s, "my turn")
    term.keys("s")
    before = position(term.wait(my_turn_to_play, "the drawn card"))
    leave(term)
    assert rows(term.home, "SELECT name FROM seats ORDER BY seat")[0] == ("Ann",)

    term.run("host --resume --no-announce --bind 127.0.0.1 --bot-delay 0")  # no --player
    screen = term.wait(my_turn_to_play, "the resumed table with my seat")
    assert "Every seat is taken" not in screen
    after = position(screen)
    assert after == before
    assert "Ann" in after[2] and "(you)" in after[2]


def test_a_game_log_warning_never_prints_over_the_screen(term: Term) -> None:
    """The game log cannot be written (its path is a folder): while the screen runs the
    warning goes to rum500.log in the data folder, and nothing is written to the terminal
    behind the screen's back (stderr is kept in a file here to see that)."""
    (term.home / "games.sqlite3").mkdir()
    term.run("play --bots 1 --seed 3 --bot-delay 0 --name Ann")
    term.wait(lambda s: "Your turn" in s, "the table")
    log = term.home / "rum500.log"
    deadline = time.monotonic() + 30
    while "is a folder" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, "the warning never reached rum500.log"
        time.sleep(0.05)
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    term.keys("q")
    term.wait(lambda s: "y leave" in s, "the leave question")
    term.keys("y")
    term.wait(lambda s: "EXITED" in s, "rum500 ending")
    stderr = (term.home / "stderr.txt").read_text()
    assert "is a folder" not in stderr and "WARNING" not in stderr, stderr


def test_sigterm_ends_play_cleanly_without_a_lock_file(term: Term) -> None:
    term.run("play --bots 1 --seed 3 --bot-delay 0 --name Ann")
    term.wait(lambda s: "Your turn" in s, "the table")
    deadline = time.monotonic() + 30
    while not list(term.home.glob("*.lock")):  # the match is in the log: its lock is held
        assert time.monotonic() < deadline, "the match never took its lock"
        time.sleep(0.02)
    shell = int(term.tmux("display-message", "-p", "-t", "0", "#{pane_pid}").strip())
    children = subprocess.run(
        ["ps", "-o", "pid=,args=", "--ppid", str(shell)], capture_output=True, text=True
    ).stdout
    pid = next(int(line.split()[0]) for line in children.splitlines() if "rum500" in line)
    os.kill(pid, signal.SIGTERM)
    screen = term.wait(lambda s: "EXITED" in s, "rum500 ending")
    assert "EXITED 143" in screen
    assert "Traceback" not in (term.home / "stderr.txt").read_text()
    assert not list(term.home.glob("*.lock"))
    assert rows(term.home, "SELECT status FROM matches") == [("playing",)]  # resumable


def test_play_resume_with_nothing_to_resume_says_so(term: Term) -> None:
    term.run("play --resume")
    term.wait(lambda s: "EXITED 2" in s, "rum500 ending")
    err = (term.home / "stderr.txt").read_text()
    assert "no game log yet" in err and "Traceback" not in err
    from rum500.store import open_db

    open_db(term.home / "games.sqlite3").close()  # a log with no match in it
    term.run("play --resume")
    term.wait(lambda s: "EXITED 2" in s, "rum500 ending")
    err = (term.home / "stderr.txt").read_text()
    assert "no unfinished solo match" in err and "Traceback" not in err


def log_a_lan_match(home: Path) -> None:
    """Game 1: a match of two people (Ann, Bob) and a bot, left in its first hand, as
    ``rum500 host`` logs one."""
    from rum500.rules import Game, Options
    from rum500.store import Journal
    from tests.store.conftest import match_info, play

    game = Game(3, 5, Options(target=100))
    info = match_info(game, ["Ann", "Bob", "Cy"])
    info["seats"][1]["bot"] = None
    with Journal(home / "games.sqlite3") as j:
        j.start_match(info)
        play(j, 5, game=game, stop_after=20)


@pytest.mark.parametrize(
    ("lang", "says"),
    [
        ("en", "game 1 is not a solo match (2 people at its table: Ann, Bob)"),
        ("ru", "партия 1 — не одиночная (за её столом 2 человека: Ann, Bob)"),
    ],
)
def test_play_resume_of_a_lan_match_says_to_host_it(term: Term, lang: str, says: str) -> None:
    """``play --resume 1`` of a match several people played is not a solo match to go on
    alone: it says so, and how it goes on (``host --resume 1``), instead of a table screen
    saying 'Every seat is taken'."""
    log_a_lan_match(term.home)
    term.run(f"--lang {lang} play --resume 1 --name Ann --bot-delay 0")
    screen = term.wait(lambda s: "EXITED" in s, "rum500 ending")
    assert "EXITED 2" in screen
    assert "Every seat is taken" not in screen
    stderr = (term.home / "stderr.txt").read_text()
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"rum500: {says}"), stderr
    assert "'rum500 host --resume 1'" in stderr
    assert rows(term.home, "SELECT status FROM matches") == [("playing",)]  # left alone


def test_replay_in_russian_with_hands_sorted_as_the_client_sorts_them(term: Term) -> None:
    """``rum500 --lang ru replay 1`` in a real terminal: every word in Russian, each hand
    in the terminal client's order (by suit ♠ ♥ ♣ ♦, aces high), one minus sign per line."""
    from rum500 import cards as C
    from rum500.store import Journal
    from tests.store.conftest import play

    with Journal(term.home / "games.sqlite3") as j:
        game = play(j, 4, ["Ann", "Bob", "Cleo"], target=150)
    term.run("--lang ru replay 1")
    screen = term.wait(lambda s: "Запись партии 1" in s, "the replay")
    assert f"Кон 1 из {game.hand_number}" in screen and "Колода:" in screen
    assert "Сброс (снизу → вверх):" in screen and "сдаёт" in screen
    assert "←/→ ход · ↑/↓ кон" in screen
    rows = [line for line in screen.splitlines() if "рука (" in line]
    assert len(rows) == 3
    assert not re.search(r"(?<![\w])[AJQK][♠♥♦♣]", screen)  # Т В Д К, as the client writes
    for row in rows:
        shown = row.split("рука (", 1)[1].split(":", 1)[1].split()
        codes = [
            c.replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C") for c in shown
        ]
        codes = [
            c.replace("Т", "A").replace("В", "J").replace("Д", "Q").replace("К", "K") for c in codes
        ]
        assert codes == sorted(codes, key=lambda t: C.sort_key_by_suit(C.parse(t))), row
    term.keys("End")
    screen = term.wait(lambda s: "выигрывает партию" in s, "the end of the match")
    assert screen.count("выигрывает партию") == 1  # said once, on the event line
    assert "окончен — счёт: на столе − на руке = очки" in screen
    for line in screen.splitlines():
        if "всего" in line:
            assert not re.search(r"-\d", line), line  # one minus sign: −
    term.keys("q")
    term.wait(lambda s: "EXITED 0" in s, "rum500 ending")
