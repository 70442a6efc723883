"""net/handshake.py on its own, without sockets or a server: ``read_hello`` reads and checks
``hello`` (then ``auth``) from any reader, and ``PasswordGate`` slows wrong passwords down
per address (the same behaviour tests/net/test_limits.py shows through a live host)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from net.framing import ConnectionClosed
from net.handshake import PasswordGate, read_hello
from net.protocol import PROTOCOL_VERSION, ProtocolError, auth_proof
from net.server import Limits


@dataclass
class Peer:
    """A connection as the handshake sees it: what it was sent, in order."""

    address: str = "10.0.0.2"
    peer: str = "('10.0.0.2', 5000)"
    closed: bool = False
    sent: list[dict] = field(default_factory=list)

    def send(self, message: dict) -> None:
        self.sent.append(message)

    def error(self, code: str, message: str) -> None:
        self.send({"type": "error", "code": code, "message": message})


def reader(*messages: dict):
    """``read(timeout)`` giving ``messages`` one by one (then nothing more: a timeout)."""
    queue = list(messages)

    async def read(timeout: float) -> dict:
        if not queue:
            raise TimeoutError
        return queue.pop(0)

    return read


def hello(**kw: object) -> dict:
    return {"type": "hello", "version": PROTOCOL_VERSION, "name": "Ann", **kw}


GATE = Limits(password_delay=0.01, password_delay_max=0.04)


async def test_a_hello_is_checked_and_returned() -> None:
    peer = Peer()
    got = await read_hello(
        peer, reader(hello()), timeout=1.0, password=None, gate=PasswordGate(GATE)
    )
    assert got["name"] == "Ann" and got["deltas"] is False and peer.sent == []


async def test_a_bad_field_is_answered_and_the_corrected_hello_taken() -> None:
    peer = Peer()
    got = await read_hello(
        peer,
        reader(hello(spectate="yes"), hello(spectate=True)),
        timeout=1.0,
        password=None,
        gate=PasswordGate(GATE),
    )
    assert got["spectate"] is True
    assert [m["code"] for m in peer.sent] == ["bad_message"]


@pytest.mark.parametrize(
    ("first", "code"),
    [({"type": "chat", "text": "hi"}, "handshake"), (hello(version=99), "version")],
)
async def test_a_wrong_first_message_is_fatal(first: dict, code: str) -> None:
    with pytest.raises(ProtocolError) as e:
        await read_hello(Peer(), reader(first), timeout=1.0, password=None, gate=PasswordGate(GATE))
    assert e.value.code == code


async def test_the_table_may_refuse_a_hello() -> None:
    with pytest.raises(ProtocolError) as e:
        await read_hello(
            Peer(),
            reader(hello(options=["teams"])),
            timeout=1.0,
            password=None,
            gate=PasswordGate(GATE),
            refuse_hello=lambda options: f"you do not know {options}",
        )
    assert e.value.code == "options" and "teams" in e.value.message


async def test_a_password_is_challenged_and_its_proof_checked() -> None:
    peer, gate = Peer(), PasswordGate(GATE)

    async def read(timeout: float) -> dict:
        if not peer.sent:
            return hello()
        nonce = peer.sent[-1]["nonce"]
        return {"type": "auth", "proof": auth_proof("s3cret", nonce)}

    got = await read_hello(peer, read, timeout=1.0, password="s3cret", gate=gate)
    assert got["name"] == "Ann" and [m["type"] for m in peer.sent] == ["challenge"]
    assert gate.failures == {}


async def test_wrong_passwords_slow_their_address_down() -> None:
    peer, gate = Peer(), PasswordGate(GATE)
    assert [gate.wait(n) for n in range(5)] == [0.0, 0.01, 0.02, 0.04, 0.04]
    for n in (1, 2):
        with pytest.raises(ProtocolError) as e:
            await gate.check(peer, "wrong", "s3cret", "nonce")
        assert e.value.code == "bad_password" and gate.failures[peer.address][0] == n
        assert 0 < gate.delay(peer.address) <= gate.wait(n)
    assert gate.delay("10.0.0.3") == 0.0  # another address is not slowed
    await gate.check(peer, auth_proof("s3cret", "n"), "s3cret", "n")  # waits, then passes
    assert peer.address not in gate.failures and gate.delay(peer.address) == 0.0


async def test_a_proof_waiting_when_its_connection_closes_ends() -> None:
    peer, gate = Peer(), PasswordGate(Limits(password_delay=0.05, password_delay_max=0.05))
    with pytest.raises(ProtocolError):
        await gate.check(peer, "wrong", "s3cret", "nonce")
    waiting = asyncio.ensure_future(gate.check(peer, "x", "s3cret", "nonce"))
    await asyncio.sleep(0)
    peer.closed = True
    with pytest.raises(ConnectionClosed):
        await waiting
