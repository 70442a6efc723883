"""The table screen model's parts on their own (issue 23): TableView (what the host sent),
Selection (the cursor and selected cards), Feed (log, chat, message, banner) and HostPlayer
(what our own host lets its player do), each without the coordinator."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

from rum500.i18n import set_language
from rum500.tui.feed import CHAT_LINES, LOG_LINES, Feed
from rum500.tui.hostplayer import HostPlayer
from rum500.tui.model import TableModel
from rum500.tui.selection import Selection
from rum500.tui.tableview import TableView
from rum500.tui.zones import Zone


def _view(**over: object) -> dict:
    view = {
        "players": 2,
        "seat": 0,
        "turn": 0,
        "phase": "play",
        "dealer": 1,
        "hand_number": 1,
        "hand": ["KS", "2H", "AS", "2H"],
        "melds": [{"cards": ["3C", "4C", "5C"]}, {"cards": ["9D", "9S", "9H"]}],
        "discard_pile": ["7D", "8D", "JC"],
        "legal_actions": [{"type": "discard", "card": "KS"}],
    }
    view.update(over)
    return view


# ---------------------------------------------------------------------- TableView


def test_the_view_pads_names_to_the_seats_and_marks_the_end() -> None:
    tv = TableView()
    tv.take_view(_view(names=["Ann"], players=3))
    assert tv.names == ["Ann", "", ""]
    assert tv.player_name(2) == "Seat 3" and tv.player_name(None) == "?"
    assert not tv.finished
    tv.take_view(_view(phase="game_over"))
    assert tv.finished and not tv.in_progress


def test_the_view_keeps_only_sane_away_countdowns() -> None:
    tv = TableView()
    tv.take_view(_view(takeover=[5, -1, float("nan"), None]))
    assert set(tv.takeover) == {0}
    assert tv.takeover_in(0) in (4, 5)


def test_the_lobby_returns_its_log_lines_instead_of_writing_them() -> None:
    tv = TableView()
    assert tv.take_lobby({"seats": [{"name": "Ann", "away": True}, {"name": "Bo"}]}) == []
    assert tv.names == ["Ann", "Bo"] and tv.away == {0}
    said = tv.take_lobby({"seats": [], "hint": False})
    assert said == ["The host turned the hint off for everyone at this table."]
    assert tv.hint_allowed is False
    assert tv.take_lobby({"seats": [], "hint": False}) == []  # said once


def test_the_welcome_names_the_table_its_options_and_my_seat() -> None:
    tv = TableView()
    tv.take_welcome({"table": "Den", "seat": None, "info": {"changed": {"jokers": 2}}})
    assert (tv.table_name, tv.spectator, tv.my_seat) == ("Den", True, None)
    assert tv.table_options == {"jokers": 2}


def test_the_hand_is_shown_by_suit_or_by_rank() -> None:
    tv = TableView()
    tv.take_view(_view())
    by_suit = tv.hand()
    tv.sort_mode = "rank"
    assert sorted(tv.hand()) == sorted(by_suit)
    assert tv.hand() != by_suit
    assert tv.in_hand_order(["??", "2H"]) == ["2H", "??"]  # an unreadable card goes last


# ---------------------------------------------------------------------- Selection


def _selection() -> Selection:
    tv = TableView()
    tv.take_view(_view())
    return Selection(tv)  # it reads the view through the TableView it is given


def test_the_cursor_stops_at_both_ends_of_each_zone() -> None:
    sel = _selection()
    sel.move(-1)
    assert sel.hand_cursor == 0
    sel.move(10)
    assert sel.hand_cursor == 3
    sel.zone = Zone.PILE
    sel.move(1)
    assert sel.pile_index() == 2  # the top card, still
    sel.move_home()
    assert sel.pile_cursor == 0
    sel.zone = Zone.MELDS
    sel.move_end()
    assert sel.meld_cursor == 1


def test_switching_zones_skips_the_melds_while_there_are_none() -> None:
    sel = _selection()
    sel.switch_zone(-1)
    assert sel.zone == Zone.MELDS
    sel.tableview.take_view(_view(melds=[]))
    sel.zone = Zone.HAND
    sel.switch_zone(-1)
    assert sel.zone == Zone.PILE


def test_copies_are_selected_one_at_a_time() -> None:
    sel = _selection()
    twos = [i for i, c in enumerate(sel.tableview.hand()) if c == "2H"]
    sel.flip_selected(twos[0])
    assert sel.selected == Counter({"2H": 1})
    sel.flip_selected(twos[1])
    assert sel.selected_cards() == ["2H", "2H"]
    sel.flip_selected(twos[1])
    sel.flip_selected(twos[0])
    assert not sel.selected


def test_the_new_view_keeps_the_cursor_and_selection_inside_it() -> None:
    sel = _selection()
    sel.selected = Counter({"KS": 1, "2H": 2})
    sel.hand_cursor, sel.meld_cursor, sel.pile_cursor = 3, 1, 2
    sel.choosing_meld_for = "KS"
    view = _view(hand=["2H", "AS"], melds=[{"cards": ["3C", "4C", "5C"]}], discard_pile=["7D"])
    sel.tableview.take_view(view)
    sel.follow_view(view)
    assert sel.selected == Counter({"2H": 1})
    assert (sel.hand_cursor, sel.meld_cursor, sel.pile_cursor) == (1, 0, None)
    assert sel.choosing_meld_for is None


def test_sorting_keeps_the_cursor_on_its_card() -> None:
    sel = _selection()
    sel.hand_cursor = 1
    card = sel.cursor_card()
    sel.flip_sort()
    assert sel.tableview.sort_mode == "rank" and sel.cursor_card() == card


# ---------------------------------------------------------------------- Feed


def test_the_feed_keeps_its_bounds() -> None:
    feed = Feed()
    for i in range(LOG_LINES + 5):
        feed.log.append(str(i))
    for i in range(CHAT_LINES + 5):
        feed.heard_chat("Ann", i)
    assert len(feed.log) == LOG_LINES and feed.log[0] == "5"
    assert len(feed.chat_lines) == CHAT_LINES and feed.chat_lines[-1] == f"Ann: {CHAT_LINES + 4}"
    feed.chat_type("x" * 250)
    feed.chat_type("y")
    assert feed.chat_input == "x" * 250  # typing stops once the line is 200 long
    feed.chat_backspace()
    assert len(feed.chat_input) == 249


def test_a_notice_is_one_line_in_the_banner_and_the_log() -> None:
    feed = Feed()
    feed.heard_notice({"text": "the  host\nsays " + "a" * 300})
    assert feed.notice.startswith("the host says ") and len(feed.notice) == 200
    assert feed.log[-1] == feed.notice


def test_the_banner_counts_the_rejoin_down() -> None:
    changed = []
    feed = Feed(lambda: changed.append(1))
    feed.banner = "Connection lost"
    assert feed.banner_now() == "Connection lost" and feed.rejoin_left() is None
    feed.link_down, feed.rejoin_until = True, time.monotonic() + 30
    assert "trying to rejoin for" in feed.banner_now()
    feed.say("hello", error=True)
    assert (feed.message, feed.message_is_error, changed) == ("hello", True, [1])


# ---------------------------------------------------------------------- HostPlayer


def test_the_host_player_keys_are_off_at_someone_elses_table() -> None:
    model = TableModel()
    assert isinstance(model.host_player, HostPlayer)
    assert not model.host_player.can_start() and not model.host_player.can_set_table_hint()
    model.host_player.offer_handoff()
    assert model.feed.message == "Only the host player can hand the table over."
    model.host_player.toggle_table_hint()
    assert "Only the host player" in model.feed.message


def test_the_host_player_starts_with_bots_from_the_lobby_only() -> None:
    model = TableModel()
    started = []
    model.host_player.start_now = lambda: started.append(1)
    model.tableview.lobby = {"state": "lobby", "seats": []}
    assert model.host_player.can_start()
    model.host_player.start_with_bots()
    assert started == [1] and model.feed.message == "Bots take the free seats: the match begins."
    model.tableview.take_view(_view())
    assert not model.host_player.can_start()


def test_handing_over_asks_whose_machine_then_the_seat() -> None:
    model = TableModel()
    model.tableview.take_view(_view(names=["Ann", "Bo"]))
    model.host_player.host_here(lambda: [(1, "Bo")], lambda seat, leave_to_bot=False: None)
    model.host_player.offer_handoff()
    assert model.overlay == "choose" and [label for label, _a in model.choices] == ["Bo"]
    model.choose_pick(0)
    assert model.choose_text == "Hand the table to Bo's machine, and your seat?"
    assert len(model.choices) == 2


def test_the_host_player_on_its_own_hands_over_through_its_port() -> None:
    """Built with its port alone (a table view, a feed, ask / spawn / exit): whose machine,
    then the seat, then the handing over — and the screen left when the seat goes to a bot."""
    tv, feed = TableView(), Feed()
    tv.take_view(_view(names=["Ann", "Bo"]))
    asked: list[tuple[str, list[str], Callable[[int], None]]] = []
    spawned: list[Coroutine[Any, Any, None]] = []
    handed: list[tuple[int, bool]] = []
    left: list[int] = []

    async def hand_over(seat: int, leave_to_bot: bool = False) -> None:
        handed.append((seat, leave_to_bot))

    player = HostPlayer(
        tv,
        feed,
        ask=lambda question, labels, answer: asked.append((question, labels, answer)),
        spawn=spawned.append,
        exit=lambda: left.append(1),
    )
    player.host_here(lambda: [(1, "Bo")], hand_over)
    player.offer_handoff()
    assert [labels for _q, labels, _a in asked] == [["Bo"]]
    asked[-1][2](0)
    question, labels, answer = asked[-1]
    assert question == "Hand the table to Bo's machine, and your seat?" and len(labels) == 2
    answer(1)
    asyncio.run(spawned[0])
    assert handed == [(1, True)] and left == [1] and not player.hosting
    assert feed.log[-1] == "The table moved to Bo's machine."


def test_a_translated_notice_is_never_cut() -> None:
    """The 200-character bound is on the host's own words, not on their translation: a
    Russian sentence from our catalog with a long value in it is shown whole."""
    set_language("ru")
    try:
        feed = Feed()
        why = "x" * 190
        feed.heard_notice(
            {
                "code": "handoff_failed",
                "text": f"the table stays here: the handoff failed ({why})",
                "template": "the table stays here: the handoff failed ({why})",
                "params": {"why": why},
            }
        )
        assert len(feed.notice) > 200 and feed.notice.endswith(f"({why})")
        assert feed.notice != f"the table stays here: the handoff failed ({why})"  # Russian
    finally:
        set_language("en")
