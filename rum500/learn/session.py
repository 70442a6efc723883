"""The lesson's hand, played in this process: the engine with the stacked deal
(:mod:`rum500.learn.script`), the learner at seat 0 and the scripted bot at seat 1, as a
session of the terminal client (:class:`rum500.tui.app.Session`: ``act``, ``chat``,
``pump``, ``close``). No socket, no host: the messages it gives the model are the host's
(welcome, lobby, state with the public events), the refusals the engine's own — but for two
things: the lesson is one hand, so its end offers no deal (:meth:`LessonSession.state`), and
the hint (``h``) is the move the lesson asks for (:meth:`LessonSession.follow_lesson_hint`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from rum500 import cards as C
from rum500.i18n import _
from rum500.learn import script
from rum500.rules import Game
from rum500.rules.melds import IllegalMove
from rum500.tui.model import Refused, TableModel

BOT_DELAY = 0.7  #: seconds between the bot's moves, so that each is seen


def new_game() -> Game:
    """The lesson's match: two seats, the standard rules, the stacked first deal."""
    return Game(2, script.SEED, None, script.deck())


def bot_moves(game: Game, turn: int) -> list[dict]:
    """The bot's ``turn``-th turn (0-based): scripted, then: draw and throw that card."""
    if turn < len(script.BOT_TURNS):
        return [dict(a) for a in script.BOT_TURNS[turn]]
    return [{"type": "draw", "source": "stock"}]


class LessonSession:
    """See the module docstring. ``delay``: seconds before each bot move (tests: 0)."""

    def __init__(self, name: str, delay: float = BOT_DELAY) -> None:
        self.name = name
        self.delay = delay
        self.game = new_game()
        self.bot_turns = 0
        self.model: TableModel | None = None
        self.wake = asyncio.Event()
        self.closing = False

    def names(self) -> list[str]:
        return [self.name, _("Bob")]

    def state(self, events: list[dict]) -> dict:
        """The learner's view as the host sends it; once the hand is over, without the deal
        (the lesson ends with its review: the screen offers no next hand, q leaves)."""
        view = self.game.view(0)
        if view.get("phase") in ("hand_over", "game_over"):
            view["legal_actions"] = [
                a for a in view.get("legal_actions") or [] if a.get("type") != "deal"
            ]
        view["names"] = self.names()
        view["review"] = None
        view["takeover"] = None
        return {"type": "state", "view": view, "events": events}

    def tell(self, events: list[dict]) -> None:
        if self.model is not None:
            self.model.apply_message(self.state(events))
            if self.model.lesson is not None:
                self.model.on_change()

    def take_back(self) -> list[dict]:
        """``u``: the learner's last meld or lay-off of this turn, taken back (as the host
        does at a table where every other seat is a bot)."""
        game = self.game
        last = game.actions[-1] if game.actions else None
        if game.phase.value != "play" or game.to_move != 0 or last is None:
            raise IllegalMove("nothing to take back this turn")
        if last.get("type") not in ("meld", "layoff"):
            raise IllegalMove("nothing to take back this turn")
        return [{"type": "take_back", "seat": 0, "action": game.pop()}]

    async def act(self, action: dict) -> None:
        try:
            if action.get("type") == "take_back":
                events = self.take_back()
            else:
                events = self.game.apply(action, seat=0)
        except IllegalMove as e:
            raise Refused(str(e), e.template, e.params) from None
        except ValueError as e:
            raise Refused(str(e)) from None
        self.tell(events)
        self.wake.set()

    async def chat(self, text: str) -> None:
        if self.model is not None:
            self.model.feed.heard_chat(self.name, text)
            self.model.on_change()

    def follow_lesson_hint(self, model: TableModel) -> None:
        """The hint (``h``, the plain mode's ``hint``) offers the move the lesson asks for
        (:meth:`rum500.learn.script.Lesson.advise`), never one it keeps back: the bot's
        advice, checked by the model's lesson."""
        bot: Callable[[dict], Awaitable[dict | None]] = model.advise

        async def advise(view: dict) -> dict | None:
            advice = await bot(view)
            lesson = model.lesson
            return lesson.advise(view, advice) if isinstance(lesson, script.Lesson) else advice

        model.advise = advise

    async def pump(self, model: TableModel) -> None:
        """The welcome, the seats, the deal; then the bot's turns as they come."""
        self.model = model
        self.follow_lesson_hint(model)
        model.apply_message(
            {"type": "welcome", "seat": 0, "name": self.name, "table": _("Lesson"), "info": {}}
        )
        model.apply_message(
            {
                "type": "lobby",
                "seats": [{"name": self.name}, {"name": _("Bob"), "bot": True}],
                "table": _("Lesson"),
                "hint": True,
            }
        )
        self.tell([])
        while not self.closing:
            if self.game.to_move == 1 and self.game.phase.value in ("draw", "play"):
                await self.bot_turn()
            else:
                self.wake.clear()
                await self.wake.wait()

    async def bot_turn(self) -> None:
        """One turn of the bot, a move at a time."""
        plan = bot_moves(self.game, self.bot_turns)
        self.bot_turns += 1
        for action in plan:
            await asyncio.sleep(self.delay)
            self.tell(self.game.apply(action, seat=1))
        if self.game.to_move == 1 and self.game.phase.value == "play":  # past the script
            await asyncio.sleep(self.delay)
            last = C.name(self.game.hands[1][-1])
            self.tell(self.game.apply({"type": "discard", "card": last}, seat=1))

    async def close(self) -> None:
        self.closing = True
        self.wake.set()
