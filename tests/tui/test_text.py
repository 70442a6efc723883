"""Text a player must read is never cut (issue 22 §4): the help, the log and the status line
wrap between words at 80 columns, in English and in Russian; ``--ascii`` never ends a cut
in a lone "."; and the smaller slips of the same issue — a doubled stop, two minus signs, a
joker's card dropped from the turn summary, unsorted hands in the review, the went-out mark
beside the wrong column, the table's options missing from the lobby and the waiting room,
the host's interface name shown to guests, the hint the host could not turn off, a solo
match left without a word of ``play --resume``. (The same at a real 80×24 terminal:
tests/e2e/test_tmux_text.py.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from rum500.i18n import set_language
from rum500.tui import describe, render, sheets
from rum500.tui.changes import Changes
from rum500.tui.helptext import help_lines
from rum500.tui.keys import key_bar
from rum500.tui.layout import Plan
from rum500.tui.lobby import LobbyModel, _lobby_text
from rum500.tui.model import TableModel


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def text(fragments) -> str:  # type: ignore[no-untyped-def]
    return "".join(f[1] for f in fragments)


def lines_text(lines) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(text(line) for line in lines)


def words(s: str) -> list[str]:
    return s.split()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ascii", [False, True])
def test_the_help_wraps_at_80_columns_and_loses_no_word(lang: str, ascii: bool) -> None:
    set_language(lang)
    options = {"jokers": True, "rummy_calls": True, "teams": 2, "ace_always_15": True}
    whole = help_lines(ascii, options, hosting=True)
    for width in (76, 60):  # the help's frame at 80 columns, and a narrower one
        shown = help_lines(ascii, options, hosting=True, width=width)
        assert all(render.width_of([("", line)]) <= width for line in shown)
        assert words("\n".join(shown)) == words("\n".join(whole))
    # the example: "(none selected: the first d sele…" — now whole, on two rows
    shown = "\n".join(help_lines(ascii, options, hosting=True, width=76))
    if lang == "en":
        assert re.search(r"the first d\s+selects the card under the cursor", shown)
        assert re.search(r"When the\s+stock is\s+empty", shown)
    # a key's description goes on under the description, not under the key
    narrow = help_lines(ascii, options, hosting=True, width=60)
    d = next(i for i, line in enumerate(narrow) if line.startswith("  d "))
    assert re.match(r" {17}\S", narrow[d + 1])


def _table(**kw) -> TableModel:  # type: ignore[no-untyped-def]
    model = TableModel(name="Ann", ascii=kw.pop("ascii", False))
    model.tableview.names = ["Ann", "Bea"]
    for k, v in kw.items():
        setattr(model, k, v)
    return model


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ascii", [False, True])
def test_a_refusal_in_the_status_line_is_read_whole(lang: str, ascii: bool) -> None:
    set_language(lang)
    model = _table(ascii=ascii)
    why = describe.refusal(
        "you may not take 2S: it must be played this turn and no meld or lay-off could take it",
        ascii=ascii,
    )
    model.feed.say(why, error=True)
    plan = Plan(model, (80, 24))
    shown = lines_text(plan.status[: plan.h["status"]])
    assert plan.h["status"] >= 2  # two rows: the status area grows
    assert words(shown) == words(why.translate(render_ascii()) if ascii else why)
    assert all(render.width_of(line) <= 80 for line in plan.status)
    assert plan.bottom() == plan.h["keys"] + plan.h["status"]  # the overlays leave it free


def render_ascii():  # type: ignore[no-untyped-def]
    from rum500.tui.wrapping import ASCII_TEXT

    return ASCII_TEXT


def test_the_log_wraps_its_lines_and_keeps_the_newest_in_sight() -> None:
    model = _table()
    note = (
        "failover is off: with two people at the table the standby would hold the key to "
        "every hand, so if this host goes the match waits for it (host with --failover on to "
        "allow it)"
    )
    model.feed.log.extend(["— Hand 1: Ann deals; the upcard is 6♠.", note])
    plan = Plan(model, (80, 24))
    assert plan.log_w + plan.chat_w + 1 == 80
    rows = render.log_lines(model, plan.log_w)
    assert len(rows) >= 3 and all(render.width_of(r) <= plan.log_w for r in rows)
    assert words(lines_text(rows)) == words("— Hand 1: Ann deals; the upcard is 6♠. " + note)
    assert lines_text(rows).endswith("\n  with --failover on to allow it)")  # continued, indented
    # the chat column too: a long message wraps in its own column
    model.feed.chat_lines.append("Bea: " + "a long message that goes on and on " * 3)
    chat = render.chat_lines(model, plan.chat_w)
    assert len(chat) > 1 and all(render.width_of(r) <= plan.chat_w for r in chat)


def test_wrapping_and_cutting_never_lose_words_silently() -> None:
    from rum500.tui.wrapping import wrap_text

    rows = wrap_text([("x", "one two three "), ("y", "four five")], 9, indent=2)
    assert [text(r) for r in rows] == ["one two", "  three", "  four", "  five"]
    assert rows[0][0][0] == "x" and rows[-1][-1][0] == "y"  # the styles are kept
    assert [text(r) for r in wrap_text([("", "abcdefghij")], 4)] == ["abcd", "efgh", "ij"]
    # what may be cut (a name in a column, repeated elsewhere) ends in "…" or, with --ascii,
    # "...": never a lone "." where words were lost, and never wider than asked
    assert text(render.cut([("", "Hand 12 of a long long row")], 10)) == "Hand 12 o…"
    assert text(render.cut([("", "Hand 12 of a long long row")], 10, ascii=True)) == "Hand 12..."
    assert text(render.cut([("", "short")], 10, ascii=True)) == "short"


def test_the_log_says_pass_with_one_stop() -> None:
    name_of = {0: "Ann", 1: "Bea"}.get
    assert describe.event({"type": "pass", "seat": 0}, name_of) == ["Ann does not call Rummy!"]


def test_the_turn_summary_shows_what_a_joker_stands_for() -> None:
    model = _table()
    model.tableview.view = {"phase": "play", "players": 2, "seat": 0, "turn": 0}
    model.changes = Changes()
    model.changes.apply(
        [
            {"type": "draw", "seat": 1, "source": "stock"},
            {"type": "meld", "seat": 1, "cards": ["JK", "AH", "AD"], "jokers": ["AS"], "meld": 3},
            {"type": "layoff", "seat": 1, "card": "JK", "joker": "4H", "meld": 1},
            {"type": "discard", "seat": 1, "card": "9C"},
        ],
        0,
        SimpleNamespace(),  # type: ignore[arg-type]
    )
    summary = lines_text(render.recent_lines(model, 80))
    assert "melded 🃏A♠ A♥ A♦" in summary and "laid off 🃏4♥" in summary
    model.ascii = True
    assert "melded *AS AH AD" in lines_text(render.recent_lines(model, 80))


def _hand_over(went_out: int = 1) -> TableModel:
    model = _table()
    model.tableview.view = {
        "phase": "hand_over",
        "players": 2,
        "seat": 0,
        "turn": 0,
        "melds": [],
        "totals": [-49, 60],
        "results": [
            {"hand": 1, "scores": [-49, 60], "went_out": went_out, "totals": [-49, 60]},
        ],
    }
    model.sheet = {
        "hand": 1,
        "went_out": went_out,
        "scores": [-49, 60],
        "table_points": [24, 60],
        "hand_points": [73, 0],
        "totals": [-49, 60],
        "hands": [["QH", "2S", "KC", "AH", "9S", "10D", "3H"], []],
    }
    return model


def test_the_review_writes_one_minus_sign() -> None:
    model = _hand_over()
    shown = lines_text(sheets.review_lines(model, 76))
    assert "−" not in shown  # one minus sign: "-73" beside "-49", as the score column has it
    assert "= -73" in shown and "-49" in shown
    # the running score and the end-hand question: one minus sign too
    assert "−" not in text(render.hand_heading(model))


def test_the_review_sorts_the_hands_left_as_the_hand_is_sorted() -> None:
    model = _hand_over()
    shown = lines_text(sheets.review_lines(model, 76))
    row = next(line for line in shown.splitlines() if "in hand:" in line and "=" in line)
    assert words(row.split("in hand:")[1].split("=")[0]) == [
        "2♠",
        "9♠",
        "3♥",
        "Q♥",
        "A♥",
        "K♣",
        "10♦",
    ]
    model.tableview.sort_mode = "rank"
    shown = lines_text(sheets.review_lines(model, 76))
    row = next(line for line in shown.splitlines() if "in hand:" in line and "=" in line)
    assert words(row.split("in hand:")[1].split("=")[0]) == [
        "2♠",
        "3♥",
        "9♠",
        "10♦",
        "Q♥",
        "K♣",
        "A♥",
    ]


@pytest.mark.parametrize("went_out", [0, 1])
def test_the_went_out_mark_sits_by_the_player_who_went_out(went_out: int) -> None:
    model = _hand_over(went_out)
    rows = [text(line) for line in sheets.score_table_lines(model, 76)]
    head, row = rows[0], rows[1]
    # the mark ends the column of the player who went out (the names are right-aligned)
    name = ["Ann", "Bea"][went_out]
    assert row.index("*") == head.index(name) + len(name) - 1
    assert row.count("*") == 1


def test_the_waiting_room_and_the_lobby_show_the_tables_options() -> None:
    from rum500.narrate import options_text

    changed = {"target": 300, "jokers": True, "teams": 2}
    model = TableModel(name="Bea")
    model.apply_message(
        {"type": "welcome", "seat": 1, "table": "Kitchen", "info": {"changed": changed}}
    )
    model.apply_message({"type": "lobby", "state": "lobby", "seats": [{"name": "Ann"}, {}]})
    room = lines_text(render.waiting_lines(model))
    assert "Table options: target=300 jokers=True teams=2" in room
    assert options_text(changed) == "target=300 jokers=True teams=2"  # as rum500 list has it
    plain = TableModel(name="Bea")
    plain.apply_message({"type": "welcome", "seat": 1, "table": "K", "info": {"changed": {}}})
    plain.apply_message({"type": "lobby", "state": "lobby", "seats": [{"name": "Ann"}, {}]})
    assert "Table options: the standard game" in lines_text(render.waiting_lines(plain))

    lobby = LobbyModel("Bea")
    lobby.tables["k"] = SimpleNamespace(
        name="Kitchen",
        host_player="Ann",
        seats_taken=1,
        seats_total=4,
        state="lobby",
        password=False,
        address="192.168.1.5",
        port=5500,
        options=changed,
        port_key=0,
    )
    assert "192.168.1.5:5500  target=300 jokers=True teams=2" in text(_lobby_text(lobby))


def _two_people(hosting: bool) -> tuple[TableModel, list[bool]]:
    model = _table()
    model.tableview.my_seat = 0
    model.tableview.view = {"phase": "draw", "players": 2, "seat": 0, "turn": 0, "hand": ["AS"]}
    sent: list[bool] = []
    if hosting:
        model.host_player.hosting = True
        model.host_player.set_table_hint = sent.append
    model.apply_message(
        {"type": "lobby", "state": "playing", "seats": [{"name": "Ann"}, {"name": "Bea"}]}
    )
    return model, sent


def test_the_host_turns_the_hint_off_and_on_for_everyone() -> None:
    host, sent = _two_people(hosting=True)
    keys = {k: label for k, label, _m in key_bar(host)}
    assert keys.get("I") == "hint off for all" and "h" in keys
    host.host_player.toggle_table_hint()
    assert sent == [False]
    # the host's message reaches every player, the host's own screen too
    guest, _ = _two_people(hosting=False)
    assert "I" not in {k for k, _l, _m in key_bar(guest)}
    for m in (host, guest):
        m.apply_message(
            {
                "type": "lobby",
                "state": "playing",
                "seats": [{"name": "Ann"}, {"name": "Bea"}],
                "hint": False,
            }
        )
        assert m.feed.log[-1] == "The host turned the hint off for everyone at this table."
        assert "h" not in {k for k, _l, _m in key_bar(m)}
        m.hint()
        assert m.feed.message == "The host turned the hint off at this table."
    assert {k: label for k, label, _m in key_bar(host)}["I"] == "hint on for all"
    host.host_player.toggle_table_hint()
    assert sent == [False, True]
    guest.apply_message(
        {"type": "lobby", "state": "playing", "seats": [{"name": "Ann"}, {"name": "Bea"}]}
    )
    assert guest.tableview.hint_allowed  # back on, and said so
    assert guest.feed.log[-1] == "The host turned the hint on again for everyone at this table."


def test_leaving_a_solo_match_says_how_to_pick_it_up() -> None:
    model = _table()
    model.tableview.view = {"phase": "play", "players": 2, "seat": 0, "turn": 0}
    model.tableview.my_seat = 0
    model.host_player.hosting = True
    model.tableview.lobby = {"seats": [{"name": "Ann"}, {"name": "Bot 1", "bot": True}]}
    model.host_player.saved_game = lambda: 7
    assert "rum500 play --resume 7" in model.host_player.quit_question()
    set_language("ru")
    assert "rum500 play --resume 7" in model.host_player.quit_question()
    set_language("en")
    model.tableview.lobby = {"seats": [{"name": "Ann"}, {"name": "Bea"}]}  # not solo: host --resume
    assert "--resume" not in model.host_player.quit_question()


def test_the_banner_says_why_the_link_is_down_whole() -> None:
    model = _table()
    why = "the host at 192.168.1.20:5500 stopped answering: no reply to three pings in 45 s"
    model.connection_lost(why)
    plan = Plan(model, (80, 24))
    shown = lines_text(plan.banner[: plan.h["banner"]])
    assert plan.h["banner"] == 2 and all(render.width_of(r) <= 80 for r in plan.banner)
    assert words(shown) == words(f"Connection lost — trying to rejoin… ({why})")


def test_the_waiting_room_wraps_a_long_list_of_addresses() -> None:
    model = TableModel(name="Ann")
    model.host_player.hosting = True
    addresses = ["192.168.1.20:5500", "10.0.0.7:5500", "[fd00::1234:5678:9abc]:5500"]
    addresses.append("[fe80::1ff:fe23:4567:890a%wlp0s20f3]:5500")
    model.apply_message(
        {"type": "lobby", "state": "lobby", "seats": [{"name": "Ann"}, {}], "addresses": addresses}
    )
    plan = Plan(model, (80, 24))
    shown = lines_text(plan.players[: plan.h["players"]])
    assert all(render.width_of(r) <= 80 for r in plan.players)
    assert all(a in shown.replace("\n    ", "  ") for a in addresses), shown
