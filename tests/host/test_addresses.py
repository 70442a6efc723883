"""Where this machine can be reached is computed once (net/addresses.local_hosts): the
players' list (rum500.host.addresses, the lobby's ``addresses``) and the LAN announcement
(net.discovery.Announcer) read the same addresses, in the same order."""

from __future__ import annotations

import ifaddr
import pytest

from net.addresses import local_hosts
from net.discovery import Announcer
from rum500.host.addresses import lan_addresses, lan_hosts


@pytest.fixture
def adapters(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with loopback, a LAN address, IPv4 and IPv6 link-local ones and a global
    IPv6 one, listed in an order that is not the one players are given."""

    def ip(address: str) -> ifaddr.IP:
        return ifaddr.IP((address, 0, 2) if ":" in address else address, 24, "x")

    fake = [
        ifaddr.Adapter("lo", "lo", [ip("127.0.0.1"), ip("::1")], index=1),
        ifaddr.Adapter("eth0", "eth0", [ip("fe80::1"), ip("169.254.3.3")], index=2),
        ifaddr.Adapter("eth1", "eth1", [ip("2001:db8::5"), ip("192.168.1.5")], index=3),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: fake)


def test_the_players_list_is_the_one_computation(adapters: None) -> None:
    assert local_hosts() == ["192.168.1.5", "169.254.3.3", "2001:db8::5", "fe80::1%eth0"]
    assert lan_hosts("0.0.0.0") == lan_hosts("::") == local_hosts()
    assert lan_hosts("0.0.0.0", ["192.168.1.5"]) == local_hosts(["192.168.1.5"]) == ["192.168.1.5"]
    assert lan_addresses("0.0.0.0", 5500)[-1] == "[fe80::1%eth0]:5500"
    assert lan_hosts("192.0.2.9") == ["192.0.2.9"]  # bound to one address: that one


def test_the_announcement_reads_the_same_addresses(adapters: None) -> None:
    announcer = Announcer()
    announcer.zc = object()  # type: ignore[assignment]  # _service only needs one to exist
    info = announcer._service("t._rum500._tcp.local.", {"v": "1"})
    assert info.parsed_addresses() == [a.partition("%")[0] for a in local_hosts()]


def test_nothing_but_loopback_gives_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    lo = ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo")], index=1)
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [lo])
    assert local_hosts() == lan_hosts("0.0.0.0") == ["127.0.0.1"]
