"""The table screen's link to a host: :class:`net.client.Client`, kept alive.

:class:`NetSession` connects (rejoining with the token kept on disk for that table, found by
the table's id wherever it was, or by its address: :func:`take_seat`), feeds
every message from the host to the model, and when the connection drops shows a banner and
retries the rejoin in the background until it is back or the player leaves — where the table
is now: after ``moved`` at its new host, after a failover at the standby (``Client.follow``).
A host that does not answer (no standby to follow, or following failed) is tried again for
:data:`REJOIN_FOR` seconds, the banner counting down; then the table is given up and the
screen leaves, saying why (:meth:`TableModel.host_closed`, as when the host closed it).
A seated player's session can host (``can_host``): a :class:`rum500.handoff.Guest` beside it
takes the table when the host hands it over, or stands by for it. The model sends
through :meth:`NetSession.act` / :meth:`NetSession.chat`, which turn the client's errors into
the model's :class:`~rum500.tui.model.Refused` and :class:`ConnectionError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from net.client import ActionRefused, Client, ClientError, ConnectionLost, HandshakeError
from rum500.client import RumClient, save_token, take_seat
from rum500.host.addresses import address_key
from rum500.i18n import _
from rum500.tui.model import Refused, TableModel

#: Codes after which rejoining is pointless: say why and stop.
FINAL_CODES = {
    "bad_token",
    "replaced",
    "bad_password",
    "version",
    "table_full",
    "options",
    "busy",  # a full host: a spectator turned away is told so, not retried forever
    "other_table",  # where the table was said to be, another table is
}
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0)
#: seconds the screen keeps trying to rejoin a host that stopped answering (with no standby
#: to follow, or after following failed) before it gives the table up: back to the lobby
REJOIN_FOR = 60.0


class SessionError(Exception):
    """Joining failed; ``str()`` is a message for the player."""


class NetSession:
    """One player's (or spectator's) connection to a table, with rejoin."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str,
        password: str | None = None,
        spectate: bool = False,
        token: str | None = None,
        use_saved_token: bool = True,
        table_id: str | None = None,
    ) -> None:
        self.host, self.port = host, port
        #: the table's id when known before joining (the LAN's listing): its saved seat is
        #: looked up by it
        self.table_id = table_id
        self.name = name
        self.password = password
        self.spectate = spectate
        self.token = token
        self.use_saved_token = use_saved_token and token is None
        self.client: Client | None = None
        self.closing = False
        self.guest: Any = None  # rum500.handoff.Guest: this machine can take the table
        #: where this machine hosts a table taken over (see Guest), and announces it
        self.guest_bind = "0.0.0.0"
        self.guest_announce = True

    @property
    def key(self) -> str:
        return address_key(self.host, self.port)

    async def open(self) -> Client:
        """Connect; a player takes back the seat saved for this table (:func:`take_seat`:
        by the table's id, wherever it was, else by this address) or joins afresh."""
        try:
            if self.token:  # a seat reserved by our own host
                self.client = await RumClient.connect(
                    self.host,
                    self.port,
                    name=self.name,
                    token=self.token,
                    password=self.password,
                    timeout=5.0,
                    can_host=True,
                )
            elif self.spectate:
                self.client = await RumClient.connect(
                    self.host,
                    self.port,
                    name=self.name,
                    password=self.password,
                    spectate=True,
                    timeout=5.0,
                )
            else:
                self.client = await take_seat(
                    RumClient,
                    self.host,
                    self.port,
                    name=self.name,
                    password=self.password,
                    table_id=self.table_id,
                    use_saved=self.use_saved_token,
                )
        except ClientError as e:
            raise SessionError(self._why(e)) from None
        self._save_token()
        if self.client.seat is not None:
            from net.discovery import where
            from rum500.handoff import Guest

            self.client.finder = where  # follow(): the table by its id on the LAN, at last
            from rum500.store.db import db_path

            self.guest = Guest(
                self.client,
                bind=self.guest_bind,
                announce=self.guest_announce,
                log_path=db_path(),
            )
        return self.client

    def _why(self, e: ClientError) -> str:
        if isinstance(e, HandshakeError) and e.code == "password":
            return _("This table needs a password (--password).")
        if isinstance(e, HandshakeError) and e.code == "bad_password":
            return _("Wrong table password.")
        if isinstance(e, HandshakeError) and e.code == "options":
            return _("The table plays a house rule this rum500 does not know ({why}).").format(
                why=str(e)
            )
        if isinstance(e, HandshakeError) and e.code == "table_full":
            return _("Every seat is taken: join with --spectate to watch.")
        if isinstance(e, ConnectionLost):
            return _("Cannot reach the table at {address}.").format(address=self.key)
        return str(e)

    def _save_token(self) -> None:
        if self.client is not None:
            save_token(self.client)

    def welcome(self) -> dict:
        """The handshake's answer as a message for the model."""
        c = self.client
        assert c is not None
        info = c.table_info or {}
        return {
            "type": "welcome",
            "seat": c.seat,
            "name": c.name,
            "table": info.get("name") or "",
            "info": info,
        }

    async def act(self, action: dict) -> None:
        if self.client is None:
            raise ConnectionError(_("not connected"))
        try:
            await self.client.act(action)
        except ActionRefused as e:
            raise Refused(str(e), e.template, e.params) from None
        except ConnectionLost as e:
            raise ConnectionError(str(e)) from None

    async def chat(self, text: str) -> None:
        if self.client is None:
            raise ConnectionError(_("not connected"))
        try:
            await self.client.chat(text)
        except ConnectionLost as e:
            raise ConnectionError(str(e)) from None

    async def message(self, msg: dict) -> None:
        """Send the host a message that is not an action (``shoulder``, ``shoulder_end``):
        its answer, if any, comes with the others (an ``error``, a ``state``)."""
        if self.client is None:
            raise ConnectionError(_("not connected"))
        try:
            await self.client.send_raw(msg)
        except ConnectionLost as e:
            raise ConnectionError(str(e)) from None

    async def pump(self, model: TableModel) -> None:
        """Feed the host's messages to the model for as long as the screen is up; rejoin
        whenever the connection drops."""
        assert self.client is not None
        model.apply_message(self.welcome())
        while not self.closing:
            try:
                async for msg in self.client.messages():
                    model.apply_message(msg)
                if self.closing:
                    return
                raise ConnectionLost("closed")
            except ConnectionLost as e:
                if self.closing:
                    return
                if e.code == "moved" and model.host_player.leaving:
                    return  # the seat was left to a bot with the table: the screen goes
                # a table closed by its host (shutdown) is not followed to the standby
                if e.code == "moved" or (self.client.standby is not None and e.code != "shutdown"):
                    model.connection_lost(_("following the table"))
                    failed = await self._follow(model)
                    if failed is None:
                        continue
                    if getattr(failed, "code", None) in FINAL_CODES:
                        return  # the banner says why
                    if e.code == "moved":  # final: nowhere else to look, back to the lobby
                        model.host_closed(
                            _("the table moved to another host and could not be found there")
                        )
                        return
                if e.code == "shutdown":  # final: no retry, back to the lobby
                    model.host_closed(self._final_reason(e))
                    return
                if e.code in FINAL_CODES:
                    model.connection_lost(self._final_reason(e))
                    return
                else:
                    model.connection_lost()
                if not await self._rejoin(model):
                    return  # refused for good: the banner says why

    async def _follow(self, model: TableModel) -> ClientError | None:
        """Rejoin where the table went (its new host, or the standby); None when back, else
        why not."""
        assert self.client is not None
        try:
            await self.client.follow()
        except ClientError as e:
            model.connection_lost(str(e))
            self.client.host, self.client.port = self.host, self.port  # rejoin: the host again
            return e
        self.host, self.port = self.client.host, self.client.port
        model.tableview.address = self.key
        self._save_token()
        model.apply_message(self.welcome())
        model.connection_back()
        return None

    def _final_reason(self, e: ConnectionLost) -> str:
        if e.code == "replaced":
            return _("this seat was taken over from another terminal")
        if e.code == "shutdown":
            return _("the host closed the table")
        return str(e)

    async def _rejoin(self, model: TableModel) -> bool:
        """Rejoin until back (True), or until the host refuses for good, the player leaves
        or :data:`REJOIN_FOR` seconds have gone by — then the table is given up and the
        screen goes back to the lobby, saying why (False). The banner counts down."""
        attempt = 0
        assert self.client is not None
        until = time.monotonic() + REJOIN_FOR
        model.connection_lost(until=until)
        while not self.closing:
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1
            left = until - time.monotonic()
            if left <= 0:
                why = _("the host stopped answering: no answer for {n} s").format(
                    n=round(REJOIN_FOR)
                )
                if not model.tableview.spectator:
                    why += " " + _(
                        "— the match is kept on the host's machine: once it hosts it again "
                        "(rum500 host --resume), join that table again to take your seat back"
                    )
                model.host_closed(why)
                return False
            try:
                await self.client.reconnect(timeout=min(5.0, max(0.5, left)))
            except HandshakeError as e:
                if e.code in FINAL_CODES:
                    model.connection_lost(str(e))
                    return False
                model.connection_lost(str(e), until)
                continue
            except ClientError:
                continue
            self._save_token()
            model.apply_message(self.welcome())
            model.connection_back()
            return True
        return False

    async def close(self) -> None:
        self.closing = True
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
        if self.guest is not None:  # a table taken over closes with its player's screen
            await self.guest.close()
