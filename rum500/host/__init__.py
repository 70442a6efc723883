"""The rum500 side of hosting: a :class:`rum500.rules.Game` behind :mod:`net.server`.

Public API (stable; the terminal client and the game log build on it)::

    from rum500.host import HostConfig, start_host

    host = await start_host(HostConfig(players=4, bots=3, host_player="Ann"))
    host.port, host.address        # where to connect (address is connectable, e.g. 127.0.0.1)
    host.addresses                 # ["192.168.1.5:5500", …]: where friends reach it by hand
    host.table_name                # as announced (made distinct if another table had it)
    host.token, host.seat          # the host player's seat and its token (None without one)
    # the host player joins like everyone else, over the network:
    #   await Client.connect(host.address, host.port, name="Ann", token=host.token)
    host.start_now()               # fill the empty seats with bots and start at once
    host.notice("log_failed", "…") # a notice message to every client
    await host.finished()          # wait for game over
    await host.close()             # goodbye ("shutdown") to every client, mDNS goodbye, stop

Seats: the host player (``host_player``) sits at seat 0, ``bots`` bots take the last seats,
and the others are free for players who join; the match starts when every seat is taken.
Bots play with a human-like pause (``bot_delay``) while a human seat is connected, at once
otherwise. A human seat that stays away longer than ``takeover_after`` seconds is played by
a bot until its player rejoins with the token; every view's ``takeover`` counts down to it.

The hand-end review: when a hand ends (phase ``hand_over``) every view carries ``review``
(``hand``, ``waiting``, ``seconds_left``). A seated player's ``{"type": "ready"}`` — or
``{"type": "deal"}``, which counts as ready — is a ``ready`` event; the host deals for the
next dealer as soon as no connected human player is waiting, or ``review_timeout`` seconds
after the hand ended. Bots never act while a review is open; a table with no human
connected deals at once. A table that moved here (a handoff, a failover) goes on with the
review or "Rummy!" claim window that was open (``HostConfig.resume_windows``, from
:meth:`GameTable.windows`): who said ready or passed, the time left, and it waits for the
players who were connected there until they rejoin or the deadline comes.

Take back: ``{"type": "take_back"}`` from the seat to move undoes its last meld or lay-off
of the turn (``Game.pop``), only at a table where every other seat is a bot.

The lobby message carries ``addresses`` (see :func:`lan_addresses`). Views are sent again
(``events: []``) when a player comes or goes during a review or while a seat is away.
See docs/protocol.md for every message and field.

Journal hook (``HostConfig.journal``), called synchronously, in this order:
``start_match(info)`` once the match starts — info: ``players`` (count), ``seed``,
``options`` (dict), ``deck`` (None), ``table`` (name), ``seats`` ([{name, token, bot}]);
also once when a resumed match is hosted (same info, the saved seats) —;
``record(seq, seat, action)`` after each applied action (``seq`` is its index in
``Game.actions``, ``action`` the engine's normalised form; ``seat`` is None for the host's own
``close_claims``, which ends a "Rummy!" claim window) and before anyone is told of it;
``take_back(seq)`` when the action with index ``seq`` (the last one) is taken back;
``seats(seats)`` when names, tokens or bots change; ``finish(winner, totals)`` at game over.
A journal with a ``follow`` method is first given the host's live ``Game`` (``follow(game)``,
before ``start_match``): it may read finished hands from it instead of keeping a copy.
A journal call that raises ``OSError`` or ``sqlite3.Error`` is logged as a warning and the
players get a ``log_failed`` notice (once, until a call succeeds); any other exception is a
bug, logged as an error with its traceback (and noticed too); either way the game carries
on. A journal with an ``on_warning`` attribute (a :class:`~rum500.host.gamelog.WarningLog`:
:class:`rum500.store.journal.Journal`, which never raises) has it chained so that its warnings
become ``log_failed`` notices as well.

Who points at whom: :class:`Host` builds its :class:`GameTable` and its :class:`net.server.
Server`; the table reads the seats and the table id and sends notices through a narrow port
(:class:`~rum500.host.table.HostPort`, the Host), never through the server; host-played
actions go seat driver -> table -> ``Server.applied`` (no step back up). The handoff room and
the runners use Host's public surface only; :func:`rum500.handoff.serving.serving` assembles
host, game log and room for every caller.

Resume: ``HostConfig.resume_game`` (a ``Game``, e.g. from ``Game.replay``) and
``resume_seats`` (``[{name, token, bot}]`` in seat order) host a restored position; players
rejoin with their saved tokens.
"""

from rum500.host.config import MAX_RESULTS, HostConfig
from rum500.host.host import Host, start_host
from rum500.host.table import GameTable, PackedSheet

__all__ = ["MAX_RESULTS", "GameTable", "Host", "HostConfig", "PackedSheet", "start_host"]
