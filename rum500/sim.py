"""``rum500 sim``: bot tournaments.

Plays ``--games`` matches (to the target, or ``--hands`` hands each) between bot levels that
rotate seats from one match to the next, on several processes, and reports for each level
its win rate with a 95% Wilson interval, its mean score per hand and its decision time.

A simulation is a pure function of its arguments and seed: match ``k`` uses the game seed
``seed * 1_000_003 + k`` and per-seat bot seeds derived from it, and results are gathered in
match order, so the figures (all but the timings) do not depend on ``--jobs``.

``--ladder`` plays a round robin of two-player matches between every pair of levels
(``--games`` per pair, seats alternating) and rates the levels on the Elo scale by a
Bradley–Terry fit, with 95% intervals (:func:`ladder`).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rum500 import cards as C
from rum500.bots import LEVELS, make_bot
from rum500.rules import Game, Options, Phase
from rum500.workers import quiet_worker

if TYPE_CHECKING:
    from rum500.configs import SimConfig

#: With --hands, no total ends the match early.
NO_TARGET = 10**9
SEED_STRIDE = 1_000_003


@dataclass(frozen=True, slots=True)
class MatchTask:
    index: int
    seed: int
    levels: tuple[str, ...]  # per seat
    hands: int | None
    target: int
    options: tuple[tuple[str, object], ...] = ()  # house rules (Options fields) besides target


@dataclass(slots=True)
class MatchResult:
    index: int
    levels: tuple[str, ...]
    wins: list[float]  # per seat: 1 for the winner, shared on a tie (--hands)
    scores: list[list[int]]  # per hand, per seat
    times: list[list[float]]  # per seat: seconds per decision
    #: per seat: [digs, cards taken by them, of those still in hand at hand end, their points]
    digging: list[list[int]] = field(default_factory=list)


@dataclass(slots=True)
class LevelStats:
    seats: int = 0
    wins: float = 0.0
    hands: int = 0
    points: int = 0
    times: list[float] = field(default_factory=list)
    digging: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def add(self, result: MatchResult, seat: int) -> None:
        self.seats += 1
        if result.digging:
            self.digging = [a + b for a, b in zip(self.digging, result.digging[seat], strict=True)]
        self.wins += result.wins[seat]
        self.hands += len(result.scores)
        self.points += sum(hand[seat] for hand in result.scores)
        self.times.extend(result.times[seat])


def tasks(
    games: int,
    players: int,
    levels: list[str],
    hands: int | None,
    target: int,
    seed: int,
    options: dict | None = None,
) -> list[MatchTask]:
    """Match ``k`` seats ``levels[(s + k) % len(levels)]`` at seat ``s``; ``options``: the
    house rules (``Options`` fields besides the target)."""
    house = tuple(sorted((options or {}).items()))
    out = []
    for k in range(games):
        seats = tuple(levels[(s + k) % len(levels)] for s in range(players))
        out.append(MatchTask(k, seed * SEED_STRIDE + k, seats, hands, target, house))
    return out


def play_match(task: MatchTask, bots: list | None = None) -> MatchResult:
    """Play one match between bots; every bot that has ``observe`` sees every update. With
    "Rummy!" calls, the seats from the discarder's left are asked in turn whether they call
    (a bot asked calls when it can), and the claim phase closes when nobody does."""
    players = len(task.levels)
    target = NO_TARGET if task.hands else task.target
    options = Options(**{**dict(task.options), "target": target})
    game = Game(players, seed=task.seed, options=options)
    if bots is None:
        bots = [make_bot(level, seed=task.seed * 16 + s) for s, level in enumerate(task.levels)]
    watchers = [(s, b.observe) for s, b in enumerate(bots) if hasattr(b, "observe")]
    times: list[list[float]] = [[] for _ in range(players)]
    digging = [[0, 0, 0, 0] for _ in range(players)]
    dug: list[list[int]] = [[] for _ in range(players)]  # this hand's cards taken by digs
    clock = time.perf_counter
    while game.to_move is not None:
        if task.hands and len(game.results) >= task.hands:
            break
        seat = game.to_move
        if game.phase is Phase.CLAIM:
            seat = next((s for s in game.claim_seats() if game.claims(s)), None)
            if seat is None:
                events = game.apply({"type": "close_claims"})
                for s, observe in watchers:
                    observe(events, game.view(s))
                continue
        view = game.view(seat)
        start = clock()
        action = bots[seat].choose(view)
        times[seat].append(clock() - start)
        events = game.apply(action, seat=seat)
        for s, observe in watchers:
            observe(events, game.view(s))
        _count_digs(events, digging, dug)
    totals = game.totals
    if game.winner is not None:
        team = options.team(game.winner)  # with partnerships, the whole team wins
        wins = [1.0 if options.team(s) == team else 0.0 for s in range(players)]
    else:
        best = max(totals)
        leaders = [s for s in range(players) if totals[s] == best]
        wins = [1.0 / len(leaders) if s in leaders else 0.0 for s in range(players)]
    scores = [list(r["scores"]) for r in game.results]
    return MatchResult(task.index, task.levels, wins, scores, times, digging)


def _count_digs(events: list[dict], digging: list[list[int]], dug: list[list[int]]) -> None:
    """Count digs (draws from the discard pile: each seat's [digs, cards taken]) and, when
    a hand ends, how many of the cards dug that hand are still in hand, and their points."""
    for e in events:
        kind = e.get("type")
        if kind == "draw" and e.get("source") == "discard":
            taken = C.parse_many(e["cards"])
            digging[e["seat"]][0] += 1
            digging[e["seat"]][1] += len(taken)
            dug[e["seat"]] += taken
        elif kind == "hand_end":
            for seat, names in enumerate(e["hands"]):
                left = C.parse_many(names)
                for c in dug[seat]:
                    if c in left:
                        left.remove(c)
                        digging[seat][2] += 1
                        digging[seat][3] += C.VALUES[c]
                dug[seat] = []


def run_matches(work: list[MatchTask], jobs: int) -> Iterator[MatchResult]:
    """Results in match order, played on ``jobs`` processes."""
    if jobs <= 1 or len(work) <= 1:
        yield from map(play_match, work)
        return
    chunk = max(1, min(8, len(work) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs, initializer=quiet_worker) as pool:
        try:
            yield from pool.map(play_match, work, chunksize=chunk)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, min(p, centre - half))
    hi = 1.0 if successes >= n else min(1.0, max(p, centre + half))
    return (lo, hi)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (0 when there are none)."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def summarize(results: Iterable[MatchResult], levels: list[str]) -> dict[str, dict]:
    stats = {level: LevelStats() for level in dict.fromkeys(levels)}
    for r in results:
        for seat, level in enumerate(r.levels):
            stats[level].add(r, seat)
    out: dict[str, dict] = {}
    for level, s in stats.items():
        times = sorted(s.times)
        lo, hi = wilson(s.wins, s.seats)
        digs, taken, held, held_points = s.digging
        out[level] = {
            "digging": {
                "digs": digs,
                "cards_per_dig": taken / digs if digs else 0.0,
                "held_per_dig": held / digs if digs else 0.0,
                "held_points_per_dig": held_points / digs if digs else 0.0,
                "held_per_hand": held / s.hands if s.hands else 0.0,
            },
            "seats": s.seats,
            "wins": s.wins,
            "win_rate": s.wins / s.seats if s.seats else 0.0,
            "ci95": [lo, hi],
            "hands": s.hands,
            "mean_score_per_hand": s.points / s.hands if s.hands else 0.0,
            "decisions": len(times),
            "decision_ms": {
                "p50": percentile(times, 50) * 1000,
                "p95": percentile(times, 95) * 1000,
                "max": (times[-1] * 1000) if times else 0.0,
            },
        }
    return out


def parse_levels(text: str) -> list[str]:
    levels = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not levels:
        raise ValueError("--bots needs at least one bot level, e.g. hard,medium")
    bad = [t for t in levels if t not in LEVELS]
    if bad:
        raise ValueError(
            f"no bot level {', '.join(map(repr, bad))}: choose from {', '.join(LEVELS)}"
        )
    return levels


def _progress(results: Iterator[MatchResult], total: int, title: str) -> Iterator[MatchResult]:
    from prompt_toolkit.shortcuts import ProgressBar

    with ProgressBar(title=title) as bar:
        yield from bar(results, total=total, label="matches")


def format_table(report: dict, ascii_only: bool = False) -> str:
    head = (
        f"{report['games']} matches, {report['players']} players, bots "
        f"{', '.join(report['bots'])}, "
        + (f"{report['hands']} hand(s) each" if report["hands"] else f"to {report['target']}")
        + f", seed {report['seed']}, {report['jobs']} process(es), "
        f"{report['elapsed_s']:.1f} s"
    )
    lines = [head, ""]
    cols = (
        f"{'bot':<8} {'seats':>6} {'wins':>7} {'win rate':>9} {'95% CI':>15} "
        f"{'score/hand':>11} {'decisions':>10} {'p50 ms':>8} {'p95 ms':>8}"
    )
    lines.append(cols)
    dash = "-" if ascii_only else "–"
    for level, s in report["levels"].items():
        lo, hi = s["ci95"]
        wins = f"{s['wins']:g}"
        lines.append(
            f"{level:<8} {s['seats']:>6} {wins:>7} {s['win_rate'] * 100:>8.1f}% "
            f"{f'{lo * 100:.1f}{dash}{hi * 100:.1f}%':>15} {s['mean_score_per_hand']:>+11.1f} "
            f"{s['decisions']:>10} {s['decision_ms']['p50']:>8.2f} {s['decision_ms']['p95']:>8.2f}"
        )
    lines.append("")
    lines.append(
        f"a seat's fair share of wins is {100 / report['players']:.1f}%; "
        "win rate = matches won / seats played"
    )
    return "\n".join(lines)


def simulate(
    games: int,
    players: int,
    levels: list[str],
    hands: int | None = None,
    target: int = 500,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
    options: dict | None = None,
) -> dict:
    """Run a tournament and return the report (the object ``--json`` prints)."""
    work = tasks(games, players, levels, hands, target, seed, options)
    start = time.perf_counter()
    results: Iterator[MatchResult] = run_matches(work, jobs)
    if progress:
        results = _progress(results, len(work), "rum500 sim")
    summary = summarize(results, levels)
    return {
        "games": games,
        "players": players,
        "bots": levels,
        "hands": hands,
        "target": None if hands else target,
        "seed": seed,
        "options": dict(options or {}),
        "jobs": jobs,
        "elapsed_s": time.perf_counter() - start,
        "levels": summary,
    }


#: The levels of a tournament when --bots is not given.
DEFAULT_BOTS = "hard,medium"
#: The ladder's levels, weakest first, when --bots is not given.
LADDER_LEVELS = ("random", "easy", "medium", "hard", "expert")
#: Elo points per unit of Bradley–Terry log-strength.
ELO = 400 / math.log(10)
#: Each pairing counts this many virtual wins for each side (keeps a whitewash finite).
PRIOR_WINS = 0.5


def ladder(
    games: int,
    levels: list[str],
    target: int = 500,
    seed: int = 0,
    jobs: int = 1,
    progress: bool = False,
) -> dict:
    """A round robin of two-player matches to ``target``, ``games`` for every pair of
    ``levels`` (seats alternate), and their ratings (see :func:`rate`). Pair ``p`` plays the
    matches :func:`tasks` makes with the seed ``seed * 1_000_003 + p``."""
    pairs = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1 :]]
    work: list[MatchTask] = []
    for p, (a, b) in enumerate(pairs):
        for t in tasks(games, 2, [a, b], None, target, seed * SEED_STRIDE + p):
            work.append(MatchTask(len(work), t.seed, t.levels, None, target))
    start = time.perf_counter()
    results: Iterator[MatchResult] = run_matches(work, jobs)
    if progress:
        results = _progress(results, len(work), "rum500 sim --ladder")
    wins = {pair: [0.0, 0.0] for pair in pairs}
    times: dict[str, list[float]] = {level: [] for level in levels}
    for r in results:
        pair = r.levels if r.levels in wins else (r.levels[1], r.levels[0])
        for seat, level in enumerate(r.levels):
            wins[pair][pair.index(level)] += r.wins[seat]
            times[level].extend(r.times[seat])
    ratings = rate(levels, wins)
    out_levels = {}
    for level in levels:
        t = sorted(times[level])
        out_levels[level] = {
            **ratings[level],
            "decision_ms": {
                "p50": percentile(t, 50) * 1000,
                "p95": percentile(t, 95) * 1000,
                "max": (t[-1] * 1000) if t else 0.0,
            },
        }
    return {
        "ladder": True,
        "games_per_pair": games,
        "players": 2,
        "bots": levels,
        "target": target,
        "seed": seed,
        "jobs": jobs,
        "elapsed_s": time.perf_counter() - start,
        "pairs": [{"bots": list(pair), "wins": w, "games": games} for pair, w in wins.items()],
        "levels": out_levels,
    }


def rate(levels: list[str], wins: dict[tuple[str, ...], list[float]]) -> dict[str, dict]:
    """Bradley–Terry ratings on the Elo scale, the first level at 0, from the wins of each
    pairing (each side given :data:`PRIOR_WINS` more), fitted by maximum likelihood
    (Newton's method); 95% intervals from the likelihood's curvature (the first level's
    rating is fixed, so each interval is relative to it)."""
    n = len(levels)
    index = {level: i for i, level in enumerate(levels)}
    games = [[0.0] * n for _ in range(n)]
    won = [0.0] * n
    played = [0] * n
    real = [0.0] * n
    for (a, b), (wa, wb) in wins.items():
        i, j = index[a], index[b]
        played[i] += round(wa + wb)
        played[j] += round(wa + wb)
        real[i] += wa
        real[j] += wb
        wa, wb = wa + PRIOR_WINS, wb + PRIOR_WINS
        games[i][j] += wa + wb
        games[j][i] += wa + wb
        won[i] += wa
        won[j] += wb
    theta = [0.0] * n
    info: list[list[float]] = [[0.0] * n for _ in range(n)]
    for _ in range(100):
        grad = list(won)
        info = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if i == j or not games[i][j]:
                    continue
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                grad[i] -= games[i][j] * p
                w = games[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
        step = _solve([row[1:] for row in info[1:]], grad[1:])
        for k, d in enumerate(step, start=1):
            theta[k] += d
        if max((abs(d) for d in step), default=0.0) < 1e-9:
            break
    cov = _inverse([row[1:] for row in info[1:]])
    out = {}
    for i, level in enumerate(levels):
        se = math.sqrt(max(0.0, cov[i - 1][i - 1])) if i else 0.0
        r = theta[i] * ELO
        half = 1.959964 * se * ELO
        out[level] = {
            "rating": r,
            "ci95": [r - half, r + half],
            "games": played[i],
            "wins": real[i],
        }
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gauss–Jordan elimination with partial pivoting; a is small)."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def format_ladder(report: dict, ascii_only: bool = False) -> str:
    dash = "-" if ascii_only else "–"
    lines = [
        f"ladder: {report['games_per_pair']} two-player matches to {report['target']} per pair "
        f"of {', '.join(report['bots'])}, seed {report['seed']}, {report['jobs']} process(es), "
        f"{report['elapsed_s']:.1f} s",
        "",
        f"{'bot':<8} {'Elo':>7} {'95% CI':>17} {'games':>6} {'wins':>7} {'p95 ms':>8}",
    ]
    ranked = sorted(report["levels"].items(), key=lambda kv: -kv[1]["rating"])
    for level, s in ranked:
        lo, hi = s["ci95"]
        lines.append(
            f"{level:<8} {s['rating']:>+7.0f} {f'{lo:+.0f}{dash}{hi:+.0f}':>17} {s['games']:>6} "
            f"{s['wins']:>7g} {s['decision_ms']['p95']:>8.2f}"
        )
    lines.append("")
    for p in report["pairs"]:
        (a, b), (wa, wb) = p["bots"], p["wins"]
        lines.append(f"  {a} {wa:g} {dash} {wb:g} {b}")
    lines.append("")
    lines.append(
        f"Elo relative to {report['bots'][0]} (0): a Bradley–Terry fit with "
        f"{PRIOR_WINS:g} virtual win per side and pair; the interval is 95%"
    )
    return "\n".join(lines)


def run_ladder(args: SimConfig, jobs: int, seed: int, progress: bool) -> int:
    """``rum500 sim --ladder``: the levels of ``--bots`` (default: all, weakest first)."""
    try:
        given = getattr(args, "bots", None)
        levels = list(LADDER_LEVELS) if given in (None, "") else parse_levels(given)
        levels = list(dict.fromkeys(levels))
        if len(levels) < 2:
            raise ValueError("--ladder needs at least two different bot levels")
    except ValueError as e:
        print(f"rum500 sim: {e}", file=sys.stderr)
        return 2
    return _print_report(
        args, lambda: ladder(args.games, levels, args.target, seed, jobs, progress), format_ladder
    )


def _print_report(args: SimConfig, compute: Callable[[], dict], fmt: Callable[..., str]) -> int:
    """Run ``compute`` and print its report as JSON (``--json``) or as ``fmt`` lays it out."""
    try:
        report = compute()
    except KeyboardInterrupt:
        print("rum500 sim: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(fmt(report, ascii_only=getattr(args, "ascii", False)))
    return 0


def house_rules(args: SimConfig) -> dict:
    """The table options ``rum500 sim`` was given (``args.options``, from one flag per
    :data:`~rum500.rules.options.OPTION_SPECS` entry) that differ from the seed game, but
    the target (a parameter of its own)."""
    return {k: v for k, v in args.options.changed().items() if k != "target"}


def run(args: SimConfig) -> int:
    """``rum500 sim`` (its typed config built by :mod:`rum500.cli`)."""
    jobs = args.jobs or os.cpu_count() or 1
    seed = args.seed if args.seed is not None else 0
    progress = sys.stdout.isatty() and not args.json
    if getattr(args, "ladder", False):
        return run_ladder(args, jobs, seed, progress)
    try:
        levels = parse_levels(args.bots or DEFAULT_BOTS)
    except ValueError as e:
        print(f"rum500 sim: {e}", file=sys.stderr)
        return 2
    try:
        house = house_rules(args)
        Options(**house).validate(args.players)
    except ValueError as e:
        print(f"rum500 sim: {e}", file=sys.stderr)
        return 2
    return _print_report(
        args,
        lambda: simulate(
            args.games, args.players, levels, args.hands, args.target, seed, jobs, progress, house
        ),
        format_table,
    )
