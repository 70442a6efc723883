"""The terminal client: a prompt_toolkit application in pyvim's style.

``model`` holds the table screen's state and coordinates it: it applies the host's messages,
carries out what a move comes to and keeps the overlay stack; its parts are its bases, one
module each — ``tableview`` (what the host sent: the view, the seats, and their accessors),
``selection`` (the cursor and the selected cards), ``feed`` (log, chat, message line, notice,
banner) and ``hostplayer`` (what our own host lets its player do). ``moves`` holds the moves
themselves, pure (they return what to send, say or ask). Each overlay or
concern has a small model of its own beside it, reached through a narrow port: ``review`` (the
hand-end review: ready, the countdown), ``scores`` (the score table), ``claim`` (the "Rummy!"
window), ``changes`` (the card just drawn, the other players' last turns), ``hint`` (the hint,
worked out in a worker process and set up one key away). ``overlays`` holds the screen's modes
— the table and each overlay, one file each with its keys, body and placement, taking a
small Protocol of its own (a narrow port, never the model) — and the registry that lists
them; ``keys`` makes both the key bindings and the key bar from those
lists. ``render`` and ``sheets`` turn the state into formatted text; ``layout`` plans an
80×24-or-larger screen by region and floats the registry's overlays over it; ``app`` wires
them to a connection (``connection``: the network client) with injectable input/output;
``lobby`` is the start screen; ``main`` holds the ``run_*`` entry points of the CLI and the
lobby loop.
"""
