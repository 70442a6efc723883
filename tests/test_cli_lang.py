"""Every command-line output in Russian with ``--lang ru`` (before or after the command) and
under a Russian locale (issue 22 §4): ``history``, ``stats``, ``replay``, ``import``,
``export``, ``list``, and argparse's own words — "usage:", "error:", a missing or unknown
argument, an invalid choice, ``--help`` with our flags' help."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.store import Journal
from tests import capability
from tests.store.conftest import play

ROOT = Path(__file__).resolve().parents[1]


def rum500(home: Path, *argv: str, locale: str | None = None) -> subprocess.CompletedProcess[str]:
    """``rum500 ARGV`` as a real process, its game log in ``home``; ``locale``: the LANG
    it runs under (else a neutral C.UTF-8)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(RUM500_HOME=str(home), LANG=locale or "C.UTF-8", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "rum500", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=env,
    )


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder whose game log holds one finished match of Ann and Bob."""
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    with Journal() as j:
        play(j, 1, ["Ann", "Bob"])
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "locale"),
    [
        (["--lang", "ru", "history"], None),
        (["history", "--lang", "ru"], None),
        (["history", "--lang=ru"], None),
        (["history"], "ru_RU.UTF-8"),
    ],
)
def test_history_in_russian(home: Path, argv: list[str], locale: str | None) -> None:
    r = rum500(home, *argv, locale=locale)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()  # wider than 80 columns in Russian: a block per match
    assert max(map(len, lines)) <= 80, r.stdout
    assert lines[0].startswith("партия 1 · ") and "закончена" in lines[0], lines[0]
    assert lines[1].startswith("  стол ") and " · игроки Ann, Bob" in lines[1], lines[1]
    assert lines[2].startswith("  победитель ") and " · итоги " in lines[2], lines[2]
    assert "finished" not in r.stdout


def test_english_stays_english(home: Path) -> None:
    r = rum500(home, "history")
    assert r.stdout.splitlines()[0].split()[:3] == ["game", "date", "table"]
    r = rum500(home, "history", locale="ru_RU.UTF-8")  # the locale says Russian …
    r_en = rum500(home, "--lang", "en", "history", locale="ru_RU.UTF-8")  # … --lang wins
    assert r.stdout.split()[0] == "партия" and r_en.stdout.split()[0] == "game"


def test_stats_in_russian(home: Path) -> None:
    r = rum500(home, "--lang", "ru", "stats")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()  # wider than 80 columns in Russian: a block per player
    assert lines[0] == "Bob (бот: случайный)" and max(map(len, lines)) <= 80  # the level too
    assert lines[1].startswith("  партии 1 · победы 1 · доля побед 100% · лучшая ")
    assert lines[1].endswith(" · серия 1")  # the best match's total beside the matches
    assert lines[2] == "  коны 1 · в среднем за кон 132,0"  # a decimal comma
    legend = " ".join(lines[-3:])  # the columns' legend, then the coach's figures', wrapped
    assert legend.startswith("лучшая: наибольший итог одной партии"), legend
    assert "ошибки: потерянные очки на решение" in legend, legend


def test_export_import_and_replay_in_russian(home: Path, tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    r = rum500(home, "--lang", "ru", "export", "1", str(file))
    assert (r.returncode, r.stdout) == (0, f"партия 1 записана в {file}\n")
    r = rum500(home, "--lang", "ru", "export", "1", str(file))
    assert r.returncode == 1
    assert r.stderr == (
        f"rum500: {file} уже существует: ничего не записано (--force запишет поверх)\n"
    )
    r = rum500(home, "--lang", "ru", "import", str(file))
    assert r.returncode == 1
    assert r.stderr == (
        "rum500: эта партия уже есть в журнале игр как партия 1 (ничего не импортировано)\n"
    )
    (home / "games.sqlite3").unlink()
    r = rum500(home, "--lang", "ru", "import", str(file))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("импортирована как партия 1 (Ann, Bob; победитель ")
    r = rum500(home, "--lang", "ru", "import", "/dev/zero")
    assert r.stderr.startswith("rum500: /dev/zero слишком велик для партии rum500")
    r = rum500(home, "--lang", "ru", "replay", "99")
    assert r.stderr == (
        "rum500: в журнале игр нет партии 99 ('rum500 history' покажет все партии)\n"
    )
    r = rum500(home, "--lang", "ru", "replay", "1")  # no terminal here
    assert r.stderr == "rum500: для просмотра партии нужен терминал\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", "--bots", "9"], "rum500 play: ошибка: аргумент --bots: боты: от 1 до 7"),
        (["export"], "rum500 export: ошибка: не хватает обязательных аргументов: game_id, file"),
        (["history", "--bogus"], "rum500: ошибка: неизвестные аргументы: --bogus"),
        (
            ["play", "--empty-stock", "never"],
            "rum500 play: ошибка: аргумент --empty-stock: недопустимое значение: 'never' "
            "(можно: 'play_on', 'reshuffle', 'end')",
        ),
        (["--bots", "3", "play"], "rum500: ошибка: --bots ставится после команды: rum500 play"),
        (
            ["--name", "Ann", "history"],
            "rum500: ошибка: --name перед 'history': у этой команды нет имени игрока",
        ),
        (["play", "--review-timeout", "soon"], "не число секунд: 'soon'"),
    ],
)
def test_argparse_errors_in_russian(tmp_path: Path, argv: list[str], says: str) -> None:
    r = rum500(tmp_path, "--lang", "ru", *argv)
    assert r.returncode == 2
    assert r.stderr.startswith("использование: rum500"), r.stderr
    assert says in r.stderr, r.stderr
    assert "error" not in r.stderr and "usage" not in r.stderr


def test_help_in_russian(tmp_path: Path) -> None:
    r = rum500(tmp_path, "export", "--help", locale="ru_RU.UTF-8")
    assert r.returncode == 0
    assert r.stdout.startswith("использование: rum500 export")
    for words in (
        "позиционные аргументы:",
        "параметры:",
        "показать эту справку и выйти",
        "записать поверх уже существующего файла",
        "язык (по умолчанию — из настроек локали)",
    ):
        assert words in r.stdout, r.stdout
    r = rum500(tmp_path, "--lang", "ru", "--help")
    assert "Рамми 500 (мичиганский рамми) в локальной сети" in r.stdout
    assert "одиночная игра с ботами, сразу" in r.stdout


def test_list_in_russian(tmp_path: Path) -> None:
    """In a network namespace of its own (its multicast never leaves the test)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        capability.missing("needs root, unshare and ip for a private network namespace")
    inner = f"ip link set lo up && exec {sys.executable} -m rum500 --lang ru list --timeout 1"
    env = {**os.environ, "RUM500_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    r = subprocess.run(
        ["unshare", "--net", "sh", "-c", inner],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "в локальной сети столов не найдено (если multicast закрыт, садитесь по HOST:PORT)\n"
    )


def test_game_log_trouble_in_russian(tmp_path: Path) -> None:
    (tmp_path / "games.sqlite3").mkdir()
    r = rum500(tmp_path, "--lang", "ru", "history")
    assert r.returncode == 1
    assert r.stderr == f"rum500: журнал игр {tmp_path / 'games.sqlite3'} — папка, а не файл\n"


def test_a_store_error_is_english_in_itself_and_russian_when_said(tmp_path: Path) -> None:
    """The host's log and its notices to the players carry ``str(e)`` (English, as
    docs/protocol.md §6 says a notice's ``text`` is); the command line says ``e.said()``."""
    from rum500.i18n import set_language
    from rum500.store.db import StoreError, open_db

    (tmp_path / "games.sqlite3").mkdir()
    set_language("ru")
    try:
        with pytest.raises(StoreError) as caught:
            open_db(tmp_path / "games.sqlite3")
    finally:
        set_language("en")
    e = caught.value
    assert str(e) == f"the game log {tmp_path / 'games.sqlite3'} is a folder, not a file"
    set_language("ru")
    try:
        assert e.said() == f"журнал игр {tmp_path / 'games.sqlite3'} — папка, а не файл"
    finally:
        set_language("en")


def test_a_bot_the_host_named_is_named_in_russian_in_history_and_stats(home: Path) -> None:
    """``Bot 1`` (the host's default name for a bot, kept so in the log) reads «Бот 1»; a
    person called Bot is not renamed, and the JSON keeps the log's words."""
    with Journal() as j:
        play(j, 2, ["Ann", "Bot 1"])  # seat 1 is a bot (tests/store/conftest.match_info)
    r = rum500(home, "--lang", "ru", "history")
    assert "Ann, Бот 1" in r.stdout and "Bot 1" not in r.stdout, r.stdout
    r = rum500(home, "--lang", "ru", "stats")
    assert "Бот 1 (бот: случайный)" in r.stdout, r.stdout
    r = rum500(home, "--lang", "ru", "history", "--json")
    assert json.loads(r.stdout)[0]["players"] == ["Ann", "Bot 1"]
    assert json.loads(r.stdout)[0]["bots"] == [False, True]


def test_a_narrow_russian_history_never_breaks_a_name(home: Path) -> None:
    with Journal() as j:
        play(j, 3, ["Ann", "Bot 1", "Bot 2", "Bot 3", "Bot 4", "Bot 5"])
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL")}
    env.update(RUM500_HOME=str(home), LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    for width in (40, 44, 47):  # (40 and 47 fall inside a name, 44 between two)
        r = subprocess.run(
            [sys.executable, "-m", "rum500", "--lang", "ru", "history"],
            capture_output=True,
            text=True,
            timeout=120,
            env={**env, "COLUMNS": str(width)},
        )
        lines = r.stdout.splitlines()
        assert max(map(len, lines)) <= width, r.stdout
        assert not any(line.rstrip(",").endswith("Бот") for line in lines), (width, r.stdout)
        assert "Бот 5" in r.stdout


def test_replay_and_the_plain_seats_list_name_bots_in_russian(home: Path) -> None:
    from rum500 import i18n
    from rum500.plain.model import seats_text
    from rum500.store.commands import finished_match
    from rum500.tui.replay import ReplayModel

    with Journal() as j:
        play(j, 4, ["Ann", "Bot 1"])
    try:
        i18n.set_language("ru")
        model = ReplayModel(finished_match(None))
        seats = seats_text([{"name": "Ann"}, {"name": "Bot 1", "bot": True}])
    finally:
        i18n.set_language("en")
    assert model.names == ["Ann", "Бот 1"]
    assert seats == "Места: Ann, Бот 1 (бот)."
