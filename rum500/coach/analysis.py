"""The analysis of a match: for every decision of a seat, the move played, the best move
found and the expected points it lost; per hand and per match the error rate, the biggest
mistakes and the luck of the cards (docs/analysis.md defines every figure).

Public API (the hand-end review and the replay build on it):

* :func:`analyse_match` ``(record, seat, *, budget, seed, jobs, progress, hands)`` →
  :class:`MatchAnalysis`; :func:`analyse_seats` the same for several seats sharing one pool
  of processes;
* :func:`analyse_decision` ``(view, known, played, *, budget, seed)`` →
  :class:`~rum500.coach.search.Verdict`: one position, from a seat's view and the public
  memory of the hand, safe to call in a worker process while a review is open.

A *record* is a match as the game log keeps it (:func:`rum500.store.log.load_match`): a
dict with ``players``, ``seed``, ``options``, ``deck`` and ``actions`` (``[{seat, action}]``);
``id`` and ``seats`` (names) when it has them. The match is replayed through the engine;
each decision is handed to the search as the seat's view at that moment and the cards the
seat saw the opponents take (:class:`rum500.bots.tracker.Tracker`) — nothing else of the log.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field

from rum500.bots.tracker import Tracker
from rum500.coach import search as S
from rum500.coach.search import DEFAULT_BUDGET, Verdict
from rum500.rules import Game, Options
from rum500.rules.game import Phase
from rum500.workers import end_with_parent

#: the JSON record's version (docs/analysis.md)
FORMAT = 1
#: mistakes kept per hand and per match
TOP_MISTAKES = 3

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class Decision:
    """One decision of the seat: ``index`` is the action's place in the match's action
    list (the action played, or for a "Rummy!" not called the action that closed the
    calls); ``hand`` counts from 1; ``kind`` is ``draw``, ``end_hand``, ``meld``,
    ``layoff``, ``discard`` or ``rummy`` (a call made or not); ``position`` is what the seat
    saw (``hand``, ``discard_pile``, ``melds``, ``stock``); ``ties``: the other moves the
    analysis could not tell from ``best`` (docs/analysis.md)."""

    index: int
    hand: int
    seat: int
    kind: str
    played: dict
    best: dict
    loss: float
    stderr: float
    candidates: int
    worlds: int
    position: dict
    ties: list[dict] = field(default_factory=list)
    #: the verdict's loss as measured before the line of a mistake, and the move it was
    #: measured for (:class:`~rum500.coach.search.Verdict`): for the benchmark, not the report
    measured: tuple[float, float, int] = (0.0, 0.0, 0)
    named: dict | None = None


@dataclass(slots=True)
class HandAnalysis:
    """One hand for the seat: decisions analysed, points lost, error rate, luck (deal,
    stock draws, total, each with a standard error) and its biggest mistakes."""

    hand: int
    decisions: int = 0
    loss: float = 0.0
    deal_luck: float = 0.0
    deal_luck_stderr: float = 0.0
    draw_luck: float = 0.0
    draw_luck_stderr: float = 0.0
    draws: int = 0
    score: int | None = None
    mistakes: list[Decision] = field(default_factory=list)

    @property
    def error_rate(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def luck(self) -> float:
        return self.deal_luck + self.draw_luck

    @property
    def luck_stderr(self) -> float:
        return (self.deal_luck_stderr**2 + self.draw_luck_stderr**2) ** 0.5


@dataclass(slots=True)
class MatchAnalysis:
    """Every decision of one seat in a match, per hand and in sum."""

    game_id: int | None
    seat: int
    name: str
    budget: int
    seed: int
    finished: bool
    actions: int
    decisions: list[Decision]
    hands: list[HandAnalysis]

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def error_rate(self) -> float:
        return self.loss / len(self.decisions) if self.decisions else 0.0

    @property
    def luck(self) -> float:
        return sum(h.luck for h in self.hands)

    @property
    def luck_stderr(self) -> float:
        return sum(h.luck_stderr**2 for h in self.hands) ** 0.5

    @property
    def mistakes(self) -> list[Decision]:
        return biggest(self.decisions)

    def summary(self) -> dict:
        """The match's figures (the ``summary`` record of the JSON)."""
        return {
            "type": "summary",
            "game_id": self.game_id,
            "seat": self.seat,
            "name": self.name,
            "budget": self.budget,
            "seed": self.seed,
            "finished": self.finished,
            "actions": self.actions,
            "decisions": len(self.decisions),
            "loss": round(self.loss, 2),
            "error_rate": round(self.error_rate, 3),
            "luck": round(self.luck, 2),
            "luck_stderr": round(self.luck_stderr, 2),
            "hands": len(self.hands),
            "mistakes": [d.index for d in self.mistakes],
        }

    def records(self) -> Iterator[dict]:
        """The JSON records: one per decision, one per hand, then the summary."""
        for d in self.decisions:
            yield decision_record(d)
        for h in self.hands:
            yield hand_record(h, self.seat)
        yield self.summary()


def biggest(decisions: list[Decision]) -> list[Decision]:
    """The :data:`TOP_MISTAKES` decisions that lost the most (a loss above zero)."""
    lost = [d for d in decisions if d.loss > 0]
    lost.sort(key=lambda d: (-d.loss, d.index))
    return lost[:TOP_MISTAKES]


def decision_record(d: Decision) -> dict:
    out = {"type": "decision", **asdict(d)}
    del out["measured"], out["named"]
    out["loss"] = round(d.loss, 2)
    out["stderr"] = round(d.stderr, 2)
    return out


def hand_record(h: HandAnalysis, seat: int) -> dict:
    return {
        "type": "hand",
        "seat": seat,
        "hand": h.hand,
        "decisions": h.decisions,
        "loss": round(h.loss, 2),
        "error_rate": round(h.error_rate, 3),
        "luck": round(h.luck, 2),
        "luck_stderr": round(h.luck_stderr, 2),
        "deal_luck": round(h.deal_luck, 2),
        "draw_luck": round(h.draw_luck, 2),
        "stock_draws": h.draws,
        "score": h.score,
        "mistakes": [d.index for d in h.mistakes],
    }


# --------------------------------------------------------------------------- one decision


def analyse_decision(
    view: Mapping,
    known: list[list[int]],
    played: Mapping,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: object = 0,
) -> Verdict:
    """The best move of the seat whose view this is, and what ``played`` lost against it.
    ``known``: per seat, the cards it is known to hold (taken from the discard pile and not
    played since; ``[]`` for the seat itself). Reproducible for a ``seed``."""
    return S.judge(view, known, played, budget, random.Random(f"decision:{seed}"))


# --------------------------------------------------------------------------- the match


@dataclass(slots=True)
class _Task:
    """A unit of work for a process: a decision, a deal's luck or a stock draw's luck."""

    what: str  # "decision", "deal" or "draw"
    seat: int
    index: int
    hand: int
    kind: str
    view: dict
    known: list[list[int]]
    played: dict
    card: str | None
    budget: int
    seed: str


def _run(task: _Task) -> tuple:
    rng = random.Random(task.seed)
    if task.what == "decision":
        return (S.judge(task.view, task.known, task.played, task.budget, rng),)
    worlds = max(8, task.budget // 2)
    if task.what == "deal":
        return S.deal_luck(task.view, task.known, worlds, rng)
    assert task.card is not None
    return S.draw_luck(task.view, task.known, task.card, worlds, rng)


def new_game(record: Mapping) -> Game:
    return Game(
        int(record["players"]),
        int(record["seed"]),
        Options.from_dict(dict(record["options"])),
        record.get("deck"),
    )


def _kind(game: Game, action: Mapping) -> str:
    if game.phase is Phase.CLAIM:
        return "rummy"
    return str(action.get("type"))


def _position(view: Mapping) -> dict:
    return {
        "hand": list(view["hand"]),
        "discard_pile": list(view["discard_pile"]),
        "melds": [{"id": m["id"], "cards": list(m["cards"])} for m in view["melds"]],
        "stock": view["stock"],
    }


def task_seed(seed: object, what: str, seat: int, index: int) -> str:
    """The seed of one piece of work (``what``: "decision", "deal" or "draw") of ``seat`` at
    action ``index`` of the match, from the analysis's ``seed``: a decision is judged alike
    wherever it is judged with the same seed — by ``rum500 analyse``, the replay's marks, or
    the review's line (:mod:`rum500.tui.coachline`, from the view's ``next_action``)."""
    return f"{seed}:{what}:{seat}:{index}"


def judge_at(
    view: Mapping, known: list[list[int]], played: Mapping, *, budget: int, seed: object = 0
) -> Verdict:
    """The decision of ``view`` (a seat's view with ``next_action``) judged exactly as
    :func:`analyse_seats` judges it with ``seed`` — the same worlds, the same verdict."""
    index = int(view["next_action"])
    rng = random.Random(task_seed(seed, "decision", int(view["seat"]), index))
    return S.judge(view, known, played, budget, rng)


def tasks_of(
    record: Mapping, seats: list[int], budget: int, seed: int, hands: set[int] | None = None
) -> tuple[list[_Task], Game]:
    """Replay the match; the work for every decision, deal and stock draw of ``seats``
    (only in ``hands`` when given); and the game as the log leaves it."""
    game = new_game(record)
    actions = list(record["actions"])
    start = 0
    if actions and not game.actions and dict(actions[0]["action"]).get("type") == "deal":
        # a committed match: its first action deals hand 1 again (docs/rules.md "A deal
        # nobody can stack"); the seed's deal was never shown, so nothing is measured on it
        game.apply(dict(actions[0]["action"]), actions[0].get("seat"))
        start = 1
    trackers = {s: Tracker() for s in seats}
    views = {s: game.view(s) for s in seats}
    for s in seats:
        trackers[s].observe([{"type": "deal"}], views[s])
    out: list[_Task] = []

    def add(what: str, s: int, i: int, kind: str, played: dict, card: str | None = None) -> None:
        view = views[s]
        known = [[] if o == s else _known(trackers[s], view, o) for o in range(game.players)]
        out.append(
            _Task(
                what, s, i, game.hand_number, kind, view, known, played, card, budget,
                task_seed(seed, what, s, i),
            )
        )  # fmt: skip

    dealt = {s: -1 for s in seats}
    for i, entry in enumerate(actions[start:], start):
        action = dict(entry["action"])
        wanted = hands is None or game.hand_number in hands
        for s in seats if wanted else ():
            if game.phase is Phase.DRAW and dealt[s] != game.hand_number:
                dealt[s] = game.hand_number
                add("deal", s, i, "deal", {})
            if game.phase is Phase.CLAIM:
                mine = action.get("type") == "rummy" and action.get("seat") == s
                if game.claims(s) and (mine or action.get("type") == "close_claims"):
                    add("decision", s, i, "rummy", action if mine else {"type": "pass"})
            elif (
                game.turn == s
                and game.phase in (Phase.DRAW, Phase.PLAY)
                and len(views[s]["legal_actions"]) > 1
            ):
                add("decision", s, i, _kind(game, action), action)
        mover = game.turn
        stock_draw = (
            wanted
            and mover in trackers
            and game.phase is Phase.DRAW
            and action.get("type") == "draw"
            and action.get("source") == "stock"
            and bool(game.stock)
        )
        hand_before = list(game.hands[mover]) if stock_draw else []
        if stock_draw:
            add("draw", mover, i, "draw", action)
        events = game.apply(action, entry.get("seat") if action.get("type") != "rummy" else None)
        if stock_draw:
            out[-1].card = _drawn(hand_before, game.hands[mover])
            if out[-1].card is None:
                out.pop()
        for s in seats:
            views[s] = game.view(s)
            trackers[s].observe(events, views[s])
    return out, game


def _known(tracker: Tracker, view: Mapping, seat: int) -> list[int]:
    """Cards ``seat`` is known to hold, within what the view leaves unseen (as the bots)."""
    from rum500.bots.seat import read_view

    v = read_view(view)
    unseen = v.unseen()
    out = []
    for c in tracker.known_cards(seat):
        if unseen[c] > 0:
            unseen[c] -= 1
            out.append(c)
    return out[: v.hand_sizes[seat]]


def _drawn(before: list[int], after: list[int]) -> str | None:
    from rum500 import cards as C

    left = list(after)
    for c in before:
        if c in left:
            left.remove(c)
    return C.name(left[0]) if len(left) == 1 else None


def analyse_seats(
    record: Mapping,
    seats: list[int],
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    hands: set[int] | None = None,
) -> list[MatchAnalysis]:
    """:func:`analyse_match` for each of ``seats``, the work shared by ``jobs`` processes."""
    tasks, game = tasks_of(record, seats, budget, seed, hands)
    results = _map(tasks, jobs, progress)
    names = [s.get("name") for s in record.get("seats") or ()]
    out = []
    for seat in seats:
        name = names[seat] if seat < len(names) and names[seat] else f"seat {seat}"
        mine = [(t, r) for t, r in zip(tasks, results, strict=True) if t.seat == seat]
        out.append(_assemble(record, game, seat, name, budget, seed, mine))
    return out


def analyse_match(
    record: Mapping,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    hands: set[int] | None = None,
) -> MatchAnalysis:
    """Every decision of ``seat`` in the match ``record`` (see the module), reproducible for
    ``seed``; ``budget`` worlds per finalist move; ``jobs`` processes; ``progress(done,
    total)`` after each piece of work; only the hands numbered in ``hands`` when given."""
    return analyse_seats(
        record, [seat], budget=budget, seed=seed, jobs=jobs, progress=progress, hands=hands
    )[0]


def _map(tasks: list[_Task], jobs: int, progress: Progress | None) -> list[tuple]:
    total = len(tasks)
    out: list[tuple] = []
    if progress:
        progress(0, total)
    if jobs <= 1 or total < 2:
        for t in tasks:
            out.append(_run(t))
            if progress:
                progress(len(out), total)
        return out
    # one task at a time: a decision takes from milliseconds to seconds, and a chunk of them
    # left to one process at the end keeps the other waiting
    with multiprocessing.get_context("fork").Pool(jobs, initializer=end_with_parent) as pool:
        for r in pool.imap(_run, tasks, chunksize=1):
            out.append(r)
            if progress:
                progress(len(out), total)
    return out


def _assemble(
    record: Mapping,
    game: Game,
    seat: int,
    name: str,
    budget: int,
    seed: int,
    done: list[tuple[_Task, tuple]],
) -> MatchAnalysis:
    hands: dict[int, HandAnalysis] = {}
    decisions = []
    for t, r in done:
        h = hands.setdefault(t.hand, HandAnalysis(t.hand))
        if t.what == "deal":
            h.deal_luck, h.deal_luck_stderr = r
        elif t.what == "draw":
            h.draw_luck += r[0]
            h.draw_luck_stderr = (h.draw_luck_stderr**2 + r[1] ** 2) ** 0.5
            h.draws += 1
        else:
            v: Verdict = r[0]
            d = Decision(
                t.index, t.hand, seat, t.kind, t.played, v.best, v.loss, v.stderr,
                v.candidates, v.worlds, _position(t.view), list(v.ties), v.measured, v.named,
            )  # fmt: skip
            decisions.append(d)
            h.decisions += 1
            h.loss += d.loss
    for h in hands.values():
        h.mistakes = biggest([d for d in decisions if d.hand == h.hand])
        if h.hand - 1 < len(game.results):
            h.score = game.results[h.hand - 1]["scores"][seat]
    return MatchAnalysis(
        game_id=record.get("id"),
        seat=seat,
        name=name,
        budget=budget,
        seed=seed,
        finished=game.winner is not None,
        actions=len(record["actions"]),
        decisions=decisions,
        hands=[hands[k] for k in sorted(hands)],
    )
