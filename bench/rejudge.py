"""Re-judge decisions a stability run kept, with the analysis as it is now (issue 24's
stability goal): minutes for a change to the search, where the whole run takes forty.

    python bench/rejudge.py FILE [--which disagreed|agreed|uncalled|renamed|all] [--limit N]
                                 [--jobs 2] [--hands 2] [--out FILE] [--whole FILE]

FILE is a ``bench/analyse.py --stability-out`` file. Its matches (``hard`` against
``expert``, each line's ``match_seed``, their first ``--hands`` hands, as the stability run
played them) are played again, and the decisions chosen are judged with both seeds exactly as
the stability run judges them (seeds 1 and 2, the same per-decision seeds, the budget the file
names). ``--which``: the decisions the two stored runs disagreed on (one calls a loss ≥ 5 and
the other names another best move; the default), those they agreed on (a call of a loss ≥ 5
that the other repeated), those neither called (``uncalled``: with ``disagreed`` and ``agreed``
the whole run, in three parts), those where a stored run called a loss and named, when it
told the loss again, another move than the one it measured (``renamed``: the only verdicts a
change to that naming, docs/analysis.md step 6, can move), or every decision; ``--limit N``:
the first N of them.

It prints, for the decisions chosen: how many of the calls of a loss ≥ 5 each run makes the
other repeats (the stability figure, both ways, on those decisions only), how many verdicts
differ from the stored ones (0 for the code that wrote FILE: the analysis is reproducible),
and the CPU seconds the judging took. ``--out FILE``: each decision as re-judged, a JSON line;
``--whole FILE``: every line of FILE, those judged again replaced (for ``--stability-report``).
A variant of the search that helps on the disagreements and leaves the agreements alone is
worth a whole run; one that does not, is not. Only the whole run (``--which all``) says
whether it is better: the figure on the decisions the stored runs called (``disagreed`` and
``agreed``) overstates a change, since its new calls — the marginal ones — come from the
decisions neither stored run called (races of 32 times the budget with ``NEAR`` at 8: 90.2%
both ways on the calls of the 500 decisions either stored run called, 88.2% on the whole
2,860, where the 2,360 others added 40 calls and the other seed repeated 20).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.analyse import (  # noqa: E402
    CALL,
    SEEDS,
    STABILITY_SEATS,
    unguarded_record,
    verdict_fields,
)
from rum500.coach import search as S  # noqa: E402
from rum500.coach.analysis import tasks_of  # noqa: E402


def key_of(line: dict) -> tuple[int, int, int]:
    return (int(line["match_seed"]), int(line["seat"]), int(line["index"]))


def kind(line: dict) -> str:
    """``"disagreed"`` (a stored run calls a loss ≥ :data:`CALL` and the other names another
    best move), ``"agreed"`` (a call, and the other names the same move) or ``"uncalled"``."""
    a, b = line["first"], line["second"]
    if a["loss"] < CALL and b["loss"] < CALL:
        return "uncalled"
    return "agreed" if S.same_action(a["best"], b["best"]) else "disagreed"


def renamed(line: dict) -> bool:
    """Whether a stored run called a loss whose best move is not the move it measured."""
    return any(
        v["loss"] > 0 and "named" in v and not S.same_action(v["best"], v["named"])
        for v in (line["first"], line["second"])
    )


def chosen(lines: list[dict], which: str, limit: int | None) -> list[dict]:
    out = [
        line
        for line in lines
        if which == "all" or (renamed(line) if which == "renamed" else kind(line) == which)
    ]
    return out[:limit] if limit is not None else out


@dataclass(frozen=True)
class Figures:
    """The stability figure both ways on a set of decisions, and how many verdicts moved."""

    repeated: tuple[int, int]  # calls of the first (second) run the other repeats
    calls: tuple[int, int]  # calls of a loss ≥ CALL by the first (second) run
    changed: int  # verdicts that differ from the stored ones (best move or loss)
    verdicts: int


def figures(stored: list[dict], judged: dict[tuple[int, int, int], tuple[dict, dict]]) -> Figures:
    """The figures of ``judged`` (each decision's two verdicts, by key) against ``stored``
    (the lines of the decisions judged)."""
    repeated, calls = [0, 0], [0, 0]
    changed = verdicts = 0
    for line in stored:
        pair = judged.get(key_of(line))
        if pair is None:
            continue
        for n, (mine, other) in enumerate((pair, pair[::-1])):
            if mine["loss"] >= CALL:
                calls[n] += 1
                repeated[n] += S.same_action(mine["best"], other["best"])
        for new, old in zip(pair, (line["first"], line["second"]), strict=True):
            verdicts += 1
            same = S.same_action(new["best"], old["best"])
            changed += not (same and math.isclose(new["loss"], old["loss"], abs_tol=1e-9))
    return Figures((repeated[0], repeated[1]), (calls[0], calls[1]), changed, verdicts)


def _judge(item: tuple) -> tuple:
    key, task, seed = item
    start = time.process_time()  # the task's seed is the stability run's (tasks_of's)
    v = S.judge(task.view, task.known, task.played, task.budget, random.Random(task.seed))
    return key, seed, verdict_fields(v), time.process_time() - start


def rejudge(lines: list[dict], hands: int, jobs: int) -> tuple[dict, float]:
    """Judge the decisions of ``lines`` with both seeds: ``({key: (first, second)}, CPU s)``."""
    budgets = {int(line["budget"]) for line in lines}
    if len(budgets) > 1:
        raise SystemExit(f"the lines mix budgets {sorted(budgets)}: one budget a file")
    budget = budgets.pop() if budgets else 32
    wanted = {key_of(line) for line in lines}
    tasks = {}
    for match in sorted({k[0] for k in wanted}):
        record = unguarded_record(STABILITY_SEATS, match, hands)
        for seed in SEEDS:
            for task in tasks_of(record, [0, 1], budget, seed)[0]:
                key = (match, task.seat, task.index)
                if task.what == "decision" and key in wanted:
                    tasks[key, seed] = task
    missing = wanted - {key for key, _seed in tasks}
    if missing:
        raise SystemExit(
            f"{len(missing)} decision(s) not in the matches played again (another --hands?): "
            f"{sorted(missing)[:3]}"
        )
    items = [(key, tasks[key, seed], seed) for key in sorted(wanted) for seed in SEEDS]
    out: dict[tuple[int, int, int], dict[int, dict]] = {}
    cpu = 0.0
    with multiprocessing.Pool(max(1, jobs)) as pool:
        for key, seed, verdict, took in pool.imap_unordered(_judge, items):
            out.setdefault(key, {})[seed] = verdict
            cpu += took
    return {k: (v[SEEDS[0]], v[SEEDS[1]]) for k, v in out.items()}, cpu


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", type=Path, help="a bench/analyse.py --stability-out file")
    p.add_argument(
        "--which",
        choices=("disagreed", "agreed", "uncalled", "renamed", "all"),
        default="disagreed",
    )
    p.add_argument("--limit", type=int)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--hands", type=int, default=2, help="the stability run's --hands")
    p.add_argument("--out", type=Path, help="each decision as re-judged, a JSON line")
    p.add_argument("--whole", type=Path, help="FILE's lines, those judged again replaced")
    args = p.parse_args(argv)
    every = [json.loads(t) for t in args.file.read_text().splitlines() if t.strip()]
    lines = chosen(every, args.which, args.limit)
    start = time.perf_counter()
    judged, cpu = rejudge(lines, args.hands, args.jobs)
    took = time.perf_counter() - start
    f = figures(lines, judged)
    for path, rows in ((args.out, lines), (args.whole, every)):
        if path is not None:
            with path.open("w") as out:
                for line in rows:
                    first, second = judged.get(key_of(line), (line["first"], line["second"]))
                    out.write(json.dumps({**line, "first": first, "second": second}) + "\n")
    print(
        f"{len(lines)} decision(s) {args.which} in {args.file.name}, judged again with seeds "
        f"{SEEDS[0]} and {SEEDS[1]}: the second run repeats {f.repeated[0]} of the first's "
        f"{f.calls[0]} calls of a loss ≥ {CALL:g}, the first {f.repeated[1]} of the second's "
        f"{f.calls[1]}; {f.changed} of {f.verdicts} verdicts differ from the stored ones; "
        f"{cpu:.0f} CPU s ({took:.0f} s on --jobs {args.jobs})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
