"""A numbered question (which card a joker stands for, which meld a call goes on, whose
machine takes the table): the keys 1 … 9 answer, Esc cancels."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.tui.overlays.keymap import Key, Kit, Overlay


class Question(Protocol):
    """What the numbered question uses of the table screen (a narrow port)."""

    choose_text: str
    choices: list[tuple[str, dict]]

    def choose_pick(self, i: int) -> None: ...

    def close_overlay(self) -> None: ...


def keys(model: Question) -> list[Key]:
    def answer(i: int) -> Key:
        return Key(
            (str(i + 1),),
            lambda: model.choose_pick(i),
            str(i + 1),
            lambda: model.choices[i][0],
            lambda: i < len(model.choices),
        )

    return [answer(i) for i in range(9)] + [
        Key(("escape", "q", "c-c"), model.close_overlay, "Esc", lambda: _("cancel"))
    ]


def body(model: Question, kit: Kit) -> AnyContainer:
    return kit.window(
        lambda: (
            [("class:label", model.choose_text)]
            + [("", f"\n {i + 1}  {label}") for i, (label, _action) in enumerate(model.choices)]
        ),
        wrap_lines=True,
    )


OVERLAY = Overlay("choose", lambda: _("Choose"), keys, body, lambda kit: {"left": 2, "right": 2})
