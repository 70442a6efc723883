"""The fixtures of tests/net (a host on 127.0.0.1, connected clients, hosts closed after)
for the terminal client's tests that talk to a real host."""

from tests.net.conftest import clients, hosts, make_host

__all__ = ["clients", "hosts", "make_host"]
