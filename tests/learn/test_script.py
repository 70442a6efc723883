"""The lesson's scripted deal produces every situation (pure, fast): the learner's moves a
learner would make and the bot's script, played on the engine, bring each step's situation
before its goal, in order, every move legal, and the hand ends with the learner out."""

from __future__ import annotations

import copy

from rum500 import cards as C
from rum500.i18n import set_language
from rum500.learn import script
from rum500.learn.script import drawing, mine
from rum500.learn.session import bot_moves, new_game
from rum500.rules import Game

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


def _bot_turn(game: Game, turn: int) -> None:
    """The bot's ``turn``-th turn, as :meth:`LessonSession.bot_turn` plays it."""
    for action in bot_moves(game, turn):
        game.apply(action, seat=1)
    if game.to_move == 1 and game.phase.value == "play":
        game.apply({"type": "discard", "card": C.name(game.hands[1][-1])}, seat=1)


def _named(step: script.Step) -> set[str]:
    """The cards ``step``'s text names."""
    names: set[str] = set()
    step.text(lambda card: names.add(card) or card)
    return names


def test_no_move_the_lesson_lets_through_takes_a_card_a_later_text_names() -> None:
    """Every order of the moves the lesson lets through (the learner's own, out of the
    texts' order too): when a step's text shows, each card it names is still in hand (the
    draw's lessons: on the pile). A 9♣ laid off in lesson 7 left lesson 8 asking for it."""
    seen: set[str] = set()
    wrong: list[tuple[str, list[str]]] = []

    def explore(game: Game, lesson: script.Lesson, bot_turn: int, shown: frozenset[str]) -> None:
        view = game.view(0)
        lesson.follow(view)
        step = lesson.step()
        if step is not None and step.when(view) and step.name not in shown:
            shown = shown | {step.name}
            seen.add(step.name)
            there = set(view["hand"]) | set(view["discard_pile"] if drawing(view) else [])
            if not _named(step) <= there:
                wrong.append((step.name, view["hand"]))
            if step.name == "out":  # no later text names a card
                return
        if game.to_move == 1 and game.phase.value in ("draw", "play"):
            game, lesson = copy.deepcopy(game), copy.deepcopy(lesson)
            _bot_turn(game, bot_turn)
            explore(game, lesson, bot_turn + 1, shown)
            return
        for action in view["legal_actions"] if mine(view) else []:
            if lesson.check(action, view) is None:
                after, follows = copy.deepcopy(game), copy.deepcopy(lesson)
                after.apply(action, seat=0)
                explore(after, follows, bot_turn, shown)

    explore(new_game(), script.Lesson(ascii=True), 0, frozenset())
    assert wrong == []
    assert seen == {s.name for s in script.STEPS} - {"review"}


def test_lesson_7_keeps_9c_for_lesson_8_and_says_what_to_do() -> None:
    set_language("en")
    lesson = script.Lesson()
    high = next(s for s in script.STEPS if s.name == "high")
    view = {"turn": 0, "seat": 0, "phase": "play", "hand": ["9C", "QS", "KS", "AS"]}
    lesson.view = view
    lesson.done = {s.name for s in script.STEPS[: script.STEPS.index(high)]}
    why = lesson.check({"type": "layoff", "card": "9C", "meld": 2}, view)
    assert why is not None and "9♣" in why and "Meld Q♠ K♠ A♠ now." in why
    assert lesson.check({"type": "meld", "cards": ["QS", "KS", "AS"]}, view) is None


def _refused_first(view: dict, lesson: script.Lesson) -> dict | None:
    """A legal move the lesson keeps back at ``view``, if any (a bot's contrary advice)."""
    return next((a for a in view["legal_actions"] if lesson.check(a, view)), None)


def test_the_hint_is_the_move_the_lesson_asks_for() -> None:
    """h at each step offers a legal move the lesson lets through, even when the bot's
    advice is one it keeps back (the hint said "meld 4♠ 4♦ 4♣" at lesson 2); lesson 6's is
    the lay-off its text asks for; the review has none."""
    game = new_game()
    lesson = script.Lesson(ascii=True)
    lesson.follow(game.view(0))
    hinted: dict[str, dict] = {}
    for turn, moves in enumerate(LEARNER_TURNS):
        for action in moves:
            view = game.view(0)
            step = lesson.step()
            assert step is not None
            for advice in (_refused_first(view, lesson), None):
                hint = lesson.advise(view, advice)
                assert hint is not None and hint in view["legal_actions"], (step.name, advice)
                assert lesson.check(hint, view) is None, (step.name, hint)
            hinted.setdefault(step.name, lesson.advise(view, None) or {})
            game.apply(action, seat=0)
            lesson.follow(game.view(0))
        if game.phase.value in ("draw", "play"):
            _bot_turn(game, turn)
            lesson.follow(game.view(0))
    assert hinted["dug"] == {"type": "layoff", "card": "8C", "meld": 2}
    assert hinted["dig"] == {"type": "draw", "source": "discard", "index": 0}
    view = game.view(0)
    assert lesson.advise(view, {"type": "deal"}) is None
