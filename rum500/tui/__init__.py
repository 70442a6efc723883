"""The terminal client: a prompt_toolkit application in pyvim's style.

``model`` owns the table's state (the latest view from the host, selection, sort mode, log,
chat, banners) and the moves; each overlay or concern has a small model of its own beside it:
``review`` (the hand-end review: ready, the countdown), ``scores`` (the score table),
``changes`` (the card just drawn, the other players' last turns), ``hint`` (the hint, set up one
key away). ``render`` and ``sheets`` turn them into formatted text; ``layout`` plans an
80×24-or-larger screen and reads them through callables at render time; ``keys`` makes the key
bindings from the model; ``app`` wires them to a connection (``connection``: the network
client, or ``local``: an in-process table) with injectable input/output; ``lobby`` is the
start screen; ``main`` holds the ``run_*`` entry points of the CLI.
"""
