"""The seat driver's worker (rum500/host/seats.py): bots think off the event loop, in order,
with their memory, and a seeded bot chooses as it did on the loop; the host answers its
players while a bot thinks."""

from __future__ import annotations

import asyncio
import time

import pytest

from net.client import ActionRefused
from rum500.bots import make_bot
from rum500.host.seats import BotWorker
from rum500.rules import Game, Options
from tests.net.util import next_message, wait_for


async def test_a_seeded_bot_in_the_worker_chooses_what_it_chooses_on_the_loop():
    game = Game(3, 5, Options(target=100))
    worker = BotWorker("hard", 5)
    inline = {seat: make_bot("hard", 5 * 31 + seat) for seat in range(3)}
    try:
        for _ in range(120):
            seat = game.to_move
            if seat is None:
                break
            view = game.view(seat)
            if not view["legal_actions"]:
                break
            action = await worker.choose(seat, view)
            assert action == inline[seat].choose(view)
            events = game.apply(action, seat=seat)
            for s in range(3):
                worker.observe(s, events, game.view(s))
                observe = getattr(inline[s], "observe", None)
                if observe is not None:
                    observe(events, game.view(s))
    finally:
        worker.close()


async def test_the_event_loop_runs_while_a_bot_thinks():
    class Slow:
        def choose(self, view: dict) -> dict:
            time.sleep(0.3)  # a long search, holding no lock the loop needs
            return {"type": "done"}

    worker = BotWorker("random", 1)
    worker.bots[0] = Slow()
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(tick())
    try:
        assert await worker.choose(0, {}) == {"type": "done"}
        assert ticks >= 5  # the loop went on (it would be 0 with the search on the loop)
    finally:
        ticking.cancel()
        worker.close()


async def test_observe_and_choose_run_in_the_order_asked():
    seen: list[str] = []

    class Memo:
        def observe(self, events: list[dict], view: dict) -> None:
            time.sleep(0.01)
            seen.append(events[0]["n"])

        def choose(self, view: dict) -> dict:
            return {"after": list(seen)}

    worker = BotWorker("random", None)
    worker.bots[2] = Memo()
    for n in ("a", "b", "c"):
        worker.observe(2, [{"n": n}], {})
    try:
        assert await worker.choose(2, {}) == {"after": ["a", "b", "c"]}
        assert await worker.call(lambda: len(seen)) == 3
    finally:
        worker.close()


class Thinker:
    """Plays like the random bot, after a long think."""

    def __init__(self) -> None:
        self.bot = make_bot("random", 0)

    def choose(self, view: dict) -> dict:
        time.sleep(1.0)
        return self.bot.choose(view)


async def test_the_host_answers_a_seated_player_while_its_bot_thinks(make_host, clients):
    host = await make_host(players=2, bots=1, options=Options(target=5000))
    host.driver.bots[1] = Thinker()
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    if host.table.to_move == ann.seat:
        await ann.act({"type": "draw", "source": "stock"})
        await ann.act({"type": "discard", "card": ann.view["hand"][0]})
    await asyncio.sleep(0.1)  # the bot is thinking now
    t0 = time.monotonic()
    await ann.chat("still there?")
    await next_message(ann, "chat")
    assert time.monotonic() - t0 < 0.9  # answered before the bot's second was up


async def test_freeze_and_thaw_through_the_hosts_surface(make_host, clients):
    host = await make_host(players=2, bots=0, options=Options(target=5000))
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    await wait_for(lambda: ann.view is not None and bea.view is not None)
    assert [s.name for s in host.seats()] == ["Ann", "Bea"]
    assert host.connection_of(ann.seat) is not None and host.connection_of(7) is None
    assert len(host.connections()) == 2 and host.state == "playing"
    mover = ann if host.table.to_move == ann.seat else bea
    host.freeze("a handoff is under way")
    assert host.frozen == "a handoff is under way"
    with pytest.raises(ActionRefused, match="a handoff is under way"):
        await mover.act({"type": "draw", "source": "stock"})
    host.thaw()
    assert host.frozen is None
    await mover.act({"type": "draw", "source": "stock"})
    assert host.game() is host.table.game and host.action_seats()[-1] == mover.seat
    assert host.action_seat(len(host.game().actions) - 1) == mover.seat
    assert host.action_seat(10**6) is None


async def test_on_applied_is_called_before_anyone_is_told_and_on_told_after(make_host, clients):
    host = await make_host(players=2, bots=0, options=Options(target=5000))
    order: list[tuple[str, int]] = []
    host.on_applied(lambda events: order.append(("applied", host.server.seq)))
    host.on_told(lambda by, events: order.append(("told", host.server.seq)))
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    await wait_for(lambda: ann.view is not None and bea.view is not None)
    mover = ann if host.table.to_move == ann.seat else bea
    order.clear()
    await mover.act({"type": "draw", "source": "stock"})
    assert order[:2] == [("applied", order[0][1]), ("told", order[0][1] + 1)]
