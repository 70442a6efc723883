"""LAN discovery with python-zeroconf's asyncio API.

A host announces ``<table name>._rum500._tcp.local.`` with a TXT record (see
``docs/protocol.md``); a second table with the same name is renamed ``<name>-2`` and so on by
zeroconf's probing. The same table (same TXT ``id``) announced again by its next host, after
a handoff or a failover, keeps its name: records of its earlier host still in this machine's
cache are dropped before probing, and if a live one still answers for the name, only the
instance name changes, not the table's (TXT ``table``). :class:`Announcer` keeps the TXT
record up to date and says goodbye on :meth:`Announcer.close`. :func:`watch` yields tables
as they appear, change and vanish, one per table id (:class:`Listing`); :func:`browse`
collects them for a while. Multicast is not everywhere: a host is always reachable by
``host:port`` too.

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
    DNSPointer,
    IPVersion,
    ServiceStateChange,
)
from zeroconf._exceptions import ServiceNameAlreadyRegistered
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.addresses import local_hosts
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
    def key(self) -> str:
        """What tells one table from another in a list: its id (the same at every host it
        had), else its service name."""
        return f"id {self.table_id}" if self.table_id else self.service

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
    instance = info.name
    if instance.endswith(SERVICE_TYPE):
        instance = instance[: -len("." + SERVICE_TYPE)]
    return TableInfo(
        name=_text(props, "table") or instance,  # the table's own name, not the instance's
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
        self.table = ""  # the table's name in the TXT record (see start)

    def _service(self, full_name: str, txt: dict[str, str]) -> AsyncServiceInfo:
        assert self.zc is not None
        addresses = [a for a in self.addresses or [] if a not in ("", "0.0.0.0", "::")]
        if not addresses:
            addresses = local_hosts()  # the players' list too (rum500.host.addresses)
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
        """Register the table; return its name: ``table_name`` as an instance name, made
        distinct (``Name-2``) if another table has it. The same table (TXT ``id``) as an
        earlier host announced it does not take the name: its records still in this
        machine's cache are dropped first (that host is gone: the table is here now), and
        if a live one still answers for the name, only the service instance is renamed —
        the table keeps its name, in the TXT record's ``table`` too."""
        self.zc = shared(self.interfaces)
        self.port = port
        base = instance_name(table_name)
        table_id = txt.get("id") or ""
        if table_id:
            self._forget_earlier_hosts(table_id)
        name = base
        for n in range(1, 50):
            name = base if n == 1 else f"{base}-{n}"
            if n < 49 and self._taken(name, table_id):
                continue  # another table has it: take the next name before announcing any
            self.table = name
            self.info = self._service(f"{name}.{SERVICE_TYPE}", {**txt, "table": name})
            try:
                await (await self.zc.async_register_service(self.info, allow_name_change=True))
                break
            except ServiceNameAlreadyRegistered:
                continue  # another table in this very process has it
        final = self.info.name[: -len("." + SERVICE_TYPE)]
        if final != name and not (table_id and self._cached_id(name) == table_id):
            self.table = final  # zeroconf renamed it for another table: say so in the TXT too
            await self.update(txt)
        log.info("announced %r on the LAN as %r", self.table, final)
        return self.table

    def _taken(self, instance: str, table_id: str) -> bool:
        """Whether another table (another TXT ``id``) has ``instance`` already, as this
        process registered it or this machine's mDNS cache holds it: the name is then not
        announced at all, so no browser ever lists this table under another's name."""
        assert self.zc is not None
        full = f"{instance}.{SERVICE_TYPE}"
        mine = self.zc.zeroconf.registry.async_get_info_name(full.lower())
        if mine is not None:
            return _text(mine.properties or {}, "id") != table_id or not table_id
        cached = self._cached_id(instance)
        return bool(cached) and cached != table_id

    def _cached_id(self, instance: str) -> str:
        """The TXT ``id`` this machine's mDNS cache holds for the service ``instance``."""
        assert self.zc is not None
        try:
            info = AsyncServiceInfo(SERVICE_TYPE, f"{instance}.{SERVICE_TYPE}")
        except BadTypeInNameException:
            return ""
        info.load_from_cache(self.zc.zeroconf)
        return _text(info.properties or {}, "id")

    def _forget_earlier_hosts(self, table_id: str) -> None:
        """Drop from this machine's mDNS cache the services announced with ``table_id`` (an
        earlier host of this table): a cached record of the name makes zeroconf rename the
        table (``Name-2``) before it even probes, for a name that is its own."""
        assert self.zc is not None
        cache = self.zc.zeroconf.cache
        for ptr in cache.async_entries_with_name(SERVICE_TYPE):
            alias = ptr.alias if isinstance(ptr, DNSPointer) else ""
            mine = alias.endswith("." + SERVICE_TYPE)
            if mine and self._cached_id(alias[: -len("." + SERVICE_TYPE)]) == table_id:
                log.debug("forgetting %s as its earlier host announced it", alias)
                cache.async_remove_records([ptr, *cache.async_entries_with_name(alias)])

    async def update(self, txt: dict[str, str]) -> None:
        if self.zc is None or self.info is None:
            return
        self.info = self._service(self.info.name, {**txt, "table": self.table})
        await (await self.zc.async_update_service(self.info))

    async def close(self) -> None:
        """Say goodbye on the LAN and let go of zeroconf."""
        if self.zc is None:
            return
        zc, self.zc = self.zc, None
        if self.info is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(3):
                    await (await zc.async_unregister_service(self.info))
        await release()


async def alive(table: TableInfo, timeout: float = CHECK_TIMEOUT) -> bool:
    """Whether the table's port takes a TCP connection (on any of its addresses) now."""
    for address in table.addresses or [table.address]:
        try:
            async with asyncio.timeout(timeout):
                _, writer = await asyncio.open_connection(address, table.port)
        except (OSError, TimeoutError):
            continue
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        return True
    return False


class Listing:
    """The tables seen, one per table (:attr:`TableInfo.key`: its id): the services of one
    table — its earlier host's, whose records still live, and its host's now, maybe under
    another instance name (``Name-2``) — are one entry, the service seen last (the newest
    host). :meth:`see` turns a service's event into the table's (or None: nothing in the
    list changes)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, TableInfo]] = {}  # key → service → table, oldest first

    def see(self, event: str, table: TableInfo) -> tuple[str, TableInfo] | None:
        services = self.tables.setdefault(table.key, {})
        before = list(services.values())[-1] if services else None
        if event == "removed" or event == "added":
            services.pop(table.service, None)
        if event != "removed":
            services[table.service] = table  # added: the newest; updated: stays where it was
        if not services:
            del self.tables[table.key]
            return ("removed", before) if before is not None else None
        after = list(services.values())[-1]
        if before is None:
            return "added", after
        return ("updated", after) if after != before else None


async def watch(
    interfaces: list[str] | None = None, check_every: float = CHECK_EVERY
) -> AsyncIterator[tuple[str, TableInfo]]:
    """Yield ``("added" | "updated" | "removed", TableInfo)`` as tables come and go, forever
    (stop by breaking out of the loop or cancelling): one table per id (:class:`Listing`),
    so an "updated" table may come from another service than before (the table's new host).

    Besides the records' own comings and goings, every ``check_every`` seconds each table's
    port is tried (a TCP connect): a table whose port does not answer is reported removed at
    once — a host killed without its goodbye leaves the list within seconds, not when its
    records expire — and added again if its port answers while its records still live."""
    listing = Listing()
    services = _watch_services(interfaces, check_every)
    try:
        async for event, table in services:
            if (seen := listing.see(event, table)) is not None:
                yield seen
    finally:
        await services.aclose()


async def _watch_services(
    interfaces: list[str] | None, check_every: float
) -> AsyncIterator[tuple[str, TableInfo]]:
    """:func:`watch`, one service at a time."""
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
                async with asyncio.timeout(wait):
                    event, table = await anext(events)
            except TimeoutError:
                break
            if event == "removed":
                tables.pop(table.key, None)
            else:
                tables[table.key] = table
    finally:
        await events.aclose()
    return sorted(tables.values(), key=lambda t: t.name.lower())
