"""bench/rejudge.py: a stability run's stored decisions judged again, both seeds, with the
figures of the stability goal on those decisions alone."""

from __future__ import annotations

import json

from tests.bots import load_bench

X = {"type": "discard", "card": "2S"}
Y = {"type": "discard", "card": "KS"}
PLAYED = {"type": "discard", "card": "9C"}


def verdict(best: dict, loss: float) -> dict:
    """A verdict as a stability run keeps it (``measured``: the loss before the line of a
    mistake is drawn, and the move it was measured for)."""
    return {
        "best": best,
        "loss": loss,
        "stderr": 1.0,
        "ties": [],
        "worlds": 32,
        "candidates": 3,
        "measured": [loss, 1.0, 16],
        "named": best,
    }


def line(index: int, first: dict, second: dict) -> dict:
    return {
        "match_seed": 7024,
        "budget": 32,
        "seat": 0,
        "index": index,
        "hand": 1,
        "kind": "discard",
        "played": PLAYED,
        "first": first,
        "second": second,
    }


def test_the_decisions_chosen_are_the_disagreements_the_agreements_or_the_rest(
    monkeypatch,
) -> None:
    bench = load_bench("rejudge", monkeypatch)
    lines = [
        line(1, verdict(X, 6.0), verdict(X, 4.0)),  # agreed: the second repeats the call
        line(2, verdict(X, 6.0), verdict(PLAYED, 0.0)),  # disagreed: no mistake
        line(3, verdict(PLAYED, 0.0), verdict(Y, 7.0)),  # disagreed: the other way
        line(4, verdict(X, 3.0), verdict(Y, 4.0)),  # neither calls a loss ≥ 5: neither
    ]
    assert [d["index"] for d in bench.chosen(lines, "disagreed", None)] == [2, 3]
    assert [d["index"] for d in bench.chosen(lines, "agreed", None)] == [1]
    assert [d["index"] for d in bench.chosen(lines, "uncalled", None)] == [4]
    assert [d["index"] for d in bench.chosen(lines, "all", 3)] == [1, 2, 3]
    renamed = verdict(X, 6.0) | {"named": Y}  # measured for KS, 2S named when told again
    lines.append(line(5, verdict(PLAYED, 0.0), renamed))
    lines.append(line(6, verdict(PLAYED, 0.0) | {"named": Y}, verdict(X, 6.0)))  # no call
    assert [d["index"] for d in bench.chosen(lines, "renamed", None)] == [5]


def test_whole_writes_every_stored_line_with_those_judged_again_replaced(
    monkeypatch, tmp_path
) -> None:
    bench = load_bench("rejudge", monkeypatch)
    draw = {"type": "draw", "source": "stock"}
    stored = [
        line(6, verdict(draw, 0.0), verdict(draw, 0.0)) | {"kind": "draw", "played": draw},
        line(7, verdict(X, 6.0), verdict(X, 6.0)),  # not judged again: kept as it is
    ]
    src = tmp_path / "stored.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in stored))
    whole, out = tmp_path / "whole.jsonl", tmp_path / "out.jsonl"
    argv = [str(src), "--which", "uncalled", "--jobs", "1", "--whole", str(whole)]
    assert bench.main([*argv, "--out", str(out)]) == 0
    kept = [json.loads(t) for t in whole.read_text().splitlines()]
    judged = [json.loads(t) for t in out.read_text().splitlines()]
    assert [x["index"] for x in kept] == [6, 7] and [x["index"] for x in judged] == [6]
    assert kept[1] == stored[1] and kept[0] == judged[0]
    assert kept[0]["first"]["worlds"] > 0 and kept[0]["first"] != stored[0]["first"]


def test_the_figures_count_calls_both_ways_and_verdicts_that_moved(monkeypatch) -> None:
    bench = load_bench("rejudge", monkeypatch)
    stored = [
        line(1, verdict(X, 6.0), verdict(X, 4.0)),
        line(2, verdict(X, 6.0), verdict(PLAYED, 0.0)),
        line(3, verdict(PLAYED, 0.0), verdict(Y, 7.0)),
    ]
    judged = {
        (7024, 0, 1): (verdict(X, 6.0), verdict(X, 4.0)),  # as stored
        (7024, 0, 2): (verdict(X, 6.0), verdict(X, 5.5)),  # the second now repeats it
        (7024, 0, 3): (verdict(Y, 2.0), verdict(Y, 7.0)),  # the first now calls a small loss
    }
    f = bench.figures(stored, judged)
    assert f.calls == (2, 2)  # the first run: decisions 1 and 2; the second: 2 and 3
    assert f.repeated == (2, 2)
    assert f.verdicts == 6 and f.changed == 2  # decision 2's second, decision 3's first
    judged[(7024, 0, 2)] = (verdict(X, 6.0), verdict(PLAYED, 0.0))
    f = bench.figures(stored, judged)
    assert f.repeated == (1, 1) and f.calls == (2, 1) and f.changed == 1


def test_a_stored_decision_is_judged_again_with_both_seeds(monkeypatch) -> None:
    """The match is played again and the decision found in it: both seeds' verdicts, in the
    stored file's fields."""
    bench = load_bench("rejudge", monkeypatch)
    draw = {"type": "draw", "source": "stock"}
    stored = [line(6, verdict(draw, 0.0), verdict(draw, 0.0)) | {"kind": "draw", "played": draw}]
    judged, cpu = bench.rejudge(stored, hands=2, jobs=1)
    first, second = judged[(7024, 0, 6)]
    assert set(first) == set(second) == set(stored[0]["first"])
    assert first["worlds"] > 0 and second["worlds"] > 0 and cpu > 0
