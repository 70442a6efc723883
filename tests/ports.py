"""A loopback port for a host a test starts.

The kernel chooses it (bind to port 0), so two pytest workers, or two tests run one after
the other in one worker while the first one's host is still closing, never pick the same
port — a port made from the worker's pid did both (CI: ``address already in use``).
"""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing was listening on a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
