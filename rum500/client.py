"""rum500's network client, for the terminal client and the headless guest alike: one class
(:class:`RumClient`) and how a player takes a seat with it (:func:`take_seat`: the token saved
for that table in ``tokens.json``, found by the table's id wherever it was, else by its
address; :func:`save_token` after every (re)join).

It imports no screen: :mod:`rum500.tui.connection` (the table screen's session) and
:mod:`rum500.handoff.headless` (``rum500 join --headless``) both build on it.
"""

from __future__ import annotations

import logging
from typing import Any

from net.client import Client, ClientError, HandshakeError
from rum500 import tokens
from rum500.dealcheck import REASONS, DealChecker
from rum500.host.addresses import address_key
from rum500.rules import Options

log = logging.getLogger("rum500.client")


class RumClient(Client):
    """This program's client: its hello names every table option it knows, so that a host
    playing an option it does not know refuses it at the door (an ``options`` error); and
    it checks every deal (:mod:`rum500.dealcheck`): it answers each ``commit`` with its
    contribution, notes what it sees of each hand, and on each ``reveal`` puts the verdict
    among its messages as ``{"type": "deal_checked", "hand", "ok", "reason", "text"}``."""

    options = list(Options().to_dict())
    deal_check = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deals = DealChecker()
        self.handlers["commit"] = self._on_commit
        self.handlers["reveal"] = self._on_reveal

    # what a host sends is hostile: the checker's trouble with it never ends the read loop

    def _on_commit(self, msg: dict) -> None:
        try:
            answer = self.deals.on_commit(msg, self.seat)
        except Exception:
            log.warning("a commit the deal checker could not read: %r", msg, exc_info=True)
            return
        if answer is not None:
            self.send_now(answer)

    def _on_state(self, msg: dict) -> bool:
        before = self.view
        whole = super()._on_state(msg)
        if whole and isinstance(msg.get("view"), dict) and "players" in msg["view"]:
            try:
                self.deals.on_state(before, msg["view"], msg.get("events") or [])
            except Exception:
                log.warning("a state the deal checker could not read", exc_info=True)
        return whole

    def _on_reveal(self, msg: dict) -> None:
        try:
            verdict = self.deals.on_reveal(msg, self.view)
        except Exception:
            log.warning("a reveal the deal checker could not read", exc_info=True)
            hand = msg.get("hand")
            verdict = {"hand": hand if isinstance(hand, int) else None, "ok": False}
            verdict |= {"reason": "order_differs", "text": REASONS["order_differs"]}
        self._queue.put({"type": "deal_checked", **verdict})


def save_token(client: Client) -> None:
    """Remember ``client``'s seat token for its table (id and name) at its address now."""
    if client.token and client.seat is not None:
        tokens.put(
            address_key(client.host, client.port),
            client.token,
            client.name,
            client.seat,
            table_id=client.table_id,
            table=client.table_info.get("name") or None,
        )


async def table_id_at(
    cls: type[Client], host: str, port: int, password: str | None, timeout: float = 5.0
) -> str | None:
    """The id of the table at ``host:port``, asked as a spectator for a moment (None when it
    cannot be told)."""
    try:
        client = await cls.connect(
            host, port, name="rum500", password=password, spectate=True, timeout=timeout
        )
    except ClientError:
        return None
    await client.close()
    return client.table_id


async def take_seat(
    cls: type[Client],
    host: str,
    port: int,
    *,
    name: str,
    password: str | None,
    table_id: str | None = None,
    use_saved: bool = True,
    timeout: float = 5.0,
) -> Client:
    """Connect to the table at ``host:port`` as ``name``, saying it can host: with the token
    saved for ``name`` at that table — by ``table_id`` when it is known, wherever the table
    was then, else by this address — or as a new player. When every seat is taken (the match
    has started) and ``name`` has a seat saved at a table last seen elsewhere, the table's id
    is asked here (as a spectator, a moment) and that seat's token tried: the table may have
    moved here. A token the table refuses (``bad_token``) is forgotten, unless the table
    here is another table than the token's (its entry is kept for that table). The seat's
    token is saved (:func:`save_token`). Raises :class:`~net.client.ClientError`."""
    key = address_key(host, port)
    tried: set[str] = set()

    async def with_token(saved: dict) -> Client | None:
        """The client, or None when the table refused the token (then forgotten if that
        table is the token's)."""
        tried.add(saved["token"])
        try:
            return await cls.connect(
                host,
                port,
                name=saved.get("name") or name,
                token=saved["token"],
                password=password,
                timeout=timeout,
                can_host=True,
            )
        except HandshakeError as e:
            if e.code != "bad_token":
                raise
        here = table_id
        if here is None and saved.get("table_id"):
            here = await table_id_at(cls, host, port, password, timeout)
        if here is None or saved.get("table_id") in (None, here):
            tokens.forget(key, saved["token"], saved.get("table_id"))  # that seat is gone
        return None

    client = None
    saved = tokens.get(key, name, table_id) if use_saved else None
    if saved is not None:
        client = await with_token(saved)
    if client is None:
        try:
            client = await cls.connect(
                host, port, name=name, password=password, timeout=timeout, can_host=True
            )
        except HandshakeError as e:
            if e.code != "table_full" or not use_saved or not tokens.elsewhere(key, name):
                raise
            here = table_id or await table_id_at(cls, host, port, password, timeout)
            saved = tokens.get(key, name, here) if here else None
            if saved is None or saved.get("table_id") != here or saved["token"] in tried:
                raise
            client = await with_token(saved)
            if client is None:
                raise
    save_token(client)
    return client
