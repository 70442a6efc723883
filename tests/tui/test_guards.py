"""Misplay guards and the small bugs of issue 9, against a real engine (tests/tui/local.py):
the cursor stops at the ends, a selected card under the cursor looks different, d and e ask
first, take back at a solo table, leaving our own table says it closes it, the status line
with an empty stock, plural wording, the lay-off legend, host notices as a banner."""

from __future__ import annotations

from collections import Counter

import pytest

from rum500.i18n import set_language
from rum500.tui import render
from rum500.tui.helptext import help_lines
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel, Zone
from tests.rules.positions import position
from tests.tui.test_model import at_position, keys_of, put_cursor_on, seated, settle


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def text(fragments) -> str:  # type: ignore[no-untyped-def]
    return "".join(f[1] for f in fragments)


def at(game, seat: int = 0, lobby: list[dict] | None = None) -> TableModel:  # type: ignore[no-untyped-def]
    model = TableModel(name="You")
    model.apply_message({"type": "welcome", "seat": seat, "table": "t"})
    if lobby is not None:
        model.apply_message({"type": "lobby", "state": "playing", "seats": lobby})
    model.apply_message({"type": "state", "view": game.view(seat), "events": []})
    return model


async def test_the_hand_cursor_stops_at_both_ends() -> None:
    model, _session = await seated()
    n = len(model.tableview.hand())
    model.selection.move_end()
    assert model.selection.hand_cursor == n - 1
    model.selection.move(1)  # no wrapping round to the first card
    assert model.selection.hand_cursor == n - 1
    model.selection.move_home()
    model.selection.move(-1)
    assert model.selection.hand_cursor == 0
    model.selection.switch_zone(-1)
    assert model.selection.zone == Zone.PILE
    top = len(model.tableview.pile()) - 1
    model.selection.move(1)
    assert model.selection.pile_index() == top


async def test_the_cursor_on_a_selected_card_looks_different() -> None:
    model, _session = await seated()
    hand = model.tableview.hand()
    put_cursor_on(model, hand[1])
    model.toggle_select()
    put_cursor_on(model, hand[3])
    model.toggle_select()  # two selected; the cursor on the second
    lines, _focus = render.hand_lines(model)
    styles = [
        f[0] for line in lines for f in line if f[1] in (render.card(model, c)[0][1] for c in hand)
    ]
    assert sum("class:cursor.selected" in s for s in styles) == 1
    assert sum("class:selected" in s.split() for s in styles) == 1
    # the brackets of the card under the cursor carry the cursor's style too
    assert any(f[1] == "[" and "cursor.selected" in f[0] for line in lines for f in line)


async def test_d_with_nothing_selected_selects_first() -> None:
    model, session = await seated()
    model.draw_stock()
    await settle()
    put_cursor_on(model, model.tableview.hand()[0])
    card = model.selection.cursor_card()
    model.discard()
    await settle()
    assert model.sent == [{"type": "draw", "source": "stock"}]  # nothing discarded yet
    assert model.selection.selected_cards() == [card]
    assert (
        model.feed.message
        == f"Press d again to discard {render.describe.card_text(card)} (or select another card)."
    )
    model.discard()  # the cursor has not moved: d discards the card it selected
    await settle()
    assert model.sent[-1] == {"type": "discard", "card": card}


async def test_e_asks_first_and_shows_the_score() -> None:
    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D", stock="", turn=0)
    sent: list[dict] = []

    async def send(action: dict) -> None:
        sent.append(action)

    model = at(game)
    model.send = send
    assert "e" in keys_of(model)
    model.end_hand()
    assert model.overlay == "confirm" and model.sent == []
    # nothing on the table yet; K K K 5 2 in hand = 37
    assert "You would score -37 (on the table 0, in hand -37)" in model.confirm_text
    assert {k for k, _l, _f in key_bar(model)} == {"y", "n"}
    model.close_overlay()  # n: nothing sent
    assert model.overlay is None and model.sent == []
    model.end_hand()
    model.confirm_yes()
    await settle()
    assert model.sent == [{"type": "end_hand"}] and sent == [{"type": "end_hand"}]


def test_with_the_stock_empty_the_status_never_offers_the_stock() -> None:
    before = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D", stock="", turn=1)
    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D", stock="", turn=0)
    model = at(before)
    model.apply_message({"type": "state", "view": game.view(0), "events": []})  # my turn
    said = model.feed.message  # what the turn's start says
    assert "stock (s)" not in said and said.startswith("Your turn: the stock is empty")
    assert "(t)" in said and "(e)" in said
    model.feed.message = ""
    assert text(render.status(model)) == said
    assert "s" not in keys_of(model)


async def test_take_back_at_a_solo_table() -> None:
    model, session = await at_position(
        2, lambda g: g.phase.value == "play" and any(a["type"] == "meld" for a in g.legal_actions())
    )
    model.apply_message(
        {
            "type": "lobby",
            "state": "playing",
            "seats": [{"name": "You"}, {"name": "Bot 1", "bot": True}],
        }
    )
    assert "u" not in keys_of(model)  # nothing melded yet this turn
    hand = Counter(model.tableview.hand())
    meld = model.tableview.legal("meld")[0]
    model.selection.selected = Counter(meld["cards"])
    model.meld_selected()
    await settle()
    assert Counter(model.tableview.hand()) != hand and "u" in keys_of(model)
    model.take_back()
    await settle()
    assert model.sent[-1] == {"type": "take_back"}
    assert Counter(model.tableview.hand()) == hand and model.tableview.phase == "play"
    assert "u" not in keys_of(model)
    assert any("takes back" in line for line in model.feed.log)


async def test_take_back_is_not_offered_with_another_human() -> None:
    model, session = await at_position(
        2, lambda g: g.phase.value == "play" and any(a["type"] == "meld" for a in g.legal_actions())
    )
    model.apply_message(
        {"type": "lobby", "state": "playing", "seats": [{"name": "You"}, {"name": "Bo"}]}
    )
    meld = model.tableview.legal("meld")[0]
    model.selection.selected = Counter(meld["cards"])
    model.meld_selected()
    await settle()
    assert "u" not in keys_of(model)
    sent = len(model.sent)
    model.take_back()
    assert len(model.sent) == sent
    assert model.feed.message == "Take back is only for a table with no other human."


def test_leaving_a_table_we_host_says_it_closes_it() -> None:
    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D")
    model = at(game, lobby=[{"name": "You"}, {"name": "Bo"}])
    model.host_player.hosting = True
    model.ask_quit()
    assert model.overlay == "quit"
    assert "closes it for everyone" in model.host_player.quit_question()
    solo = at(game, lobby=[{"name": "You"}, {"name": "Bot 1", "bot": True}])
    solo.host_player.hosting = True
    assert "closes it" not in solo.host_player.quit_question()


def test_the_leave_question_never_parts_a_key_from_its_meaning() -> None:
    """At 80 columns the solo question (it says how to resume) wraps, but never between
    "y" and "= leave" (nor "n" and "= stay")."""
    from rum500.tui.overlays import quit

    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D")
    solo = at(game, lobby=[{"name": "You"}, {"name": "Bot 1", "bot": True}])
    solo.host_player.hosting = True
    solo.host_player.saved_game = lambda: 12

    class Kit:
        def screen_width(self) -> int:
            return 80

        def window(self, get_text, **kw):  # type: ignore[no-untyped-def]
            return get_text

    text = "".join(f[1] for f in quit.body(solo, Kit())())  # type: ignore[arg-type, operator]
    lines = text.replace("\u00a0", " ").split("\n")
    assert len(lines) > 1 and all(len(line) <= 74 for line in lines)
    assert not any(line.rstrip().endswith((" y", " n")) for line in lines)
    assert not any(line.lstrip().startswith("=") for line in lines)


def test_take_n_cards_is_said_in_proper_plural() -> None:
    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D 4D")
    model = at(game)
    model.selection.switch_zone(-1)
    assert "← take 1 card" in text(render.pile(model)) and "(s)" not in text(render.pile(model))
    model.selection.move(-1)
    assert "← take 2 cards" in text(render.pile(model))
    set_language("ru")
    try:
        assert "← взять 2 карты" in text(render.pile(model))
        model.selection.move(-1)
        assert "← взять 3 карты" in text(render.pile(model))
    finally:
        set_language("en")


def test_a_lay_off_mark_is_explained_in_words() -> None:
    game = position(
        ["KS KH 5C 2C", "4H 5H 9C"], pile="2D 3D", melds=[("7S 8S 9S", 1), ("QD QH QC", 0)]
    )
    view = game.view(0)
    view["melds"][0]["cards"].append("10S")  # a 10♠ laid off by seat 1 on its own run …
    view["melds"][0]["by"].append(0)  # … no: by seat 0 (the owner is seat 1)
    model = TableModel(name="You")
    model.tableview.names = ["You", "Bo"]
    model.apply_message({"type": "state", "view": view, "events": []})
    shown = text(render.melds(model))
    assert "10♠←1" in shown
    assert "(10♠←1 = 10♠ laid off by player 1, You)" in shown


def test_host_notices_are_a_banner_not_raw_text() -> None:
    game = position(["KS KH KD 5C 2C", "4H 5H 6H 9C"], pile="2D 3D")
    model = at(game)
    model.apply_message(
        {"type": "notice", "code": "log_failed", "text": "the game log\ncould not be written"}
    )
    assert model.feed.notice == "the game log could not be written"
    from rum500.tui.layout import Plan

    assert Plan(model).h["banner"] == 1


def test_ascii_help_keeps_its_columns() -> None:
    lines = help_lines(ascii=True)
    column = {line.index(" move", 2) + 1 for line in lines if "Home" in line}
    space = {line.index("select") for line in lines if line.startswith("  space")}
    assert column == space
    assert not any(ch in line for line in lines for ch in "←→↑↓")
