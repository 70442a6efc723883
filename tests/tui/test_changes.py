"""What changed at the table, and what fits on it: the card just drawn, each opponent's last
turn, the running score of the hand, the hint one key away, away countdowns, the waiting
room's addresses, and the plan of an 80×24 screen for every table size."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from rum500 import cards as C
from rum500.i18n import set_language
from rum500.rules import Game
from rum500.tui import describe, render
from rum500.tui.keys import key_bar
from rum500.tui.layout import Plan
from rum500.tui.model import TableModel, Zone
from tests.tui.test_model import at_position, seated, settle

#: RULES.md §2: what a card left in the hand costs.
COST = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10}


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def text(fragments) -> str:  # type: ignore[no-untyped-def]
    return "".join(f[1] for f in fragments)


def lines_text(lines) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(text(line) for line in lines)


async def test_the_card_just_drawn_is_marked_until_the_turn_ends() -> None:
    model, session = await seated()
    before = Counter(model.tableview.hand())
    model.draw_stock()
    await settle()
    new = Counter(model.tableview.hand()) - before
    assert sum(new.values()) == 1 and model.changes.drawn == new
    card = next(iter(new))
    lines, _focus = render.hand_lines(model)
    frags = [f for line in lines for f in line]
    i = next(k for k, f in enumerate(frags) if f[1] == describe.card_text(card))
    assert frags[i - 1] == ("class:drawn", "+")
    assert "just drawn" in text(render.hand_heading(model))
    model.discard()
    model.discard()
    await settle()
    assert not model.changes.drawn
    assert "+" not in [f[1] for line in render.hand_lines(model)[0] for f in line]


async def test_an_opponents_last_turn_stays_in_sight_during_mine() -> None:
    model, session = await seated()
    model.draw_stock()
    await settle()
    model.discard()
    model.discard()
    await settle()  # the bot has played its turn: it is mine again
    assert model.tableview.my_turn
    game_actions = session.game.actions
    bot_turn = game_actions[-2:]  # the bot's draw and discard
    assert bot_turn[0]["type"] == "draw" and bot_turn[1]["type"] == "discard"
    move = model.changes.moves[1]
    assert move.discarded == bot_turn[1]["card"] and move.source == bot_turn[0]["source"]
    recent = lines_text(render.recent_lines(model))
    assert recent.startswith("Bot 1: ")
    assert f"discarded {describe.card_text(bot_turn[1]['card'])}" in recent
    pile = text(render.pile(model))
    assert pile.endswith(describe.card_text(bot_turn[1]["card"]) + "*")  # marked on the pile
    model.draw_stock()
    await settle()
    assert 1 in model.changes.moves  # still shown while I play


def test_opponents_melds_and_lay_offs_are_highlighted() -> None:
    g = Game(2, seed=3)
    view = g.view(0)
    view["melds"] = [
        {"id": 0, "kind": "run", "cards": ["4H", "5H", "6H"], "by": [1, 1, 1], "owner": 1},
        {"id": 1, "kind": "set", "cards": ["QS", "QH", "QD", "QC"], "by": [0, 0, 0, 1], "owner": 0},
    ]
    model = TableModel(name="You")
    model.apply_message({"type": "welcome", "seat": 0})
    model.apply_message(
        {
            "type": "state",
            "view": view,
            "events": [
                {"type": "draw", "seat": 1, "source": "discard", "cards": ["9C", "2D"]},
                {"type": "meld", "seat": 1, "meld": 0, "cards": ["4H", "5H", "6H"]},
                {"type": "layoff", "seat": 1, "card": "QC", "meld": 1},
                {"type": "discard", "seat": 1, "card": "8S"},
            ],
        }
    )
    frags = [f for line in render.meld_lines(model)[0] for f in line]
    fresh_cards = [f[1] for f in frags if "class:fresh" in f[0].split()]
    assert "Q♣" in fresh_cards and "Q♠" not in fresh_cards
    assert any(f[1] == "[" and f[0] == "class:fresh" for f in frags)  # the new run's frame
    recent = lines_text(render.recent_lines(model))
    assert "took 9♣ 2♦ from the pile (2 cards deep)" in recent
    assert "melded 4♥ 5♥ 6♥" in recent and "laid off Q♣" in recent and "discarded 8♠" in recent
    # the same seat's next turn starts afresh
    model.apply_message(
        {"type": "state", "view": view, "events": [{"type": "draw", "seat": 1, "source": "stock"}]}
    )
    assert lines_text(render.recent_lines(model)) == "Seat 2: drew from the stock"


async def test_the_running_score_of_the_hand_is_always_shown() -> None:
    model, _session = await seated()
    cost = sum(
        COST.get(c[:-1], int(c[:-1]) if c[:-1].isdigit() else 0) for c in model.tableview.hand()
    )
    heading = text(render.hand_heading(model))
    assert f"on the table +0 · in hand -{cost}" in heading
    model.tableview.view = {**model.tableview.view, "hand": []}  # gone out: no "-0"
    heading = text(render.hand_heading(model))
    assert "nothing in hand" in heading and "-0" not in heading, heading


@pytest.mark.parametrize("phase", ["draw", "play"])
async def test_the_hint_is_one_key_from_being_played(phase: str) -> None:
    def want(g) -> bool:  # type: ignore[no-untyped-def]
        if g.phase.value != phase:
            return False
        kinds = {a["type"] for a in g.legal_actions()}
        return phase == "draw" or bool(kinds & {"meld", "layoff"})

    model, session = await at_position(2, want)
    model.hint()
    await model.hint_pending  # worked out off the event loop
    hint = model.feed.message
    assert hint.startswith("Hint: ") and "(press " in hint, hint
    key = hint.split("(press ")[1][0]
    method = {k: f for k, _l, f in key_bar(model)}[key]
    before = model.tableview.view
    sent = len(model.sent)
    method()  # one key plays it: the hint selected the cards / put the cursor there
    await settle()
    assert len(model.sent) == sent + 1
    said = hint[len("Hint: ") : hint.index(" (press")]
    assert describe.action(model.sent[-1], before, model.tableview.player_name) == said


def test_an_away_player_shows_when_a_bot_takes_the_seat() -> None:
    g = Game(3, seed=2)
    view = {**g.view(0), "takeover": [None, 42.0, 0.0]}
    model = TableModel(name="You")
    model.apply_message({"type": "welcome", "seat": 0})
    model.apply_message(
        {
            "type": "lobby",
            "state": "playing",
            "seats": [{"name": "You"}, {"name": "Bo", "away": True}, {"name": "Cy", "away": True}],
        }
    )
    model.apply_message({"type": "state", "view": view, "events": []})
    shown = lines_text(render.players_lines(model))
    assert "Bo (away: bot in 42 s)" in shown or "Bo (away: bot in 41 s)" in shown
    assert "Cy (away: a bot plays)" in shown
    model.apply_message({"type": "state", "view": {**view, "takeover": "junk"}, "events": []})
    assert "bot in" not in lines_text(render.players_lines(model))


def test_the_waiting_room_gives_the_addresses_and_says_waiting() -> None:
    model = TableModel(name="Bob")
    model.apply_message({"type": "welcome", "seat": 1, "table": "Kitchen"})
    model.apply_message(
        {
            "type": "lobby",
            "state": "lobby",
            "seats": [{"name": "Ann"}, {"name": "Bob"}, {}],
            "addresses": ["192.168.1.5:5500", "[fe80::1%eth0]:5500", 7],
        }
    )
    room = lines_text(render.waiting_lines(model))
    assert "2 of 3 seats taken" in room
    assert text(render.status(model)) == "Seated: waiting for players…"
    # eth0 is the host's interface: meaningless on a guest's machine. A guest that reached
    # the host over IPv4 is not shown the link-local address (it has no zone to use with it)
    model.tableview.address = "192.168.1.5:5500"
    room = lines_text(render.waiting_lines(model))
    assert "Friends can join at: 192.168.1.5:5500\n" in room and "fe80" not in room
    # one that reached it over its own link-local link: the address with its own zone
    model.tableview.address = "[fe80::1%wlan0]:5500"
    room = lines_text(render.waiting_lines(model))
    assert "Friends can join at: 192.168.1.5:5500  [fe80::1%wlan0]:5500" in room
    assert "eth0" not in room
    # the host itself lists its own addresses as they are
    model.host_player.hosting = True
    room = lines_text(render.waiting_lines(model))
    assert "Friends can join at: 192.168.1.5:5500  [fe80::1%eth0]:5500" in room


def _crowded(players: int) -> TableModel:
    """A table as crowded as it gets: two decks, a 45-card discard pile, 18 melds, a big
    hand, lay-offs, my turn to draw."""
    g = Game(players, seed=1)
    view = g.view(0)
    deck = [C.name(c) for c in C.deck(2)]
    view["discard_pile"] = deck[:45]
    view["hand"] = deck[45:66]
    melds = []
    cards = iter(deck[66:] * 3)
    for i in range(18):
        size = 3 + i % 4
        melds.append(
            {
                "id": i,
                "kind": "set",
                "cards": list(itertools.islice(cards, size)),
                "by": [i % players] * (size - 1) + [(i + 1) % players],
                "owner": i % players,
            }
        )
    view["melds"] = melds
    view["hand_sizes"] = [len(view["hand"])] + [7] * (players - 1)
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": 0})
    model.apply_message({"type": "state", "view": view, "events": []})
    return model


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_every_table_size_fits_80x24(players: int) -> None:
    model = _crowded(players)
    plan = Plan(model, (80, 24))
    h = plan.h
    assert sum(h.values()) == 24, h
    for part in ("title", "players", "pile", "melds", "hand", "keys", "status"):
        assert h[part] >= 1, (part, h)
    assert h["players"] == len(plan.players)  # every player in sight (two a line from 4)
    assert h["hand"] == len(plan.hand)  # the whole hand
    assert h["melds"] >= 3
    for lines in (plan.players, plan.pile, plan.melds, plan.hand, plan.keys):
        assert all(render.width_of(line) <= 80 for line in lines)
    # the meld under the cursor is in sight however many there are
    model.selection.zone = Zone.MELDS
    model.selection.meld_cursor = 17
    plan = Plan(model, (80, 24))
    assert plan.meld_focus >= 0
    from rum500.tui.layout import _window_of

    shown = _window_of(plan.melds, plan.meld_focus, plan.h["melds"], False)
    assert plan.melds[plan.meld_focus] in shown


def test_the_away_countdown_survives_the_compact_players_block() -> None:
    g = Game(8, seed=2)
    view = {**g.view(0), "takeover": [None, 42.0] + [None] * 6}
    model = TableModel(name="You")
    model.apply_message({"type": "welcome", "seat": 0})
    model.apply_message(
        {
            "type": "lobby",
            "state": "playing",
            "seats": [{"name": "You"}, {"name": "Bartholomew", "away": True}]
            + [{"name": f"Bot {i}", "bot": True} for i in range(2, 8)],
        }
    )
    model.apply_message({"type": "state", "view": view, "events": []})
    lines = render.players_lines(model, 80)
    shown = lines_text(lines)
    assert "Bar (bot in 42 s)" in shown or "Bar (bot in 41 s)" in shown
    assert all(render.width_of(line) <= 80 for line in lines)
    # two players a line: the player's own row still says so in words, not by colour alone
    assert " 1 You (you)" in shown or " 1 You (D) (you)" in shown, shown


def test_with_no_room_for_the_log_the_newest_chat_line_stays_in_sight() -> None:
    model = _crowded(8)
    model.tableview.view["melds"] += [
        {**m, "id": m["id"] + 18} for m in model.tableview.view["melds"]
    ]
    assert Plan(model, (80, 24)).h["log"] == 0
    model.apply_message({"type": "chat", "seat": 1, "name": "Bo", "text": "nice meld"})
    plan = Plan(model, (80, 24))
    assert plan.h["chat"] == 1 and sum(plan.h.values()) == 24
    assert text(render.last_chat(model)) == "Chat: Bo: nice meld"


def test_a_turn_cut_short_in_the_recent_lines_ends_with_an_ellipsis() -> None:
    """At 80 columns a long turn takes two lines; with room for one the line shown ends in
    "…", not on a dangling "·", and a line that is a turn's end is shown as it is."""
    g = Game(4, seed=3)
    view = g.view(0)
    model = TableModel(name="You")
    model.apply_message({"type": "welcome", "seat": 0})
    events = [
        {"type": "draw", "seat": 3, "source": "discard", "cards": ["10H", "3S", "JH", "AD"]},
        {"type": "meld", "seat": 3, "meld": 0, "cards": ["10S", "10H", "10C"]},
        {"type": "layoff", "seat": 3, "card": "JH", "meld": 1},
        {"type": "discard", "seat": 3, "card": "QC"},
    ]
    view["melds"] = [
        {"id": 0, "kind": "set", "cards": ["10S", "10H", "10C"], "by": [3, 3, 3], "owner": 3},
        {"id": 1, "kind": "run", "cards": ["9H", "10D", "JH"], "by": [1, 1, 3], "owner": 1},
    ]
    model.apply_message({"type": "state", "view": view, "events": events})
    lines = render.recent_lines(model, 80)
    assert len(lines) == 2, lines_text(lines)
    one = lines_text(render.recent_shown(lines, 1, 80))
    assert one.endswith(" …") and not one.endswith("· …") and "discarded" not in one, one
    assert render.width_of(render.recent_shown(lines, 1, 80)[0]) <= 80
    assert lines_text(render.recent_shown(lines, 2, 80)) == lines_text(lines)
    assert "discarded Q♣" in lines_text(lines)


def test_players_are_told_who_starts_and_stops_watching() -> None:
    """A spectator's arrival and departure are in every log (the seats list says who
    watches); who watched already when this player came is not news, nor is a reconnection
    (the host numbers its spectators afresh)."""
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": 0})
    seats = [{"name": "Ann"}, {"name": "Bob"}]

    def lobby(*watchers: tuple[int, str]) -> None:
        model.apply_message(
            {
                "type": "lobby",
                "state": "playing",
                "seats": seats,
                "watchers": [{"id": i, "name": n} for i, n in watchers],
            }
        )

    lobby((5, "Dee"))
    assert not any("watching" in line for line in model.feed.log)
    lobby((5, "Dee"), (7, "Cat"))
    assert model.feed.log[-1] == "Cat is watching this table."
    lobby((7, "Cat"))
    assert model.feed.log[-1] == "Dee stopped watching."
    model.apply_message({"type": "welcome", "seat": 0})
    lobby((2, "Cat"))  # the same spectator, at the next host (another number)
    assert model.feed.log[-1] == "Dee stopped watching."
