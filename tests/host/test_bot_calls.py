"""Bots calling "Rummy!" at a real host (rum500/claims.py, rum500/bots/calls.py, RULES.md
§11.2): real hosts on 127.0.0.1 and real client connections.

Where a test must show that nothing but the players (not the window's deadline, not a bot's
reaction time) moved the table on, the window's clock is frozen (``claim_window.clock``)."""

from __future__ import annotations

import asyncio

import pytest

from rum500.bots.calls import MIN_REACTION
from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options, Phase
from tests.host.claim_tables import CALLS, claim_position, frozen, view_where
from tests.host.claim_tables import seated as seat_table
from tests.net.util import synced, wait_for
from tests.rules.positions import position


async def seated(game: Game, humans: int, level: str = "hard", **config: object) -> tuple:
    """The claim tests' table, with ``level`` bots (hard unless said) and a fixed seed."""
    return await seat_table(game, humans, level, seed=3, **config)


def calls(game: Game) -> list[dict]:
    return [a for a in game.actions if a.get("type") == "rummy"]


async def test_a_bot_calls_within_the_window_after_its_reaction_time(hosts):
    """Ann and Bea at a 10 s window, a hard bot in seat 2: nobody acts after Ann's 7♦, and
    the bot calls — no sooner than 0.3 s after the discard, while the window is still open
    and the humans are still waited for."""
    game = claim_position()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    window = host.table.claim_window
    opened: list[float] = []  # when the window opened, by its clock
    seen: list[float] = []  # seconds from the discard to the call

    def on_events(events: list[dict]) -> None:
        kinds = {e.get("type") for e in events}
        if "discard" in kinds and window.until is not None:
            opened.append(window.until - window.length)
        if "rummy" in kinds:
            seen.append(window.clock() - opened[-1])

    host.table.listeners.append(on_events)
    await ann.act({"type": "discard", "card": "7D"})
    v = await view_where(bea, lambda v: v["phase"] == "claim")
    assert v["claim"]["waiting"] == [1]
    await wait_for(lambda: calls(game), 10)
    assert calls(game) == [{"type": "rummy", "seat": 2, "meld": 0}]
    assert len(seen) == 1 and MIN_REACTION <= seen[0] < window.length
    v = await view_where(bea, lambda v: v["phase"] == "draw" and v["turn"] == 1)
    assert v["melds"][0]["cards"] == ["4D", "5D", "6D", "7D"]
    assert v["table_points"] == [0, 15, 7]  # the 7 for the bot that called
    assert {"type": "close_claims"} not in game.actions


async def test_a_human_who_calls_before_the_bots_reaction_time_wins(hosts):
    """The window's clock is frozen at the discard, so the bot's reaction time never comes:
    Bea's call, the first the host receives, wins; the bot's call is never made."""
    game = claim_position()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    await view_where(bea, lambda v: v["phase"] == "claim")
    await wait_for(lambda: host.table.claim_window.bot_calls() == 1, 10)  # the bot will call
    await synced(bea)
    assert game.phase is Phase.CLAIM and calls(game) == []  # but not before its time
    await bea.act({"type": "rummy", "meld": 0})
    v = await view_where(ann, lambda v: v["phase"] == "draw")
    assert calls(game) == [{"type": "rummy", "seat": 1, "meld": 0}]
    assert v["table_points"] == [0, 22, 0]


async def test_when_every_other_human_passed_the_bots_calls_are_judged_at_once(hosts):
    game = claim_position()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    host.table.claim_window.clock = frozen  # only Bea's pass can end the wait
    await ann.act({"type": "discard", "card": "7D"})
    await view_where(bea, lambda v: v["phase"] == "claim")
    await bea.act({"type": "pass"})
    await wait_for(lambda: game.phase is not Phase.CLAIM, 10)
    assert calls(game) == [{"type": "rummy", "seat": 2, "meld": 0}]


async def test_without_a_window_bots_calls_are_judged_at_once_from_the_discarders_left(hosts):
    """Ann alone with two hard bots (they never miss): both could call on her 7♦; no window
    opens (its clock is frozen: only that can close it), and seat 1, first from her left,
    wins before anyone draws."""
    game = claim_position()
    host, (ann,) = await seated(game, 1, claim_window=10.0, bot_delay=0.0)
    hosts.append((host, [ann]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    await wait_for(lambda: calls(game), 10)
    assert calls(game)[0] == {"type": "rummy", "seat": 1, "meld": 0}
    i = game.actions.index(calls(game)[0])
    await wait_for(lambda: len(game.actions) > i + 1, 10)  # the bots think in a worker
    assert game.actions[i + 1]["type"] == "draw"  # seat 1, next anyway, then draws


def four_seats() -> Game:
    """Four seats, 4♦ 5♦ 6♦ on the table, seat 0 (to play) holds 7♦: seats 1, 2 and 3 could
    all call it."""
    return position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S", "2H 3C 4S"],
        melds=[("4D 5D 6D", 1)],
        phase="play",
        options=CALLS,
    )


async def test_bots_calls_that_are_both_due_are_judged_by_reaction_time_not_by_seat(hosts):
    """Ann (seat 0) and Bea (seat 1) with hard bots in seats 2 and 3, both of which call
    Ann's 7♦; with the table's seed seat 3 reacts sooner than seat 2 (opposite to the seat
    order). The window's clock stands still at the discard, then jumps past both reaction
    times (still inside the window, Bea still waited for): both calls are due at once, and
    the faster bot, seat 3, wins — not seat 2, first from the discarder's left."""
    game = four_seats()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    window = host.table.claim_window
    now = [1000.0]
    window.clock = lambda: now[0]
    await ann.act({"type": "discard", "card": "7D"})
    await view_where(bea, lambda v: v["phase"] == "claim")
    await wait_for(lambda: window.bot_calls() == 2, 10)  # both bots will call
    when = {seat: t for seat, (t, _) in window.calls.items()}
    assert window.until is not None
    assert 1000.0 < when[3] < when[2] < window.until  # seat 3 is the faster
    await synced(bea)
    assert calls(game) == []  # the clock stands still: nobody's time has come
    now[0] = when[2] + 0.01  # both calls due at once, the window still open
    await wait_for(lambda: calls(game), 10)
    assert [(a["seat"], a["meld"]) for a in calls(game)] == [(3, 0)]
    v = await view_where(bea, lambda v: v["phase"] != "claim")
    assert v["melds"][0]["cards"] == ["4D", "5D", "6D", "7D"]
    assert v["table_points"] == [0, 15, 0, 7]  # the 7 for seat 3


async def test_a_table_of_bots_with_calls_on_plays_to_the_end_and_calls():
    """A headless bot-only match with "Rummy!" calls and jokers: it ends, and the bots call
    (never on their own discard). Random bots, because the planning levels hardly ever
    discard a card that fits the table (bench/house_rules.py counts their calls)."""
    options = Options(rummy_calls=True, jokers=True, target=300)
    host = await start_host(
        HostConfig(players=3, bots=3, bot_level="random", seed=11, options=options)
    )
    try:
        host.start_now()
        await asyncio.wait_for(host.finished(), 300)
        game = host.table.game
        assert game.winner is not None
        assert len(calls(game)) >= 1
        # replayed, every call came from a seat other than the discarder's
        replay = Game(3, seed=game.seed, options=options)
        for a in game.actions:
            if a.get("type") == "rummy":
                assert replay.claim_from is not None and a["seat"] != replay.claim_from
            replay.apply(a)
        assert replay.to_dict() == game.to_dict()
    finally:
        await host.close()


# ---------------------------------------------------------------------- the window alone


def test_the_window_orders_bots_calls_by_reaction_time_or_by_seat_when_nobody_waits():
    """Four seats, 4♦ 5♦ 6♦ on the table, seat 0 discards 7♦; seat 1 is a human, seats 2
    (hard, ~0.8 s) and 3 (expert, ~0.5 s) bots that both call. While seat 1 is waited for,
    the expert's call comes first, at its time; with nobody waited for, seat 2 (first from
    the discarder's left) is judged first, then seat 3, then the close."""
    from rum500.claims import ClaimWindow

    def discarded() -> Game:
        g = four_seats()
        g.apply({"type": "discard", "card": "7D"}, seat=0)
        return g

    now = [100.0]
    window = ClaimWindow(3.0, clock=lambda: now[0])
    g = discarded()
    window.follow(g)
    bots = {2: "hard", 3: "expert"}
    window.ask(g, bots, g.view, seed=1)
    window.ask(g, bots, g.view, seed=1)  # asked once per claim phase
    assert set(window.calls) == {2, 3}
    when = {s: t - 100.0 for s, (t, _) in window.calls.items()}
    assert MIN_REACTION <= when[3] < when[2] < 3.0
    assert window.due(g, [1]) == pytest.approx(when[3])
    assert window.now(g, [1]) == []  # nothing is due yet
    now[0] = 100.0 + when[3]
    assert window.now(g, [1]) == [(3, {"type": "rummy", "seat": 3, "meld": 0})]
    assert window.bot_calls() == 1
    window.check_call(3)  # a call made in time is judged even after the deadline
    now[0] = 104.0
    with pytest.raises(ValueError, match="too late"):
        window.check_call(1)
    window.check_call(3)
    g.apply({"type": "close_claims"})
    window.follow(g)  # the phase is over: the window and its calls are forgotten
    assert not window.open and window.calls == {} and window.now(g, [1]) == []

    g = discarded()
    now[0] = 200.0
    window.follow(g)
    window.ask(g, bots, g.view, seed=1)
    assert window.due(g, []) == 0.0
    assert window.now(g, []) == [
        (2, {"type": "rummy", "seat": 2, "meld": 0}),
        (3, {"type": "rummy", "seat": 3, "meld": 0}),
        (None, {"type": "close_claims"}),
    ]


def test_the_window_judges_bots_calls_due_together_earliest_first():
    """While seat 1 is waited for and the clock has passed both bots' reaction times (seat 3's
    expert before seat 2's hard), the due calls come earliest first — seat 3, then seat 2 —
    not in seat order; the window stays open (no close) until its deadline."""
    from rum500.claims import ClaimWindow

    now = [100.0]
    window = ClaimWindow(3.0, clock=lambda: now[0])
    g = four_seats()
    g.apply({"type": "discard", "card": "7D"}, seat=0)
    window.follow(g)
    window.ask(g, {2: "hard", 3: "expert"}, g.view, seed=1)
    when = {s: t for s, (t, _) in window.calls.items()}
    assert 100.0 < when[3] < when[2] < 103.0
    now[0] = when[2]  # both due, before the deadline
    due = window.now(g, [1])
    assert [(seat, a["type"], a["seat"], a["meld"]) for seat, a in due] == [
        (3, "rummy", 3, 0),
        (2, "rummy", 2, 0),
    ]
