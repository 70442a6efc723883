"""The coach's benchmark (issue 24 §1 and its Goals), with the same code as ``rum500 analyse``.

    python bench/analyse.py [--budget 32] [--jobs 2] [--seed S] [--matches 200]
                            [--hands H] [--levels random,easy,medium,hard,expert]
                            [--stability-matches 2] [--skip-speed] [--skip-ladder]
                            [--ladder-out FILE] [--ladder-report FILE]
                            [--stability-out FILE] [--stability-report FILE]

1. Speed: one two-player match to 500 between ``hard`` bots, both seats analysed on
   ``--jobs`` processes: the wall time (goal: within 3 minutes on 2 cores) and decisions
   analysed per second; beside it its floor, the same match replayed with no analysis.
2. The ladder: for each level, ``--matches`` two-player matches against ``expert`` (to 500,
   or their first ``--hands`` hands), the level's seat analysed (both seats when the level is
   ``expert`` itself: its figure is both seats' together, and the seat opposite is shown
   again as "its expert opponents" — a dash there for the other levels): each level's error
   rate — all the points its seat lost over all its decisions — with a 95% interval clustered
   by match (the ratio's delta-method standard error over matches, so a match counts as one
   draw however many decisions it has; this weighs each decision alike, as "points lost per
   decision" says, where the mean of per-match rates let a short match's few decisions count
   as much as a long one's), and how many matches and decisions each figure is from. Goal:
   random ≫ easy > medium > hard > expert, each gap outside the intervals. The issue asks 200
   matches per level: that is ``--matches 200`` (hours on two cores); the default runs what
   fits in a few minutes and says so. The levels' matches are interleaved (match m of every
   level before match m + 1) and shared by a pool of ``--jobs`` processes, each playing and
   analysing whole matches. With ``--ladder-out FILE`` each match is appended to FILE as a
   JSON line as it ends (level, seed, seats, hands, budget, commit, the seats analysed, their
   error rates and decisions — ``None`` for a seat not analysed —, took), and a run started
   again skips the matches FILE holds (same level, seed, budget and hands): a long run can be
   stopped and resumed, and ``--ladder-report FILE`` prints the table from FILE alone at any
   point (nothing else is run).
3. Stability: ``--stability-matches`` matches (hard against expert, seeds ``--seed`` + 7000
   on; their first ``--hands`` hands) analysed twice, with two seeds: of the decisions where
   the first run calls the loss ≥ 5 points, the share where the second finds the same best
   move (goal ≥ 90%, the strict figure); beside it the share where the second's best move is
   the first's best or one of its ``ties`` (docs/analysis.md, "How a move is valued", step
   4), how often the second calls no mistake there at all, and the share of decisions each
   run calls a loss ≥ 5 (a figure got by calling fewer mistakes would show there). With
   ``--stability-out FILE`` every decision is appended to FILE as a JSON line: the match's
   seed, the budget, the seat, the action's index, the hand, the kind, the move played and
   each run's verdict (``first``, ``second``: best move, loss, standard error, ties,
   worlds, candidates, and ``measured`` — the loss, its standard error and its worlds
   before the line of a mistake is drawn (a loss called is then told again on fresh worlds:
   ``loss`` and ``stderr``) — with ``named``, the move it was measured for:
   where the line might be drawn is read from the file) — to read the disagreements, or to
   compare two versions of the analysis on the same decisions (``bench/rejudge.py`` judges
   a file's decisions again).
   ``--seed 44`` gives seeds 7044 on, matches the default run (7024–7043) has not seen.
   Beside the strict figure it prints it both ways: the calls of either run that the other
   repeats, of all the calls of both (the same figure on twice the decisions, so less a
   matter of which seed came first). ``--stability-report FILE`` prints the figures from a
   ``--stability-out`` file alone (nothing is run); with ``--redraw``, each verdict's line
   of a mistake drawn as the analysis draws it now, from the loss the file says it measured
   (the search is the file's, only the line moves).

Timings depend on what else the machine is doing. The figures of 2 and 3 are seeded, and in
both the ``expert`` plays without its wall-clock guard, so their matches (and so the
decisions analysed) are the same under any load.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import subprocess
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rum500.bots import expert  # noqa: E402
from rum500.coach.analysis import Decision, analyse_seats, new_game  # noqa: E402
from rum500.coach.selfplay import bot_record  # noqa: E402

LEVELS = ["random", "easy", "medium", "hard", "expert"]


def replay_time(record: dict) -> float:
    """The floor: the match replayed through the engine, no analysis."""
    start = time.perf_counter()
    game = new_game(record)
    for entry in record["actions"]:
        game.apply(entry["action"], entry["seat"])
    return time.perf_counter() - start


def speed(args: argparse.Namespace) -> None:
    record = bot_record(["hard", "hard"], args.seed)
    floor = replay_time(record)
    start = time.perf_counter()
    done = analyse_seats(record, [0, 1], budget=args.budget, seed=args.seed, jobs=args.jobs)
    took = time.perf_counter() - start
    decisions = sum(len(a.decisions) for a in done)
    hands = len(done[0].hands)
    print(
        f"1. a two-player match to 500 ({hands} hands, {len(record['actions'])} actions), both "
        f"seats, --jobs {args.jobs}, --budget {args.budget}: {took:.1f} s "
        f"(goal ≤ 180 s) — {decisions} decisions, {decisions / took:.1f} decisions analysed "
        f"per second; floor (the same match replayed, no analysis): {floor * 1000:.1f} ms"
    )


@dataclass(frozen=True)
class LadderMatch:
    """One match of the ladder: ``level`` against ``expert`` (``level`` in seat ``seat``),
    its first ``hands`` hands (0: to 500), both seats analysed at ``budget``."""

    m: int
    level: str
    seed: int
    seats: tuple[str, str]
    seat: int
    hands: int
    budget: int

    @property
    def key(self) -> tuple:
        return (self.level, self.seed, self.budget, self.hands)


def record_key(record: dict) -> tuple:
    """The :attr:`LadderMatch.key` of a line of ``--ladder-out``."""
    return (record["level"], record["seed"], record["budget"], record["hands"])


def ladder_plan(
    levels: list[str], matches: int, seed: int, hands: int, budget: int
) -> list[LadderMatch]:
    """The ladder's matches, interleaved: match m of every level before match m + 1, so that
    a run stopped at any point has about as many matches of each level. The level sits in
    seat 0 in even matches, seat 1 in odd ones; match m of a level has seed ``seed + 1000 k
    + m``, k its place on the ladder (:data:`LEVELS`: random 0 … expert 4), so a run of some
    of the levels (``--levels medium,hard``) deals each the matches of the whole ladder."""
    plan = []
    for m in range(matches):
        for i, level in enumerate(levels):
            k = LEVELS.index(level) if level in LEVELS else len(LEVELS) + i
            seat = m % 2
            seats = (level, "expert") if seat == 0 else ("expert", level)
            plan.append(LadderMatch(m, level, seed + 1000 * k + m, seats, seat, hands, budget))
    return plan


def play_ladder_match(match: LadderMatch) -> dict:
    """Play ``match`` and analyse the level's seat in this process (both seats when the
    level is ``expert``): a line of ``--ladder-out`` (all but ``commit``). The ``expert``
    plays without its wall-clock guard (:data:`rum500.bots.expert.TIME_GUARD_S`), so a match
    is the same on a loaded machine as on a quiet one. ``analysed`` lists the seats
    analysed; a seat not analysed has ``None`` as its error rate and decisions (lines
    without ``analysed``, from before, have both seats)."""
    start = time.perf_counter()
    record = unguarded_record(list(match.seats), match.seed, match.hands)
    seats = [0, 1] if match.level == "expert" else [match.seat]
    done = dict(
        zip(
            seats,
            analyse_seats(record, seats, budget=match.budget, seed=match.seed, jobs=1),
            strict=True,
        )
    )
    return {
        "level": match.level,
        "seed": match.seed,
        "match": match.m,
        "seats": list(match.seats),
        "seat": match.seat,
        "hands": match.hands,
        "budget": match.budget,
        "hands_played": len(done[match.seat].hands),
        "analysed": seats,
        "error_rates": [done[s].error_rate if s in done else None for s in (0, 1)],
        "decisions": [len(done[s].decisions) if s in done else None for s in (0, 1)],
        "took": round(time.perf_counter() - start, 2),
    }


def unguarded_record(levels: list[str], seed: int, hands: int) -> dict:
    """A bot match of ``levels`` (its first ``hands`` hands; 0: to 500), the ``expert``
    without its wall-clock guard (:data:`rum500.bots.expert.TIME_GUARD_S`): its search ends
    on its own rule, so the match is the same on a loaded machine as on a quiet one."""
    guard = expert.TIME_GUARD_S
    expert.TIME_GUARD_S = math.inf
    try:
        return bot_record(levels, seed, hands=hands or None)
    finally:
        expert.TIME_GUARD_S = guard


def analysed(record: dict) -> list[int]:
    """The seats a ``--ladder-out`` line analysed (both, in lines from before the field)."""
    return record.get("analysed", [0, 1])


def read_ladder(path: Path) -> list[dict]:
    """The lines of a ``--ladder-out`` file (none when it does not exist); a torn last line
    (a run killed mid-write) is left out."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def source_commit() -> str:
    """The commit of the code playing the matches (``+`` when tracked files differ from it)."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (head or "unknown") + ("+" if dirty else "")


def ladder(args: argparse.Namespace) -> int:
    """Part 2; the number of matches that failed (see :func:`_attempt`)."""
    levels = args.levels.split(",")
    plan = ladder_plan(levels, args.matches, args.seed, args.hands, args.budget)
    out = Path(args.ladder_out) if args.ladder_out else None
    records = read_ladder(out) if out else []
    if out and out.exists() and out.stat().st_size and not out.read_bytes().endswith(b"\n"):
        with out.open("a") as f:
            f.write("\n")  # a line torn by a killed run ends before the next begins
    done = {record_key(r) for r in records}
    todo = [match for match in plan if match.key not in done]
    print(
        f"2. the ladder: {args.matches} match(es) per level against expert, "
        + (f"first {args.hands} hand(s) each" if args.hands else "whole matches to 500")
        + f", --budget {args.budget}, {args.jobs} process(es): {len(todo)} to play"
        + (f", {len(plan) - len(todo)} already in {out}" if out else ""),
        flush=True,
    )
    commit = source_commit()
    start = time.perf_counter()
    failed = 0
    for n, line in enumerate(_play(todo, args.jobs), 1):
        head = f"   [{n}/{len(todo)} {time.perf_counter() - start:.0f} s] {line['level']} "
        head += f"match {line['match']} (seed {line['seed']})"
        if "error" in line:
            failed += 1
            print(line["error"], file=sys.stderr, flush=True)
            print(f"{head} failed: {line['error'].splitlines()[-1]}", flush=True)
            continue
        line["commit"] = commit
        records.append(line)
        if out:
            with out.open("a") as f:
                f.write(json.dumps(line) + "\n")
        rates = line["error_rates"]
        theirs = rates[1 - line["seat"]]
        print(
            f"{head}: {rates[line['seat']]:.2f}"
            + (f" against expert's {theirs:.2f}" if theirs is not None else "")
            + f" ({line['took']:.0f} s)",
            flush=True,
        )
    keys = {match.key for match in plan}
    for text in ladder_report([r for r in records if record_key(r) in keys], levels):
        print(text)
    if failed:
        print(f"   {failed} match(es) failed (not written: a run started again plays them)")
    return failed


def _play(todo: list[LadderMatch], jobs: int) -> Iterator[dict]:
    """The lines of the matches ``todo``, as they finish: a pool of ``jobs`` processes, each
    playing and analysing whole matches."""
    if jobs <= 1 or len(todo) < 2:
        yield from map(_attempt, todo)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(_attempt, todo)


def _attempt(match: LadderMatch) -> dict:
    """:func:`play_ladder_match`, or, when it raises, a line with the traceback as ``error``:
    one match's failure does not end a long run."""
    try:
        return play_ladder_match(match)
    except Exception:
        return {
            "level": match.level,
            "seed": match.seed,
            "match": match.m,
            "error": traceback.format_exc(),
        }


@dataclass
class LadderRow:
    """One level's figures over its matches: its error rate and its expert opponents' (None
    when no match analysed them), each as (rate, half-width of the 95% interval)."""

    level: str
    matches: int
    mine: tuple[float, float]
    decisions: int
    theirs: tuple[float, float] | None
    their_decisions: int
    took: float


def ratio_interval(losses: list[float], decisions: list[int]) -> tuple[float, float]:
    """Points lost per decision over matches — all their loss over all their decisions —
    and the half-width of its 95% interval, clustered by match (each match one draw: the
    delta method's variance of a ratio estimator, ``n/(n-1) Σ (L_i - R D_i)² / (Σ D_i)²``)."""
    n, total = len(losses), sum(decisions)
    if not n or not total:
        return math.nan, math.nan
    rate = sum(losses) / total
    if n < 2:
        return rate, math.inf
    spread = sum((loss - rate * d) ** 2 for loss, d in zip(losses, decisions, strict=True))
    return rate, 1.96 * math.sqrt(n / (n - 1) * spread) / total


def seat_figure(records: list[dict], side: int) -> tuple[tuple[float, float], int] | None:
    """The error rate (rate, half-width) of the level's seat (``side`` 0) or its opponent's
    (``side`` 1) over the ``records`` that analysed it, and its decisions; None if none did.
    The level ``expert``'s own figure is both its seats' (both play it), a match still one
    draw."""
    losses, counts = [], []
    for r in records:
        if side == 0 and r["level"] == "expert":
            seats = analysed(r)
        else:
            seat = r["seat"] if side == 0 else 1 - r["seat"]
            seats = [seat] if seat in analysed(r) else []
        if seats:
            counts.append(sum(r["decisions"][s] for s in seats))
            losses.append(sum(r["error_rates"][s] * r["decisions"][s] for s in seats))
    if not counts:
        return None
    return ratio_interval(losses, counts), sum(counts)


def ladder_rows(records: list[dict], levels: list[str]) -> list[LadderRow]:
    """The figures of each of ``levels`` (in that order) that ``records`` hold matches of."""
    rows = []
    for level in levels:
        group = [r for r in records if r["level"] == level]
        mine = seat_figure(group, 0)
        if mine is None:
            continue
        theirs = seat_figure(group, 1)
        rows.append(
            LadderRow(
                level,
                len(group),
                mine[0],
                mine[1],
                theirs[0] if theirs else None,
                theirs[1] if theirs else 0,
                sum(r["took"] for r in group),
            )
        )
    return rows


def ladder_verdict(rows: list[LadderRow]) -> tuple[bool, bool]:
    """Do the rows' error rates fall down the ladder, and is every gap between neighbours
    outside both intervals?"""
    pairs = list(zip(rows, rows[1:], strict=False))
    ordered = all(a.mine[0] > b.mine[0] for a, b in pairs)
    apart = all(a.mine[0] - a.mine[1] > b.mine[0] + b.mine[1] for a, b in pairs)
    return ordered, apart


def ladder_report(records: list[dict], levels: list[str] | None = None) -> list[str]:
    """The ladder's table from ``--ladder-out`` lines: one per budget and hands per match,
    its levels in ``levels``' order (the ladder's by default, then any other)."""
    order = list(levels or LEVELS)
    order += sorted({r["level"] for r in records} - set(order))
    lines = []
    for budget, hands in sorted({(r["budget"], r["hands"]) for r in records}):
        group = [r for r in records if (r["budget"], r["hands"]) == (budget, hands)]
        rows = ladder_rows(group, order)
        commits = sorted({r.get("commit", "?")[:9] for r in group})
        lines.append(
            f"   --budget {budget}, "
            + (f"first {hands} hand(s) a match" if hands else "whole matches to 500")
            + f", {len(group)} matches (commit {', '.join(commits)}):"
        )
        for row in rows:
            m, h = row.mine
            theirs = "—"
            if row.theirs is not None:
                tm, th = row.theirs
                theirs = f"{tm:5.2f} ± {th:5.2f} ({row.their_decisions} decisions)"
            lines.append(
                f"   {row.level:>7}: {m:6.2f} ± {h:5.2f} points lost per decision "
                f"({row.matches} matches, {row.decisions} decisions) | its expert opponents: "
                f"{theirs} [{row.took:.0f} s]"
            )
        ordered, apart = ladder_verdict(rows)
        lines.append(
            f"   ordered as the ladder: {ordered}; every gap outside the intervals: {apart}"
        )
    return lines or ["   no ladder matches"]


def stability(args: argparse.Namespace) -> None:
    if not args.stability_out:
        _stability(args, None)
        return
    with open(args.stability_out, "a") as out:
        _stability(args, out)


#: the stability run's two seeds, and its matches' players
SEEDS = (1, 2)
STABILITY_SEATS = ["hard", "expert"]
#: the loss (points) from which the stability goal counts a call
CALL = 5
#: the fields of a verdict a ``--stability-out`` line keeps
VERDICT_FIELDS = ("best", "loss", "stderr", "ties", "worlds", "candidates", "measured", "named")


def verdict_fields(d: object) -> dict:
    """A decision's (or a verdict's) :data:`VERDICT_FIELDS`, as a ``--stability-out`` line
    keeps them."""
    return {k: getattr(d, k) for k in VERDICT_FIELDS}


def _pair(seed: int, budget: int, x: Decision, y: Decision) -> dict:
    """A ``--stability-out`` line: one decision as the two runs judged it."""
    return {
        "match_seed": seed,
        "budget": budget,
        "seat": x.seat,
        "index": x.index,
        "hand": x.hand,
        "kind": x.kind,
        "played": x.played,
        "first": verdict_fields(x),
        "second": verdict_fields(y),
    }


def _stability(args: argparse.Namespace, out: TextIO | None) -> None:
    pairs = []
    for m in range(args.stability_matches):
        seed = args.seed + 7000 + m
        record = unguarded_record(STABILITY_SEATS, seed, args.hands)
        one, two = (
            analyse_seats(record, [0, 1], budget=args.budget, seed=s, jobs=args.jobs) for s in SEEDS
        )
        for a, b in zip(one, two, strict=True):
            for x, y in zip(a.decisions, b.decisions, strict=True):
                pairs.append(_pair(seed, args.budget, x, y))
                if out is not None:
                    out.write(json.dumps(pairs[-1]) + "\n")
    print(
        f"3. stability: {args.stability_matches} match(es) analysed with seeds 1 and 2 "
        + stability_report(pairs)
    )


def redrawn(line: dict) -> dict:
    """A ``--stability-out`` line with each verdict's line of a mistake drawn as the analysis
    draws it now (:func:`rum500.coach.search.called`) from the loss it measured (its
    ``measured`` and ``named``): a call, or the move played at a loss of 0. A call the file
    holds that the line still calls keeps its loss as the file has it (told again on fresh
    worlds, :meth:`rum500.coach.search._Search.again`); a verdict newly called has the loss
    its measuring read, and no ties (the file keeps neither a loss told again nor the ties
    of a loss not called). A call the fresh worlds dropped (no loss above zero there) is in
    the file as no call and so reads as newly called: drawn at the file's own line, a file
    written since 4b5433f can count a few more calls than its run did. The search is the
    file's: only the line moves."""
    from rum500.coach.search import called

    out = dict(line)
    for run in ("first", "second"):
        v = dict(line[run])
        if "measured" not in v:
            raise SystemExit("--redraw: the file's verdicts have no measured loss (an older file)")
        loss, stderr, worlds = v["measured"]
        if called(loss, stderr, int(worlds)):
            if v["loss"] <= 0:  # newly called (a verdict not called kept no ties)
                v |= {"best": v["named"], "loss": loss, "stderr": stderr}
        else:
            v |= {"best": line["played"], "loss": 0.0, "stderr": 0.0, "ties": []}
        out[run] = v
    return out


def stability_report(pairs: list[dict]) -> str:
    """The stability figures of ``pairs`` (``--stability-out`` lines: each decision as the
    two runs judged it), as the run prints them after its first words."""
    agree = total = tied = unmade = second = back = 0
    for line in pairs:
        x, y = line["first"], line["second"]
        second += y["loss"] >= CALL
        back += y["loss"] >= CALL and _same(x["best"], y["best"])
        if x["loss"] >= CALL:
            total += 1
            agree += _same(x["best"], y["best"])
            tied += any(_same(m, y["best"]) for m in [x["best"], *x["ties"]])
            unmade += y["loss"] == 0
    decisions = len(pairs)
    share = agree / total if total else math.nan
    tie_share = tied / total if total else math.nan
    return (
        f"({decisions} decisions): {total} with a loss ≥ 5 in the first run, the second "
        f"agrees on the best move in {agree} ({100 * share:.1f}%; goal ≥ 90%); its best move "
        f"is the first's best or one of its ties in {tied} ({100 * tie_share:.1f}%); the "
        f"second calls no mistake in {unmade}; decisions called a loss ≥ 5: "
        f"{100 * total / max(1, decisions):.1f}% in the first run, "
        f"{100 * second / max(1, decisions):.1f}% in the second ({second}); both ways (each "
        f"run's calls that the other repeats, the figure on twice the calls): {agree + back} "
        f"of {total + second} ({100 * (agree + back) / max(1, total + second):.1f}%)"
    )


def _same(a: dict, b: dict) -> bool:
    from rum500.coach.search import same_action

    return same_action(a, b)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", type=int, default=32)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=24)
    p.add_argument("--matches", type=int, default=2, help="matches per level (the issue: 200)")
    p.add_argument("--hands", type=int, default=2, help="hands per ladder match (0: whole)")
    p.add_argument("--levels", default=",".join(LEVELS))
    p.add_argument("--stability-matches", type=int, default=1)
    p.add_argument(
        "--stability-out",
        metavar="FILE",
        help="append each decision of the stability runs to FILE as a JSON line (both verdicts)",
    )
    p.add_argument(
        "--stability-report",
        metavar="FILE",
        help="print the stability figures from a --stability-out file and nothing else",
    )
    p.add_argument("--skip-speed", action="store_true")
    p.add_argument("--skip-ladder", action="store_true")
    p.add_argument("--skip-stability", action="store_true")
    p.add_argument(
        "--ladder-out",
        metavar="FILE",
        help="the ladder's matches as JSON lines, one a match; those already there are skipped",
    )
    p.add_argument(
        "--ladder-report",
        metavar="FILE",
        help="print the ladder's table from a --ladder-out file and nothing else",
    )
    p.add_argument(
        "--redraw",
        action="store_true",
        help="with --stability-report: each verdict's mistake line drawn as the analysis draws "
        "it now, from the loss it measured",
    )
    args = p.parse_args(argv)
    if args.stability_report:
        path = Path(args.stability_report)
        lines = [json.loads(t) for t in path.read_text().splitlines() if t.strip()]
        if args.redraw:
            lines = [redrawn(line) for line in lines]
        how = " (the line drawn again)" if args.redraw else ""
        print(f"3. stability, from {path}{how}: " + stability_report(lines))
        return 0
    if args.ladder_report:
        print(f"2. the ladder, from {args.ladder_report}:")
        for line in ladder_report(read_ladder(Path(args.ladder_report))):
            print(line)
        return 0
    if not args.skip_speed:
        speed(args)
    failed = 0
    if not args.skip_ladder:
        failed = ladder(args)
    if not args.skip_stability:
        stability(args)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
