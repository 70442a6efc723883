"""Sockets whose password proof waits (the slow-down after wrong proofs, docs/protocol.md §2)
have not said hello yet: they count against the limits on such sockets, 8 from one address
and 32 in all, and are closed with ``timeout`` when the handshake time runs out — measured
from the socket's opening, the wait for the proof included.

Raw frames over real sockets on 127.0.0.1 (one address: the per-address cap is the one hit)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from net.framing import encode, read_frame
from net.protocol import auth_proof
from net.server import Limits
from tests.net.util import wait_for

WRONG = "guess"
DOC = " ".join((Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text().split())


def hello(name: str) -> dict:
    return {"type": "hello", "version": 1, "name": name}


async def wrong_proof(host, name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A socket that says hello and answers the challenge with a wrong proof."""
    reader, writer = await asyncio.open_connection(host.address, host.port)
    writer.write(encode(hello(name)))
    challenge = await asyncio.wait_for(read_frame(reader), 10)
    assert challenge["type"] == "challenge"
    writer.write(encode({"type": "auth", "proof": auth_proof(WRONG, challenge["nonce"])}))
    return reader, writer


async def last_word(reader: asyncio.StreamReader, within: float) -> list[str]:
    """The error codes the host sends until it closes the socket (within ``within`` s)."""
    codes: list[str] = []

    async def read() -> None:
        while True:
            try:
                msg = await read_frame(reader)
            except Exception:
                return
            if msg.get("type") == "error":
                codes.append(msg["code"])

    await asyncio.wait_for(read(), within)
    return codes


def waiting_on_proof(host) -> int:
    """Sockets of the host still in their handshake (hello said, proof not yet judged)."""
    return len(host.server._unidentified)


@pytest.mark.parametrize("per_address, in_all", [(4, 6), (8, 3)])
async def test_sockets_waiting_on_a_proof_count_against_the_hello_limits(
    make_host, per_address, in_all
):
    # the slow-down is long (60 s after the first wrong proof), the handshake time short;
    # (8, 3): the limit in all is the one that bites
    limits = Limits(
        handshake_timeout=2.0,
        password_delay=60.0,
        password_delay_max=60.0,
        max_unidentified=in_all,
        max_unidentified_per_peer=per_address,
    )
    most = min(per_address, in_all)
    assert "its 10 s from the opening run on while it waits" in DOC
    host = await make_host(players=3, bots=1, password="s3cret", limits=limits)
    socks = []
    for i in range(40):
        socks.append(await wrong_proof(host, f"Guess {i}"))
        # never more waiting than one address may hold, whatever waits on a proof
        assert waiting_on_proof(host) <= most
    # every one of the 40 is closed — by busy (room for a newer one), the first wrong
    # proof, or the handshake time — long before a proof held 60 s would be judged
    codes = await asyncio.gather(*(last_word(r, 30.0) for r, _ in socks))
    assert all(len(c) == 1 for c in codes), codes
    said = [c[0] for c in codes]
    # the first proof is judged at once; then the oldest make room for the newer (busy),
    # and the newest are closed when their handshake time is up, their proofs never judged
    assert said == ["bad_password"] + ["busy"] * (39 - most) + ["timeout"] * most
    # nothing is left of them at the host: no socket, no task waiting on a proof
    await wait_for(lambda: waiting_on_proof(host) == 0)
    await wait_for(lambda: len(host.server._tasks) == 0)
    for _, w in socks:
        w.close()
