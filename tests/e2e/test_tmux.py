"""The terminal client in a real terminal: tmux runs ``rum500``; the test types with
``send-keys`` and reads the screen with ``capture-pane``.

* English: ``rum500 play --bots 1 --seed 7`` played to the end of the match by following the
  ``h`` hint with keystrokes (draw, take from the pile at a depth, select, meld, lay off,
  discard), checking hand, pile, melds, the score sheet, the standings chart and the help.
* Russian: the same command with ``--lang ru``; a whole hand by drawing and discarding.
* The lobby in a network namespace of its own (only its loopback, multicast on): a table
  hosted by another process (``rum500 host --headless``) appears; Enter joins it; after
  leaving, ``rum500 join NAME`` finds it by name and the token on disk gives the seat back.
* 80×24 fits, and the screen redraws when the terminal is resized.
* ``NO_COLOR`` leaves only bold/reverse/underline; ``--ascii`` leaves no suit symbols or box
  lines.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.ports import free_port

from .tmux import Tmux

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)

CARD = re.compile(r"(10|[2-9AJQKТВДК])([♠♥♦♣])|(🃏)")  # a joker too
STANDS_FOR = re.compile(r"🃏(10|[2-9AJQKТВДК])[♠♥♦♣]")  # a joker named: 🃏8♥


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path)
    yield t
    t.close()


def rum500(args: str) -> str:
    return f"{sys.executable} -m rum500 {args}"


def hand_cards(screen: str, label: str) -> list[str]:
    """The cards of the hand line(s), in screen order."""
    lines = screen.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(label)), None)
    if start is None:  # covered by an overlay
        return []
    cards = []
    for i, line in enumerate(lines[start : start + 5]):
        if i and (not line.strip() or line[0] not in " [+"):
            break
        text = line[len(label) :] if i == 0 else line
        text = text.split("  must play")[0].split("  нужно сыграть")[0]
        cards += ["".join(m) for m in CARD.findall(text)]
    return cards


def select(term: Tmux, hand: list[str], card: str) -> None:
    term.keys("Home")
    term.keys(*(["Right"] * hand.index(card)))
    term.keys("Space")


def status_line(screen: str, prefix: str) -> str:
    return next((line for line in screen.splitlines() if line.startswith(prefix)), "")


def follow_hint(term: Tmux, screen: str) -> None:
    """Ask for the hint and play it with the one key it names (the hint selects the cards
    and puts the cursor where that key plays it); wait until the hand has changed."""
    if "Hint:" in screen:  # the last hint's line: Esc clears it (and only then: on a
        term.keys("Escape")  # hand's review Esc would close the score sheet)
        term.wait(lambda s: "Hint:" not in s, what="the message cleared")
    term.keys("h")
    # the first hint starts the hint's worker process: on a loaded machine that and the
    # search may take more than the usual 15 s
    shown = term.wait(
        lambda s: "Hint: " in s or "score sheet" in s or "standings" in s,
        60,
        "'Hint: ' (or the hand's end)",
    )
    if "Hint: " not in shown:
        return  # the hand ended under the key: the match's loop reads the sheet
    hand = hand_cards(shown, "Your hand")  # the hand the hint was given for
    hint = status_line(shown, "Hint: ")[len("Hint: ") :].strip()
    cards = ["".join(m) for m in CARD.findall(STANDS_FOR.sub("🃏", hint))]
    key = re.search(r"\(press (\S)\)", hint)
    assert key, hint
    if hint.startswith("take "):
        n = len(cards)
        assert f"← take {n} card" + ("s" if n > 1 else "") in shown, shown
    elif hint.startswith("meld "):
        assert all(f"[{c}]" in shown for c in cards), shown
    term.keys(key.group(1))
    if key.group(1) == "e":  # ending the hand asks first
        term.wait_text("End the hand now?")
        term.keys("y")
    term.wait(
        lambda s: "score sheet" in s or "Your hand" not in s or hand_cards(s, "Your hand") != hand,
        what=f"the hand to change after {hint!r}",
    )


def test_play_a_match_by_keystrokes_in_english(term: Tmux) -> None:
    term.start(
        rum500(
            "play --bots 1 --seed 7 --target 1 --bot-level random --bot-delay 0 "
            "--name Ann --lang en"
        )
    )
    screen = term.wait_text("Your hand (by suit)")
    assert re.search(r"Ann (\(D\) )?\(you\)", screen) and "Bot 1" in screen
    assert re.search(r"Stock: \d+", screen) and "Discard pile:" in screen
    assert "Melds:" in screen
    assert len(hand_cards(screen, "Your hand")) >= 13

    # the help screen: keys and the rules
    term.keys("?")
    help_screen = term.wait_text("KEYS")
    assert "lay off the selected card" in help_screen
    term.keys("PageDown", "Down", "Down", "Down")  # the rules' first lines
    assert "RULES (summary)" in term.wait_text("never K-A-2")
    term.keys("Escape")
    term.wait(lambda s: "KEYS" not in s, what="the help closed")

    # sort toggle
    term.keys("o")
    term.wait_text("Your hand (by rank)")
    term.keys("o")
    term.wait_text("Your hand (by suit)")

    # a key the table does not use says so (it did nothing, silently)
    hand = hand_cards(term.screen(), "Your hand")
    term.keys("z")
    screen = term.wait_text("No key z here: the bar shows the keys for now (? lists all).")
    assert hand_cards(screen, "Your hand") == hand

    melded = False
    sheets = 0
    deadline = time.monotonic() + 100
    while time.monotonic() < deadline:
        screen = term.wait(
            lambda s: "h hint" in s or "score sheet" in s or "standings" in s,
            timeout=20,
            what="my turn or the end of a hand",
        )
        if "score sheet" in screen:
            sheets += 1
            assert re.search(r"Player\s+Table\s+Hand\s+Score\s+Total", screen)
            assert re.search(r"Ann\s+-?\d+\s+-?\d+\s+[+-]\d+\s+-?\d+", screen)
            assert re.search(r"Bot 1\s+-?\d+\s+-?\d+\s+[+-]\d+\s+-?\d+", screen)
            term.keys("Enter")
            term.wait(lambda s: "score sheet" not in s, what="the score sheet closed")
            continue
        if "standings" in screen:
            break
        if "Ann:" in screen.split("Melds:")[1].split("Your hand")[0]:
            melded = True
        follow_hint(term, screen)
    screen = term.wait_text("The match is over — standings")
    assert sheets >= 1
    assert re.search(r"1\. (Ann|Bot 1)\s+-?\d+", screen) and re.search(r"2\. (Ann|Bot 1)", screen)
    assert "●" in screen and "○" in screen and "hand" in screen  # the chart and its legend
    assert melded, "the hint never led to a meld of mine"
    term.keys("q")
    term.wait(lambda s: "standings" not in s, what="the client to leave")


def test_a_hand_in_russian(term: Tmux) -> None:
    term.start(
        rum500("play --bots 1 --seed 7 --bot-level random --bot-delay 0 --name Аня --lang ru")
    )
    screen = term.wait_text("Ваша рука (по масти)")
    assert (
        re.search(r"Аня (\(С\) )?\(вы\)", screen)
        and re.search(r"Колода: \d+", screen)
        and "Сброс:" in screen
    )
    assert "Комбинации:" in screen
    assert len(hand_cards(screen, "Ваша рука")) == 13
    term.keys("?")
    screen = term.wait_text("КЛАВИШИ")
    assert "подложить выбранную карту" in screen
    term.keys("PageDown", "Down", "Down", "Down")  # the rules' first lines
    assert "ПРАВИЛА (кратко)" in term.wait_text("Туз младший")
    term.keys("Escape")
    term.wait(lambda s: "КЛАВИШИ" not in s, what="the help closed")
    term.keys("я")  # z on a Russian keyboard: no key of the table
    term.wait_text("Клавиши я здесь нет: нужные сейчас клавиши — в строке внизу (? — все).")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        screen = term.wait(
            lambda s: "h подсказка" in s or "Кон 1 — счёт" in s,
            timeout=20,
            what="my turn or the score sheet",
        )
        if "Кон 1 — счёт" in screen:
            break
        hand = hand_cards(screen, "Ваша рука")
        if "e закончить кон" in screen:
            term.keys("e")
        elif "s из колоды" in screen:
            term.keys("s")
        elif "d сбросить" in screen:
            term.keys("d", "d")
        else:
            raise AssertionError(screen)
        term.wait(
            lambda s, hand=hand: "Кон 1 — счёт" in s or hand_cards(s, "Ваша рука") != hand,
            what="the hand to change",
        )
    screen = term.wait_text("Кон 1 — счёт")
    assert re.search(r"Игрок\s+Стол\s+Рука\s+Кон\s+Всего", screen)
    assert re.search(r"Аня\s+-?\d+\s+-?\d+\s+[+-]\d+\s+-?\d+", screen)
    term.keys("q")
    term.wait_text("Покинуть партию?")
    term.keys("y")
    term.wait(lambda s: "Ваша рука" not in s, what="the client to leave")


def _can_netns() -> str | None:
    if os.geteuid() != 0:
        return "needs root for a network namespace"
    if shutil.which("ip") is None:
        return "needs iproute2 (ip)"
    return None


@pytest.fixture
def netns() -> Iterator[str]:
    why = _can_netns()
    if why:
        pytest.skip(why)
    name = f"rum500tui{uuid.uuid4().hex[:6]}"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        for cmd in (
            ["ip", "link", "set", "lo", "up"],
            ["ip", "link", "set", "lo", "multicast", "on"],
            ["ip", "route", "add", "224.0.0.0/4", "dev", "lo"],
        ):
            subprocess.run(["ip", "netns", "exec", name, *cmd], check=True)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)


def test_lobby_shows_a_lan_table_and_joins_it(term: Tmux, netns: str, tmp_path: Path) -> None:
    host_log = (tmp_path / "host.txt").open("w")
    env = {**os.environ, "RUM500_HOME": str(tmp_path), "LANG": "C.UTF-8"}
    host = subprocess.Popen(
        [
            "ip",
            "netns",
            "exec",
            netns,
            sys.executable,
            "-m",
            "rum500",
            "host",
            "--headless",
            "--bind",
            "127.0.0.1",
            "--players",
            "2",
            "--bots",
            "1",
            "--bot-level",
            "random",
            "--name",
            "Friday",
            "--seed",
            "3",
        ],
        stdout=host_log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        term.start(f"ip netns exec {netns} " + rum500("--lang en --name Ann"))
        screen = term.wait_text("Friday", timeout=30)
        assert "Tables on the LAN" in screen
        assert re.search(r"Friday\s+\S*\s+1/2\s+waiting", screen), screen
        assert "127.0.0.1:" in screen
        term.keys("Enter")
        screen = term.wait_text("Your hand (by suit)", timeout=20)
        assert re.search(r"Ann (\(D\) )?\(you\)", screen) and "Friday" in screen
        term.keys("q")
        term.wait_text("Leave the match?")
        term.keys("y")
        term.wait_text("Tables on the LAN")  # back in the lobby
        hand = hand_cards(screen, "Your hand")
        term.keys("q")
        term.wait(lambda s: "Tables on the LAN" not in s, what="the lobby to close")

        # join by the table's name: the token kept on disk gives the same seat back
        again = Tmux(tmp_path)
        try:
            again.start(f"ip netns exec {netns} " + rum500("join Friday --name Ann --lang en"))
            screen = again.wait_text("Your hand (by suit)", timeout=20)
            assert re.search(r"Ann (\(D\) )?\(you\)", screen)
            assert sorted(hand_cards(screen, "Your hand")) == sorted(hand)
        finally:
            again.close()

        # the host closes the table under a player who came from the lobby: back to the lobby,
        # told why (no retry loop)
        lobby = Tmux(tmp_path)
        try:
            lobby.start(f"ip netns exec {netns} " + rum500("--lang en --name Ann"))
            lobby.wait_text("Friday", timeout=30)
            lobby.keys("Enter")
            lobby.wait_text("Your hand (by suit)", timeout=20)
            host.terminate()
            # the reason shows on the match screen for a moment, then again in the lobby
            screen = lobby.wait(
                lambda s: "the host closed the table" in s and "Tables on the LAN" in s,
                timeout=20,
                what="the lobby, saying the host closed the table",
            )
            assert "Connection lost" not in screen
        finally:
            lobby.close()
    finally:
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
        host_log.close()


def test_fits_80x24_and_redraws_on_resize(tmp_path: Path) -> None:
    term = Tmux(tmp_path, width=80, height=24)
    try:
        term.start(rum500("play --bots 7 --seed 2 --bot-delay 0 --bot-level random --name Ann"))
        screen = term.wait_text("Your hand (by suit)")
        lines = screen.splitlines()
        assert all(len(line) <= 80 for line in lines)
        for part in ("Rummy 500", "Bot 7", "Stock:", "Melds:", "q quit", "Your turn"):
            assert part in screen, part
        assert "─" * 80 in screen
        term.tmux("resize-window", "-t", "0", "-x", "120", "-y", "40")
        screen = term.wait(lambda s: "─" * 120 in s, what="a redraw at 120 columns")
        assert "Your hand (by suit)" in screen and len(screen.splitlines()) >= 39
        term.tmux("resize-window", "-t", "0", "-x", "80", "-y", "24")
        term.wait(lambda s: "─" * 80 in s and "─" * 81 not in s, what="a redraw at 80 columns")
    finally:
        term.close()


def test_no_color_and_ascii(term: Tmux) -> None:
    term.start(
        rum500("play --bots 1 --seed 7 --bot-delay 0 --bot-level random --name Ann --ascii"),
        env={"NO_COLOR": "1"},
    )
    screen = term.wait_text("Your hand (by suit)")
    cards = re.findall(r"\b(?:10|[2-9AJQK])[SHDC]\b", screen.split("Your hand (by suit)")[1])
    assert len(cards) >= 13
    assert not re.search("[♠♥♦♣─│┌▶]", screen)
    coloured = term.tmux("capture-pane", "-e", "-p", "-t", "0")
    codes = re.findall(r"\x1b\[([0-9;]*)m", coloured)
    assert codes, "no attributes at all: the capture did not keep them"
    for code in codes:
        for part in code.split(";"):
            assert part in ("", "0", "1", "4", "7", "22", "24", "27", "39", "49"), code


# ---------------------------------------------------------------- issue 9: the table at 80×24


def my_move(term: Tmux, screen: str) -> None:
    """One step of a plain player: draw from the stock, discard (d selects the card under the
    cursor, d again discards it); with the stock empty, end the hand (it asks: y)."""
    if "End the hand now?" in screen:
        term.keys("y")
    elif "Your turn: the stock is empty" in screen and "end the hand (e)" in screen:
        term.keys("e")
    elif "s draw from stock" in screen:
        term.keys("s")
    elif "d discard" in screen:
        term.keys("d", "d")


def play_until(term: Tmux, done: Callable[[str], bool], timeout: float = 120) -> str:
    """Play plain moves until ``done(screen)``; no screen on the way is "too small"."""
    deadline = time.monotonic() + timeout
    while True:
        screen = term.wait(
            lambda s: (
                done(s)
                or "too small" in s.lower()
                or "End the hand now?" in s
                or ("Your turn" in s and "Press d again" not in s)
            ),
            timeout=max(1.0, deadline - time.monotonic()),
            what="my turn or the end",
        )
        assert "too small" not in screen.lower(), screen
        if done(screen):
            return screen
        if "End the hand now?" not in screen:
            for part in ("Stock:", "Discard pile:", "Melds:", "Your hand", "q quit", "▶ 1 Ann"):
                assert part in screen, (part, screen)  # whose turn: the mark on Ann's line
        assert all(len(line) <= term.width for line in screen.splitlines())
        before = (hand_cards(screen, "Your hand"), status_line(screen, "Your turn"))
        my_move(term, screen)
        term.wait(
            lambda s, before=before: (
                done(s)
                or "End the hand now?" in s
                or (hand_cards(s, "Your hand"), status_line(s, "Your turn")) != before
            ),
            timeout=max(1.0, deadline - time.monotonic()),
            what="the move to land",
        )


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_a_whole_hand_fits_80x24(tmp_path: Path, players: int) -> None:
    """2 to 8 players, a whole hand at 80×24: hand, pile, melds, keys and whose turn stay on
    screen; the review at the end holds the next deal until Enter."""
    term = Tmux(tmp_path, width=80, height=24)
    try:
        term.start(
            rum500(
                f"play --bots {players - 1} --seed {players} --bot-level random --bot-delay 0 "
                "--review-timeout 600 --name Ann --lang en"
            )
        )
        play_until(term, lambda s: "score sheet" in s)
        screen = term.wait_text("Enter ready for the next hand")  # the redraw complete
        assert "Hand 1 — score sheet" in screen
        assert re.search(r"Player\s+Table\s+Hand\s+Score\s+Total", screen)
        assert "in hand:" in screen  # the cards left in the hands, face up
        # the deal waits: the countdown runs, the sheet stays, until Enter
        left = re.compile(r"The next hand is dealt in (\d+) seconds")
        first = int(left.search(term.wait(lambda s: left.search(s) is not None)).group(1))
        screen = term.wait(
            lambda s: (m := left.search(s)) is not None and int(m.group(1)) < first,
            what="the countdown to run while the review holds the deal",
        )
        assert "Waiting for: Ann" not in screen  # her own wait: "Press Enter when you are ready"
        assert "score sheet" in screen and "s draw from stock" not in screen
        term.keys("s")  # a game key in the review says why, in one line
        term.wait_text("press Enter when you are ready")
        term.keys("Enter")
        screen = term.wait(
            lambda s: "hand 2 ·" in s and "score sheet" not in s, what="the next hand dealt"
        )
        assert "too small" not in screen.lower()
        if players == 8:  # "too small" used to come after a couple of rounds: a second hand
            play_until(term, lambda s: "Hand 2 — score sheet" in s)
    finally:
        term.close()


def test_e_asks_first_and_shows_the_score(tmp_path: Path) -> None:
    term = Tmux(tmp_path, width=80, height=24)
    try:
        term.start(
            rum500(
                "play --bots 1 --seed 11 --bot-level random --bot-delay 0 --review-timeout 600 "
                "--name Ann --lang en"
            )
        )
        screen = play_until(
            term,
            lambda s: "score sheet" in s or ("Your turn: the stock is empty" in s),
            timeout=150,
        )
        if "score sheet" in screen:
            pytest.fail("this seed no longer reaches an empty stock on Ann's turn")
        term.keys("e")
        screen = term.wait_text("End the hand now?")
        assert re.search(r"You would score [+-]\d+ \(on the table \d+, in hand -\d+\)", screen)
        term.keys("n")  # no: keep playing
        screen = term.wait(lambda s: "End the hand now?" not in s, what="the question closed")
        assert "score sheet" not in screen and "Your turn" in screen
        term.keys("e")
        term.wait_text("End the hand now?")
        term.keys("y")
        term.wait_text("score sheet  The stock ran out and the hand was ended.")
    finally:
        term.close()


def test_take_back_at_a_solo_table(term: Tmux) -> None:
    """Follow the hint until it melds or lays off; u takes it back: the cards come home."""
    term.start(
        rum500("play --bots 1 --seed 7 --bot-level random --bot-delay 0 --name Ann --lang en")
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        term.wait(lambda s: "h hint" in s, timeout=20, what="my turn")
        term.keys("Escape")
        term.keys("h")
        shown = term.wait_text("Hint: ")
        hint = status_line(shown, "Hint: ")
        if "(press m)" in hint or "(press l)" in hint:
            before = sorted(hand_cards(shown, "Your hand"))
            term.keys("m" if "(press m)" in hint else "l")
            term.wait(
                lambda s, before=before: (
                    "u take back" in s and sorted(hand_cards(s, "Your hand")) != before
                ),
                what="the move made and take back offered",
            )
            term.keys("u")
            term.wait(
                lambda s, before=before: (
                    sorted(hand_cards(s, "Your hand")) == before
                    and "u take back" not in s
                    and "Ann takes back" in s  # the log says so
                ),
                what="the cards back in the hand",
            )
            return
        key = re.search(r"\(press (\S)\)", hint)
        assert key, hint
        hand = hand_cards(shown, "Your hand")
        term.keys(key.group(1))
        term.wait(
            lambda s, hand=hand: hand_cards(s, "Your hand") != hand or "score sheet" in s,
            what="the move",
        )
        if "score sheet" in term.screen():
            term.keys("Enter")
    pytest.fail("the hint never melded or laid off")


def test_a_guest_is_told_the_host_closed_the_table(tmp_path: Path) -> None:
    port = free_port()
    host = Tmux(tmp_path / "host", width=80, height=24)
    guest = Tmux(tmp_path / "guest", width=80, height=24)
    (tmp_path / "host").mkdir()
    (tmp_path / "guest").mkdir()
    try:
        host.start(
            rum500(
                f"host --players 3 --bind 127.0.0.1 --port {port} --no-announce --name Kitchen "
                "--player Ann --lang en"
            )
        )
        host.wait_text("Press g")
        guest.start(rum500(f"join 127.0.0.1:{port} --name Bob --lang en"))
        screen = guest.wait_text("Seated: waiting for players")
        assert f"127.0.0.1:{port}" in screen  # the address to give friends
        assert "Connecting" not in screen
        host.wait_text("Bob")
        host.keys("q")
        host.wait_text("Close the table for the players waiting?")
        host.keys("y")
        guest.wait(lambda s: "Rummy 500" not in s, what="the guest's screen to close")
        err = guest.home / "stderr.txt"
        end = time.monotonic() + 10
        while "the host closed the table" not in err.read_text() and time.monotonic() < end:
            time.sleep(0.05)
        assert err.read_text().strip() == "rum500: the host closed the table"
    finally:
        host.close()
        guest.close()


# A second player for the house-rules test: joins over TCP, draws from the stock, melds what
# it can, and discards a card that could be laid off (so that Ann may call "Rummy!" on it)
# when it has one; it passes at once on Ann's discards and says ready after a hand.
OPPONENT = """
import asyncio, sys
from net.client import ActionRefused, ConnectionLost
from rum500.client import RumClient

async def main(port):
    c = await RumClient.connect("127.0.0.1", port, name="Bob")
    try:
        async for msg in c.messages():
            if msg["type"] != "state" or msg["seq"] != c.seq:
                continue
            v = msg["view"]
            me, legal = c.seat, v["legal_actions"]
            act = None
            if v.get("claim") and me in v["claim"].get("waiting", []):
                act = {"type": "pass"}
            elif v.get("review") and me in v["review"].get("waiting", []):
                act = {"type": "ready"}
            elif v["turn"] == me and legal:
                kinds = {a["type"]: a for a in reversed(legal)}
                fits = {a["card"] for a in legal if a["type"] == "layoff"}
                claimable = [a for a in legal if a["type"] == "discard" and a["card"] in fits]
                if v["phase"] == "draw":
                    act = next((a for a in legal if a.get("source") == "stock"), legal[0])
                elif "meld" in kinds:
                    act = kinds["meld"]
                elif claimable:
                    act = claimable[0]
                else:
                    act = next((a for a in legal if a["type"] == "discard"), legal[0])
            if act is not None:
                try:
                    await c.act(act)
                except ActionRefused:
                    pass
    except ConnectionLost:
        pass

asyncio.run(main(int(sys.argv[1])))
"""


def test_a_hand_with_jokers_and_a_rummy_call_in_time(tmp_path: Path) -> None:
    """``rum500 host --jokers --rummy-calls``: Ann plays a hand at a real window (following
    the hint), sees jokers as 🃏, and calls "Rummy!" with r on a discard of Bob's in time."""
    port = free_port()
    term = Tmux(tmp_path, width=100, height=30)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    bob: subprocess.Popen | None = None
    try:
        term.start(
            rum500(
                f"host --players 2 --bind 127.0.0.1 --port {port} --no-announce --name Kitchen "
                "--player Ann --lang en --seed 3 --jokers --rummy-calls --claim-window 10"
            )
        )
        term.wait_text("Press g")
        bob = subprocess.Popen(
            [sys.executable, "-c", OPPONENT, str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        screen = term.wait_text("Your hand (by suit)")
        assert "🃏" in screen  # seed 3 deals Ann a joker
        called = passed = 0
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            screen = term.wait(
                lambda s: "h hint" in s or "x = no call" in s or "score sheet" in s,
                timeout=30,
                what="my turn, a discard open for calls, or the end of the hand",
            )
            if "score sheet" in screen:
                break
            if "r = Rummy!" in screen:
                assert re.search(r"Bob discarded \S+: r = Rummy!, x = no call — \d+ s", screen)
                term.keys("r")
                shown = term.wait(
                    lambda s: "Ann calls Rummy! and takes" in s or "Rummy! on which meld?" in s,
                    what="the call's banner (or the question which meld)",
                )
                if "Rummy! on which meld?" in shown:
                    term.keys("1")
                    shown = term.wait_text("Ann calls Rummy! and takes")
                assert re.search(r"Ann calls Rummy! and takes \S+ from Bob\.", shown)
                called += 1
                continue
            if "x = no call" in screen:
                term.keys("x")
                term.wait(lambda s: "x = no call" not in s, what="the window to close")
                passed += 1
                continue
            follow_hint(term, screen)
        screen = term.wait_text("score sheet")
        assert called >= 1, "Bob never discarded a card Ann could call on"
        assert bob.poll() is None, bob.stderr.read() if bob.stderr else ""
    finally:
        term.close()
        if bob is not None:
            bob.kill()
            bob.wait(timeout=10)
