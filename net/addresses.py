"""Where this machine can be reached: the ONE computation of its addresses, for the players
(:func:`rum500.host.addresses.lan_hosts`: the lobby's ``addresses``, the handoff room's, the
headless log's) and for the LAN announcement (:class:`net.discovery.Announcer`)."""

from __future__ import annotations

import ipaddress
import logging

log = logging.getLogger(__name__)


def local_hosts(interfaces: list[str] | None = None) -> list[str]:
    """This machine's addresses (no port) but loopback and the unspecified ones, those of
    ``interfaces`` only when given: IPv4 first, then IPv6; in each family link-local ones
    last, an IPv6 link-local one as ``ADDRESS%IFACE``. ``["127.0.0.1"]`` when there is no
    other (or they cannot be listed)."""
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
            found.append((addr.version, 1 if addr.is_link_local else 0, text))
    out = list(dict.fromkeys(a for *_, a in sorted(found, key=lambda f: f[:2])))
    return out or ["127.0.0.1"]


__all__ = ["local_hosts"]
