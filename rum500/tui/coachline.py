"""The coach's line in the hand-end review: this seat's biggest mistake of the hand.

While a hand is played, :class:`CoachLine` keeps what this seat saw when it decided — each
view it received where it had more than one legal move, the cards it saw each opponent take
(:class:`~rum500.bots.tracker.Tracker`, fed by the events it received) and the move it
played (an action it sent that the host took: the next update carries an event of its
seat). Nothing else: a client has only its own seat's views, and the decisions of one hand
are dropped when the next is dealt, so the analysis never sees other hands.

When the review of that hand opens, each decision is handed to the coach (:func:`judge`:
the budget and seed ``rum500 analyse`` gives the decision the view's ``next_action`` names,
so the line and the analysis say the same of it) in a worker process, one at a time; the
table never waits for it. A mistake the hint (``h``) had advised says so. The review shows
"Working out…" until the line is ready; when the review closes first, the work is
dropped. The host decides whether its table has the coach (``rum500 host --coach``; on at
``rum500 play``): the lobby message's ``coach`` (docs/protocol.md), off when absent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from rum500.bots.tracker import Tracker
from rum500.i18n import _, ngettext
from rum500.tui import describe
from rum500.tui.tableview import TableView
from rum500.tui.worker import Worker

#: worlds sampled per candidate move (None: ``rum500 analyse``'s default, so that the line
#: and the analysis of the match judge a decision alike — with the same seed too, :func:`judge`;
#: at budget 16 the line once called a loss of 59 points the analysis did not see): a hand's
#: ten to twenty decisions take a few seconds, inside the review's time
BUDGET: int | None = None
#: the moves a decision can be (a "Rummy!" call is judged only by ``rum500 analyse``)
KINDS = ("draw", "meld", "layoff", "discard", "end_hand")

#: one decision for the worker: (view, known, played, budget — None: the default —, seed)
Item = tuple[dict, list[list[int]], dict, int | None, str]


def judge(item: Item) -> dict:
    """One decision judged (in the worker process): ``{best, loss, stderr}``. A view that
    says where the decision is in the match (``next_action``) is judged exactly as ``rum500
    analyse`` and the replay's marks judge it (their seed, 0: the same worlds, the same
    verdict); one that does not, with ``seed``."""
    from rum500.coach.analysis import analyse_decision, judge_at
    from rum500.coach.search import DEFAULT_BUDGET

    view, known, played, budget, seed = item
    worlds = budget or DEFAULT_BUDGET
    if isinstance(view.get("next_action"), int) and isinstance(view.get("seat"), int):
        v = judge_at(view, known, played, budget=worlds)
    else:
        v = analyse_decision(view, known, played, budget=worlds, seed=seed)
    return {"best": v.best, "loss": float(v.loss), "stderr": float(v.stderr)}


#: the coach's worker process (its own: a hint never waits behind an analysis)
_WORKER = Worker()


def shut_down() -> None:
    """Stop the coach's worker process, if one was started."""
    _WORKER.shut_down()


async def judge_off_loop(item: Item, work: Callable[[Item], dict] = judge) -> dict | None:
    """``work(item)`` in the worker process; None when no worker can run it (the line is
    then given up: the table's own process never does the coach's work)."""
    return await _WORKER.run(work, item, lambda: None)


class CoachTable(Protocol):
    """What the coach line uses of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    ascii: bool
    spawn: Callable[[Coroutine[Any, Any, Any]], Any]

    def on_change(self) -> None: ...


class CoachLine:
    """The coach line of ``screen``'s seat (see the module)."""

    def __init__(self, screen: CoachTable) -> None:
        self.screen = screen
        self.on = False  # the host's setting (the lobby's ``coach``)
        self.tracker = Tracker()
        self.hand: int | None = None  # the hand the decisions below are of
        self.decisions: list[tuple[dict, list[list[int]], dict]] = []
        #: the hints shown this hand: (the view asked about, the move advised)
        self.hints: list[tuple[dict, dict]] = []
        self.pending: tuple[dict, list[list[int]], dict] | None = None
        self.review_hand: int | None = None  # the hand whose line is worked out or shown
        self.state = ""  # "", "working", "done", "failed"
        self.worst: dict | None = None  # {view, played, best, loss, stderr}
        self.started = 0  # analyses started (tests: none at a table without the coach)
        #: judges one decision off the event loop (injectable: tests gate it)
        self.judge: Callable[[Item], Awaitable[dict | None]] = judge_off_loop
        self._task: Any = None

    # ------------------------------------------------------------------ what the seat saw

    def take_lobby(self, msg: dict) -> None:
        coach = msg.get("coach")
        if isinstance(coach, bool):
            self.on = coach

    def played(self, view: dict | None, action: dict) -> None:
        """This seat sends ``action`` from ``view``: a decision, once the host takes it."""
        self.pending = None
        if not self.on or self.screen.tableview.spectator or not isinstance(view, dict):
            return
        seat = view.get("seat")
        legal = view.get("legal_actions") or []
        if (
            not isinstance(seat, int)
            or view.get("turn") != seat
            or view.get("phase") not in ("draw", "play")
            or action.get("type") not in KINDS
            or len(legal) < 2
        ):
            return
        players = view.get("players")
        if not isinstance(players, int) or not 0 <= seat < players:
            return
        known = [[] if o == seat else self._known(view, o) for o in range(players)]
        self.pending = (view, known, dict(action))

    def _known(self, view: dict, seat: int) -> list[int]:
        from rum500.coach.analysis import _known

        try:
            return _known(self.tracker, view, seat)
        except (KeyError, TypeError, ValueError, IndexError):
            return []

    def follow(self, view: dict, events: list[dict], sheet: dict | None) -> None:
        """A new view and its events arrived; ``sheet``: the review's sheet (None: closed)."""
        hand = view.get("hand_number")
        if hand != self.hand:
            self.hand, self.decisions, self.pending, self.hints = hand, [], None, []
        self.tracker.observe(events, view)
        me = view.get("seat")
        if self.pending is not None and any(e.get("seat") == me for e in events):
            self.decisions.append(self.pending)
            self.pending = None
        if sheet is None:
            self.drop()
        elif sheet.get("hand") != self.review_hand:
            self.start(sheet.get("hand"))

    def hinted(self, view: dict, action: dict) -> None:
        """The hint (``h``) advised ``action`` in ``view``: a mistake of that move says so
        (the hint is the expert's quick move; the coach searches far deeper)."""
        if view.get("hand_number") == self.hand:
            self.hints.append((view, dict(action)))

    def _was_hinted(self, view: dict, played: dict) -> bool:
        from rum500.coach.search import same_action
        from rum500.tui.hint import same_position

        return any(
            same_position(view, then) and same_action(advised, played)
            for then, advised in self.hints
        )

    # ------------------------------------------------------------------ the review's line

    def start(self, hand: object) -> None:
        """The review of ``hand`` opened: work out its line, if the coach is on."""
        self.drop()
        if not isinstance(hand, int) or not self.on or self.screen.tableview.spectator:
            return
        self.review_hand = hand
        if hand != self.hand:
            return
        decisions = list(self.decisions)
        self.state = "working"
        self.started += 1
        self._task = self.screen.spawn(self._work(hand, decisions))

    def drop(self) -> None:
        """The review closed: the line, done or not, goes."""
        if self._task is not None and hasattr(self._task, "cancel"):
            self._task.cancel()
        self._task = None
        self.review_hand, self.state, self.worst = None, "", None

    async def _work(self, hand: int, decisions: list[tuple[dict, list[list[int]], dict]]) -> None:
        worst: dict | None = None
        for i, (view, known, played) in enumerate(decisions):
            verdict = await self.judge((view, known, played, BUDGET, f"review:{hand}:{i}"))
            if self.review_hand != hand:
                return  # the review closed meanwhile
            if verdict is None:
                self.state = "failed"
                self.screen.on_change()
                return
            if verdict["loss"] > 0 and (worst is None or verdict["loss"] > worst["loss"]):
                worst = {"view": view, "played": played, **verdict}
                worst["hinted"] = self._was_hinted(view, played)
        self.state, self.worst = "done", worst
        self._task = None
        self.screen.on_change()

    def text(self) -> str:
        """The review's line ("" when there is none)."""
        if self.state == "working":
            return _("Coach: working out your biggest mistake of the hand…")
        if self.state == "failed":
            return _("Coach: your biggest mistake could not be worked out.")
        if self.state != "done":
            return ""
        w = self.worst
        if w is None:
            return _("Coach: no mistake found in your play this hand.")
        view, a = w["view"], self.screen.ascii
        loss = max(1, round(w["loss"]))
        line = ngettext(
            "Your biggest mistake: {played} (−{loss} point expected; better: {best}).",
            "Your biggest mistake: {played} (−{loss} points expected; better: {best}).",
            loss,
        ).format(
            played=describe.action(w["played"], view, self.screen.tableview.player_name, a),
            loss=loss,
            best=describe.better(
                w["best"], w["played"], view, self.screen.tableview.player_name, a
            ),
        )
        if w.get("hinted"):
            line += " " + _("The hint advised it too: the coach looks much deeper than the hint.")
        return line
