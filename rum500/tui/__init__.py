"""The terminal client: a prompt_toolkit application in pyvim's style.

``model`` owns the state (the latest view from the host, selection, sort mode, log, chat,
banners); ``layout`` reads it through callables at render time; ``keys`` makes the key
bindings from the model; ``app`` wires them to a connection (``connection``: the network
client, or ``local``: an in-process table) with injectable input/output; ``lobby`` is the
start screen; ``main`` holds the ``run_*`` entry points of the CLI.
"""
