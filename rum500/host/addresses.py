"""Where this host can be reached, for players (the lobby's ``addresses``, the handoff
room's, the headless log's): the address it is bound to, or this machine's addresses as
:func:`net.addresses.local_hosts` — the one computation, which the LAN announcement uses
too — lists them; and the ``HOST:PORT`` text of an address."""

from __future__ import annotations

from net.addresses import local_hosts
from net.server import WILDCARDS


def lan_addresses(bind: str, port: int, interfaces: list[str] | None = None) -> list[str]:
    """Where friends can reach the table by hand: ``ADDRESS:PORT`` for each non-loopback
    address of this machine the host listens on — a wildcard bind listens on both families
    (:meth:`net.server.Server.start`): IPv4 first, then IPv6 as ``[ADDRESS]:PORT``
    (``[ADDRESS%IFACE]:PORT`` when link-local). A host bound to one address gives just that
    one; one that listens on loopback only, or finds no other address, ``127.0.0.1:PORT``."""
    return [address_key(a, port) for a in lan_hosts(bind, interfaces)]


def lan_hosts(bind: str, interfaces: list[str] | None = None) -> list[str]:
    """The addresses of :func:`lan_addresses` without the port: ``bind`` itself, or for a
    wildcard bind this machine's (:func:`net.addresses.local_hosts`, the one computation)."""
    if bind not in WILDCARDS:
        return [bind]
    return local_hosts(interfaces)


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
