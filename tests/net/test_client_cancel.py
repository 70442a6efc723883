"""A task that waits in ``Client.act`` and is cancelled just as the host's answer arrives
ends cancelled. (asyncio.wait_for in Python 3.11 returned the answer instead and swallowed
the cancellation: a test's player cancelled at a handoff played on, and the test hung.)"""

from __future__ import annotations

import asyncio

import pytest

from tests.net.util import wait_for


async def test_a_cancel_that_meets_the_answer_still_cancels(make_host, clients):
    host = await make_host(players=2, bots=1)
    ann = await clients(host, "Ann")
    await wait_for(lambda: ann.view is not None)
    task = asyncio.create_task(ann.act({"type": "ready"}))
    await asyncio.sleep(0)  # the action is sent and the task waits for its answer
    (answer,) = ann._pending.values()
    answer.set_result({"type": "accepted"})  # the answer arrives …
    task.cancel()  # … in the same turn of the loop as the cancellation
    with pytest.raises(asyncio.CancelledError):
        await task
    assert task.cancelled()
