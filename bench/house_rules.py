"""House-rules benchmark (issue 10): ``hard`` against ``medium`` with jokers and "Rummy!"
calls on, matches to 500.

    python bench/house_rules.py [--matches 200] [--players 2] [--jobs 1] [--seed S]
                                [--no-jokers] [--no-calls] [--window SECONDS]
                                [--levels hard,medium] [--teams 2|3] [--variant NAME ...]

Reports each level's match win rate with a 95% Wilson interval, and its "Rummy!" calls per
hand: the discards it could have called on (its chances), the calls it made and the calls
that won (the first valid call wins).

How calls are judged here is how the host judges them at a table of bots
(rum500/claims.py): every seat but the discarder decides with its level's
:class:`rum500.bots.calls.Caller` (from its own view: whether it calls — ``random``,
``easy`` and ``medium`` miss now and then — which meld, and its reaction time). Without
``--window`` (a table with no human: no window opens) the calls are judged at once in seat
order from the discarder's left; with ``--window SECONDS`` (as if a human held the window
open), the quickest reaction under the window's length wins.

Levels change seats from one match to the next: match ``k`` takes the ``k``-th ordering of
``--levels`` (every permutation in turn, so each level sits left of each other level as
often), seat ``s`` playing ``ordering[s % len(levels)]``. ``--levels`` names others, e.g.
``hard,medium,easy,random`` with ``--players 4``: the planning levels hardly ever discard a
card that fits the table, so calls are rare between them; easy and random discards give the
others chances.
With ``--teams`` (partnerships; seat ``s`` in team ``s % teams``) the whole winning team
wins: ``--players 4 --teams 2`` seats two hard bots against two medium bots, and the win
rate counts each team of a level once per match (partners share one result); calls are
still counted per seat.
``--variant NAME`` (repeatable) turns on a family variant of RULES.md §12 by its option's
name — any on/off option of §12 (``five_point_pips``, ``joker_as_card`` …, from
:data:`rum500.rules.options.OPTION_SPECS`): hard against medium under that variant; a
§12 option with a value as ``NAME=VALUE`` (``--variant first_meld=30``).
A run is a pure function of its arguments: match ``k`` uses the game seed
``seed * 1_000_003 + k`` and bot seeds derived from it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from rum500.bots import LEVELS as BOT_LEVELS
from rum500.bots import make_bot
from rum500.bots.calls import Caller
from rum500.rules import Game, Options, Phase
from rum500.rules.options import OPTION_SPECS
from rum500.sim import SEED_STRIDE, wilson

LEVELS = ("hard", "medium")  # the default --levels
#: --variant's names: the on/off family variants (RULES.md §12)
VARIANTS = tuple(s.name for s in OPTION_SPECS if s.group == "§12" and s.kind == "bool")
#: --variant NAME=VALUE: the §12 options with a value (first_meld)
VALUED = tuple(s.name for s in OPTION_SPECS if s.group == "§12" and s.kind != "bool")


def variant(text: str) -> tuple[str, bool | int]:
    """``--variant``'s argument: an on/off option's name, or ``NAME=VALUE`` (an integer)."""
    name, eq, value = text.partition("=")
    if not eq and name in VARIANTS:
        return name, True
    if eq and name in VALUED:
        try:
            return name, int(value)
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(
        f"{text!r}: one of {', '.join(VARIANTS)}, or {'/'.join(VALUED)}=N"
    )


@dataclass(frozen=True, slots=True)
class Task:
    index: int
    seed: int
    levels: tuple[str, ...]
    jokers: bool
    calls: bool
    window: float | None
    target: int = 500
    teams: int = 0
    variants: tuple[tuple[str, bool | int], ...] = ()  # §12 options (name, value)


@dataclass(slots=True)
class Result:
    levels: tuple[str, ...]
    wins: list[float]
    hands: int
    chances: list[int] = field(default_factory=list)  # per seat: discards it could call on
    made: list[int] = field(default_factory=list)  # per seat: calls it made
    won: list[int] = field(default_factory=list)  # per seat: calls that won
    joker_points: list[int] = field(default_factory=list)  # per seat: jokers put down × 15


def judge(g: Game, callers: list[Caller], window: float | None, res: Result) -> list[dict]:
    """The claim phase of ``g``: every seat but the discarder decides; the winning call (or
    the close) is applied and its events returned."""
    decided = []
    for seat in g.claim_seats():
        if not g.claims(seat):
            continue
        res.chances[seat] += 1
        d = callers[seat].decide(g.view(seat))
        if d is not None and (window is None or d.delay < window):
            res.made[seat] += 1
            decided.append((d.delay if window is not None else 0.0, len(decided), seat, d))
    for _, _, seat, d in sorted(decided):
        try:
            events = g.apply(d.action, seat=seat)
        except ValueError:
            continue
        res.won[seat] += 1
        return events
    return g.apply({"type": "close_claims"})


def play(task: Task) -> Result:
    players = len(task.levels)
    options = Options(
        jokers=task.jokers,
        rummy_calls=task.calls,
        target=task.target,
        teams=task.teams,
        **dict(task.variants),
    )
    g = Game(players, seed=task.seed, options=options)
    bots = [make_bot(lv, seed=task.seed * 16 + s) for s, lv in enumerate(task.levels)]
    callers = [Caller(lv, seed=task.seed * 32 + s) for s, lv in enumerate(task.levels)]
    res = Result(task.levels, [0.0] * players, 0, *([0] * players for _ in range(4)))
    while g.phase is not Phase.GAME_OVER:
        if g.phase is Phase.CLAIM:
            events = judge(g, callers, task.window, res)
        else:
            seat = g.to_move
            assert seat is not None
            events = g.apply(bots[seat].choose(g.view(seat)), seat=seat)
        for e in events:
            if e.get("type") in ("meld", "layoff", "rummy"):
                jokers = (e.get("cards") or []).count("JK") + (e.get("card") == "JK")
                res.joker_points[e["seat"]] += 15 * jokers
        for s, bot in enumerate(bots):
            observe = getattr(bot, "observe", None)
            if observe is not None:
                observe(events, g.view(s))
    res.hands = len(g.results)
    won = options.team(g.winner) if g.winner is not None else None
    res.wins = [1.0 if won is not None and options.team(s) == won else 0.0 for s in range(players)]
    return res


def tasks(args: argparse.Namespace) -> list[Task]:
    out = []
    orders = list(itertools.permutations(args.levels))
    for k in range(args.matches):
        order = orders[k % len(orders)]
        levels = tuple(order[s % len(order)] for s in range(args.players))
        out.append(
            Task(
                k,
                args.seed * SEED_STRIDE + k,
                levels,
                args.jokers,
                args.calls,
                args.window,
                teams=args.teams,
                variants=tuple(args.variant),
            )
        )
    return out


def run(work: list[Task], jobs: int) -> list[Result]:
    if jobs <= 1 or len(work) <= 1:
        return [play(t) for t in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(play, work, chunksize=max(1, len(work) // (jobs * 4))))


def report(results: list[Result], args: argparse.Namespace, seconds: float) -> list[str]:
    hands = sum(r.hands for r in results)
    lines = [
        f"{len(results)} matches to 500, {args.players} players (seats change), "
        f"jokers {'on' if args.jokers else 'off'}, Rummy! calls "
        + (
            ("on, " + (f"a {args.window:g} s window" if args.window else "no window (bots only)"))
            if args.calls
            else "off"
        )
        + (f", {args.teams} teams" if args.teams else "")
        + "".join(f", {n}" if v is True else f", {n}={v}" for n, v in args.variant)
        + f"; {hands} hands, {seconds:.0f} s",
        "level   "
        + ("teams" if args.teams else "seats")
        + "  win rate  95% interval     chances/hand  calls/hand  won/hand"
        "  calls/chance  joker pts/hand",
    ]
    for level in args.levels:
        seats = wins = 0.0
        level_hands = chances = made = won = jpts = 0
        for r in results:
            counted: set[int] = set()  # with teams, partners of one level share one result
            for s, lv in enumerate(r.levels):
                if lv != level:
                    continue
                team = s % args.teams if args.teams else s
                if team not in counted:
                    counted.add(team)
                    seats += 1
                    wins += r.wins[s]
                level_hands += r.hands
                chances += r.chances[s]
                made += r.made[s]
                won += r.won[s]
                jpts += r.joker_points[s]
        n = int(seats)
        lo, hi = wilson(wins, n)
        h = max(1, level_hands)
        lines.append(
            f"{level:<7} {n:>5}  {wins / max(1, n):>7.1%}  [{lo:.1%}, {hi:.1%}]"
            f"  {chances / h:>12.3f}  {made / h:>10.3f}  {won / h:>8.3f}"
            f"  {made / max(1, chances):>12.2f}  {jpts / h:>14.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=200, help="matches to 500 (200)")
    p.add_argument("--players", type=int, default=2, help="seats, levels alternating (2)")
    p.add_argument("--jobs", type=int, default=1, help="processes (1)")
    p.add_argument("--seed", type=int, default=20261130)
    p.add_argument("--jokers", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--calls", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--window", type=float, default=None, help="judge calls by reaction time")
    p.add_argument("--levels", default=",".join(LEVELS), help="levels, comma-separated")
    p.add_argument("--teams", type=int, default=0, help="partnerships: 2 or 3 teams (0)")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        type=variant,
        metavar="NAME[=N]",
        help="a family variant on (RULES.md §12), by its option's name (first_meld=N); repeatable",
    )
    args = p.parse_args(argv)
    args.levels = tuple(dict.fromkeys(x.strip() for x in args.levels.split(",") if x.strip()))
    unknown = [x for x in args.levels if x not in BOT_LEVELS]
    if unknown or not args.levels:
        p.error(f"--levels: choose from {', '.join(BOT_LEVELS)}")
    if args.matches < 1 or not 2 <= args.players <= 8:
        p.error("--matches must be at least 1 and --players 2 to 8")
    try:
        Options(teams=args.teams).validate(args.players)
    except ValueError as e:
        p.error(f"--teams: {e}")
    try:
        Options(jokers=args.jokers, **dict(args.variant)).validate(args.players)
    except ValueError as e:
        p.error(f"--variant: {e}")
    start = time.perf_counter()
    results = run(tasks(args), args.jobs)
    print("\n".join(report(results, args, time.perf_counter() - start)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
