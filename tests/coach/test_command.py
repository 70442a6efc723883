"""``rum500 analyse`` and ``rum500 stats`` in a subprocess, on a game log a real headless
host wrote (a match between bots), and their one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.rules import Game, Options
from rum500.store import Journal


def rum500(home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "RUM500_HOME": str(home), "LANG": "C.UTF-8", "LANGUAGE": "en"},
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game log holding one finished match between two easy bots (target 100)."""
    home = tmp_path_factory.mktemp("coach") / "home"
    r = rum500(
        home, "host", "--headless", "--no-announce", "--bind", "127.0.0.1", "--players", "2",
        "--bots", "2", "--bot-level", "easy", "--target", "100", "--seed", "4",
    )  # fmt: skip
    assert r.returncode == 0 and "game over" in r.stdout, r.stderr
    return home


def test_analyse_every_seat_of_the_newest_match_then_stats_show_it(played: Path) -> None:
    r = rum500(played, "stats")
    assert r.returncode == 0 and "0 of 1" in r.stdout, r.stdout
    r = rum500(played, "analyse", "--budget", "4", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Game 1, seat") == 2 and "error rate" in r.stdout
    assert "analysing:" not in r.stderr  # no progress bar when stderr is not a terminal
    r = rum500(played, "stats", "--json")
    figures = json.loads(r.stdout)
    assert [f["analysed"] for f in figures] == [1, 1]
    assert all(f["error_rate"] is not None and f["luck_per_hand"] is not None for f in figures)
    r = rum500(played, "stats")
    assert "1 of 1" in r.stdout and "error rate" in r.stdout


def test_analyse_json_of_one_seat_and_one_hand(played: Path) -> None:
    r = rum500(played, "analyse", "1", "--seat", "1", "--hand", "1", "--json", "--budget", "4")
    assert r.returncode == 0, r.stderr
    records = json.loads(r.stdout)
    assert records[-1]["type"] == "summary" and records[-1]["seat"] == 1
    assert {d["hand"] for d in records if d["type"] == "decision"} == {1}
    assert all(d["seat"] == 1 for d in records if d["type"] == "decision")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["analyse", "7"], "there is no game 7"),
        (["analyse", "--seat", "5"], "game 1 has no seat 5"),
        (["analyse", "--player", "Zed"], "nobody named 'Zed' played game 1"),
        (["analyse", "--hand", "40"], "game 1 has no hand 40"),
    ],
)
def test_analyse_says_what_is_wrong_in_one_line(played: Path, argv: list[str], said: str) -> None:
    r = rum500(played, *argv)
    assert r.returncode == 1 and said in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_analyse_with_no_game_log_says_so(tmp_path: Path) -> None:
    r = rum500(tmp_path / "none", "analyse")
    assert r.returncode == 1 and "there is no game log yet" in r.stderr


def test_analyse_of_a_game_log_with_no_match_says_so(tmp_path: Path) -> None:
    from rum500.store import open_db

    open_db(tmp_path / "home" / "games.sqlite3").close()  # the schema, no match
    r = rum500(tmp_path / "home", "analyse")
    assert r.returncode == 1
    assert r.stderr.strip() == "rum500: the game log holds no match to analyse yet: play one first"


def test_an_unfinished_match_is_analysed_as_far_as_it_was_played(tmp_path: Path) -> None:
    home = tmp_path / "home"
    os.environ["RUM500_HOME"] = str(home)
    try:
        journal = Journal()
        game = Game(2, 5, Options(target=100))
        journal.start_match(
            {
                "players": 2, "seed": 5, "options": game.options.to_dict(), "deck": None,
                "table": "t", "seats": [{"name": "Ann", "token": "a", "bot": None},
                                        {"name": "Bob", "token": "b", "bot": None}],
            }
        )  # fmt: skip
        for _k in range(12):
            seat = game.to_move
            game.apply(game.legal_actions()[-1], seat)
            journal.record(len(game.actions) - 1, seat, dict(game.actions[-1]))
        journal.close()
    finally:
        del os.environ["RUM500_HOME"]
    r = rum500(home, "analyse", "--player", "Ann", "--budget", "4")
    assert r.returncode == 0, r.stderr
    assert "game 1 is not finished: analysing the 12 actions played so far" in r.stdout


def test_the_report_in_russian_has_its_own_plurals_and_decimal_commas() -> None:
    """The summary's points take the plural of their own number (1 очко, 63 очка … — not
    the decisions' plural), the error rate a decimal comma; a seat with nothing to judge
    says so rather than "no mistake"."""
    from rum500.coach.analysis import Decision, HandAnalysis, MatchAnalysis
    from rum500.coach.command import report
    from rum500.i18n import set_language

    position = {"hand": ["KS"], "discard_pile": ["2C"], "melds": [], "stock": 20}
    mistake = Decision(
        4, 1, 0, "discard", {"type": "discard", "card": "KS"},
        {"type": "discard", "card": "2C"}, 63.25, 2.5, 3, 64, position,
    )  # fmt: skip
    hand = HandAnalysis(1, decisions=2, loss=63.25, deal_luck=1.0, deal_luck_stderr=44.0)
    hand.mistakes = [mistake]
    done = MatchAnalysis(7, 0, "Ann", 32, 0, True, 10, [mistake, mistake], [hand])
    empty = MatchAnalysis(8, 0, "Ann", 32, 0, False, 1, [], [HandAnalysis(1)])
    try:
        set_language("ru")
        text = report(done)
        assert "разобрано 2 решения: ошибки: 63,25 очка на решение" in text, text
        assert "(потеряно 126 очков)\nвезение +1 ± 44 очка" in text, text
        flat = " ".join(text.split())  # (a long line is wrapped at a space)
        assert "(потеряно 63,2 ± 2,5 очка)" in flat or "(потеряно 63,3 ± 2,5 очка)" in flat
        assert "кон 1, действие 4: сбросить KS" in flat  # "действие", not "ход" (a move)
        assert "Разбирать нечего" in report(empty)
        set_language("en")
        text = report(done)
        assert "2 decisions analysed: error rate 63.25 points per decision" in text, text
        assert "(126 points lost)\nluck +1 ± 44 points" in text, text
        assert "No mistake found" not in report(empty) and "Nothing to judge" in report(empty)
        dealt = MatchAnalysis(9, 0, "Ann", 32, 0, False, 1, [], [])  # only the deal so far
        assert "hand  decisions" not in report(dealt) and "Nothing to judge" in report(dealt)
        # the hand table: its header, then a line per hand, the columns aligned (never wrapped)
        hands = [
            HandAnalysis(k, 2, 10.0 * k, deal_luck=k, deal_luck_stderr=44.0) for k in (1, 2, 3)
        ]
        lines = report(
            MatchAnalysis(7, 0, "Ann", 32, 0, True, 30, [mistake] * 6, hands)
        ).splitlines()
        top = lines.index(next(line for line in lines if line.startswith("hand  decisions")))
        assert lines[top].split() == ["hand", "decisions", "error", "rate", "lost", "luck", "score"]
        rows = [line.split() for line in lines[top + 1 : top + 4]]
        assert [r[0] for r in rows] == ["1", "2", "3"] and [r[3] for r in rows] == [
            "10",
            "20",
            "30",
        ]
        assert len({len(line) for line in lines[top + 1 : top + 4]}) == 1 and lines[top + 4] == ""
        # a long line is wrapped at a space to 80 columns, never cut in a word
        table = [{"id": k, "cards": ["10S", "JS", "QS", "KS"]} for k in range(6)]
        mistake.position = {**position, "melds": table}
        lines = report(done).splitlines()
        assert max(map(len, lines)) <= 80
        start = next(k for k, line in enumerate(lines) if line.startswith("   table: "))
        assert lines[start + 1].startswith("     10S") and " ".join(
            x.strip() for x in lines[start : start + 3]
        ).startswith("table: 10S JS QS KS; 10S JS QS KS; 10S JS QS KS; 10S JS QS KS;")
    finally:
        set_language("en")


def test_a_bot_is_found_and_named_as_the_screen_names_it() -> None:
    """``--player`` takes a bot's name as logged ("Bot 1") or as the screen shows it in the
    player's language ("Бот 1"); a name nobody had is answered with the names as shown."""
    from rum500.coach.command import pick_seats
    from rum500.i18n import set_language
    from rum500.store import StoreError

    seats = [{"seat": 0, "name": "Ann", "bot": None}, {"seat": 1, "name": "Bot 1", "bot": "easy"}]
    match = {"id": 3, "players": 2, "seats": seats}
    try:
        set_language("ru")
        assert pick_seats(match, None, "Бот 1") == [1] == pick_seats(match, None, "bot 1")
        with pytest.raises(StoreError) as e:
            pick_seats(match, None, "Zed")
        assert "Ann, Бот 1" in e.value.said()
    finally:
        set_language("en")
