"""Issue 25 §3: larger cards on a big screen — the hand drawn as two-line card faces from
120×32, the compact hand below it; the cursor, the selection and a click work on the faces."""

from __future__ import annotations

import pytest
from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from rum500.i18n import set_language
from rum500.tui import describe, render
from rum500.tui.layout import Plan, big_cards
from rum500.tui.model import Zone
from tests.tui.test_model import seated


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def text(line) -> str:  # type: ignore[no-untyped-def]
    return "".join(f[1] for f in line)


@pytest.mark.parametrize(
    ("size", "big"),
    [
        ((80, 24), False),
        ((100, 40), False),
        ((119, 40), False),
        ((120, 31), False),
        ((120, 32), True),
        ((140, 40), True),
        ((200, 60), True),
    ],
)
def test_the_layout_chooses_big_cards_by_size(size: tuple[int, int], big: bool) -> None:
    assert big_cards(*size) is big


async def test_a_big_screen_draws_the_hand_as_two_line_faces() -> None:
    model, _session = await seated()
    hand = model.tableview.hand()
    small = Plan(model, (80, 24))
    compact = render.hand_lines(model, 80)[0]
    assert not small.big and [f[:2] for line in small.hand for f in line] == [
        f[:2] for line in compact for f in line
    ]
    plan = Plan(model, (140, 40))
    assert plan.big
    heading, top, bottom = (text(line) for line in plan.hand[:3])
    assert heading.startswith("Your hand")
    assert len(plan.hand) == 3 and plan.h["hand"] == 3  # one row of faces, shown whole
    faces_top = [f.strip() for f in top.split("│") if f.strip()]
    faces_bottom = [f.strip() for f in bottom.split("│") if f.strip()]
    assert faces_top == [describe.rank_text(c[:-1]) for c in hand]
    assert faces_bottom == [describe.suit_text(c[-1], False) for c in hand]
    assert top.count("│") == bottom.count("│") == 2 * len(hand)


async def test_ascii_draws_the_faces_in_ascii() -> None:
    model, _session = await seated()
    model.ascii = True
    lines, _focus = render.hand_lines(model, 140, big=True)
    assert "│" not in text(lines[1]) and text(lines[1]).count("|") == 2 * len(
        model.tableview.hand()
    )
    assert [f.strip() for f in text(lines[2]).split("|") if f.strip()] == [
        c[-1] for c in model.tableview.hand()
    ]


def face_styles(lines, i: int) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """The style of card ``i``'s face on the top line and on the bottom line."""
    faces = [[f for f in line if f[1].startswith(("│", "|"))] for line in lines[1:3]]
    return faces[0][i][0], faces[1][i][0]


async def test_the_cursor_and_the_selection_mark_the_whole_face() -> None:
    model, _session = await seated()
    model.selection.zone = Zone.HAND
    model.selection.hand_cursor = 3
    lines, focus = render.hand_lines(model, 140, big=True)
    assert focus == 1
    top, bottom = face_styles(lines, 3)
    assert "class:cursor" in top and "class:cursor" in bottom
    assert "class:cursor" not in face_styles(lines, 2)[0]
    model.toggle_select()
    lines, _focus = render.hand_lines(model, 140, big=True)
    assert "cursor.selected" in face_styles(lines, 3)[1]
    assert text(lines[1]).count("[") == text(lines[2]).count("]") == 1


async def test_a_click_on_either_line_of_a_face_selects_that_card() -> None:
    model, _session = await seated()
    hand = model.tableview.hand()
    lines, _focus = render.hand_lines(model, 140, big=True)
    faces = [f for f in lines[2] if f[1].startswith("│")]
    up = MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
    faces[5][2](up)  # the bottom line of the sixth card
    assert model.selection.zone == Zone.HAND and model.selection.hand_cursor == 5
    assert [c for c, on in zip(hand, model.selection.selected_flags(), strict=True) if on] == [
        hand[5]
    ]


async def test_more_cards_than_a_row_take_two_rows_and_the_cursor_row_is_in_sight() -> None:
    model, _session = await seated()
    n = len(model.tableview.hand())
    model.selection.zone = Zone.HAND
    model.selection.hand_cursor = n - 1
    width = 8 * -(-n // 2)  # half the hand a row: a face and its gap are 8 cells
    heading = len(render.wrap([(render.hand_heading(model), False, False)], width)[0])
    lines, focus = render.hand_lines(model, width, big=True)
    assert len(lines) == heading + 4 and focus == heading + 2
    assert all(render.width_of(line) <= width for line in lines)
