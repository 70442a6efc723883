"""docs/protocol.md §16, "Trust model": two promises checked against the real host.

- Only the chosen successor can finish a planned handoff: the same ``handoff_ready`` with the
  live id from another seated player's connection is refused (``bad_message``) and sends no
  one anywhere; the handoff then goes as the real successor answers.
- No single share opens the standby's records: every share the host made, alone and raw —
  combined on its own (a one-point interpolation: what threshold 1 would give) or read as a
  key — opens no sealed record. (The standby's own ``key()`` only ever tries ``threshold``
  shares, so it cannot show this.)
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from net.vault import KEY_BYTES, Opener, VaultError, combine, key_check
from rum500.handoff import TableMover
from rum500.handoff.document import decode_chunks, host_from_document
from tests.handoff.test_failover import Table
from tests.handoff.test_handoff import lost, table_of_three
from tests.net.util import wait_for


async def test_a_handoff_ready_from_another_seat_is_refused_and_nobody_moves():
    host, clients = await table_of_three()
    ann, bea, cy = clients
    chunks: dict[int, str] = {}
    ident: list[int] = []
    bea.handlers["handoff"] = lambda m: (ident.append(m["id"]), chunks.update({m["part"]: m}))
    errors: list[dict] = []
    cy.handlers["error"] = errors.append
    lure_calls: list[object] = []

    async def came(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        lure_calls.append(writer.get_extra_info("peername"))
        writer.close()

    lure = await asyncio.start_server(came, "127.0.0.1", 0)  # where Cy would send everyone
    lure_port = lure.sockets[0].getsockname()[1]
    successor = None
    mover = TableMover(host)
    handing = asyncio.create_task(mover.hand_over(bea.seat))
    try:
        # the handoff is under way: Bea (the successor) has the whole document
        await wait_for(lambda: chunks and len(chunks) == next(iter(chunks.values()))["parts"])
        live = ident[0]
        assert host.server.frozen is not None
        # Cy, seated and able to host, answers it with the live id and its own address
        await cy.send_raw(
            {"type": "handoff_ready", "id": live, "addresses": ["127.0.0.1"], "port": lure_port}
        )
        await wait_for(lambda: errors)
        del cy.handlers["error"]  # from now on a fatal error ends Cy's connection as usual
        assert [e["code"] for e in errors] == ["bad_message"]
        await asyncio.sleep(0)  # nothing else comes of it: still frozen, nobody moved
        assert not handing.done() and host.server.frozen is not None
        assert all(c.lost is None and c.moved is None for c in clients)

        # the real successor hosts the document and answers: everyone goes there
        document = decode_chunks([chunks[k]["data"] for k in sorted(chunks)])
        successor = await host_from_document(document, bind="127.0.0.1", announce=False)
        await bea.send_raw(
            {
                "type": "handoff_ready",
                "id": live,
                "addresses": ["127.0.0.1"],
                "port": successor.port,
            }
        )
        assert await asyncio.wait_for(handing, 10) == (["127.0.0.1"], successor.port)
        for c in clients:
            assert (await lost(c)).code == "moved"
            assert c.moved == (["127.0.0.1"], successor.port)
        assert await asyncio.gather(*(c.follow(timeout=10) for c in clients)) == ["moved"] * 3
        assert lure_calls == []  # nobody went where Cy said
    finally:
        handing.cancel()
        with contextlib.suppress(BaseException):
            await handing
        for c in clients:
            await c.close()
        if successor is not None:
            await successor.close()
        await host.close()
        lure.close()


def keys_from_one(share: str) -> list[bytes]:
    """Every key one share alone could be taken for: its one-point interpolation (what
    ``combine`` gives, the key itself were the threshold 1), and its value read raw."""
    found = []
    with contextlib.suppress(VaultError):
        found.append(combine([share]))
    y = int(share.split(":")[1], 16)
    raw = y.to_bytes(66, "big")
    found += [raw[-KEY_BYTES:], raw[:KEY_BYTES], raw[2 : 2 + KEY_BYTES]]
    return found


@pytest.mark.parametrize("guests", [["Bea", "Cy", "Di"], ["Bea", "Cy"]])
async def test_no_single_share_opens_a_sealed_record(guests: list[str]):
    """Two holders (the standby holds no share) and one holder (the standby holds one): each
    share the host gave out, alone, opens none of the standby's records."""
    table = await Table().open(guests, failover="on")
    try:
        await table.armed()
        keeper = table.standby().standby
        shares = [c.share["share"] for c in table.clients if c.share is not None]
        shares += keeper.own
        assert len(shares) == 2  # two holders, or a holder and the standby
        table_id = f"{keeper.table_id}/{keeper.epoch}"
        for share in shares:
            for key in keys_from_one(share):
                assert key_check(key) != keeper.check
                opener = Opener(key, table_id)
                for seq, sealed in keeper.records.items():
                    with pytest.raises(VaultError):
                        opener.open(seq, sealed)
        # the two together do open them: the test looks at the real records
        opener = Opener(combine(shares), table_id)
        assert b'"k":"doc"' in opener.open(0, keeper.records[0])
    finally:
        await table.close()
