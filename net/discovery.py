"""LAN discovery with python-zeroconf's asyncio API.

A host announces ``<table name>._rum500._tcp.local.`` with a TXT record (see
``docs/protocol.md``); a second table with the same name is renamed ``<name>-2`` and so on by
zeroconf's probing. :class:`Announcer` keeps the TXT record up to date and says goodbye on
:meth:`Announcer.close`. :func:`watch` yields tables as they appear, change and vanish;
:func:`browse` collects them for a while. Multicast is not everywhere: a host is always
reachable by ``host:port`` too.

One :class:`zeroconf.asyncio.AsyncZeroconf` serves the whole process (:func:`shared`); it is
closed when its last user releases it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import socket
import unicodedata
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field

from zeroconf import (
    BadTypeInNameException,
    IPVersion,
    ServiceStateChange,
)
from zeroconf._exceptions import ServiceNameAlreadyRegistered
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.protocol import SERVICE_TYPE

log = logging.getLogger(__name__)

MAX_INSTANCE = 48  # bytes of the table name in the service name (DNS labels stop at 63)
_shared: AsyncZeroconf | None = None
_users = 0


def shared(interfaces: list[str] | None = None) -> AsyncZeroconf:
    """The process's AsyncZeroconf (made on first use, on ``interfaces`` or all of them)."""
    global _shared, _users
    if _shared is None:
        if interfaces:
            _shared = AsyncZeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)
        else:
            _shared = AsyncZeroconf(ip_version=IPVersion.V4Only)
    _users += 1
    return _shared


async def release() -> None:
    """One user of :func:`shared` is done; the last one closes it."""
    global _shared, _users
    _users -= 1
    if _users <= 0 and _shared is not None:
        zc, _shared, _users = _shared, None, 0
        await zc.async_close()


def instance_name(table_name: str) -> str:
    """The table name as a service instance name: printable, at most MAX_INSTANCE bytes."""
    text = "".join(ch for ch in table_name if unicodedata.category(ch)[0] != "C")
    text = " ".join(text.replace(".", " ").split()) or "rum500"
    while len(text.encode()) > MAX_INSTANCE:
        text = text[:-1]
    return text


@dataclass
class TableInfo:
    """A table seen on the LAN."""

    name: str
    address: str
    port: int
    version: int | None = None
    host_player: str = ""
    seats_taken: int = 0
    seats_total: int = 0
    state: str = ""
    options: dict = field(default_factory=dict)
    password: bool = False
    addresses: list[str] = field(default_factory=list)
    service: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _text(props: dict, key: str) -> str:
    value = props.get(key.encode())
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def table_from_service(info: AsyncServiceInfo) -> TableInfo | None:
    """A :class:`TableInfo` from a resolved service, or None if it is not a usable one."""
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    props = info.properties or {}
    seats = _text(props, "seats").partition("/")
    try:
        options = json.loads(_text(props, "options") or "{}")
        if not isinstance(options, dict):
            options = {}
    except ValueError:
        options = {}

    def number(text: str) -> int:
        return int(text) if text.isdigit() else 0

    version = _text(props, "v")
    name = info.name[: -len("." + SERVICE_TYPE)] if info.name.endswith(SERVICE_TYPE) else info.name
    return TableInfo(
        name=name,
        address=addresses[0],
        port=info.port,
        version=int(version) if version.isdigit() else None,
        host_player=_text(props, "host"),
        seats_taken=number(seats[0]),
        seats_total=number(seats[2]),
        state=_text(props, "state"),
        options=options,
        password=_text(props, "password") == "1",
        addresses=addresses,
        service=info.name,
    )


class Announcer:
    """Announce one table; update its TXT record; goodbye on close."""

    def __init__(
        self, interfaces: list[str] | None = None, addresses: list[str] | None = None
    ) -> None:
        self.interfaces = interfaces
        self.addresses = addresses or interfaces
        self.zc: AsyncZeroconf | None = None
        self.info: AsyncServiceInfo | None = None
        self.port = 0

    def _service(self, full_name: str, txt: dict[str, str]) -> AsyncServiceInfo:
        assert self.zc is not None
        addresses = self.addresses
        if not addresses:
            from zeroconf import get_all_addresses

            addresses = [a for a in get_all_addresses() if not a.startswith("127.")]
            addresses = addresses or ["127.0.0.1"]
        host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0])[:30] or "host"
        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=self.port,
            properties=txt,
            # one host name per table: two tables of one machine (or of two network
            # namespaces of one machine) must not share address records
            server=f"{host}-rum500-{self.port}.local.",
            addresses=[socket.inet_aton(a) for a in addresses],
        )

    async def start(self, table_name: str, port: int, txt: dict[str, str]) -> str:
        """Register the table; return the name it got (made distinct if it was taken)."""
        self.zc = shared(self.interfaces)
        self.port = port
        base = instance_name(table_name)
        for n in range(1, 50):
            name = base if n == 1 else f"{base}-{n}"
            txt = {**txt, "table": name}
            self.info = self._service(f"{name}.{SERVICE_TYPE}", txt)
            try:
                await (await self.zc.async_register_service(self.info, allow_name_change=True))
                break
            except ServiceNameAlreadyRegistered:
                continue  # another table in this very process has it
        final = self.info.name[: -len("." + SERVICE_TYPE)]
        if final != txt["table"]:  # zeroconf renamed it on a conflict: say so in the TXT too
            await self.update({**txt, "table": final})
        log.info("announced %r on the LAN", final)
        return final

    async def update(self, txt: dict[str, str]) -> None:
        if self.zc is None or self.info is None:
            return
        name = self.info.name[: -len("." + SERVICE_TYPE)]
        self.info = self._service(self.info.name, {**txt, "table": name})
        await (await self.zc.async_update_service(self.info))

    async def close(self) -> None:
        """Say goodbye on the LAN and let go of zeroconf."""
        if self.zc is None:
            return
        zc, self.zc = self.zc, None
        if self.info is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(await zc.async_unregister_service(self.info), 3)
        await release()


async def watch(interfaces: list[str] | None = None) -> AsyncIterator[tuple[str, TableInfo]]:
    """Yield ``("added" | "updated" | "removed", TableInfo)`` as tables come and go, forever
    (stop by breaking out of the loop or cancelling)."""
    zc = shared(interfaces)
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    known: dict[str, TableInfo] = {}

    def on_change(
        zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        queue.put_nowait((state_change.name, name))  # no blocking work in a handler

    browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE_TYPE], handlers=[on_change])
    try:
        while True:
            change, name = await queue.get()
            if change == "Removed":
                gone = known.pop(name, None)
                if gone is not None:
                    yield "removed", gone
                continue
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            try:
                if not await info.async_request(zc.zeroconf, 3000):
                    continue
            except (BadTypeInNameException, OSError) as e:
                log.debug("cannot resolve %s: %s", name, e)
                continue
            table = table_from_service(info)
            if table is None:
                continue
            event = "updated" if name in known else "added"
            known[name] = table
            yield event, table
    finally:
        await browser.async_cancel()
        await release()


async def browse(timeout: float = 3.0, interfaces: list[str] | None = None) -> list[TableInfo]:
    """The tables announced on the LAN, listening for ``timeout`` seconds."""
    tables: dict[str, TableInfo] = {}

    async def collect() -> None:
        async for event, table in watch(interfaces):
            if event == "removed":
                tables.pop(table.service, None)
            else:
                tables[table.service] = table

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(collect(), timeout)
    return sorted(tables.values(), key=lambda t: t.name.lower())
