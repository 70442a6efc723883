"""What ``history``, ``import`` and ``replay`` say, in words a player can act on (issue 22 §4):
the right command to resume a match, a history of unplayed matches only, totals as numbers,
one minus sign per line, and all of it in Russian with ``--lang ru``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.i18n import set_language
from rum500.rules import Game, Options
from rum500.store import Journal, open_db
from rum500.store.log import load_match
from rum500.tui.replay import ReplayModel

from .conftest import match_info, play


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")  # the commands below set it from --lang; start every test in English


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def lan_match(seed: int, stop_after: int | None = None) -> Game:
    """A match of two people and a bot, as ``rum500 host`` logs one."""
    game = Game(3, seed, Options(target=100))
    info = match_info(game, ["Ann", "Bob", "Cy"])
    info["seats"][1]["bot"] = None  # Bob is a person too
    with Journal() as j:
        j.start_match(info)
        play(j, seed, game=game, stop_after=stop_after)
    return game


def test_replay_of_an_unfinished_solo_match_says_play_resume(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal() as j:
        play(j, 3, ["Ann", "Bot"], stop_after=30)
    code, out, err = run(capsys, "replay", "1")
    assert code == 1 and out == ""
    assert "resume it with 'rum500 play --resume 1'" in err
    assert "host --resume" not in err


def test_replay_of_an_unfinished_lan_match_says_host_resume(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lan_match(5, stop_after=30)
    code, _out, err = run(capsys, "replay", "1")
    assert code == 1
    assert "resume it with 'rum500 host --resume 1'" in err


def test_history_of_unplayed_matches_only_says_what_it_holds(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal() as j:
        play(j, 3, ["Ann", "Bot"], stop_after=4)  # left in the first hand
    code, out, _err = run(capsys, "history")
    assert code == 0
    assert "No matches in the game log yet" not in out
    assert out.splitlines() == [
        "No match to list: the game log holds only 1 match left before its first hand "
        "ended (--all lists it; it can be resumed)."
    ]
    code, out, _err = run(capsys, "history", "--all")
    assert "unfinished, 0 hands played" in out


def test_history_of_an_empty_log_says_no_matches_yet(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_db().close()
    assert run(capsys, "history")[1] == "No matches in the game log yet.\n"


def test_import_says_the_totals_in_words_not_as_a_python_list(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = lan_match(7)
    file = tmp_path / "m.json"
    assert run(capsys, "export", "1", str(file))[0] == 0
    home.unlink()
    code, out, _err = run(capsys, "import", str(file))
    assert code == 0
    totals = " / ".join(str(t) for t in game.totals)
    assert out.strip().endswith(f"; totals {totals})"), out
    assert "[" not in out


def _score_sheets(ascii_only: bool) -> list[str]:
    """The seat lines of every score sheet of a replayed match with negative scores."""
    for seed in range(1, 60):
        with Journal() as j:
            game = play(j, seed, ["Ann", "Bob", "Cleo"], target=150)
            mid = j.game_id
        if not any(s < 0 for r in game.results for s in r["scores"]):
            continue
        conn = open_db()
        model = ReplayModel(load_match(conn, int(mid or 0)))
        conn.close()
        lines = []
        for k, frame in enumerate(model.frames):
            if frame.result is not None:
                model.go(k)
                text = "".join(t for _s, t, *_ in model.render(ascii_only, width=200))
                lines += [line for line in text.splitlines() if " total " in line]
        return lines
    raise AssertionError("no seed gave a negative hand score")


@pytest.mark.parametrize("ascii_only", [False, True])
def test_a_score_sheet_line_writes_every_minus_the_same_way(home: Path, ascii_only: bool) -> None:
    lines = _score_sheets(ascii_only)
    negative = [line for line in lines if re.search(r"[-−]\d", line)]
    assert negative, lines
    other = "−" if ascii_only else "-"
    for line in lines:
        score_part = line[: line.index("hand (")] if "hand (" in line else line
        assert other not in score_part, line
