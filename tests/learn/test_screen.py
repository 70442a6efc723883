"""``rum500 learn`` at the table screen, driven by its real key bindings (a pipe input, no
terminal): the keys each text names work from where the cursor is; a move played out of the
texts' order is kept back with what to do instead; the hint is the lesson's move; the end
offers no deal, only what works (q leaves)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from rum500.i18n import set_language
from rum500.learn.script import Lesson
from rum500.learn.session import LessonSession
from rum500.tui.app import run_table
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel
from rum500.tui.sheets import review_footer
from rum500.tui.zones import Zone

UP, HOME, RIGHT, ENTER = "\x1b[A", "\x1b[H", "\x1b[C", "\r"
DIG = {"type": "draw", "source": "discard", "index": 0}

#: the learner's moves up to each lesson, as the texts ask for them
TURN_1 = [
    {"type": "draw", "source": "stock"},
    {"type": "meld", "cards": ["7S", "7H", "7D"]},
    {"type": "meld", "cards": ["AH", "2H", "3H"]},
    {"type": "discard", "card": "JD"},
]
TURN_2 = [DIG, {"type": "layoff", "card": "8C", "meld": 2}]
TURN_2_END = [{"type": "meld", "cards": ["QS", "KS", "AS"]}, {"type": "discard", "card": "JD"}]
TURN_3 = [
    {"type": "draw", "source": "stock"},
    {"type": "meld", "cards": ["4D", "4S", "4C", "4H"]},
    {"type": "layoff", "card": "9C", "meld": 2},
    {"type": "discard", "card": "10S"},
]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    set_language("en")
    return tmp_path


async def until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError(f"not in time: {what}")
        await asyncio.sleep(0.01)


class Screen:
    """The lesson's table screen in this process: its model, its session, its keys."""

    def __init__(
        self, model: TableModel, session: LessonSession, inp: PipeInput, task: asyncio.Future
    ) -> None:
        self.model, self.session, self.input, self.task = model, session, inp, task

    def step(self) -> str:
        assert isinstance(self.model.lesson, Lesson)
        s = self.model.lesson.step()
        return s.name if s is not None else ""

    async def keys(self, *keys: str) -> None:
        for key in keys:
            self.input.send_text(key)
            await asyncio.sleep(0.03)

    async def at(self, step: str) -> None:
        """Wait for ``step``'s situation: its text on the panel, my turn."""
        await until(
            lambda: self.step() == step and self.model.lesson_text().startswith(("Lesson", "Now")),
            step,
        )

    async def play(self, actions: list[dict]) -> None:
        """The learner's ``actions``, as the keys would send them (the keys are tested
        where the texts name them)."""
        for action in actions:
            await until(lambda: self.model.tableview.my_turn, "my turn")
            await self.session.act(action)

    def bar(self) -> dict[str, str]:
        return {key: label for key, label, _f in key_bar(self.model)}


@asynccontextmanager
async def lesson_screen(
    advise: Callable[[dict], Awaitable[dict | None]] | None = None,
) -> AsyncIterator[Screen]:
    model = TableModel(name="Ann")
    model.lesson = Lesson()
    if advise is not None:
        model.advise = advise
    session = LessonSession("Ann", delay=0)
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(run_table(session, model, input=inp, output=DummyOutput()))
        screen = Screen(model, session, inp, task)
        try:
            await screen.at("stock")
            yield screen
        finally:
            if not task.done():
                model.exit()
                await asyncio.wait_for(task, 5)


def named_keys(text: str) -> list[str]:
    """The keys a digging text names: each ↑, then Home, then t (the text's last word)."""
    assert "Home" in text and text.rstrip(".").endswith("then t"), text
    return [UP] * text.count("↑") + [HOME, "t"]


@pytest.mark.parametrize("first", ["", "s", "t"])
async def test_lesson_5s_keys_dig_from_where_the_cursor_is(first: str) -> None:
    """The panel's text, and the why after a draw from the stock or a t from the hand: the
    keys each names, pressed from where the cursor then is (the hand: ↑ goes to the melds
    first, Bob's run being on the table), take 8♣ from the bottom of the pile."""
    async with lesson_screen() as screen:
        m = screen.model
        await screen.play(TURN_1)
        await screen.at("dig")
        assert m.selection.zone == Zone.HAND
        text = m.lesson_text()
        if first:
            await screen.keys(first)
            await until(lambda: m.feed.message_is_error, "the why")
            text = m.feed.message
            assert m.selection.zone == Zone.HAND
        await screen.keys(*named_keys(text))
        await until(lambda: screen.step() == "dug", "8♣ dug for: " + m.feed.message)
        assert m.sent[-1] == DIG


async def test_9c_stays_in_hand_until_lesson_8_names_it() -> None:
    """Lesson 7: laying 9♣ off early is kept back (what to do instead is said); lesson 8,
    which lays it off, finds it in hand."""
    async with lesson_screen() as screen:
        m = screen.model
        await screen.play(TURN_1)
        await screen.at("dig")
        await screen.play(TURN_2)
        await screen.at("high")
        hand = m.tableview.hand()
        await screen.keys(HOME, *[RIGHT] * hand.index("9C"), " ", "l")
        await until(lambda: m.feed.message_is_error, "the why")
        assert "Meld Q♠ K♠ A♠ now" in m.feed.message
        assert "9C" in m.tableview.hand() and m.sent == []  # kept back: nothing sent
        await screen.play(TURN_2_END)
        await screen.at("out")
        assert "lay off 9♣" in m.lesson_text() and "9C" in m.tableview.hand()


async def test_the_hint_offers_the_lessons_move() -> None:
    """The bot would meld the fours at lesson 2: the hint offers the sevens, one key away."""
    fours = {"type": "meld", "cards": ["4S", "4D", "4C"]}

    async def bot(view: dict) -> dict | None:
        return fours if fours in view["legal_actions"] else {"type": "draw", "source": "stock"}

    async with lesson_screen(bot) as screen:
        m = screen.model
        await screen.keys("s")
        await screen.at("set")
        await screen.keys("h")
        await until(lambda: m.feed.message.startswith("Hint:"), "the hint")
        assert m.feed.message == "Hint: meld 7♠ 7♥ 7♦ (press m)."
        await screen.keys("m")
        await screen.at("low")


async def test_the_end_offers_no_deal_and_q_leaves() -> None:
    """The review and the key bar say only what works: Enter closes the sheet, no deal is
    offered (it was: "Enter deal the next hand", then "n deal" that did nothing); q leaves."""
    async with lesson_screen() as screen:
        m = screen.model
        await screen.play(TURN_1)
        await screen.at("dig")
        await screen.play(TURN_2 + TURN_2_END)
        await screen.at("out")
        await screen.play(TURN_3)
        await until(lambda: m.overlay == "sheet" and screen.step() == "review", "the review")
        footer = " ".join(text for line in review_footer(m) for _style, text, *_ in line)
        assert footer == "Press Enter to close."
        assert "Lesson 9" in m.feed.message and "q leaves" in m.feed.message
        bar = screen.bar()
        assert "n" not in bar and not [k for k, label in bar.items() if "deal" in label]
        assert bar["q"] == "quit"
        await screen.keys(ENTER)  # (n too: in a review it is Enter)
        await until(lambda: m.overlay is None, "the sheet closed")
        bar = screen.bar()
        assert "n" not in bar and not [k for k, label in bar.items() if "deal" in label]
        sent = list(m.sent)
        await screen.keys("n")  # a deal asked for all the same: the lesson says why not
        await until(lambda: "The lesson ends with this review" in m.feed.message, "why not")
        await screen.keys(ENTER)
        await until(lambda: m.overlay == "sheet", "the review again")
        assert m.sent == sent
        await screen.keys("q")  # the lesson is over: nothing at stake, so no "Leave?" first
        assert await asyncio.wait_for(screen.task, 5) == 0
        assert m.overlay != "quit"


def test_the_view_at_the_hands_end_has_no_deal() -> None:
    session = LessonSession("Ann", delay=0)
    game = session.game
    for action in TURN_1:
        game.apply(action, seat=0)
    game.apply({"type": "draw", "source": "stock"}, seat=1)
    game.apply({"type": "meld", "cards": ["5C", "6C", "7C"]}, seat=1)
    game.apply({"type": "discard", "card": "QS"}, seat=1)
    for action in TURN_2 + TURN_2_END:
        game.apply(action, seat=0)
    game.apply({"type": "draw", "source": "stock"}, seat=1)
    game.apply({"type": "discard", "card": "2D"}, seat=1)
    for action in TURN_3:
        game.apply(action, seat=0)
    assert {"type": "deal"} in game.view(0)["legal_actions"]  # the engine's, for a match
    view = session.state([])["view"]
    assert view["phase"] == "hand_over" and view["legal_actions"] == []
