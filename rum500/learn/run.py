"""The lesson on the table screen: the model with the lesson's port, the in-process session."""

from __future__ import annotations

from typing import Any

from rum500.learn.script import Lesson
from rum500.learn.session import BOT_DELAY, LessonSession
from rum500.tui.app import run_table
from rum500.tui.model import TableModel


async def learn_at_screen(
    name: str, ascii: bool, *, delay: float = BOT_DELAY, input: Any = None, output: Any = None
) -> int:
    """Play the lesson's hand at the table screen until the learner leaves (q)."""
    model = TableModel(name=name, ascii=ascii)
    model.lesson = Lesson(ascii)
    return await run_table(LessonSession(name, delay), model, input=input, output=output)
