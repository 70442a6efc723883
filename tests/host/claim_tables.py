"""A "Rummy!" table for the claim-window tests (tests/host/test_claims.py,
tests/host/test_bot_calls.py): a position where 7♦ can be called, and a host seated from it."""

from __future__ import annotations

from collections.abc import Callable

from net.client import Client
from rum500.host import HostConfig, start_host
from rum500.rules import Game, Options
from tests.net.util import wait_for
from tests.rules.positions import position

CALLS = Options(rummy_calls=True, target=5000)
NAMES = ["Ann", "Bea", "Cid"]


class KnowsAll(Client):
    """A client that names every table option (as the terminal client does)."""

    options = list(Options().to_dict())


def frozen() -> float:
    return 1000.0


def claim_position(options: Options = CALLS) -> Game:
    """Three players; 4♦ 5♦ 6♦ on the table; seat 0 (to play) holds 7♦, which it may discard."""
    return position(
        ["7D 2C 9S", "3H 8C JS", "KH QC 10S"],
        melds=[("4D 5D 6D", 1)],
        phase="play",
        options=options,
    )


async def seated(game: Game, humans: int, level: str = "random", **config: object) -> tuple:
    """Host ``game`` with ``humans`` human seats (the rest ``level`` bots); connect them all."""
    seats = [
        {"name": NAMES[i] if i < humans else f"Bot {i}", "token": f"token-{i}", "bot": i >= humans}
        for i in range(game.players)
    ]
    host = await start_host(
        HostConfig(
            resume_game=game,
            resume_seats=seats,
            bot_level=level,
            bind="127.0.0.1",
            **config,  # type: ignore[arg-type]
        )
    )
    players = []
    for i in range(humans):
        c = await KnowsAll.connect(host.address, host.port, name=NAMES[i], token=f"token-{i}")
        players.append(c)
    return host, players


async def view_where(client: Client, until: Callable[[dict], bool], timeout: float = 10.0) -> dict:
    await wait_for(lambda: client.view is not None and until(client.view), timeout)
    assert client.view is not None
    return client.view
