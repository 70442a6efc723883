"""Take back: a player alone with bots takes back their own melds and lay-offs of the turn,
over a real host on 127.0.0.1 and a real client; the game log still replays to the live game."""

from __future__ import annotations

import asyncio

import pytest

from net.client import ActionRefused, Client
from rum500.rules import Game, Options
from rum500.store.db import open_db
from rum500.store.journal import Journal
from rum500.store.log import load_match, rebuild
from tests.net.util import wait_for

LONG = Options(target=5000)
TIME = 60.0  # a liveness bound for a whole test's play, not a speed assertion


async def my_turn(client: Client) -> dict:
    """The newest view once it is ``client``'s move (saying ready through hand-end reviews)."""

    async def wait() -> dict:
        while True:
            view = client.view
            if view is not None and client.pending() == 0:
                if view["review"] and client.seat in view["review"]["waiting"]:
                    await client.act({"type": "ready"})
                elif view["turn"] == client.seat and view["phase"] in ("draw", "play"):
                    return view
            async for _msg in client.messages():
                break

    return await asyncio.wait_for(wait(), 20)


def legal(view: dict, kind: str) -> list[dict]:
    return [a for a in view["legal_actions"] if a["type"] == kind]


async def take_back(client: Client, undone: dict) -> dict:
    """Take back ``undone`` (our last play); return the view after it."""
    answer = await client.act({"type": "take_back"})

    async def update() -> dict:
        async for msg in client.messages():
            if msg["type"] == "state" and msg["seq"] == answer["seq"]:
                return msg
        raise AssertionError("the connection ended")

    msg = await asyncio.wait_for(update(), 10)
    assert msg["events"] == [{"type": "take_back", "seat": client.seat, "action": undone}]
    return msg["view"]


async def play(client: Client, action: dict) -> dict:
    """Play ``action``; return the view of its update."""
    answer = await client.act(action)
    await wait_for(lambda: client.seq >= answer["seq"])
    assert client.view is not None
    return client.view


def same_position(game: Game) -> None:
    """The live game equals a replay of its own action list (seed and all)."""
    again = Game.replay(game.players, game.seed, game.actions, game.options, game.first_deck)
    assert again.to_dict() == game.to_dict()


async def test_take_back_melds_lay_offs_and_a_dig_at_a_solo_table(make_host, clients, tmp_path):
    journal = Journal(tmp_path / "games.sqlite3")
    host = await make_host(players=2, bots=1, journal=journal, options=LONG, seed=3)
    ann = await clients(host, "Ann")
    game = host.table.game
    done: set[str] = set()

    async def session() -> None:
        while done != {"meld", "layoff", "dig"}:
            view = await my_turn(ann)
            if view["phase"] == "draw":
                with pytest.raises(ActionRefused, match="nothing to take back this turn"):
                    await ann.act({"type": "take_back"})
                digs = [a for a in legal(view, "draw") if a["source"] == "discard"]
                deep = [a for a in digs if a["index"] < len(view["discard_pile"]) - 1]
                if deep and "dig" not in done:
                    view = await play(ann, deep[0])
                    assert view["must_play"] is not None
                else:
                    view = await play(ann, legal(view, "draw")[0])
                with pytest.raises(ActionRefused, match="nothing to take back this turn"):
                    await ann.act({"type": "take_back"})  # never the draw
                continue
            # the play phase: try a take back of each kind of play, then play on
            before = view
            plays = legal(view, "layoff") + legal(view, "meld")
            if not plays:
                await play(ann, legal(view, "discard")[0])
                continue
            dug = before["must_play"]
            if dug:  # the dug card's obligation: play it, then take that play back
                with_dug = [a for a in plays if dug in (a.get("cards") or [a.get("card")])]
                if not with_dug:  # it needs another play first
                    await play(ann, plays[0])
                    continue
                plays = with_dug
            action = plays[0]
            after = await play(ann, action)
            if after["phase"] != "play":  # that play went out: the hand is over
                continue
            assert after["must_play"] is None
            n = len(game.actions)
            back = await take_back(ann, game.actions[-1])
            assert back == before  # the whole view as it was, must_play included
            assert back["must_play"] == dug
            assert len(game.actions) == n - 1
            same_position(game)
            done.add("dig" if dug else action["type"])
            # play it again and, when it is not the last card, more: take back twice
            await play(ann, action)
            more = [a for a in legal(ann.view, "layoff") + legal(ann.view, "meld")]
            if more and ann.view["phase"] == "play":
                middle = ann.view
                second = await play(ann, more[0])
                if second["phase"] == "play":
                    assert await take_back(ann, game.actions[-1]) == middle
                    assert await take_back(ann, game.actions[-1]) == before
                    same_position(game)
                    continue
                continue
            if ann.view["phase"] == "play" and legal(ann.view, "discard"):
                await play(ann, legal(ann.view, "discard")[0])

    await asyncio.wait_for(session(), TIME)
    # the game log replays, after every take back, to exactly the live game
    view = await my_turn(ann)  # the host waits for Ann: nothing moves
    assert view["turn"] == ann.seat
    journal.close()
    conn = open_db(tmp_path / "games.sqlite3")
    try:
        saved = rebuild(load_match(conn, journal.game_id))
    finally:
        conn.close()
    assert saved.actions == game.actions
    assert saved.to_dict() == game.to_dict()


async def test_take_back_is_refused_when_another_human_is_seated(make_host, clients):
    host = await make_host(players=3, bots=1, options=LONG, seed=3)
    ann = await clients(host, "Ann")
    bea = await clients(host, "Bea")
    game = host.table.game
    for c in (ann, bea):
        await wait_for(lambda c=c: c.view is not None)
    mover = ann if game.to_move == ann.seat else bea
    await wait_for(lambda: game.to_move == mover.seat)
    view = await play(mover, legal(mover.view, "draw")[0])
    n = len(game.actions)
    with pytest.raises(ActionRefused, match="take back is only for a table with no other human"):
        await mover.act({"type": "take_back"})
    await bea.drop()  # away, still a human at the table
    with pytest.raises(ActionRefused, match="take back is only for a table with no other human"):
        await ann.act({"type": "take_back"})
    assert len(game.actions) == n
    assert view["phase"] == "play"


async def test_take_back_is_refused_on_the_bots_turn(make_host, clients):
    host = await make_host(players=2, bots=1, options=LONG, seed=3, bot_delay=600)
    ann = await clients(host, "Ann")
    game = host.table.game
    await wait_for(lambda: ann.view is not None)
    if game.to_move == ann.seat:
        view = await play(ann, legal(ann.view, "draw")[0])
        await play(ann, legal(view, "discard")[0])
    assert game.to_move != ann.seat  # the bot thinks for 600 s while Ann is seated
    with pytest.raises(ActionRefused, match="nothing to take back this turn") as e:
        await ann.act({"type": "take_back"})
    assert e.value.template == "nothing to take back this turn"


def test_the_headless_log_says_ready_and_take_back_in_words():
    from rum500.narrate import plain as describe_event

    names = ["Ann", "Bot 1"]
    assert describe_event({"type": "ready", "seat": 0}, names) == "Ann is ready for the next hand"
    meld = {"type": "take_back", "seat": 0, "action": {"type": "meld", "cards": ["9S", "9H", "9D"]}}
    assert describe_event(meld, names) == "Ann takes back the meld 9S 9H 9D"
    layoff = {"type": "take_back", "seat": 0, "action": {"type": "layoff", "card": "8H", "meld": 3}}
    assert describe_event(layoff, names) == "Ann takes back the lay-off of 8H"
