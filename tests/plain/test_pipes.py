"""Issue 25 §2: ``rum500 --plain play`` driven through its standard input and output only — a
whole solo match to its winner with not one escape sequence written, bad commands answered
with a line and costing nothing, the end of the input leaving cleanly, and the Russian voice.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.plain.driver import Plain

SOLO = ("play", "--seed", "7", "--bot-delay", "0", "--target", "50", "--name", "Ann")
SOLO += ("--review-timeout", "1")


def short_hand(p: Plain) -> list[str]:
    p.send("hand short")
    line = p.until("Your hand")
    return line.rstrip(".").split(": ", 1)[1].split()


def test_a_whole_solo_match_through_pipes_has_no_escape_sequence() -> None:
    p = Plain("--plain", *SOLO, "--target", "200")  # two hands or more
    winner = None
    turns = 0
    while winner is None:
        line = p.next_line()
        assert line is not None, p.seen[-20:]
        if "End the hand now?" in line:
            p.send("yes")
        elif line.startswith("Your turn"):
            turns += 1
            if "stock is empty" in line:
                p.send("end")
                continue
            p.send("draw")
            p.until("You drew")
            p.send("discard " + short_hand(p)[-1])
        elif "ready for the next hand" in line and line.startswith("Type review"):
            p.send("ready")
        elif "wins the match" in line:
            winner = line
    p.send("scores")
    assert "Totals:" in p.until("Totals:")
    p.send("review")  # the last hand's review, as the screen's sheet has it
    assert re.fullmatch(r"Hand \d+: (Ann|Bot 1|nobody) went out\.", p.until("went out"))
    assert re.search(
        r"^Ann: -?\d+ on the table, \d+ left in hand \(.+\); [+-]\d+\.$", p.until("Ann: ")
    )
    p.send("quit")  # the match is over: nothing at stake, it leaves at once
    code, err = p.close()
    assert code == 0, err
    assert turns > 0
    assert re.search(r"^(Ann|Bot 1) wins the match with \d+!$", winner)
    assert b"\x1b" not in p.raw, "an escape sequence in the plain mode's output"
    assert not any(ord(c) < 32 and c not in "\n\r" for c in p.raw.decode()), "a control byte"
    assert "Bot 1 discards" in "\n".join(p.seen)  # the events in words
    assert any(line.startswith("Hand 2: ") for line in p.seen), "one hand only"
    repeated = [a for a, b in zip(p.seen, p.seen[1:], strict=False) if a == b]
    assert not repeated, f"said twice: {repeated[:3]}"
    assert not re.search("[♠♥♦♣🃏│─┌]", "\n".join(p.seen)), "a symbol or a box line"


def test_bad_commands_get_a_clear_line_and_lose_nothing() -> None:
    p = Plain("--plain", *SOLO)
    p.until("Your turn")
    before = short_hand(p)
    answers = {
        "fly away": "Unknown command fly: type help for the list.",
        "discard ZZ": "ZZ is not a card: write cards as AS 10H QD 2C.",
        "meld AS": "meld needs three or more cards: meld 9S 9H 9D.",
        f"discard {before[0]}": "Draw first: from the stock or the discard pile.",
        "dig 99": "dig N: N from 1 to the size of the discard pile",
        "take 2D": "2 of diamonds is not in the discard pile.",
        "take 6S": "You may not take 6 of spades: it must be played this turn",
        "lay 5C on 9": "You do not hold 5 of clubs.",
        "call": 'This table plays without "Rummy!" calls.',
        "pass": 'This table plays without "Rummy!" calls.',
        "yes": "There is no question to answer.",
    }
    for line, answer in answers.items():
        p.send(line)
        said = p.next_line()
        assert said is not None and said.startswith(answer), (line, said)
    assert short_hand(p) == before  # nothing was played
    p.send("status")
    assert "your turn, to draw" in p.until("Hand 1:")
    p.send("draw")  # and the turn goes on
    assert p.until("You drew")
    code, _err = p.close()  # the end of the input: the seat is left as q leaves it
    assert code == 0
    assert "Game " in p.seen[-1] and "rum500 play --resume" in p.seen[-1]
    again = Plain("--plain", "play", "--resume", "--bot-delay", "0", "--name", "Ann")
    again.until("Your hand")
    assert "Your turn: meld, lay off, then discard." in again.until("Your turn")  # drawn: play
    again.close()
    resumed = [line for line in again.seen if line.startswith("Resumed game")]
    assert len(resumed) == 1, again.seen[:8]  # said once, not as a log line and again


def test_the_russian_voice() -> None:
    p = Plain("--lang", "ru", "--plain", *SOLO)
    p.until("Ваш ход")
    p.send("рука")
    hand = p.until("Ваша рука")
    ranks = "туз|двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка|десятка"
    ranks += "|валет|дама|король"
    assert re.search(f"({ranks}) (пик|червей|бубен|треф)", hand), hand
    p.send("draw")  # English is always understood
    assert "Вы взяли" in p.until("Вы взяли")
    p.send("quit")
    assert "да" in p.until("да:")
    p.send("да")
    code, _err = p.close()
    assert code == 0
    assert b"\x1b" not in p.raw


def test_the_plain_lobby_joins_by_address_and_plays_solo(tmp_path: Path) -> None:
    """``RUM500_PLAIN=1 rum500`` (the plain lobby): join a table at HOST:PORT (a headless host on
    loopback), leave it, play a solo match, leave it, quit — all in lines."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host = subprocess.Popen(
        [sys.executable, "-m", "rum500", "host", "--headless", "--no-announce", "--bind",
         "127.0.0.1", "--port", str(port), "--players", "2", "--name", "Kitchen"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "RUM500_HOME": str(tmp_path / "host")},
    )  # fmt: skip
    try:
        assert host.stdout is not None
        assert b"hosting table" in host.stdout.readline()
        p = Plain("--name", "Ann", env={"RUM500_PLAIN": "1"})  # as --plain
        p.until("Lobby: list")
        p.send(f"join 127.0.0.1:{port}")
        assert p.until("Seats:") == "Seats: Ann, free."
        p.send("quit")  # nothing at stake before the match: leaves at once
        p.until("Back in the lobby.")
        p.send("play 1")
        p.until("Your hand, 13 cards")
        p.send("quit")
        p.until("Leave the match?")
        p.send("yes")
        p.until("Back in the lobby.")
        p.send("quit")
        code, err = p.close()
        assert code == 0, err
        assert b"\x1b" not in p.raw
    finally:
        host.kill()
        host.wait(timeout=10)


def test_a_move_typed_before_the_match_starts_says_so(tmp_path: Path) -> None:
    """A seated player who types a move while the table still waits to start hears that the
    match has not started — not that spectators do not play (they are not watching)."""
    from rum500.plain import commands
    from rum500.plain.model import PlainModel

    said: list[str] = []
    m = PlainModel(name="Ann", out=said.append)
    m.tableview.spectator = False
    commands.run(m, "draw")
    commands.run(m, "hint")
    assert said[-2:] == ["The match has not started yet."] * 2, said
