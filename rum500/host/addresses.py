"""Where this host can be reached: the ONE place that lists this machine's addresses for
players (the lobby's ``addresses``, the handoff room's, the headless log's)."""

from __future__ import annotations

import ipaddress
import logging

from net.server import WILDCARDS

log = logging.getLogger("rum500.host")


def lan_addresses(bind: str, port: int, interfaces: list[str] | None = None) -> list[str]:
    """Where friends can reach the table by hand: ``ADDRESS:PORT`` for each non-loopback
    address of this machine the host listens on — a wildcard bind listens on both families
    (:meth:`net.server.Server.start`): IPv4 first, then IPv6 as ``[ADDRESS]:PORT``
    (``[ADDRESS%IFACE]:PORT`` when link-local). A host bound to one address gives just that
    one; one that listens on loopback only, or finds no other address, ``127.0.0.1:PORT``."""
    return [address_key(a, port) for a in lan_hosts(bind, interfaces)]


def lan_hosts(bind: str, interfaces: list[str] | None = None) -> list[str]:
    """The addresses of :func:`lan_addresses` without the port."""
    if bind not in WILDCARDS:
        return [bind]
    found: list[tuple[int, int, str]] = []
    try:
        import ifaddr  # zeroconf's own dependency

        adapters = list(ifaddr.get_adapters())
    except Exception as e:  # an odd platform: fall back to loopback below
        log.warning("cannot list this machine's addresses: %s", e)
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            text = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            try:
                addr = ipaddress.ip_address(text)
            except ValueError:
                continue
            if addr.is_loopback or addr.is_unspecified:
                continue
            if interfaces and text not in interfaces:
                continue
            if addr.version == 6 and addr.is_link_local:
                text = f"{text}%{adapter.name}"
            order = (addr.version, 1 if addr.is_link_local else 0)
            found.append((*order, text))
    out = list(dict.fromkeys(a for *_, a in sorted(found, key=lambda f: f[:2])))
    return out or ["127.0.0.1"]


def connectable(bind: str) -> str:
    if bind in ("", "0.0.0.0"):
        return "127.0.0.1"
    if bind == "::":
        return "::1"
    return bind


def parse_address(text: str) -> tuple[str, int] | None:
    """``"host:port"`` or ``"[::1]:port"`` → (host, port); None when it is not an address."""
    text = text.strip()
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or not rest.startswith(":"):
            return None
        port_text = rest[1:]
    else:
        host, sep, port_text = text.rpartition(":")
        if not sep or not host or ":" in host:
            return None
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return host, int(port_text)


def address_key(host: str, port: int) -> str:
    """``HOST:PORT``, or ``[HOST]:PORT`` for an IPv6 address (what :func:`parse_address`
    reads back)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
