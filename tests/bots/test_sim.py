"""``rum500 sim``: seeded tournaments reproduce, whatever the number of processes, and the
JSON report is well formed."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from rum500.sim import parse_levels, percentile, simulate, wilson


def figures(report: dict) -> dict:
    """The report without what depends on the clock."""
    out = {k: v for k, v in report.items() if k not in ("elapsed_s", "jobs")}
    out["levels"] = {
        level: {k: v for k, v in s.items() if k != "decision_ms"}
        for level, s in report["levels"].items()
    }
    return out


def test_seeded_sim_is_reproducible_across_jobs() -> None:
    levels = ["hard", "medium", "easy"]  # hard draws Monte Carlo samples: seeded too
    one = simulate(6, 3, levels, hands=2, seed=42, jobs=1)
    two = simulate(6, 3, levels, hands=2, seed=42, jobs=2)
    again = simulate(6, 3, levels, hands=2, seed=42, jobs=1)
    assert figures(one) == figures(two) == figures(again)
    other = simulate(6, 3, levels, hands=2, seed=43, jobs=1)
    assert figures(other) != figures(one)


def test_whole_matches_have_one_winner_each() -> None:
    report = simulate(4, 3, ["hard", "medium", "easy"], target=150, seed=1, jobs=2)
    levels = report["levels"]
    assert sum(s["wins"] for s in levels.values()) == 4
    assert sum(s["seats"] for s in levels.values()) == 4 * 3  # seats rotate among levels
    for s in levels.values():
        assert s["hands"] > 0 and s["decisions"] > 0
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1


def test_cli_json_is_well_formed() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "rum500",
            "sim",
            "--games",
            "3",
            "--bots",
            "hard,easy",
            "--hands",
            "1",
            "--seed",
            "7",
            "--jobs",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["games"] == 3 and report["hands"] == 1 and report["seed"] == 7
    assert set(report["levels"]) == {"hard", "easy"}
    for s in report["levels"].values():
        assert set(s) >= {
            "seats",
            "wins",
            "win_rate",
            "ci95",
            "mean_score_per_hand",
            "decision_ms",
            "hands",
            "decisions",
        }
        assert set(s["decision_ms"]) >= {"p50", "p95"}
        assert s["decision_ms"]["p50"] <= s["decision_ms"]["p95"]
    assert "\x1b" not in out.stdout  # no progress bar in JSON output


def test_cli_table_and_bad_levels() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "rum500",
            "sim",
            "--games",
            "2",
            "--bots",
            "medium",
            "--hands",
            "1",
            "--jobs",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "medium" in out.stdout and "95% CI" in out.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "rum500", "sim", "--bots", "hard,wizard"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "wizard" in bad.stderr and "Traceback" not in bad.stderr
    with pytest.raises(ValueError):
        parse_levels(" , ")


def test_wilson_and_percentile() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    values = [float(i) for i in range(1, 101)]
    assert percentile(values, 50) == 50.0 and percentile(values, 95) == 95.0
    assert percentile([], 95) == 0.0


def test_bradley_terry_ratings_follow_the_wins() -> None:
    from rum500.sim import ELO, PRIOR_WINS, rate

    # two levels: the fit is the log of the (smoothed) odds
    r = rate(["b", "a"], {("b", "a"): [10.0, 90.0]})
    odds = (90 + PRIOR_WINS) / (10 + PRIOR_WINS)
    assert r["b"]["rating"] == 0
    assert r["a"]["rating"] == pytest.approx(ELO * math.log(odds), abs=0.01)
    lo, hi = r["a"]["ci95"]
    assert lo < r["a"]["rating"] < hi and lo > 0  # 90 of 100 is clearly stronger
    assert r["a"]["games"] == 100 and r["a"]["wins"] == 90
    # three levels in a chain: the order follows, and a whitewash stays finite
    r = rate(
        ["x", "y", "z"],
        {("x", "y"): [2.0, 8.0], ("x", "z"): [0.0, 10.0], ("y", "z"): [3.0, 7.0]},
    )
    assert 0 < r["y"]["rating"] < r["z"]["rating"] < 2000
    # more games, narrower intervals
    few = rate(["b", "a"], {("b", "a"): [3.0, 7.0]})["a"]["ci95"]
    many = rate(["b", "a"], {("b", "a"): [30.0, 70.0]})["a"]["ci95"]
    assert many[1] - many[0] < few[1] - few[0]


def test_ladder_is_reproducible_across_jobs_and_the_cli_prints_it() -> None:
    from rum500.sim import ladder

    def figures(report: dict) -> dict:
        out = {k: v for k, v in report.items() if k not in ("elapsed_s", "jobs", "levels")}
        out["levels"] = {k: {**v, "decision_ms": None} for k, v in report["levels"].items()}
        return out

    one = ladder(3, ["random", "easy", "medium"], target=150, seed=5, jobs=1)
    two = ladder(3, ["random", "easy", "medium"], target=150, seed=5, jobs=2)
    assert figures(one) == figures(two)
    assert [p["bots"] for p in one["pairs"]] == [
        ["random", "easy"],
        ["random", "medium"],
        ["easy", "medium"],
    ]
    assert all(sum(p["wins"]) == 3 for p in one["pairs"])
    assert one["levels"]["random"]["rating"] == 0
    cmd = [sys.executable, "-m", "rum500", "sim", "--ladder", "--games", "2", "--target", "100"]
    cmd += ["--bots", "random,medium", "--jobs", "1"]
    table = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True)
    assert "Elo" in table.stdout and "medium" in table.stdout and "95%" in table.stdout
    report = json.loads(
        subprocess.run(
            [*cmd, "--json"], capture_output=True, text=True, timeout=120, check=True
        ).stdout
    )
    assert report["ladder"] is True and set(report["levels"]) == {"random", "medium"}
    bad = subprocess.run(
        [sys.executable, "-m", "rum500", "sim", "--ladder", "--bots", "hard"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "two different" in bad.stderr
