"""bench/analyse.py's ladder as a long run (issue 24's Goals): its matches interleaved by
level, each appended to ``--ladder-out`` as it ends, a run started again skipping what the
file holds, and the table printed from the file alone (``--ladder-report``)."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from rum500.coach.search import called, same_action
from tests.bots import load_bench


def line(level: str, seed: int, seat: int, mine: float, theirs: float, **more) -> dict:
    """A ``--ladder-out`` line of ``level`` (in ``seat``) against expert."""
    rates = [mine, theirs] if seat == 0 else [theirs, mine]
    record = {
        "level": level,
        "seed": seed,
        "match": 0,
        "seats": [level, "expert"] if seat == 0 else ["expert", level],
        "seat": seat,
        "hands": 1,
        "budget": 1,
        "hands_played": 1,
        "error_rates": rates,
        "decisions": [10, 12] if seat == 0 else [12, 10],
        "took": 1.5,
        "commit": "0123456789abcdef",
    }
    record.update(more)
    return record


def test_the_levels_matches_are_interleaved(monkeypatch) -> None:
    bench = load_bench("analyse", monkeypatch)
    levels = ["random", "easy", "medium"]
    plan = bench.ladder_plan(levels, 4, 24, 2, 8)
    assert [m.level for m in plan[:6]] == levels * 2
    for stop in range(len(plan) + 1):  # stopped anywhere: the counts differ by one at most
        counts = Counter(m.level for m in plan[:stop])
        assert max(counts[x] for x in levels) - min(counts[x] for x in levels) <= 1
    easy = [m for m in plan if m.level == "easy"]
    assert [m.seed for m in easy] == [1024, 1025, 1026, 1027]
    assert [m.seats for m in easy[:2]] == [("easy", "expert"), ("expert", "easy")]
    assert [m.seat for m in easy[:2]] == [0, 1]
    assert len({m.key for m in plan}) == len(plan)


def test_the_report_is_read_from_the_file_alone(tmp_path, capsys, monkeypatch) -> None:
    bench = load_bench("analyse", monkeypatch)
    out = tmp_path / "ladder.jsonl"
    lines = [
        line("easy", 1024, 0, 6.0, 1.0),
        line("random", 24, 0, 20.0, 2.0),
        line("easy", 1025, 1, 8.0, 1.0),
        line("random", 25, 1, 22.0, 2.0),
        line("medium", 2024, 0, 7.0, 1.0),
        line("medium", 2025, 1, 7.5, 1.0),
        line("random", 26, 0, 21.0, 2.0, budget=8),  # another budget: a table of its own
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in lines) + '{"level": "ea')  # torn
    assert bench.main(["--ladder-report", str(out)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1].startswith("   --budget 1, first 1 hand(s) a match, 6 matches")
    rows = {t.split(":")[0].strip(): t for t in text[2:5]}
    assert list(rows) == ["random", "easy", "medium"]  # the ladder's order, not the file's
    assert rows["random"].split()[1:4] == ["21.00", "±", "1.96"]  # the seat that played
    assert "(2 matches, 20 decisions)" in rows["random"]
    assert "its expert opponents:  2.00 ±  0.00 (24 decisions)" in rows["random"]
    assert "[3 s]" in rows["random"]
    # random ≫ easy, but easy (7 ± 1.96) and medium (7.25 ± 0.49) are out of order
    assert text[5] == "   ordered as the ladder: False; every gap outside the intervals: False"
    assert text[6].startswith("   --budget 8, first 1 hand(s) a match, 1 matches")
    rows = bench.ladder_rows([r for r in lines if r["level"] != "medium"], bench.LEVELS)
    assert bench.ladder_verdict(rows) == (True, True)


def test_a_run_started_again_plays_only_what_the_file_lacks(tmp_path, capsys, monkeypatch) -> None:
    bench = load_bench("analyse", monkeypatch)
    out = tmp_path / "ladder.jsonl"
    done = line("random", 24, 0, 30.0, 3.0)  # match 0 of random: already played
    out.write_text(json.dumps(done) + "\n" + '{"level": "easy", "se')  # and a torn line
    argv = ["--skip-speed", "--skip-stability", "--matches", "1", "--hands", "1"]
    argv += ["--budget", "1", "--jobs", "1", "--levels", "random,easy", "--seed", "24"]
    assert bench.main([*argv, "--ladder-out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "1 to play, 1 already in" in text
    records = [json.loads(x) for x in out.read_text().splitlines()[::2]]  # torn line skipped
    assert records[0] == done
    assert [(r["level"], r["seed"], r["seats"]) for r in records[1:]] == [
        ("easy", 1024, ["easy", "expert"])
    ]
    easy = records[1]
    assert easy["budget"] == 1 and easy["hands"] == 1 and easy["hands_played"] == 1
    # only the level's seat is analysed: the expert opponent's figures are left out
    assert easy["analysed"] == [0] and easy["decisions"][0] > 0
    assert easy["error_rates"][1] is None and easy["decisions"][1] is None
    assert easy["commit"]
    assert "    random:  30.00 ±   inf" in text  # the summary reads the file's line
    assert bench.main([*argv, "--ladder-out", str(out)]) == 0  # all there: nothing to play
    assert "0 to play, 2 already in" in capsys.readouterr().out
    assert len(out.read_text().splitlines()) == 3


def test_a_match_that_fails_is_told_and_the_run_goes_on(tmp_path, capsys, monkeypatch) -> None:
    bench = load_bench("analyse", monkeypatch)
    out = tmp_path / "ladder.jsonl"

    def play(match):
        if match.level == "easy":
            raise ValueError("planted")
        return line(match.level, match.seed, match.seat, 9.0, 1.0)

    monkeypatch.setattr(bench, "play_ladder_match", play)
    argv = ["--skip-speed", "--skip-stability", "--matches", "2", "--hands", "1"]
    argv += ["--budget", "1", "--jobs", "1", "--levels", "easy,random", "--seed", "24"]
    assert bench.main([*argv, "--ladder-out", str(out)]) == 1
    captured = capsys.readouterr()
    assert "ValueError: planted" in captured.err  # the traceback
    assert "easy match 1 (seed 1025) failed: ValueError: planted" in captured.out
    assert "2 match(es) failed (not written: a run started again plays them)" in captured.out
    records = [json.loads(x) for x in out.read_text().splitlines()]
    # the seeds are the whole ladder's, whatever --levels lists and in whatever order
    assert [(r["level"], r["seed"]) for r in records] == [("random", 24), ("random", 25)]


def test_the_rate_is_all_the_loss_over_all_the_decisions(monkeypatch) -> None:
    """A short match's rate weighs by its decisions, not as much as a long one's; a level's
    line without its opponent analysed shows a dash; expert's own figure is both seats'."""
    bench = load_bench("analyse", monkeypatch)
    lines = [
        line("easy", 1024, 0, 10.0, None, decisions=[2, None], analysed=[0]),
        line("easy", 1025, 1, 1.0, None, decisions=[None, 18], analysed=[1]),
        line("easy", 1026, 0, 2.0, None, decisions=[20, None], analysed=[0]),
        line("expert", 4024, 0, 1.0, 3.0, decisions=[10, 10], analysed=[0, 1]),
    ]
    rows = {r.level: r for r in bench.ladder_rows(lines, bench.LEVELS)}
    rate, half = rows["easy"].mine
    assert rate == (20 + 18 + 40) / 40 and rows["easy"].decisions == 40  # not (10+1+2)/3
    spread = (20 - rate * 2) ** 2 + (18 - rate * 18) ** 2 + (40 - rate * 20) ** 2
    assert abs(half - 1.96 * (3 / 2 * spread) ** 0.5 / 40) < 1e-12
    assert rows["easy"].theirs is None
    # expert's own figure is both its seats' (20 decisions), its opponents' the other seat's
    assert rows["expert"].mine == (2.0, math.inf) and rows["expert"].decisions == 20
    assert rows["expert"].theirs == (3.0, math.inf) and rows["expert"].their_decisions == 10
    text = bench.ladder_report(lines)
    assert "(3 matches, 40 decisions) | its expert opponents: — [" in text[1]
    assert "its expert opponents:  3.00 ±   inf (10 decisions)" in text[2]


def test_the_expert_plays_the_ladder_without_its_wall_clock_guard(monkeypatch) -> None:
    """A ladder match is the same under any load: the expert's search is not cut by the clock
    while the match is played, and the guard is back afterwards (stability still has it)."""
    bench = load_bench("analyse", monkeypatch)
    from rum500.bots import expert

    guard = expert.TIME_GUARD_S
    seen = []
    real = bench.bot_record

    def record(*args, **kwargs):
        seen.append(expert.TIME_GUARD_S)
        return real(*args, **kwargs)

    monkeypatch.setattr(bench, "bot_record", record)
    match = bench.ladder_plan(["random"], 1, 24, 1, 1)[0]
    line = bench.play_ladder_match(match)
    assert seen == [math.inf] and guard == expert.TIME_GUARD_S
    assert line["analysed"] == [0] and line["decisions"][0] > 0


def test_the_stability_runs_keep_every_decision_for_reading(tmp_path, capsys, monkeypatch) -> None:
    """``--stability-out`` appends each decision of the stability runs as a JSON line, both
    runs' verdicts side by side: one line per decision, the counts the printed figure is
    made of read back from the file."""
    bench = load_bench("analyse", monkeypatch)
    out = tmp_path / "stability.jsonl"
    argv = ["--skip-speed", "--skip-ladder", "--stability-matches", "1", "--hands", "1"]
    argv += ["--budget", "2", "--jobs", "1", "--stability-out", str(out)]
    assert bench.main(argv) == 0
    printed = capsys.readouterr().out
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert lines and {r["match_seed"] for r in lines} == {7024}
    assert f"({len(lines)} decisions)" in printed
    assert {r["budget"] for r in lines} == {2} and {r["seat"] for r in lines} == {0, 1}
    calls = [r for r in lines if r["first"]["loss"] >= 5]
    assert f"{len(calls)} with a loss ≥ 5 in the first run" in printed
    for r in lines:
        assert set(r["first"]) == set(r["second"]) == {
            "best", "loss", "stderr", "ties", "worlds", "candidates", "measured", "named"
        }  # fmt: skip
        assert r["first"]["candidates"] == r["second"]["candidates"]
        for v in (r["first"], r["second"]):  # a call: the move measured is the one named
            if v["loss"] > 0:  # (or one of its ties, named again on fresh worlds)
                assert v["named"] in [v["best"], *v["ties"]]
                assert called(*v["measured"]) and v["measured"][2] < v["worlds"]
    back = [r for r in lines if r["second"]["loss"] >= 5]
    both = sum(same_action(r["first"]["best"], r["second"]["best"]) for r in calls + back)
    assert f"{both} of {len(calls) + len(back)} (" in printed
    assert bench.main(["--stability-report", str(out)]) == 0  # the same figures, from the file
    report = capsys.readouterr().out
    assert report.startswith(f"3. stability, from {out}: ({len(lines)} decisions)")
    assert report.split(": ", 1)[1] == printed.split("seeds 1 and 2 ", 1)[1]
    assert bench.main(argv) == 0  # a second run appends
    assert len(out.read_text().splitlines()) == 2 * len(lines)


def test_a_stability_file_read_again_with_the_line_drawn_as_now(
    tmp_path, capsys, monkeypatch
) -> None:
    """``--stability-report FILE --redraw``: each verdict's line of a mistake is drawn again
    from the loss it measured — a loss of 3 on 1,500 worlds at 2.8 standard errors, no
    mistake under the line of 3.5, is a call now; one at 2 standard errors is not; a call
    the line still calls keeps the loss it was told again on fresh worlds (5.5, not the
    measuring's 6)."""
    from rum500.coach import search as S

    bench = load_bench("analyse", monkeypatch)
    played = {"type": "discard", "card": "9C"}
    x = {"type": "discard", "card": "2S"}

    def kept(loss: float, stderr: float, worlds: int, called: bool) -> dict:
        return {
            "best": x if called else played,
            "loss": loss - 0.5 if called else 0.0,  # told again on fresh worlds
            "stderr": stderr if called else 0.0,
            "ties": [],
            "worlds": worlds,
            "candidates": 3,
            "measured": [loss, stderr, worlds],
            "named": x,
        }

    lines = [  # the first run calls 6 on both; the second measured short of 3.5 on both
        {
            "played": played,
            "first": kept(6.0, 1.0, 500, True),
            "second": kept(3.0, 1.07, 1500, False),
        },
        {
            "played": played,
            "first": kept(6.0, 1.0, 500, True),
            "second": kept(2.0, 1.0, 1500, False),
        },
    ]
    assert S.called(3.0, 1.07, 1500) and not S.called(2.0, 1.0, 1500)
    out = tmp_path / "stability.jsonl"
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert bench.main(["--stability-report", str(out)]) == 0
    assert "the second agrees on the best move in 0 (0.0%" in capsys.readouterr().out
    assert bench.main(["--stability-report", str(out), "--redraw"]) == 0
    printed = capsys.readouterr().out
    assert "(the line drawn again)" in printed
    assert "the second agrees on the best move in 1 (50.0%" in printed
    redrawn = bench.redrawn(lines[0])
    assert redrawn["first"]["loss"] == 5.5 and redrawn["second"]["loss"] == 3.0
    old = tmp_path / "old.jsonl"  # a file from before verdicts kept what they measured
    old.write_text(json.dumps({"played": played, "first": {}, "second": {}}) + "\n")
    with pytest.raises(SystemExit, match="no measured loss"):
        bench.main(["--stability-report", str(old), "--redraw"])
