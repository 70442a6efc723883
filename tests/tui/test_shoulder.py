"""Over the shoulder on the table screen's model (rum500/tui/shoulder.py): the spectator's
hint is worked out from the shown seat's view as the spectator received it — the public view
with that seat's own keys over it, nothing more — and said for that seat; the player's w
offers the spectators and sends ``shoulder`` / ``shoulder_end``."""

from __future__ import annotations

import asyncio

from rum500.rules import Game
from rum500.tui.model import TableModel


def views() -> tuple[Game, dict, dict]:
    """A game, the view of a spectator shown Ann's hand (Ann, the seat to move), Ann's."""
    game = Game(players=2, seed=5)
    ann = game.to_move
    names = ["Ann", "Bob"] if ann == 0 else ["Bob", "Ann"]
    extra = {"names": names, "results_start": 0, "review": None, "takeover": [None] * 2}
    mine = game.view(ann)
    public = {
        **game.view(None),
        **extra,
        "shoulders": [{"seat": ann, "spectator": 4, "name": "Dee"}],
    }
    own = {k: mine[k] for k in ("seat", "hand", "legal_actions")}
    return game, {**public, "shoulder": own}, {**mine, **extra, "shoulders": public["shoulders"]}


async def test_the_spectators_hint_reads_the_shown_seats_view_and_nothing_more():
    game, watched, seat_view = views()
    model = TableModel(name="Dee")
    model.apply_message({"type": "welcome", "seat": None, "name": "Dee", "table": "T"})
    model.set_view(watched, [])
    asked: list[dict] = []

    async def advise(view: dict) -> dict | None:
        asked.append(view)
        return {"type": "draw", "source": "stock"}

    model.advise = advise
    assert model.shoulder.may_hint()
    model.hint()
    await asyncio.sleep(0.05)
    assert asked == [seat_view]  # exactly the seat's view, from what Dee received
    assert model.feed.message == "Hint for Ann: draw from the stock"


async def test_the_spectators_hint_holds_over_the_view_sent_again_and_goes_with_a_move():
    """The view comes again (someone came or went) while the hint is worked out: the hint is
    said. Ann moves meanwhile: it is not, and the "working" line goes."""
    game, watched, _seat_view = views()
    model = TableModel(name="Dee")
    model.apply_message({"type": "welcome", "seat": None, "name": "Dee", "table": "T"})
    model.set_view(watched, [])
    release = asyncio.Event()

    async def advise(view: dict) -> dict | None:
        await release.wait()
        return {"type": "draw", "source": "stock"}

    model.advise = advise
    model.hint()
    await asyncio.sleep(0.01)
    model.set_view({**watched, "review": None}, [])  # a new view of the same position
    release.set()
    await asyncio.sleep(0.05)
    assert model.feed.message == "Hint for Ann: draw from the stock"

    release.clear()
    model.hint()
    await asyncio.sleep(0.01)
    game.apply({"type": "draw", "source": "stock"})  # Ann draws: the position moves on
    moved = {**watched, **game.view(None)}
    moved["shoulder"] = {k: game.view(game.to_move)[k] for k in ("seat", "hand", "legal_actions")}
    model.set_view(moved, [])
    release.set()
    await asyncio.sleep(0.05)
    assert model.feed.message == "", model.feed.message


async def test_w_offers_the_spectators_and_sends_shoulder_and_shoulder_end():
    game, _watched, seat_view = views()
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": game.to_move, "name": "Ann", "table": "T"})
    sent: list[dict] = []

    async def send(msg: dict) -> None:
        sent.append(msg)

    model.shoulder.send = send
    model.apply_message(
        {
            "type": "lobby",
            "state": "playing",
            "seats": [],
            "watchers": [{"id": 4, "name": "Dee"}, {"id": 9, "name": "Eve"}],
        }
    )
    model.set_view({**seat_view, "shoulders": []}, [])
    assert model.shoulder.may_offer()
    model.shoulder.open()
    assert model.overlay == "shoulder"
    model.shoulder.pick(1)
    await asyncio.sleep(0)
    assert sent == [{"type": "shoulder", "spectator": 9}] and model.overlay != "shoulder"
    on = [{"seat": game.to_move, "spectator": 9, "name": "Eve"}]
    model.set_view({**seat_view, "shoulders": on}, [])
    assert model.shoulder.mine() == "Eve" and "Ann shows their hand to Eve" in model.feed.log[-1]
    model.shoulder.pick(0)  # one at a time: nothing sent while it is on
    model.shoulder.end()
    await asyncio.sleep(0)
    assert sent[1:] == [{"type": "shoulder_end"}]
