"""The hand-end review on the table screen, against a real host on 127.0.0.1: the app with
keys through a pipe input; the host holds the next deal until Enter (or its timeout)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from rum500.tui import sheets
from rum500.tui.connection import NetSession
from rum500.tui.keys import key_bar
from rum500.tui.model import TableModel
from tests.tui.test_app import Running, home, open_table, until  # noqa: F401  (home: fixture)


def keys(model: TableModel) -> set[str]:
    return {k for k, _l, _f in key_bar(model)}


def shown(lines) -> str:  # type: ignore[no-untyped-def]
    return "\n".join("".join(f[1] for f in line) for line in lines)


@pytest.fixture
async def table() -> AsyncIterator[Running]:
    async with open_table(review_timeout=600.0) as run:
        yield run


async def play_to_the_end_of_the_hand(t: Running) -> None:
    """Draw and discard (d, d) by keys until the hand is over; the stock empty: e, y."""
    m = t.model
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while m.tableview.phase != "hand_over":
        assert loop.time() < end, "the hand never ended"
        await until(
            lambda: (m.tableview.my_turn and not m.busy) or m.tableview.phase == "hand_over"
        )
        if m.tableview.phase == "hand_over":
            break
        before = (m.tableview.phase, len(m.sent))
        if m.overlay == "confirm":
            t.keys("y")
        elif m.tableview.legal("end_hand"):
            t.keys("e")
            await until(lambda: m.overlay == "confirm")
            continue
        elif m.tableview.phase == "draw":
            t.keys("s")
        else:
            t.keys("dd")
        await until(
            lambda before=before: (
                (m.tableview.phase, len(m.sent)) != before or m.tableview.phase == "hand_over"
            )
        )


async def test_the_review_holds_the_deal_until_enter(table: Running) -> None:
    m = table.model
    await play_to_the_end_of_the_hand(table)
    await until(lambda: m.review.open and m.overlay == "sheet")
    assert m.review.waiting == [0] and m.review.waits_for(0)
    left = m.review.seconds_left()
    assert left is not None and 500 < left <= 600
    text = shown(sheets.review_lines(m))
    assert "score sheet" in text and "Bot 1" in text and "in hand:" in text
    last = m.tableview.view["last_hand"]
    for s in range(2):  # the cards left in each hand, face up
        for card in last["hands"][s]:
            assert sheets.card(m, card)[0][1] in text
    footer = shown(sheets.review_footer(m))
    # Ann's own wait is the line that asks for her Enter, not "Waiting for: Ann"
    assert "Waiting for:" not in footer and "Press Enter when you are ready" in footer
    # the key bar offers only what works now: no draw
    assert "Enter" in keys(m) and not keys(m) & {"s", "t", "d", "m"}
    table.keys("s")  # a game key answers in one line
    await until(lambda: "press Enter when you are ready" in m.feed.message)
    assert m.tableview.phase == "hand_over" and m.tableview.view["hand_number"] == 1
    # the score table opens over it and closes back to it
    table.keys("p")
    await until(lambda: m.overlay == "scores")
    rows = shown(sheets.score_table_lines(m))
    assert "Ann" in rows and "Total" in rows and f"{last['scores'][0]:+d}" in rows
    table.keys("\x1b")
    await until(lambda: m.overlay == "sheet")
    table.keys("\r")  # Enter: ready; the host deals at once (no other human)
    await until(
        lambda: m.tableview.view["hand_number"] == 2 and m.tableview.phase in ("draw", "play")
    )
    assert {"type": "ready"} in m.sent and m.overlay is None and not m.review.open
    assert any("ready for the next hand" in line for line in m.feed.log)


async def test_alone_against_bots_the_review_has_no_countdown() -> None:
    """``rum500 play``'s table (no review timeout): no countdown under the review, the
    table waits for Ann's Enter however long she reads."""
    async with open_table(review_timeout=None) as table:
        m = table.model
        await play_to_the_end_of_the_hand(table)
        await until(lambda: m.review.open and m.overlay == "sheet")
        assert m.review.seconds_left() is None
        footer = shown(sheets.review_footer(m))
        assert "Waiting for:" not in footer and "dealt in" not in footer
        assert "Press Enter when you are ready" in footer
        assert m.review.wait_text() == "Waiting for Ann."
        await asyncio.sleep(0.5)
        assert m.tableview.phase == "hand_over"
        table.keys("\r")
        await until(lambda: m.tableview.view["hand_number"] == 2)


async def test_a_spectator_sees_the_review_and_enter_closes_it(table: Running) -> None:
    watcher = NetSession(table.host.address, table.host.port, name="Eve", spectate=True)
    await watcher.open()
    eve = TableModel(name="Eve")
    eve.send, eve.send_chat = watcher.act, watcher.chat
    pump = asyncio.ensure_future(watcher.pump(eve))
    try:
        await until(lambda: eve.tableview.view is not None)
        await play_to_the_end_of_the_hand(table)
        await until(lambda: eve.review.open and eve.overlay == "sheet")
        assert "Waiting for: Ann" in shown(sheets.review_footer(eve))
        assert "Press Enter" not in shown(sheets.review_footer(eve))
        assert eve.review.enter_label() == "close"
        eve.review.enter()
        assert eve.overlay is None and {"type": "ready"} not in eve.sent
        assert eve.review.open  # still waiting for Ann: the table shows it
        assert "Waiting for Ann" in eve.review.wait_text()
    finally:
        await watcher.close()
        pump.cancel()


async def test_esc_shows_the_table_and_enter_there_is_ready(table: Running) -> None:
    m = table.model
    await play_to_the_end_of_the_hand(table)
    await until(lambda: m.review.open and m.overlay == "sheet")
    table.keys("\x1b")  # look at the table
    await until(lambda: m.overlay is None)
    assert ("Enter", "ready for the next hand") in {(k, la) for k, la, _f in key_bar(m)}
    assert not keys(m) & {"s", "t", "d", "m", "h"}
    table.keys("t")  # a game key at the table during the review says why not
    await until(lambda: "press Enter when you are ready" in m.feed.message)
    assert m.tableview.phase == "hand_over"
    table.keys("\r")
    await until(
        lambda: m.tableview.view["hand_number"] == 2 and m.tableview.phase in ("draw", "play")
    )
    assert m.sent.count({"type": "ready"}) == 1 and m.overlay is None


def test_a_malformed_score_sheet_is_one_line_not_a_crash() -> None:
    from rum500.rules import Game

    model = TableModel(name="Ann")
    view = Game(2, seed=1).view(0)
    view["results"] = [{"hand": 1, "scores": "junk"}]
    model.apply_message({"type": "state", "view": view, "events": []})
    model.sheet = {"hand": 1, "scores": [1, 2], "totals": None}
    assert shown(sheets.review_lines(model)) == "The host sent scores this screen cannot read."
    assert shown(sheets.score_table_lines(model)) == "The host sent scores this screen cannot read."


async def test_two_players_the_deal_waits_for_both() -> None:
    """Ann says ready: her screen and Bob's say the table waits for Bob; Bob's Enter deals."""
    from rum500.host import HostConfig, start_host

    host = await start_host(
        HostConfig(players=2, bots=0, seed=4, review_timeout=600.0, takeover_after=None)
    )
    sessions = [
        NetSession(host.address, host.port, name=n, use_saved_token=False) for n in ("Ann", "Bob")
    ]
    models = [TableModel(name="Ann"), TableModel(name="Bob")]
    pumps = []
    try:
        for session, model in zip(sessions, models, strict=True):
            await session.open()
            model.send, model.send_chat = session.act, session.chat
            pumps.append(asyncio.ensure_future(session.pump(model)))
        await until(lambda: all(m.tableview.view is not None for m in models))
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while models[0].tableview.phase != "hand_over":  # each plays by drawing and discarding
            assert loop.time() < end, "the hand never ended"
            await until(
                lambda: (
                    any(m.tableview.my_turn and not m.busy for m in models)
                    or models[0].tableview.phase == "hand_over"
                )
            )
            m = next((m for m in models if m.tableview.my_turn and not m.busy), None)
            if m is None:
                break
            seen = m.tableview.view
            if m.tableview.legal("end_hand") and m.tableview.phase == "draw":
                m.end_hand()
                m.confirm_yes()
            elif m.tableview.phase == "draw":
                m.draw_stock()
            else:
                m.discard()
                m.discard()
            await until(lambda m=m, seen=seen: m.tableview.view is not seen and not m.busy)
        ann, bob = models
        await until(lambda: ann.review.open and bob.review.open and len(bob.review.waiting) == 2)
        assert ann.overlay == "sheet" and bob.overlay == "sheet"
        ann.review.enter()
        await until(lambda: bob.review.waiting == [bob.tableview.seat])
        await until(lambda: ann.review.waiting == [bob.tableview.seat])
        assert "Waiting for: Bob" in shown(sheets.review_footer(ann))
        assert "Waiting for Bob: the next hand is dealt in" in ann.review.wait_text()
        assert "Press Enter when you are ready" in shown(sheets.review_footer(bob))
        assert ann.tableview.phase == "hand_over" and any(
            "Ann is ready" in line for line in bob.feed.log
        )
        bob.review.enter()
        await until(
            lambda: all(
                m.tableview.phase in ("draw", "play") and m.tableview.view["hand_number"] == 2
                for m in models
            )
        )
        assert ann.overlay is None and bob.overlay is None
    finally:
        for session in sessions:
            await session.close()
        for pump in pumps:
            pump.cancel()
        await host.close()


def test_the_score_tables_column_of_hands_is_kon_in_russian() -> None:
    """«Hand» is two words in Russian: the score table's column of hand numbers is «Кон» (the
    score sheet's column of the points left in hand is another message)."""
    from rum500 import i18n
    from rum500.rules import Game

    g = Game(2, seed=1)
    while g.to_move is not None and g.hand_number == 1:
        g.apply(g.legal_actions()[-1], g.to_move)
    model = TableModel(name="Ann")
    model.apply_message({"type": "state", "view": g.view(0), "events": []})
    try:
        i18n.set_language("ru")
        table = shown(sheets.score_table_lines(model))
    finally:
        i18n.set_language("en")
    assert g.results and table.split()[0] == "Кон", table
