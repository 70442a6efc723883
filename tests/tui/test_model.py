"""The table model against a real engine (tests/tui/local.py): what is offered, what is sent,
what is refused and how it is explained."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from rum500.bots import make_bot
from rum500.i18n import set_language
from rum500.rules import Game, Options
from rum500.tui import keys, render, sheets
from rum500.tui.keys import key_bar
from rum500.tui.model import Refused, TableModel, Zone
from tests.rules.positions import position
from tests.tui.local import LocalSession


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def seated(players: int = 2, seed: int = 7, **kw: object) -> tuple[TableModel, LocalSession]:
    session = LocalSession(players=players, seed=seed, **kw)  # type: ignore[arg-type]
    model = TableModel(name="You")
    model.send = session.act
    model.send_chat = session.chat
    task = asyncio.ensure_future(session.pump(model))
    await settle()
    model._pump = task  # type: ignore[attr-defined]
    return model, session


def keys_of(model: TableModel) -> set[str]:
    return {k for k, _label, _fn in key_bar(model)}


def put_cursor_on(model: TableModel, card: str) -> None:
    model.selection.zone = Zone.HAND
    model.selection.hand_cursor = model.tableview.hand().index(card)


async def test_draw_phase_offers_only_draws() -> None:
    model, session = await seated()
    assert model.tableview.my_turn and model.tableview.phase == "draw"
    keys = keys_of(model)
    assert "s" in keys
    assert not keys & {"m", "l", "d", "n"}
    model.discard()
    assert model.sent == []
    assert "Draw first" in model.feed.message


async def test_draw_from_stock_then_discard_under_cursor() -> None:
    model, session = await seated()
    before = len(model.tableview.hand())
    model.draw_stock()
    await settle()
    assert model.sent == [{"type": "draw", "source": "stock"}]
    assert model.tableview.phase == "play" and len(model.tableview.hand()) == before + 1
    assert "d" in keys_of(model) and "s" not in keys_of(model)
    model.selection.move(1)
    model.selection.move(1)
    card = model.selection.cursor_card()
    assert card is not None
    model.discard()  # nothing selected: the first d only selects the card under the cursor
    await settle()
    assert model.sent == [{"type": "draw", "source": "stock"}]
    assert model.selection.selected_cards() == [card] and "Press d again" in model.feed.message
    model.discard()
    await settle()
    assert model.sent[-1] == {"type": "discard", "card": card}
    assert {"type": "discard", "card": card} in session.game.actions
    assert Counter(model.tableview.hand()) == Counter(session.game.view(0)["hand"])


async def test_the_cursor_moved_after_a_first_d_retargets_the_discard() -> None:
    """d selected the card under the cursor; the player moves the cursor to another card
    and presses d: that card is selected instead (never the one left behind), and the next
    d discards it. A card selected with space stays the one discarded."""
    model, session = await seated()
    model.draw_stock()
    await settle()
    first = model.selection.cursor_card()
    model.discard()
    model.selection.move(1)
    other = model.selection.cursor_card()
    assert other is not None and other != first
    model.discard()
    await settle()
    assert model.sent == [{"type": "draw", "source": "stock"}]  # nothing discarded yet
    assert model.selection.selected_cards() == [other] and "Press d again" in model.feed.message
    model.discard()
    await settle()
    assert model.sent[-1] == {"type": "discard", "card": other}
    assert {"type": "discard", "card": other} in session.game.actions


async def test_space_selects_and_sort_keeps_cursor() -> None:
    model, _session = await seated()
    model.selection.move(3)
    card = model.selection.cursor_card()
    model.toggle_select()
    assert model.selection.selected_cards() == [card]
    model.toggle_sort()
    assert model.tableview.sort_mode == "rank" and model.selection.cursor_card() == card
    assert model.selection.selected_cards() == [card]
    model.toggle_select()
    assert model.selection.selected_cards() == []


def find_position(players: int, want, seeds=range(40), limit: int = 400):  # type: ignore[no-untyped-def]
    """(seed, actions) of the first position, seat 0 to move, where ``want(game)`` holds,
    reached by random bots."""
    for seed in seeds:
        g = Game(players, seed=seed)
        bots = [make_bot("random", seed=s) for s in range(players)]
        actions = []
        for _ in range(limit):
            if g.to_move is None:
                break
            if g.to_move == 0 and want(g):
                return seed, actions
            a = bots[g.to_move].choose(g.view(g.to_move))
            g.apply(a)
            actions.append(a)
    raise AssertionError("no such position found")


async def at_position(players: int, want) -> tuple[TableModel, LocalSession]:  # type: ignore[no-untyped-def]
    seed, actions = find_position(players, want)
    model, session = await seated(players=players, seed=seed, autoplay=False)
    g = session.game = Game(players, seed=seed)
    for a in actions:
        g.apply(a)
    session._push([])
    return model, session


async def test_meld_selected_cards() -> None:
    model, session = await at_position(
        2, lambda g: g.phase.value == "play" and any(a["type"] == "meld" for a in g.legal_actions())
    )
    meld = next(a for a in model.tableview.legal("meld"))
    for card in meld["cards"]:
        put_cursor_on(model, card)
        model.toggle_select()
    assert Counter(model.selection.selected_cards()) == Counter(meld["cards"])
    model.meld_selected()
    await settle()
    assert model.sent[-1]["type"] == "meld"
    assert Counter(model.sent[-1]["cards"]) == Counter(meld["cards"])
    table = model.tableview.view["melds"]
    assert any(Counter(m["cards"]) == Counter(meld["cards"]) and m["owner"] == 0 for m in table)
    assert model.selection.selected_cards() == []


async def test_two_cards_are_not_a_meld() -> None:
    model, session = await at_position(2, lambda g: g.phase.value == "play")
    for card in model.tableview.hand()[:2]:
        put_cursor_on(model, card)
        model.toggle_select()
    sent = len(model.sent)
    model.meld_selected()
    assert len(model.sent) == sent
    assert model.feed.message_is_error and "three or more" in model.feed.message


async def test_card_dug_for_must_be_played_before_discarding() -> None:
    model, session = await at_position(
        2,
        lambda g: (
            g.phase.value == "draw" and any(a.get("source") == "discard" for a in g.legal_actions())
        ),
    )
    index = min(model.tableview.legal_pile_indices())
    dug = model.tableview.pile()[index]
    model.selection.switch_zone(-1)
    model.selection.switch_zone(-1)
    assert model.selection.zone == Zone.PILE
    model.selection.pile_cursor = index
    model.take_pile()
    await settle()
    assert model.sent[-1] == {"type": "draw", "source": "discard", "index": index}
    assert model.tableview.view["must_play"] == dug
    fragments = render.hand(model)
    assert any("class:must" in style for style, *_rest in fragments)
    put_cursor_on(model, next(c for c in model.tableview.hand() if c != dug))
    sent = len(model.sent)
    model.discard()
    assert len(model.sent) == sent
    assert model.feed.message == f"{_shown(dug)} must be played this turn."
    assert "d" not in keys_of(model)


def _shown(card: str) -> str:
    from rum500.tui.describe import card_text

    return card_text(card)


async def test_a_depth_that_cannot_be_taken_is_explained() -> None:
    model, session = await at_position(
        2,
        lambda g: (
            g.phase.value == "draw"
            and len(g.pile) >= 2
            and (len(g.pile) - 2) not in {a.get("index") for a in g.legal_actions()}
        ),
    )
    model.selection.zone = Zone.PILE
    model.selection.pile_cursor = len(model.tableview.pile()) - 2
    model.take_pile()
    assert model.sent == []
    assert model.feed.message.startswith("You may not take")


async def test_layoff_on_the_only_meld_it_fits() -> None:
    model, session = await at_position(
        2,
        lambda g: g.phase.value == "play" and any(a["type"] == "layoff" for a in g.legal_actions()),
    )
    layoff = model.tableview.legal("layoff")[0]
    put_cursor_on(model, layoff["card"])
    model.toggle_select()
    fits = [a for a in model.tableview.legal("layoff") if a["card"] == layoff["card"]]
    model.lay_off()
    if len(fits) > 1:  # a meld must be chosen first
        assert (
            model.selection.zone == Zone.MELDS
            and model.selection.choosing_meld_for == layoff["card"]
        )
        model.selection.meld_cursor = next(
            i for i, m in enumerate(model.tableview.melds()) if m["id"] == layoff["meld"]
        )
        model.enter()
    await settle()
    assert model.sent[-1] == {
        "type": "layoff",
        "card": layoff["card"],
        "meld": layoff["meld"],  # the meld chosen (the only one it fits, or the one picked)
    }
    meld = next(m for m in model.tableview.view["melds"] if m["id"] == model.sent[-1]["meld"])
    assert layoff["card"] in meld["cards"]


async def test_host_refusal_is_one_line() -> None:
    model, session = await seated()
    model._submit({"type": "discard", "card": "AS"})
    await settle()
    assert model.feed.message_is_error
    assert "\n" not in model.feed.message and model.feed.message


async def test_refused_exception_from_send_becomes_message() -> None:
    async def refuse(action: dict) -> None:
        raise Refused("9D must be played this turn")

    model, _session = await seated()
    set_language("ru")
    try:
        model.send = refuse
        model._submit({"type": "draw", "source": "stock"})
        await settle()
        assert model.feed.message == "9♦ нужно сыграть в этот ход."
    finally:
        set_language("en")


async def test_refusals_are_translated_by_their_template() -> None:
    """The rules' refusals (template + parameters) read in Russian, cards included."""
    game = position(["KS AS 2S 5D", "4H 5H 6H"], pile="2C", phase="play")
    model = TableModel(name="You")
    model.apply_message({"type": "state", "view": game.view(0), "events": []})
    set_language("ru")
    try:
        # the local check of a meld says exactly why, in the player's language
        model.selection.selected = Counter(["KS", "AS", "2S"])
        model.meld_selected()  # shown in hand order: 2♠ К♠ Т♠
        why = "серия не может идти через туз (К-Т-2)"
        assert model.feed.message == f"2♠ К♠ Т♠ — не комбинация: {why}."

        async def refuse(action: dict) -> None:
            raise Refused("you do not hold QS", "you do not hold {card}", {"card": "QS"})

        model.send = refuse
        model.spawn = asyncio.ensure_future
        model._submit({"type": "discard", "card": "5D"})
        await settle()
        assert model.feed.message == "У вас нет Д♠."
    finally:
        set_language("en")


async def test_whole_match_score_sheet_and_final_chart() -> None:
    session = LocalSession(players=3, seed=3, target=60, autoplay=False)
    model = TableModel(name="You")
    session.models.append(model)
    model.apply_message(
        {"type": "lobby", "state": "playing", "seats": [{"name": n} for n in ("You", "Bo", "Cy")]}
    )
    g = session.game
    bots = [make_bot("random", seed=s) for s in range(3)]
    shown = 0
    while g.to_move is not None:
        events = g.apply(bots[g.to_move].choose(g.view(g.to_move)))
        session._push(events)
        if any(e["type"] == "hand_end" for e in events):
            shown += 1
            assert model.overlay in ("sheet", "final") and model.sheet is not None
            text = "".join(t for line in sheets.review_lines(model) for _s, t, *_h in line)
            assert "Bo" in text and "Total" in text
            model.close_overlay()
    assert model.overlay == "final" and model.tableview.finished and shown >= 1
    text = "".join(t for _s, t, *_h in render.final(model))
    assert "standings" in text and "Cy" in text
    winner = model.tableview.view["winner"]
    assert text.index(model.tableview.player_name(winner)) < min(
        text.index(model.tableview.player_name(s)) for s in range(3) if s != winner
    )
    assert any(m in text for m in render.SERIES_MARKS)


async def test_chat_and_quit() -> None:
    model, session = await seated()
    left = []
    model.exit = lambda: left.append(True)
    model.open_chat()
    for ch in "hi all":
        model.feed.chat_type(ch)
    model.chat_send()
    await settle()
    assert session.chats == ["hi all"] and model.feed.chat_lines[-1].endswith("hi all")
    model.ask_quit()
    assert model.overlay == "quit" and not left
    model.close_overlay()
    assert model.overlay is None
    model.ask_quit()
    model.confirm_quit()
    assert left == [True]


async def test_spectator_cannot_play() -> None:
    g = Game(2, seed=1, options=Options(target=100))
    model = TableModel(name="Watcher")
    model.apply_message({"type": "welcome", "seat": None, "table": "t"})
    model.apply_message({"type": "state", "view": g.view(None), "events": []})
    model.draw_stock()
    assert model.sent == [] and "watching" in model.feed.message
    assert "s" not in keys_of(model)


async def test_hint_names_a_legal_move() -> None:
    model, _session = await seated()
    model.hint()
    await model.hint_pending  # worked out off the event loop
    assert model.feed.message.startswith("Hint: ")
    assert "stock" in model.feed.message or "discard pile" in model.feed.message


async def test_mouse_clicks_select_choose_depth_and_meld() -> None:
    model, _session = await seated()
    model.click_hand(2)
    assert model.selection.zone == Zone.HAND and model.selection.selected_cards() == [
        model.tableview.hand()[2]
    ]
    model.click_hand(2)
    assert model.selection.selected_cards() == []
    model.click_pile(0)
    assert model.selection.zone == Zone.PILE and model.selection.pile_index() == 0
    fragments = render.pile(model)
    assert any("class:take" in f[0] for f in fragments)
    clickable = [f for f in keys.actions(model) if len(f) == 3 and f[1] == "s"]
    assert clickable, "the draw key is not clickable"
    from prompt_toolkit.data_structures import Point
    from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

    clickable[0][2](MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset()))
    await settle()
    assert model.sent == [{"type": "draw", "source": "stock"}]


async def test_a_hand_ending_while_chatting_keeps_the_chat_then_shows_the_sheet() -> None:
    session = LocalSession(players=2, seed=4, autoplay=False)
    model = TableModel(name="You")
    session.models.append(model)
    g = session.game
    bots = [make_bot("random", seed=s) for s in range(2)]
    session._push([])
    model.open_chat()
    model.feed.chat_type("g")
    while g.phase.value not in ("hand_over", "game_over"):
        session._push(g.apply(bots[g.to_move].choose(g.view(g.to_move))))
    assert model.overlay == "chat" and model.feed.chat_input == "g" and model.sheet is not None
    model.close_overlay()
    assert model.overlay == "sheet"
    model.toggle_help()
    model.toggle_help()
    assert model.overlay == "sheet"
    model.close_overlay()
    assert model.overlay is None and model.sheet is None


async def test_second_click_on_a_pile_card_takes_from_there() -> None:
    model, _session = await seated()
    top = len(model.tableview.pile()) - 1
    model.click_pile(top)
    assert model.sent == [] and model.selection.zone == Zone.PILE
    legal = top in model.tableview.legal_pile_indices()
    model.click_pile(top)
    await settle()
    if legal:
        assert model.sent == [{"type": "draw", "source": "discard", "index": top}]
    else:
        assert model.sent == [] and model.feed.message.startswith("You may not take")


def _text(fragments: object) -> str:
    return "".join(f[1] for f in fragments)  # type: ignore[attr-defined]


async def test_the_pile_and_hand_marks_go_once_they_are_no_longer_true() -> None:
    """The pile's "← take" only while this seat draws; "+ just drawn" only while a card
    drawn is still in the hand."""
    model, session = await seated()
    model.click_pile(len(model.tableview.pile()) - 1)  # the cursor on the pile
    assert "← take 1 card" in _text(render.pile(model))
    model.draw_stock()
    await settle()
    model.selection.zone = Zone.PILE  # the cursor back on the pile after the draw
    assert "← take" not in _text(render.pile(model))  # drawn from the stock: nothing to take
    assert "just drawn" in _text(render.hand_heading(model))
    drawn = next(iter(model.changes.drawn))
    model.tableview.view = dict(model.tableview.view)  # the drawn card leaves the hand
    model.tableview.view["hand"] = [c for c in model.tableview.view["hand"] if c != drawn]
    assert "just drawn" not in _text(render.hand_heading(model))


def test_a_bot_named_by_the_host_is_named_in_the_players_language() -> None:
    """The host names its bots "Bot N" (the wire's words, in the log too): a Russian
    player's screen says "Бот N"; a person who chose the name "Bot 2" keeps it."""
    model = TableModel(name="Ann")
    lobby = {
        "type": "lobby",
        "seats": [{"name": "Ann"}, {"name": "Bot 1", "bot": True}, {"name": "Bot 2"}],
    }
    try:
        set_language("ru")
        model.tableview.take_lobby(lobby)
        assert model.tableview.names == ["Ann", "Бот 1", "Bot 2"]
        assert model.tableview.player_name(1) == "Бот 1"
        set_language("en")
        model.tableview.take_lobby(lobby)
        assert model.tableview.names == ["Ann", "Bot 1", "Bot 2"]
    finally:
        set_language("en")


def test_the_log_names_a_lay_offs_meld_by_its_cards() -> None:
    """The screen numbers no meld: a lay-off in the log names the meld it went on by the
    cards it held before (the log said only "Ann lays off 4♥.")."""
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": 0, "table": "t"})
    view = Game(2, seed=6).view(0)
    view["names"] = ["Ann", "Bob"]
    view["melds"] = [
        {"id": 0, "kind": "set", "cards": ["9S", "9D", "9C"], "by": [1, 1, 1], "owner": 1},
        {"id": 1, "kind": "run", "cards": ["4H", "5H", "6H", "7H"], "by": [0, 1, 1, 1], "owner": 1},
        {"id": 2, "kind": "set", "cards": ["KS", "KD", "KC", "KH"], "by": [1, 1, 1, 0], "owner": 1},
    ]
    events = [
        {"type": "layoff", "seat": 0, "card": "4H", "meld": 1},
        {"type": "layoff", "seat": 0, "card": "KH", "meld": 2},
    ]
    model.apply_message({"type": "state", "view": view, "events": events})
    assert list(model.feed.log)[-2:] == [
        "Ann lays off 4♥ on 5♥ 6♥ 7♥.",
        "Ann lays off K♥ on K♠ K♦ K♣.",
    ]
