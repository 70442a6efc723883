"""The fixtures of tests/net (a host on 127.0.0.1, connected clients, hosts closed after)
for these tests too."""

from tests.net.conftest import clients, hosts, make_host

__all__ = ["clients", "hosts", "make_host"]
