"""net/share.py: a guest's share reaches the standby's door (net/door.py) — none when it is
of another epoch — and a standby that does not answer costs the guest no error."""

from __future__ import annotations

import asyncio
import socket

from net.door import Door
from net.share import give_share


async def given(share: dict | None, epoch: int = 3) -> list[tuple[str | None, int]]:
    """What the door's ``on_share`` is called with when the guest gives ``share``."""
    got: list[tuple[str | None, int]] = []

    def on_share(text: str | None, at: int) -> dict:
        got.append((text, at))
        return {"have": len(got), "need": 2}

    door = Door("t1", on_share)
    port = await door.open()
    try:
        standby = {"addresses": ["127.0.0.1"], "port": port, "table_id": "t1", "epoch": epoch}
        await give_share(standby, share, asyncio.get_running_loop().time() + 5)
    finally:
        await door.close()
    return got


async def test_the_share_reaches_the_door() -> None:
    assert await given({"type": "share", "epoch": 3, "share": "1:abcd"}) == [("1:abcd", 3)]


async def test_a_share_of_another_epoch_is_not_given_but_the_loss_is_told() -> None:
    assert await given({"type": "share", "epoch": 2, "share": "1:abcd"}) == [(None, 3)]
    assert await given(None) == [(None, 3)]


async def test_a_standby_that_does_not_answer_is_no_error() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    standby = {"addresses": ["127.0.0.1"], "port": port, "table_id": "t1", "epoch": 1}
    loop = asyncio.get_running_loop()
    await give_share(standby, None, loop.time() + 1)
    await give_share(standby, None, loop.time() - 1)  # no time left: nothing tried
