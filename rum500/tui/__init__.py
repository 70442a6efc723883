"""The terminal client: a prompt_toolkit application in pyvim's style.

``model`` owns the table's state (the latest view from the host, cursor and selection, sort
mode, log, chat, banners, the overlay stack) and carries out what a move comes to; ``moves``
holds the moves themselves, pure (they return what to send, say or ask). Each overlay or
concern has a small model of its own beside it, reached through a narrow port: ``review`` (the
hand-end review: ready, the countdown), ``scores`` (the score table), ``claim`` (the "Rummy!"
window), ``changes`` (the card just drawn, the other players' last turns), ``hint`` (the hint,
worked out in a worker process and set up one key away). ``overlays`` holds the screen's modes
— the table and each overlay, one file each with its keys, body and placement — and the
registry that lists them; ``keys`` makes both the key bindings and the key bar from those
lists. ``render`` and ``sheets`` turn the state into formatted text; ``layout`` plans an
80×24-or-larger screen by region and floats the registry's overlays over it; ``app`` wires
them to a connection (``connection``: the network client) with injectable input/output;
``lobby`` is the start screen; ``main`` holds the ``run_*`` entry points of the CLI and the
lobby loop.
"""
