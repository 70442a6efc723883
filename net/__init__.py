"""The transport of rum500: framing, the host server, the client library, LAN discovery.

This package knows nothing of Rummy 500: the server moves msgpack maps between seats and a
*table* object (:class:`net.server.Table`) that applies actions and builds views.
"""

from net.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
