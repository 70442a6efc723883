"""The review's coach line (issue 24 §2): worked out off the event loop while the review is
open — the review is on screen before it is done — from this seat's own decisions of the hand;
dropped when the review closes first; never worked out at a table without the coach."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from rum500.bots import make_bot
from rum500.coach import search as S
from rum500.coach.analysis import _run, judge_at, tasks_of
from rum500.coach.search import DEFAULT_BUDGET
from rum500.tui import coachline
from rum500.tui.model import TableModel
from rum500.tui.sheets import review_lines
from tests.tui.test_app import Running, home, open_table, until  # noqa: F401 - home: autouse

WORKING = "Coach: working out your biggest mistake of the hand…"


def text(model: TableModel) -> str:
    return "\n".join("".join(f[1] for f in line) for line in review_lines(model, 76))


async def play_to_hand_end(
    run: Running, choose: Callable[[dict], Awaitable[dict]] | None = None
) -> None:
    """Ann plays until the hand is over (the review open): each move ``choose(view)``'s, by
    default the medium bot's."""
    model, bot = run.model, make_bot("medium", seed=1)

    async def as_medium(view: dict) -> dict:
        return bot.choose(view)

    while model.sheet is None:
        await until(
            lambda: model.sheet is not None or (model.tableview.my_turn and not model.busy), 20
        )
        if model.sheet is not None:
            break
        view = model.tableview.view
        assert view is not None
        model.submit_action(await (choose or as_medium)(view))
        await until(lambda v=view: model.tableview.view is not v or model.sheet is not None, 20)


async def test_the_review_is_shown_before_the_coach_is_done() -> None:
    release = asyncio.Event()
    judged: list[coachline.Item] = []

    async def gated(item: coachline.Item) -> dict | None:
        judged.append(item)
        await release.wait()
        return await coachline.judge_off_loop(item)

    async with open_table(coach=True, review_timeout=120.0) as run:
        model = run.model
        assert model.coach.on  # the host's lobby message says so
        model.coach.judge = gated
        await play_to_hand_end(run)
        decisions = list(model.coach.decisions)
        assert decisions, "Ann's decisions of the hand were kept"
        assert model.overlay == "sheet"
        await until(lambda: bool(judged))
        assert model.coach.state == "working"
        assert WORKING in text(model)  # the review is on screen, the coach still at work
        assert run.host.table.game.phase.value in ("hand_over", "game_over")
        for view, _known, played in decisions:  # only this seat's own views
            assert view["seat"] == 0 and view["turn"] == 0 and played in view["legal_actions"]
        release.set()
        await until(lambda: model.coach.state == "done", 60)
        line = text(model)
        assert WORKING not in line
        assert "Your biggest mistake:" in line or "no mistake found" in line, line
        assert len(judged) == len(decisions)
    coachline.shut_down()


async def test_the_line_judges_each_decision_as_rum500_analyse_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The review's line and ``rum500 analyse`` (its default seed, 0) hand each decision of
    the hand to the search with the same view, memory of the hand, move played and seed — so
    the line's verdict is the analysis's (they differed by their seeds: a newcomer was told
    −10 at the table and "no loss" by the replay and the analysis for the same discard)."""
    judged: list[coachline.Item] = []

    async def keep(item: coachline.Item) -> dict | None:
        judged.append(item)
        return {"best": item[2], "loss": 0.0, "stderr": 0.0}

    async with open_table(coach=True, review_timeout=120.0) as run:
        model = run.model
        model.coach.judge = keep
        await play_to_hand_end(run)
        await until(lambda: model.coach.state == "done", 20)
        game = run.host.table.game
        record = {
            "players": game.players,
            "seed": game.seed,
            "options": game.options.to_dict(),
            "deck": game.first_deck,
            "actions": [
                {"seat": s, "action": a}
                for s, a in zip(game.action_seats(), game.actions, strict=True)
            ],
        }
    tasks, _ = tasks_of(record, [0], DEFAULT_BUDGET, 0, hands={1})
    analysed = {t.index: t for t in tasks if t.what == "decision"}
    assert len(judged) >= 2 and len(judged) == len(analysed)
    for view, known, played, _budget, _seed in judged:
        task = analysed[view["next_action"]]
        assert played == task.played and known == task.known
        assert {k: view.get(k) for k in task.view} == task.view
    # the same random state for the search, decision by decision
    states: list[object] = []
    real = S.judge

    def spy(*args: Any) -> S.Verdict:
        states.append(args[-1].getstate())
        return S.Verdict(dict(args[2]), 0.0, 0.0, 0.0, 0.0, 1, 0)

    monkeypatch.setattr(S, "judge", spy)
    for item in judged:
        coachline.judge(item)
        _run(analysed[item[0]["next_action"]])
        assert states[-2] == states[-1]
    monkeypatch.setattr(S, "judge", real)
    # and so the same verdict, to the last world: the first decision judged both ways
    view, known, played, _budget, _seed = judged[0]
    (theirs,) = _run(analysed[view["next_action"]])
    assert judge_at(view, known, played, budget=DEFAULT_BUDGET) == theirs


async def test_a_mistake_the_hint_advised_says_so() -> None:
    """Ann follows the hint (``h``) for every move of the hand; the coach, searching deeper,
    calls one of them a mistake: the line says the hint advised it too (a newcomer was told
    "lay off Q♣" by the hint and "−33 points" by the review, and could not tell whom to
    trust)."""
    advised: list[dict] = []

    async def costly(item: coachline.Item) -> dict | None:
        view, _known, played, _budget, _seed = item
        other = next(a for a in view["legal_actions"] if a != played)
        return {"best": other, "loss": 4.0 + len(view["hand"]), "stderr": 1.0}

    async with open_table(coach=True, review_timeout=120.0) as run:
        model = run.model
        model.coach.judge = costly
        real = model.advise

        async def capture(view: dict) -> dict | None:
            action = await real(view)
            advised.append(action)
            return action

        model.advise = capture

        async def as_hinted(view: dict) -> dict:
            asked = len(advised)
            model.hint()
            await until(lambda: len(advised) > asked and model.feed.message.startswith("Hint"))
            return advised[-1]

        await play_to_hand_end(run, as_hinted)
        await until(lambda: model.coach.state == "done", 20)
        line = text(model)
    assert "Your biggest mistake:" in line, line
    assert "The hint advised it too: the coach looks much deeper than the hint." in line
    coachline.shut_down()


async def test_a_review_closed_first_drops_the_line() -> None:
    release = asyncio.Event()

    async def gated(item: coachline.Item) -> dict | None:
        await release.wait()
        return {"best": item[2], "loss": 0.0, "stderr": 0.0}

    async with open_table(coach=True, review_timeout=120.0) as run:
        model = run.model
        model.coach.judge = gated
        await play_to_hand_end(run)
        assert model.coach.state == "working"
        model.review.enter()  # ready: the next hand is dealt, the review closes
        await until(lambda: model.sheet is None, 20)
        release.set()
        await asyncio.sleep(0.1)
        assert model.coach.state == "" and model.coach.text() == ""


async def test_no_coach_at_a_table_without_it() -> None:
    async with open_table(review_timeout=120.0) as run:  # the host's default: no coach
        model = run.model
        assert not model.coach.on
        await play_to_hand_end(run)
        assert model.overlay == "sheet"
        await asyncio.sleep(0.1)
        assert model.coach.started == 0 and not model.coach.decisions
        assert "Coach" not in text(model) and "mistake" not in text(model)


def test_the_line_in_russian() -> None:
    """The review's coach line on a Russian screen: the move, its cost and the better move."""
    from rum500 import i18n
    from rum500.rules import Game

    game = Game(2, seed=6)
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": 0, "table": "t"})
    view = game.view(0)
    model.coach.review_hand, model.coach.state = 1, "done"
    model.coach.worst = {
        "view": view,
        "played": {"type": "discard", "card": "10S"},
        "best": {"type": "discard", "card": "QD"},
        "loss": 12.4,
        "stderr": 2.0,
    }
    try:
        i18n.set_language("ru")
        said = model.coach.text()
        working = (setattr(model.coach, "state", "working"), model.coach.text())[1]
    finally:
        i18n.set_language("en")
    assert (
        said == "Ваша самая дорогая ошибка: сбросить 10♠ (в среднем −12 очков; лучше: сбросить Д♦)."
    )
    assert working == "Тренер: ищу вашу самую дорогую ошибку в этом коне…"
    model.coach.state, model.coach.worst["hinted"] = "done", True
    try:
        i18n.set_language("ru")
        hinted = model.coach.text()
    finally:
        i18n.set_language("en")
    assert hinted == said + " Подсказка советовала то же: тренер смотрит намного глубже подсказки."
    assert model.coach.text().endswith(
        "(−12 points expected; better: discard Q♦). The hint advised it too: the coach looks "
        "much deeper than the hint."
    )


def test_a_discard_better_than_a_meld_or_lay_off_says_the_cards_are_kept() -> None:
    """ "better: discard 6♠" after a meld read as if melding were wrong: the coach says the
    meld's cards (the lay-off's card) are kept — in the review's line, the replay and the
    analysis's report alike; other better moves are said as the hint says them."""
    from rum500.coach.command import better as report_better
    from rum500.tui.describe import better

    view = {"discard_pile": ["2C"], "melds": [{"id": 0, "cards": ["5H", "6H", "7H"]}]}
    meld = {"type": "meld", "cards": ["3C", "4C", "5C"]}
    layoff = {"type": "layoff", "card": "8H", "meld": 0}
    discard = {"type": "discard", "card": "6S"}
    name = str
    assert better(discard, meld, view, name) == "keep those cards and discard 6♠"
    assert better(discard, layoff, view, name) == "keep 8♥ in hand and discard 6♠"
    assert better(discard, layoff, view, name, ascii=True) == "keep 8H in hand and discard 6S"
    assert better(meld, discard, view, name) == "meld 3♣ 4♣ 5♣"
    assert better({"type": "discard", "card": "9D"}, discard, view, name) == "discard 9♦"
    assert report_better(discard, meld, view) == "keep those cards and discard 6S"
    assert report_better(discard, layoff, view) == "keep 8H in hand and discard 6S"
    assert report_better(meld, discard, view) == "meld 3C 4C 5C"
