"""The lesson's scripted deal produces every situation (pure, fast): the learner's moves a
learner would make and the bot's script, played on the engine, bring each step's situation
before its goal, in order, every move legal, and the hand ends with the learner out."""

from __future__ import annotations

from rum500.learn import script
from rum500.learn.session import bot_moves, new_game

#: the learner's moves, turn by turn (the ones the lesson's texts ask for)
LEARNER_TURNS = [
    [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "cards": ["7S", "7H", "7D"]},
        {"type": "meld", "cards": ["AH", "2H", "3H"]},
        {"type": "discard", "card": "JD"},
    ],
    [
        {"type": "draw", "source": "discard", "index": 0},
        {"type": "layoff", "card": "8C", "meld": 2},
        {"type": "meld", "cards": ["QS", "KS", "AS"]},
        {"type": "discard", "card": "JD"},
    ],
    [
        {"type": "draw", "source": "stock"},
        {"type": "meld", "cards": ["4D", "4S", "4C", "4H"]},
        {"type": "layoff", "card": "9C", "meld": 2},
        {"type": "discard", "card": "10S"},
    ],
]


def _norm(action: dict) -> dict:
    return {k: sorted(v) if k == "cards" else v for k, v in action.items()}


def test_the_scripted_deal_brings_every_lesson_in_order() -> None:
    game = new_game()
    lesson = script.Lesson(ascii=True)
    seen: list[str] = []

    def look() -> None:
        view = game.view(0)
        lesson.follow(view)
        step = lesson.step()
        if step is not None and step.when(view) and step.name not in seen:
            seen.append(step.name)

    look()
    for turn, moves in enumerate(LEARNER_TURNS):
        for action in moves:
            assert game.to_move == 0
            view = game.view(0)
            assert _norm(action) in map(_norm, view["legal_actions"]), (action, view["hand"])
            assert lesson.check(action, view) is None, (lesson.step(), action)
            game.apply(action, seat=0)
            look()
        if game.phase.value != "play" and game.phase.value != "draw":
            break
        for action in bot_moves(game, turn):
            game.apply(action, seat=1)
            look()
    assert game.phase.value == "hand_over" and game.went_out == 0
    assert seen == [s.name for s in script.STEPS]
    sheet = game.view(0)["last_hand"]
    assert sheet is not None and sheet["scores"][0] == 95


def test_every_step_has_its_situation_before_its_goal() -> None:
    """No step is done before the learner saw it (a goal already true at the deal)."""
    lesson = script.Lesson(ascii=True)
    lesson.follow(new_game().view(0))
    assert lesson.done == set()
    assert lesson.step() is script.STEPS[0]
