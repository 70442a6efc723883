"""A host that takes over a match mid-hand (``--resume``, a handoff, a failover) shows its
bots the hand under way again: they remember what each opponent took and threw as if they
had watched it live."""

from __future__ import annotations

from rum500.bots import make_bot
from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options, Phase


def mid_hand(seed: int) -> tuple[Game, object]:
    """A three-player match played by bots into its second hand, until some player has
    taken cards from the discard pile; and seat 1's memory of it as a live host builds it."""
    g = Game(3, seed, Options(target=500))
    players = [make_bot("medium", k) for k in range(3)]
    watcher = make_bot("hard", 1)
    for _ in range(2000):
        seat = next(s for s in range(3) if g.view(s)["legal_actions"])
        events = g.apply(players[seat].choose(g.view(seat)), seat=seat)
        watcher.observe(events, g.view(1))
        known = any(watcher.tracker.known.values())
        if g.hand_number == 2 and g.phase is Phase.PLAY and known:
            return g, watcher
    raise AssertionError("no discard-pile pick-up in the second hand")


async def test_the_bots_of_a_resumed_host_remember_the_hand_under_way():
    game, watcher = mid_hand(11)
    seats = [{"name": f"Bot {k + 1}", "token": f"t{k}", "bot": True} for k in range(3)]
    resumed = Game.replay(3, 11, list(game.actions), game.options, game.first_deck)
    host = await start_host(
        HostConfig(resume_game=resumed, resume_seats=seats, bot_level="hard", seed=3)
    )
    try:  # before the host's bots play on (they wait for the event loop)
        memory = await host.driver.worker.call(lambda: host.driver.worker.bot(1).tracker)
        assert memory.known == watcher.tracker.known and any(memory.known.values())
        assert memory.avoid == watcher.tracker.avoid and memory.top == watcher.tracker.top
        assert memory.hand_number == 2
    finally:
        await host.close()
