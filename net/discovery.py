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

import ifaddr
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
RECORD_TTL = 15  # seconds every record of an announcement lives in caches (refreshed by queries)
CHECK_EVERY = 2.0  # seconds between liveness checks of a listed table's port …
CHECK_TIMEOUT = 2.0  # … each a TCP connect that must succeed within this long
QUIET = 1.5  # browse() returns once no answer came for this long
_shared: AsyncZeroconf | None = None
_users = 0


def shared(interfaces: list[str] | None = None) -> AsyncZeroconf:
    """The process's AsyncZeroconf (made on first use, on ``interfaces`` or all of them),
    speaking mDNS over IPv4 and IPv6 (IPv4 alone where IPv6 is missing)."""
    global _shared, _users
    if _shared is None:
        if interfaces:
            v6 = any(":" in i for i in interfaces)
            version = IPVersion.All if v6 else IPVersion.V4Only
            _shared = AsyncZeroconf(interfaces=list(interfaces), ip_version=version)
        else:
            _shared = _every_interface()
    _users += 1
    return _shared


def _every_interface() -> AsyncZeroconf:
    """mDNS on every IPv4 address and every interface with IPv6 but loopback (multicast to
    ``ff02::fb`` has no route there)."""
    v4: list[str | int] = []
    v6: list[str | int] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not ip.is_IPv6 and isinstance(ip.ip, str):
                v4.append(ip.ip)
            elif ip.is_IPv6 and ip.ip[0] != "::1" and adapter.index not in v6:
                v6.append(adapter.index)
    if v6:
        try:
            return AsyncZeroconf(interfaces=v4 + v6, ip_version=IPVersion.All)
        except OSError as e:
            log.info("mDNS over IPv6 is not available (%s): IPv4 only", e)
    return AsyncZeroconf(ip_version=IPVersion.V4Only)


def local_addresses() -> list[str]:
    """This machine's addresses worth announcing: IPv4 first, then IPv6 (link-local ones
    too), loopback left out unless there is nothing else."""
    v4: list[str] = []
    v6: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv6:
                address = ip.ip[0] if isinstance(ip.ip, tuple) else str(ip.ip)
                if address != "::1" and address not in v6:
                    v6.append(address)
            elif isinstance(ip.ip, str) and not ip.ip.startswith("127.") and ip.ip not in v4:
                v4.append(ip.ip)
    return v4 + v6 or ["127.0.0.1"]


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
    table_id: str = ""  # the TXT record's ``id``: the same table after a handoff or failover

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def where(self) -> str:
        """``host:port`` as ``rum500 join`` takes it (an IPv6 address in brackets)."""
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"{host}:{self.port}"


def zone_by_name(address: str) -> str:
    """``fe80::1%3`` as ``fe80::1%eth0`` (the interface's name, which a person can type)."""
    bare, sep, zone = address.partition("%")
    if sep and zone.isdigit():
        with contextlib.suppress(OSError, ValueError):
            return f"{bare}%{socket.if_indextoname(int(zone))}"
    return address


def _text(props: dict, key: str) -> str:
    value = props.get(key.encode())
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def table_from_service(info: AsyncServiceInfo) -> TableInfo | None:
    """A :class:`TableInfo` from a resolved service, or None if it is not a usable one.
    ``address`` is the first IPv4 address, else the first IPv6 one; an IPv6 link-local
    address carries its zone (``fe80::1%eth0``: the interface it was heard on)."""
    addresses = info.parsed_scoped_addresses(IPVersion.V4Only)
    addresses += [zone_by_name(a) for a in info.parsed_scoped_addresses(IPVersion.V6Only)]
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
        table_id=_text(props, "id"),
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
        addresses = [a for a in self.addresses or [] if a not in ("", "0.0.0.0", "::")]
        if not addresses:
            addresses = local_addresses()
        host = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0])[:30] or "host"
        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=self.port,
            properties=txt,
            # one host name per table: two tables of one machine (or of two network
            # namespaces of one machine) must not share address records
            server=f"{host}-rum500-{self.port}.local.",
            parsed_addresses=[a.partition("%")[0] for a in addresses],
            # short lifetimes: a host that vanished without its goodbye leaves the caches soon
            host_ttl=RECORD_TTL,
            other_ttl=RECORD_TTL,
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


async def alive(table: TableInfo, timeout: float = CHECK_TIMEOUT) -> bool:
    """Whether the table's port takes a TCP connection (on any of its addresses) now."""
    for address in table.addresses or [table.address]:
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection(address, table.port), timeout
            )
        except (OSError, TimeoutError):
            continue
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        return True
    return False


async def watch(
    interfaces: list[str] | None = None, check_every: float = CHECK_EVERY
) -> AsyncIterator[tuple[str, TableInfo]]:
    """Yield ``("added" | "updated" | "removed", TableInfo)`` as tables come and go, forever
    (stop by breaking out of the loop or cancelling).

    Besides the records' own comings and goings, every ``check_every`` seconds each table's
    port is tried (a TCP connect): a table whose port does not answer is reported removed at
    once — a host killed without its goodbye leaves the list within seconds, not when its
    records expire — and added again if its port answers while its records still live."""
    zc = shared(interfaces)
    queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    known: dict[str, TableInfo] = {}  # every resolved table whose records live
    shown: set[str] = set()  # … of which these were reported (their port answers)

    def on_change(
        zeroconf: object, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        queue.put_nowait((state_change.name, name))  # no blocking work in a handler

    async def checker() -> None:
        while True:
            await asyncio.sleep(check_every)
            names = list(known)
            answers = await asyncio.gather(*(alive(known[n]) for n in names))
            for name, ok in zip(names, answers, strict=True):
                if name in known and ok != (name in shown):
                    queue.put_nowait(("Alive" if ok else "Dead", name))

    browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE_TYPE], handlers=[on_change])
    checking = asyncio.create_task(checker())
    try:
        while True:
            change, name = await queue.get()
            if change in ("Removed", "Dead"):
                gone = known.pop(name, None) if change == "Removed" else known.get(name)
                if gone is not None and name in shown:
                    shown.discard(name)
                    yield "removed", gone
                continue
            if change == "Alive":
                if name in known and name not in shown:
                    shown.add(name)
                    yield "added", known[name]
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
            known[name] = table
            if change == "Added" and name not in shown and not await alive(table):
                log.debug("%s is announced but its port does not answer", name)
                continue  # the checker adds it if its port comes to answer
            event = "updated" if name in shown else "added"
            shown.add(name)
            yield event, table
    finally:
        checking.cancel()
        with contextlib.suppress(BaseException):
            await checking
        await browser.async_cancel()
        await release()


async def find(
    wanted: str, timeout: float = 5.0, interfaces: list[str] | None = None
) -> TableInfo | None:
    """The first table on the LAN whose id is ``wanted``, or whose name is (case does not
    matter), as soon as it answers; None after ``timeout`` seconds."""
    events = watch(interfaces)
    try:
        async with asyncio.timeout(timeout):
            async for event, table in events:
                if event != "removed" and wanted.lower() in (table.table_id, table.name.lower()):
                    return table
    except TimeoutError:
        return None
    finally:
        await events.aclose()
    return None


async def where(table_id: str, timeout: float) -> tuple[list[str], int] | None:
    """``(addresses, port)`` of the table announced with this id (:func:`find`), or None:
    a :attr:`net.client.Client.finder`."""
    found = await find(table_id, timeout)
    return (found.addresses or [found.address], found.port) if found is not None else None


async def browse(
    timeout: float = 5.0, interfaces: list[str] | None = None, quiet: float = QUIET
) -> list[TableInfo]:
    """The tables announced on the LAN whose port answers: listens until no answer has come
    for ``quiet`` seconds, and never longer than ``timeout``."""
    tables: dict[str, TableInfo] = {}
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    events = watch(interfaces)
    try:
        while True:
            wait = min(quiet, end - loop.time())
            if wait <= 0:
                break
            try:
                event, table = await asyncio.wait_for(anext(events), wait)
            except TimeoutError:
                break
            if event == "removed":
                tables.pop(table.service, None)
            else:
                tables[table.service] = table
    finally:
        await events.aclose()
    return sorted(tables.values(), key=lambda t: t.name.lower())
