"""Failover, the standby's side: keep the sealed log, take the table over when the players
say the host is gone.

A :class:`Standby` belongs to a :class:`rum500.handoff.guest.Guest` (one per seated client
that can host). When the host asks (``standby_ask``) it opens its port (:class:`net.door.Door`)
and answers ``standby_ready``; it keeps the ``standby_log`` records as they came — sealed
text only — and what ``standby_key`` gave it (the threshold, the key check, its own shares:
none when two players or more hold shares).

It takes the table over only when it can open the log: when shares from clients that lost
the host (sent to its door), with its own shares — counted only once its own client has lost
the host too —, combine into a key whose check matches. Then it opens every record in order,
rebuilds the table document, starts the host on the door's socket (clients waiting in its
backlog are served at once), announces the table and answers its own client's rejoin like
anyone's. It takes only shares whose SHA-256 digest the host listed in ``standby_key``'s
``expect`` (the holders'), so a stranger's made-up shares are dropped at once and cannot crowd
the holders' out; a share of an old epoch is never part of a combination that checks.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Protocol

from net.door import Door
from net.vault import Opener, VaultError, combine, key_check, share_digest
from rum500.handoff.document import DocumentError, aged, decode_chunks
from rum500.host.addresses import lan_hosts

if TYPE_CHECKING:
    from net.client import Client
    from rum500.host import Host


class Guest(Protocol):
    """What a standby needs of the guest it belongs to (:class:`rum500.handoff.guest.Guest`
    has it): its client, where it may listen, a way to say things and to run tasks, and to
    start hosting a table document."""

    client: Client
    bind: str
    interfaces: list[str] | None
    host: Host | None

    def say(self, line: str) -> None: ...

    def spawn(self, coro: Any) -> None: ...

    async def start(self, document: dict, sock: Any = None) -> Host: ...


log = logging.getLogger(__name__)

MAX_RECORDS = 1_000_000
MAX_POOL = 16  # distinct shares kept from clients (a stranger cannot fill memory or CPU)


class Standby:
    """The standby role of one guest (see the module docstring)."""

    def __init__(self, guest: Guest) -> None:
        self.guest = guest
        self.door: Door | None = None
        self.epoch: int | None = None
        self.table_id = ""
        self.records: dict[int, str] = {}
        self.arrived: dict[int, float] = {}  # when each record came (monotonic)
        self.threshold = 2
        #: holders' shares needed besides our own loss of the host (``standby_key``'s
        #: ``quorum``): a majority of the standby and the holders lost the host
        self.quorum = 0
        self.check: str | None = None
        self.own: list[str] = []
        self.pool: list[str] = []
        self.expect: set[str] | None = None  # digests of the holders' shares (standby_key)
        self.host_lost = False
        #: our client saw the host's process die (a reset, not silence): with no holder
        #: (``quorum`` 0) only that lets the standby take over
        self.host_died = False
        self.taking = False
        client = guest.client
        client.handlers.update(
            standby_ask=self._on_ask,
            standby_key=self._on_key,
            standby_log=self._on_log,
            standby_end=self._on_end,
        )
        client.on_leave_host.append(self._on_host_lost)
        client.on_host_back.append(self._on_host_back)
        client.on_moved.append(self._forget)  # the old host's standby is no more

    # ------------------------------------------------------------------ from the host

    def _on_ask(self, msg: dict) -> None:
        ident, table_id = msg.get("id"), msg.get("table_id")
        if isinstance(ident, int) and isinstance(table_id, str) and not self.taking:
            self.guest.spawn(self._open(ident, table_id))

    async def _open(self, ident: int, table_id: str) -> None:
        if self.door is None or self.table_id != table_id:
            if self.door is not None:
                await self.door.close()
            self.door = Door(table_id, self._on_share)
            port = await self.door.open(self.guest.bind)
            self.guest.say(f"standby for the table: port {port}")
        self.table_id = table_id
        self.epoch = ident
        self.records, self.check, self.own, self.pool, self.expect = {}, None, [], [], None
        self.host_lost = False
        await self.guest.client.send_raw(
            {
                "type": "standby_ready",
                "id": ident,
                "addresses": lan_hosts(self.guest.bind, self.guest.interfaces),
                "port": self.door.port,
            }
        )

    def _on_key(self, msg: dict) -> None:
        if msg.get("id") != self.epoch:
            return
        shares, check, threshold = msg.get("shares"), msg.get("check"), msg.get("threshold")
        if isinstance(shares, list) and isinstance(check, str) and isinstance(threshold, int):
            self.own = [s for s in shares if isinstance(s, str)]
            self.check, self.threshold = check, max(2, threshold)
            quorum = msg.get("quorum")
            self.quorum = quorum if isinstance(quorum, int) and 0 <= quorum <= MAX_POOL else 0
            expect = msg.get("expect")
            self.expect = (
                {d for d in expect if isinstance(d, str)} if isinstance(expect, list) else None
            )

    def _on_log(self, msg: dict) -> None:
        seq, data = msg.get("seq"), msg.get("data")
        if (
            msg.get("id") == self.epoch
            and isinstance(seq, int)
            and isinstance(data, str)
            and len(self.records) < MAX_RECORDS
        ):
            self.records[seq] = data
            self.arrived[seq] = time.monotonic()  # a window's time left runs on from here
            # the host tells nobody of what this record holds before we have it
            self.guest.client.send_now({"type": "standby_ack", "id": self.epoch, "seq": seq})

    def _on_end(self, msg: dict) -> None:
        if msg.get("id") == self.epoch:
            self._forget()

    def _forget(self) -> None:
        """No longer the standby: the records, the shares and the port go."""
        if self.taking or self.epoch is None:
            return
        self.guest.say("no longer the standby")
        self.epoch, self.records, self.check, self.own, self.pool = None, {}, None, [], []
        self.expect = None
        if self.door is not None:
            door, self.door = self.door, None
            self.guest.spawn(door.close())

    # ------------------------------------------------------------------ the shares

    def _on_share(self, share: str | None, epoch: int) -> dict:
        if (
            epoch == self.epoch
            and share
            and share not in self.pool
            and len(self.pool) < MAX_POOL
            and (self.expect is None or share_digest(share) in self.expect)
        ):
            self.pool.append(share)
            self._try()
        return {"have": len(self.pool), "need": self.threshold}

    def _on_host_lost(self) -> None:
        self.host_lost = True
        self.host_died = self.guest.client.host_died
        self._try()

    def _on_host_back(self) -> None:
        """Our own client is back with the host: it is alive, so we must not take over."""
        self.host_lost = self.host_died = False

    def key(self) -> bytes | None:
        """The key, if our own client lost the host, at least ``quorum`` holders sent their
        shares (they lost it too) and the shares at hand give a key that checks; else None.
        So a standby cut off from the table by itself never takes it over while the host
        serves the others."""
        if self.check is None or not self.host_lost or len(self.pool) < self.quorum:
            return None
        if self.quorum == 0 and not self.host_died:  # nobody else to ask: only a sure death
            return None
        shares = self.pool + self.own
        for combo in itertools.combinations(dict.fromkeys(shares), self.threshold):
            try:
                key = combine(combo)
            except VaultError:
                continue
            if key_check(key) == self.check:
                return key
        return None

    def _try(self) -> None:
        if self.taking or self.door is None:
            return
        key = self.key()
        if key is not None:
            self.taking = True
            self.guest.spawn(self._take_over(key))

    # ------------------------------------------------------------------ taking over

    def document(self, key: bytes) -> dict:
        """The table document as the sealed records give it (``DocumentError``)."""
        opener = Opener(key, f"{self.table_id}/{self.epoch}")
        chunks: list[str] = []
        document: dict | None = None
        since: float | None = None  # when the record with the windows came
        for seq in range(len(self.records)):
            if seq not in self.records:
                raise DocumentError(f"record {seq} of the standby log is missing")
            try:
                record = json.loads(opener.open(seq, self.records[seq]))
            except (VaultError, ValueError) as e:
                raise DocumentError(f"record {seq} of the standby log: {e}") from None
            kind = record.get("k")
            if kind == "doc":
                chunks.append(record["data"])
                if len(chunks) == record["parts"]:
                    document = decode_chunks(chunks)
                    since = self.arrived.get(seq)
            elif document is None:
                raise DocumentError("the standby log does not begin with the table")
            elif kind == "act":
                document["actions"].append(record["action"])
                document.setdefault("action_seats", []).append(record["seat"])
            elif kind == "trim":
                del document["actions"][record["n"] :]
                del document.setdefault("action_seats", [])[record["n"] :]
            elif kind == "seats":
                document["seats"] = record["seats"]
            elif kind == "win":  # the review / claim window: a ready, a pass, one opened
                document["windows"], since = record["windows"], self.arrived.get(seq)
        if document is None:
            raise DocumentError("the standby log holds no table")
        if since is not None:
            document["windows"] = aged(document.get("windows"), time.monotonic() - since)
        return document

    async def _take_over(self, key: bytes) -> None:
        guest = self.guest
        assert self.door is not None
        try:
            document = self.document(key)
            sock = await self.door.release()
            self.door = None
            guest.host = await guest.start(document, sock=sock)
        except (ValueError, OSError) as e:
            guest.say(f"the standby could not take the table over: {e}")
            log.exception("failover failed")
            return
        host = guest.host
        guest.say(f"hosting the table {host.table_name!r} on port {host.port} (failover)")
        if host.config.announce:
            try:
                await host.announce()
            except Exception as e:
                log.warning("could not announce the table: %s", e)

    async def close(self) -> None:
        if self.door is not None:
            door, self.door = self.door, None
            await door.close()
