"""The rum500 side of hosting: bots, take-over of an away seat, auto-deal, the journal hook,
resume from a restored position."""

from __future__ import annotations

import asyncio
import copy
import logging

import pytest

from net.client import Client, HandshakeError
from rum500.bots import make_bot
from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options
from tests.net.util import play_as_bot, wait_for, waiting_for_me


class Recorder:
    """A journal that checks the host's promises as it is called. The host survives a journal
    that raises, so a broken promise is also kept in ``broken``, which the tests check."""

    def __init__(self, host_ref: list) -> None:
        self.host_ref = host_ref
        self.calls: list[tuple] = []
        self.broken: list[str] = []
        self.shown = 0  # actions shown by the updates sent so far

    def _promise(self, kept: bool, what: str) -> None:
        if not kept:
            self.broken.append(what)
            raise AssertionError(what)

    def start_match(self, info: dict) -> None:
        self._promise(not self.calls, "start_match comes first, once")
        self.calls.append(("start_match", info))

    def sent(self, by: int | None, events: list[dict]) -> None:
        """``Server.on_events``: an update went out; it showed this many actions."""
        game = self.host_ref[0].table.game
        self.shown = len(game.actions) if game is not None else 0

    def record(self, seq: int, seat: int, action: dict) -> None:
        # action #seq is on disk before any update shows it: nobody can have it yet
        self._promise(
            self.shown <= seq, f"action {seq} journaled after an update showed {self.shown}"
        )
        self.calls.append(("record", seq, seat, dict(action)))

    def seats(self, seats: list[dict]) -> None:
        self.calls.append(("seats", seats))

    def finish(self, winner: int | None, totals: list[int]) -> None:
        self.calls.append(("finish", winner, totals))


async def test_journal_hook_order_and_replay(make_host, clients):
    ref: list = []
    journal = Recorder(ref)
    host = await make_host(players=3, bots=2, journal=journal, seed=21, options=Options(target=80))
    ref.append(host)
    host.server.on_events.append(journal.sent)
    ann = await clients(host, "Ann")
    await asyncio.wait_for(play_as_bot(ann), 60)
    assert journal.broken == []
    kinds = [c[0] for c in journal.calls]
    assert kinds[0] == "start_match" and kinds[-1] == "finish"
    info = journal.calls[0][1]
    assert info["players"] == 3 and info["seed"] == 21 and info["deck"] is None
    assert info["options"]["target"] == 80 and info["table"] == host.table_name
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bot 1", "Bot 2"]
    assert info["seats"][0]["token"] == ann.token and info["seats"][1]["bot"] is True
    records = [c for c in journal.calls if c[0] == "record"]
    assert [r[1] for r in records] == list(range(len(records)))
    game = host.table.game
    assert [r[3] for r in records] == game.actions
    replayed = Game.replay(3, 21, [r[3] for r in records], Options(target=80))
    assert replayed.totals == game.totals and replayed.winner == journal.calls[-1][1]


@pytest.mark.allow_host_errors  # the game log fails on purpose
async def test_a_failing_journal_does_not_stop_the_game(make_host, clients, caplog):
    class Broken:
        def __getattr__(self, name: str):
            def fail(*args: object) -> None:
                raise OSError("disk full")

            return fail

    host = await make_host(players=2, bots=1, journal=Broken(), options=Options(target=60))
    ann = await clients(host, "Ann")
    with caplog.at_level(logging.WARNING, logger="rum500.host"):
        final = await asyncio.wait_for(play_as_bot(ann), 60)
    assert final["phase"] == "game_over"
    assert any("disk full" in r.getMessage() for r in caplog.records)


async def test_resume_from_a_replayed_game(make_host, clients):
    ref: list = []
    journal = Recorder(ref)
    opts = Options(target=150)
    host = await make_host(players=3, bots=1, journal=journal, seed=5, options=opts)
    ref.append(host)
    host.server.on_events.append(journal.sent)
    ann = await clients(host, "Ann")
    bob = await clients(host, "Bob")
    bots = [make_bot("random", 1), make_bot("random", 2)]

    async def some_moves(c: Client, bot) -> None:
        while len(host.table.game.actions) < 40:  # then stop, mid-turn or not
            await asyncio.sleep(0.001)
            v = c.view
            if v and v["turn"] == c.seat and v["legal_actions"] and c.seq == host.server.seq:
                await c.act(bot.choose(v))

    await wait_for(lambda: host.table.game is not None)
    await asyncio.wait_for(asyncio.gather(some_moves(ann, bots[0]), some_moves(bob, bots[1])), 30)
    tokens = [ann.token, bob.token]
    await host.close()  # the host goes away
    assert journal.broken == []
    actions = [c[3] for c in journal.calls if c[0] == "record"]
    assert len(actions) >= 40 and actions == host.table.game.actions  # all journaled
    assert [c[1] for c in journal.calls if c[0] == "record"] == list(range(len(actions)))
    seats = journal.calls[0][1]["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob", "Bot 1"] and seats[0]["token"] == tokens[0]
    game = Game.replay(3, 5, actions, opts)
    resumed = await start_host(
        HostConfig(resume_game=game, resume_seats=seats, bot_level="random", options=opts)
    )
    try:
        assert resumed.server.state == "playing"
        a2 = await Client.rejoin(resumed.address, resumed.port, tokens[0])
        b2 = await Client.rejoin(resumed.address, resumed.port, tokens[1])
        assert (a2.seat, a2.name, b2.seat, b2.name) == (0, "Ann", 1, "Bob")
        await wait_for(lambda: a2.view is not None and b2.view is not None)
        assert resumed.table.game.actions[: len(actions)] == actions
        with pytest.raises(HandshakeError) as stranger:  # a stranger cannot sit down
            await Client.connect(resumed.address, resumed.port, name="Eve")
        assert stranger.value.code == "table_full"
        with pytest.raises(HandshakeError) as seated_name:  # nor take a seat by its name
            await Client.connect(resumed.address, resumed.port, name="Ann")
        assert seated_name.value.code == "table_full"
        assert resumed.server.seats[0].conn is not None  # Ann is still seated
        finals = await asyncio.wait_for(asyncio.gather(play_as_bot(a2, 3), play_as_bot(b2, 4)), 60)
        assert finals[0]["phase"] == "game_over"
        assert finals[0]["totals"] == resumed.table.game.totals
        await a2.close()
        await b2.close()
    finally:
        await resumed.close()


def host_played(host) -> list[int]:
    """The seats of the actions the host plays itself (bots, away players, the deal), in
    order, from now on."""
    seats: list[int] = []
    apply = host.table.apply

    def spy(seat: int, action: dict, *, by_host: bool = False) -> list[dict]:
        if by_host:
            seats.append(seat)
        return apply(seat, action, by_host=by_host)

    host.table.apply = spy
    return seats


async def my_turn(client: Client, timeout: float = 20.0) -> dict:
    """Say ready at hand-end reviews until it is ``client``'s turn to play; its newest view."""

    async def wait() -> dict:
        async for msg in client.messages():
            if msg["type"] != "state" or msg["seq"] != client.seq:
                continue
            v = msg["view"]
            if waiting_for_me(v, client.seat) and v["turn"] != client.seat:
                await client.act({"type": "ready"})
            elif v["turn"] == client.seat and v["legal_actions"]:
                return v
        raise AssertionError("the connection ended")

    return await asyncio.wait_for(wait(), timeout)


async def test_an_away_seat_is_played_by_a_bot_and_handed_back(make_host, clients):
    host = await make_host(players=2, bots=1, takeover_after=0.05, options=Options(target=5000))
    played = host_played(host)
    ann = await clients(host, "Ann")
    token = ann.token
    await wait_for(lambda: ann.view is not None)
    await ann.drop()
    await wait_for(lambda: host.server.seats[0].conn is None)
    # the host plays Ann's seat while she is away
    await wait_for(lambda: played.count(0) >= 3, timeout=30)
    back = await Client.rejoin(host.address, host.port, token)
    try:
        since = len(played)
        view = await my_turn(back)  # Ann is back: her seat waits for her
        game = host.table.game
        seen = len(game.actions)
        action = view["legal_actions"][0]
        await back.act(action)
        assert game.actions[seen] == action  # hers
        assert 0 not in played[since:]  # the host never played for her once she was back
    finally:
        await back.close()


async def test_the_host_deals_for_a_dealer_who_does_not(make_host, clients):
    """Ann plays but never says ready nor deals: the host deals at the review's timeout."""
    host = await make_host(
        players=2, bots=1, review_timeout=0.05, seed=2, options=Options(target=5000)
    )
    played = host_played(host)
    ann = await clients(host, "Ann")
    bot = make_bot("random", 9)
    game = host.table.game

    async def play_but_never_deal() -> None:
        async for msg in ann.messages():
            if game.hand_number >= 3:
                return
            v = msg.get("view") if msg["type"] == "state" and msg["seq"] == ann.seq else None
            if v and v["turn"] == 0 and v["phase"] in ("draw", "play"):
                await ann.act(bot.choose(v))

    await asyncio.wait_for(play_but_never_deal(), 60)
    deals = [a for a in game.actions if a["type"] == "deal"]
    assert len(deals) >= 2 and played.count(0) >= 1  # Ann dealt a hand: the host dealt it


async def test_the_next_hand_is_dealt_once_every_connected_human_is_ready(make_host, clients):
    """A long review timeout: only the players' ready can deal the next hand (and does)."""
    host = await make_host(
        players=3, bots=1, review_timeout=300, seed=12, options=Options(target=5000)
    )
    ann = await clients(host, "Ann")
    bob = await clients(host, "Bob")
    game = host.table.game
    bots = [make_bot("random", 1), make_bot("random", 2)]
    ready: list[int] = []

    async def play(c: Client, bot) -> None:
        async for msg in c.messages():
            if game.hand_number >= 2:
                return
            v = msg.get("view") if msg["type"] == "state" and msg["seq"] == c.seq else None
            if not v:
                continue
            if v["review"] is not None:
                assert v["review"]["hand"] == 1 and v["review"]["seconds_left"] > 200
                if c.seat in v["review"]["waiting"]:
                    ready.append(c.seat)
                    await c.act({"type": "ready"})
            elif v["turn"] == c.seat and v["legal_actions"]:
                await c.act(bots[c.seat].choose(v))

    await asyncio.wait_for(asyncio.gather(play(ann, bots[0]), play(bob, bots[1])), 60)
    assert sorted(ready) == [0, 1] and game.hand_number == 2


async def test_start_now_fills_with_bots(make_host, clients):
    host = await make_host(players=4, bots=0, host_player="Ann")
    ann = await clients(host, "Ann", token=host.token)
    assert host.server.state == "lobby"
    host.start_now()
    assert host.server.state == "playing"
    assert [s.bot for s in host.server.seats] == [False, True, True, True]
    await wait_for(lambda: ann.view is not None)


async def test_an_unknown_bot_level_falls_back_to_random(make_host, clients, caplog):
    with caplog.at_level(logging.WARNING, logger="rum500.host"):
        host = await make_host(
            players=2, bots=1, bot_level="grandmaster", options=Options(target=60)
        )
        ann = await clients(host, "Ann")
        final = await asyncio.wait_for(play_as_bot(ann), 60)
    assert final["phase"] == "game_over"
    assert any("grandmaster" in r.getMessage() for r in caplog.records)


async def test_bots_pause_only_while_people_are_seated(make_host, clients):
    """A bot waits ``bot_delay`` while a person is seated (here far longer than the test), and
    plays at once when nobody is."""
    host = await make_host(players=2, bots=1, bot_delay=300.0)
    assert host.driver.next() is None  # lobby: nothing to play
    ann = await clients(host, "Ann")
    await wait_for(lambda: host.table.game is not None and ann.view is not None)
    if host.table.to_move == 0:
        await ann.act({"type": "draw", "source": "stock"})
        await ann.act({"type": "discard", "card": ann.view["hand"][0]})
    game = host.table.game
    assert game.to_move == 1
    seat, wait = host.driver.next()
    assert seat == 1 and 0 < wait <= 300.0
    played = len(game.actions)
    await ann.drop()
    await wait_for(lambda: len(game.actions) > played)  # nobody seated: no pause at all


async def test_impossible_configurations_are_refused():
    with pytest.raises(ValueError, match="bots"):
        await start_host(HostConfig(players=2, bots=3))
    with pytest.raises(ValueError, match="one deck"):
        await start_host(HostConfig(players=8, options=Options(decks=1)))


async def test_a_very_long_match_never_outgrows_a_frame(make_host, clients):
    """Score sheets pile up hand after hand (about 240 bytes a hand at 8 players: uncapped,
    a view would pass the 64 KiB frame limit after some 260 hands); a view keeps the newest
    40, so an update stays far under the limit however long the match."""
    from net.framing import encode
    from rum500.host import MAX_RESULTS

    host = await make_host(players=8, bots=8, options=Options(target=10**6), seed=3)
    game = host.table.game
    await wait_for(lambda: game.hand_number > MAX_RESULTS + 2, timeout=120)
    host.server.state = "finished"  # stop the bots here
    v = host.table.view(0)
    assert len(v["results"]) == MAX_RESULTS
    assert v["results_start"] == len(game.results) - MAX_RESULTS
    assert v["results"][-1]["totals"] == game.results[-1]["totals"]
    assert v["results"][-1]["hand"] == game.results[-1]["hand"]
    encode({"type": "state", "seq": 1, "by": 0, "view": v, "events": []})  # fits


async def test_bots_are_shown_every_update(make_host, clients):
    """The host feeds each bot the public events with its own view (the hard bot's memory)."""
    host = await make_host(players=2, bots=1, bot_level="hard", options=Options(target=60))
    ann = await clients(host, "Ann")
    playing = asyncio.create_task(play_as_bot(ann))
    await wait_for(lambda: host.table.game is not None and len(host.table.game.actions) > 6)
    tracker = await host.driver.worker.call(lambda: copy.deepcopy(host.driver.bots[1].tracker))
    assert tracker.seat == 1  # only observe() sets it, from the bot's own view
    assert tracker.hand_number == host.table.game.hand_number
    playing.cancel()
