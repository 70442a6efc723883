"""The moves are pure (tui/moves.py): each returns what to send, say or ask, and sends
nothing itself; TableModel.play carries the outcome out."""

from __future__ import annotations

import asyncio

from rum500.i18n import set_language
from rum500.rules import Game
from rum500.tui import moves
from rum500.tui.model import TableModel
from tests.tui.test_model import seated


def setup_module() -> None:
    set_language("en")


async def test_a_draw_is_an_action_to_send_and_nothing_is_sent() -> None:
    model, _session = await seated()
    outcome = moves.draw_stock(model)
    assert outcome == moves.Send({"type": "draw", "source": "stock"})
    assert model.sent == []  # the move only said what to send
    model.play(outcome)
    assert model.sent == [{"type": "draw", "source": "stock"}]


async def test_a_move_out_of_turn_is_a_line_to_say() -> None:
    model, _session = await seated()
    outcome = moves.discard(model)
    assert isinstance(outcome, moves.Say) and outcome.error
    assert outcome.text.startswith("Draw first")


async def test_discard_selects_first_then_sends() -> None:
    model, session = await seated()
    model.draw_stock()
    for _ in range(5):
        await asyncio.sleep(0)
    card = model.selection.cursor_card()
    first = moves.discard(model)
    assert isinstance(first, moves.Say) and not first.error
    assert model.selection.selected_cards() == [card]
    second = moves.discard(model)
    assert second == moves.Send({"type": "discard", "card": card}) and not model.selection.selected


def test_a_spectator_is_told_so() -> None:
    g = Game(2, seed=1)
    model = TableModel(name="Watcher")
    model.apply_message({"type": "welcome", "seat": None, "table": "t"})
    model.apply_message({"type": "state", "view": g.view(None), "events": []})
    for move in (moves.draw_stock, moves.take_pile, moves.meld_selected, moves.end_hand):
        outcome = move(model)
        assert outcome == moves.Say("You are watching: spectators do not play.", error=True)
