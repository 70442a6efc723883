"""history, stats, export and import — and every bad file they may be given."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rum500.cli import main
from rum500.rules import Game, Options
from rum500.store import Journal, open_db
from rum500.store.log import load_match
from rum500.store.matchfile import canonical

from .conftest import match_info, play

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def three(home: Path) -> list[Game]:
    """Two finished matches and one unfinished, with known names."""
    games = []
    for seed, names in ((1, ["Ann", "Bob"]), (2, ["Bob", "Ann", "Cleo"])):
        with Journal() as j:
            games.append(play(j, seed, names))
    with Journal() as j:
        games.append(play(j, 3, ["Ann", "Dan"], stop_after=30))
    return games


def test_history_lists_every_match_newest_first(
    three: list[Game], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # room for the table (narrower: a block a match)
    code, out, _ = run(capsys, "history", "--all", "--json")
    assert code == 0
    h = json.loads(out)
    assert [m["id"] for m in h] == [3, 2, 1]
    assert h[2]["players"] == ["Ann", "Bob"] and h[1]["players"] == ["Bob", "Ann", "Cleo"]
    for m, g in zip(h[1:], [three[1], three[0]], strict=True):
        assert m["status"] == "finished"
        assert m["totals"] == g.totals
        assert m["winner"] == m["players"][g.winner]
        assert m["hands"] == len(g.results)
        assert m["table"] == "Kitchen"
    assert h[0]["status"] == "playing" and h[0]["winner"] is None
    code, out, _ = run(capsys, "history", "--all", "--limit", "1", "--json")
    assert [m["id"] for m in json.loads(out)] == [3]
    code, out, _ = run(capsys, "history", "--all")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["game", "date", "table"]
    assert "unfinished" in lines[1] and "Ann, Dan" in lines[1]
    assert "Bob, Ann, Cleo" in lines[2]
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(capsys, "history", "--all")
    lines = out.splitlines()
    assert code == 0 and max(map(len, lines)) <= 60, out
    assert lines[0].startswith("game 3 · ") and "unfinished" in lines[0]
    assert lines[1].startswith("  table Kitchen · players Ann, Dan"), lines[1]
    assert lines[2].startswith("  winner - · totals "), lines[2]


def test_stats_per_player(
    three: list[Game], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, "stats", "--json")
    assert code == 0
    table = {s["name"]: s for s in json.loads(out)}
    assert set(table) == {"Ann", "Bob", "Cleo"}  # Dan has no finished match
    g1, g2 = three[0], three[1]
    seat_of = {"Ann": (0, 1), "Bob": (1, 0)}
    for name, (s1, s2) in seat_of.items():
        s = table[name]
        wins = (g1.winner == s1) + (g2.winner == s2)
        scores = [r["scores"][s1] for r in g1.results] + [r["scores"][s2] for r in g2.results]
        assert s["matches"] == 2 and s["wins"] == wins and s["win_rate"] == wins / 2
        assert s["hands"] == len(scores)
        assert s["mean_hand_score"] == pytest.approx(sum(scores) / len(scores))
        best = max(g1.totals[s1], g2.totals[s2])
        assert s["best_match"]["total"] == best
        assert s["longest_win_run"] == wins  # two matches: a run of wins is all of them
    code, out, _ = run(capsys, "stats", "ann", "--json")
    assert [s["name"] for s in json.loads(out)] == ["Ann"]
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "stats")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["player", "matches", "wins"]
    monkeypatch.setenv("COLUMNS", "80")  # the table is wider: a block per player
    code, out, _ = run(capsys, "stats")
    assert code == 0 and out.splitlines()[0] == "Ann" and max(map(len, out.splitlines())) <= 80
    best = table["Ann"]["best_match"]  # the best match beside the matches, not the hands
    assert out.splitlines()[1] == (
        f"  matches 2 · wins 1 · win rate 50% · best {best['total']} (game {best['game_id']})"
        " · run 1"
    )
    assert out.splitlines()[2].startswith("  hands ") and "best" not in out.splitlines()[2]
    assert any(line.startswith("  error rate - · luck/hand - · ") for line in out.splitlines())
    code, _, err = run(capsys, "stats", "Zed")
    assert code == 1 and "no finished match of a player named 'Zed'" in err


def test_longest_run_of_wins(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    winners = []
    for seed in range(6):
        with Journal() as j:
            g = play(j, seed + 20, ["Ann", "Bob"], target=60)
        winners.append(g.winner)
    longest = best = 0
    for w in winners:
        best = best + 1 if w == 0 else 0
        longest = max(longest, best)
    _, out, _ = run(capsys, "stats", "Ann", "--json")
    (ann,) = json.loads(out)
    assert ann["longest_win_run"] == longest and ann["wins"] == winners.count(0)


def test_export_import_round_trip(
    three: list[Game],
    home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    file = tmp_path / "match.rum500.json"
    code, out, err = run(capsys, "export", "2", str(file))
    assert code == 0, err
    doc = json.loads(file.read_text())
    assert doc["format"] == "rum500-match" and doc["version"] == 1
    assert doc["sha256"] == hashlib.sha256(canonical(doc["match"])).hexdigest()
    assert "token" not in file.read_text()  # seat tokens are secrets
    monkeypatch.setenv("RUM500_HOME", str(tmp_path / "friend"))
    code, out, err = run(capsys, "import", str(file))
    assert code == 0, err
    assert out.startswith("imported as game 1 (Bob, Ann, Cleo; winner")
    conn = open_db()
    mine = load_match(conn, 1)
    conn.close()
    assert [a["action"] for a in mine["actions"]] == three[1].actions
    assert mine["totals"] == three[1].totals and mine["winner"] == three[1].winner
    assert mine["source"] == "import" and mine["status"] == "finished"
    code, out, _ = run(capsys, "export", "1", "-")
    again = json.loads(out)
    assert again["match"] == doc["match"]  # the same file, byte for byte in its content
    code, _, err = run(capsys, "import", str(file))
    assert code == 1 and "already in the game log as game 1" in err
    code, out, _ = run(capsys, "stats", "Cleo", "--json")
    assert json.loads(out)[0]["matches"] == 1


def _exported(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[Path, dict]:
    file = tmp_path / "m.json"
    assert run(capsys, "export", "1", str(file))[0] == 0
    return file, json.loads(file.read_text())


def _resign(doc: dict) -> dict:
    doc["sha256"] = hashlib.sha256(canonical(doc["match"])).hexdigest()
    return doc


def _import_fails(capsys: pytest.CaptureFixture[str], file: Path, *needles: str) -> str:
    before = _count()
    code, out, err = run(capsys, "import", str(file))
    assert code == 1, out
    assert err.startswith("rum500: ") and "Traceback" not in err
    for n in needles:
        assert n in err, err
    assert _count() == before  # nothing half-written
    return err


def _count() -> int:
    conn = open_db()
    try:
        return conn.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        conn.close()


def test_import_refuses_bad_files(
    three: list[Game], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file, doc = _exported(capsys, tmp_path)
    text = file.read_text()
    bad = tmp_path / "bad.json"

    bad.write_text(text[: len(text) // 2])
    _import_fails(capsys, bad, "truncated")

    bad.write_text(text[:-3])
    _import_fails(capsys, bad, "truncated")

    edited = json.loads(text)
    edited["match"]["totals"][0] += 100
    bad.write_text(json.dumps(edited))
    _import_fails(capsys, bad, "checksum")

    forged = json.loads(text)  # an illegal action, with a fresh checksum
    forged["match"]["uid"] = "f" * 32
    first = forged["match"]["actions"][0]
    first["action"] = {"type": "discard", "card": "AS"}
    bad.write_text(json.dumps(_resign(forged)))
    _import_fails(capsys, bad, "action 1", "not legal")

    forged = json.loads(text)  # legal actions, but a claimed score that they do not give
    forged["match"]["uid"] = "e" * 32
    forged["match"]["totals"] = [500, 0]
    forged["match"]["winner"] = 0
    bad.write_text(json.dumps(_resign(forged)))
    _import_fails(capsys, bad, "totals or winner differ")

    forged = json.loads(text)  # a match cut short but claimed finished
    forged["match"]["uid"] = "d" * 32
    forged["match"]["actions"] = forged["match"]["actions"][:-5]
    bad.write_text(json.dumps(_resign(forged)))
    _import_fails(capsys, bad, "do not finish")

    forged = json.loads(text)
    forged["match"]["seats"] = forged["match"]["seats"][:1]
    bad.write_text(json.dumps(_resign(forged)))
    _import_fails(capsys, bad, "seats")

    newer = json.loads(text)
    newer["version"] = 2
    bad.write_text(json.dumps(newer))
    _import_fails(capsys, bad, "newer rum500")

    bad.write_text(json.dumps({"hello": "world"}))
    _import_fails(capsys, bad, "not a rum500 match file")

    bad.write_bytes(b"\xff\xfe\x00garbage")
    _import_fails(capsys, bad, "not a rum500 match file")

    _import_fails(capsys, tmp_path / "missing.json", "cannot read")
    _import_fails(capsys, tmp_path, "cannot read")


def test_bad_game_ids(
    three: list[Game], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "export", "42", str(tmp_path / "x.json"))
    assert code == 1 and "no game 42" in err
    code, _, err = run(capsys, "replay", "lots")
    assert code == 1 and "not a game id" in err
    code, _, err = run(capsys, "replay", "3")
    assert code == 1 and "not finished" in err
    code, _, err = run(capsys, "export", "1", str(tmp_path / "no" / "such" / "dir.json"))
    assert code == 1 and "cannot write" in err
    assert not (tmp_path / "x.json").exists()


def test_commands_as_real_processes(three: list[Game], home: Path) -> None:
    env = {**os.environ, "RUM500_HOME": str(home.parent)}
    ok = subprocess.run(
        [sys.executable, "-m", "rum500", "history", "--all"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "Ann, Dan" in ok.stdout
    conn = open_db()
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    bad = subprocess.run(
        [sys.executable, "-m", "rum500", "stats"], env=env, capture_output=True, text=True
    )
    assert bad.returncode == 1
    assert bad.stderr.startswith("rum500: the game log") and "newer rum500" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_import_on_a_full_disk_writes_nothing(
    three: list[Game],
    tmp_path: Path,
    tmpfs: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    file = tmp_path / "m.json"
    assert run(capsys, "export", "2", str(file))[0] == 0
    monkeypatch.setenv("RUM500_HOME", str(tmpfs))
    assert run(capsys, "history")[0] == 1  # no log there yet
    conn = open_db()  # an empty log, then a full disk
    conn.close()
    fd = os.open(tmpfs / "filler", os.O_WRONLY | os.O_CREAT)
    for size in (65536, 4096, 512, 1):
        try:
            while True:
                os.write(fd, b"\0" * size)
        except OSError:
            pass
    os.close(fd)
    code, _, err = run(capsys, "import", str(file))
    assert code == 1 and "disk is full" in err and "nothing was imported" in err
    code, _, err = run(capsys, "history")  # reading needs a little room too (WAL)
    assert code == 1 and "disk is full" in err
    (tmpfs / "filler").unlink()
    code, out, _ = run(capsys, "history", "--json")
    assert code == 0 and json.loads(out) == []  # the failed import left nothing behind
    code, out, err = run(capsys, "import", str(file))
    assert code == 0, err


def test_two_hosts_write_one_log_at_once(home: Path) -> None:
    """Two matches journaled turn about (two hosts on one machine): both come back whole."""
    a, b = Journal(), Journal()
    ga = Game(2, 70, Options(target=150))
    gb = Game(3, 71, Options(target=150))
    a.start_match(match_info(ga, ["Ann", "Bob"]))
    b.start_match(match_info(gb, ["Cy", "Di", "Ed"]))
    rng = random.Random(5)
    while ga.to_move is not None or gb.to_move is not None:
        for g, j in ((ga, a), (gb, b)):
            if g.to_move is not None:
                seat = g.to_move
                g.apply(rng.choice(g.legal_actions()), seat)
                j.record(len(g.actions) - 1, seat, dict(g.actions[-1]))
    a.close()
    b.close()
    conn = open_db()
    try:
        for mid, g in ((1, ga), (2, gb)):
            m = load_match(conn, mid)
            assert [x["action"] for x in m["actions"]] == g.actions
            assert m["status"] == "finished" and m["winner"] == g.winner
    finally:
        conn.close()


def test_a_file_cut_inside_a_string_is_called_truncated(
    three: list[Game], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file cut in the middle of a string (the JSON error then names where the string
    began, far from the end) is still called truncated, not damaged."""
    file, doc = _exported(capsys, tmp_path)
    text = file.read_text()
    value = text.index('"', text.index('"sha256"') + len('"sha256"'))  # the checksum's string
    inside = value + 20  # 19 hex digits into the 64
    bad = tmp_path / "cut.json"
    bad.write_text(text[:inside])
    _import_fails(capsys, bad, "truncated")


def test_exporting_a_match_in_the_middle_of_a_hand_warns_that_it_shows_that_hand(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file holds every hand as dealt: in the middle of a hand, that hand's cards and
    stock — export says so. Between hands, and for a finished match, nothing is hidden."""
    whole = play(None, 5, ["Ann", "Bob"], target=100000, stop_after=400)
    replayed = Game(2, 5, Options(target=100000))
    between = None  # the number of actions after which hand 1 is over
    for k, action in enumerate(whole.actions):
        replayed.apply(action)
        if replayed.phase.value == "hand_over":
            between = k + 1
            break
    assert between is not None and whole.hand_number > 1
    with Journal() as j:
        play(j, 5, ["Ann", "Bob"], target=100000, stop_after=between + 5)  # hand 2 under way
    with Journal() as j:
        play(j, 5, ["Ann", "Bob"], target=100000, stop_after=between)  # between hands 1, 2
    with Journal() as j:
        play(j, 5, ["Ann", "Bob"], target=150)  # finished
    code, out, err = run(capsys, "export", "1", str(tmp_path / "a.json"))
    assert code == 0 and "game 1 written to" in out
    assert "game 1 is not finished: the file shows every card of hand 2, still under way" in err
    for game_id in ("2", "3"):
        code, out, err = run(capsys, "export", game_id, str(tmp_path / f"{game_id}.json"))
        assert code == 0 and err == "", (game_id, err)
