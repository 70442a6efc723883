"""The frames of one update (the fan-out of :mod:`net.server`): what each connection is sent
after an action, each distinct frame packed once.

A connection's view is kept as a :class:`Held`: the view's top-level keys each packed on its
own (:func:`net.framing.pack`) — for a table that tells a seat's own keys apart
(``own_view``), the public part (the spectators' view, built and packed once per update and
shared by every connection) and the seat's own keys over it. An :class:`Update` gives each
connection its frame: the whole view, or the delta from the view it holds (docs/protocol.md
§6). The public part's delta is worked out once per pair of public parts, a seat's own keys
on their own; connections whose frames come out the same — every spectator, and every seat
whose own keys did not change (its delta is then exactly the spectators') — get the very
same bytes, packed once.
"""

from __future__ import annotations

import logging
from typing import Any

from net.framing import FrameError, encode_parts, pack

log = logging.getLogger(__name__)

_MISSING = object()


class Held:
    """A view as packed parts: ``public`` with ``own`` over it (None: no keys of its own).
    The view is ``{**public, **own}``; many connections share one ``public`` map. Never
    changed once built; equal only to itself (a key for the connections that hold this
    very view). (A plain class: built for every seat of every update, a frozen dataclass
    cost twice as much.)"""

    __slots__ = ("public", "own")

    def __init__(self, public: dict[str, bytes], own: dict[str, bytes] | None = None) -> None:
        self.public = public
        self.own = own

    def whole(self) -> dict[str, bytes]:
        """The view's keys, each packed: ``public``'s order, ``own``'s values over it."""
        if not self.own:
            return self.public
        return {**self.public, **self.own}


def packed(view: dict) -> dict[str, bytes]:
    """``view`` with each top-level key's value packed on its own."""
    return {key: pack(value) for key, value in view.items()}


def packed_view(table: Any, seat: int | None) -> dict[str, bytes]:
    """``seat``'s view of ``table`` (a :class:`net.server.Table`), each top-level value
    packed: the table's ``packed_view`` when it has one."""
    build = getattr(table, "packed_view", None)
    return build(seat) if build is not None else packed(table.view(seat))


def held_view(
    table: Any,
    seat: int | None,
    views: dict[int | None, Held] | None = None,
    shown: int | None = None,
) -> Held:
    """``seat``'s view of ``table`` (None: a spectator's) as packed parts. For a table that
    tells a seat's own keys apart (``own_view``), the spectators' view (``views[None]``,
    built and put there when missing) with only the seat's own keys built and packed on it.
    ``shown`` (a spectator's ``Connection.shown``): the spectators' view with the table's
    ``shown_view(shown)`` over it — a view of that connection's own."""
    views = {} if views is None else views
    shown_view = getattr(table, "shown_view", None)
    if seat is None and shown is not None and shown_view is not None:
        public = views.get(None)
        if public is None:
            public = views[None] = Held(packed_view(table, None))
        return Held(public.public, packed(shown_view(shown)))
    own_view = getattr(table, "own_view", None)
    if seat is None or own_view is None:
        return Held(packed_view(table, seat))
    public = views.get(None)
    if public is None:
        public = views[None] = Held(packed_view(table, None))
    build = getattr(table, "packed_own_view", None)
    return Held(public.public, build(seat) if build is not None else packed(own_view(seat)))


class Update:
    """The ``state`` frames of update ``seq`` (``by``: the seat whose action it is; ``events``
    already packed): :meth:`frame` for each connection, the same bytes for the same frame."""

    def __init__(self, seq: int, by: int | None, events: bytes) -> None:
        self.head = {"type": "state", "seq": seq, "by": by}
        self.events = events
        #: (id of the held public part, id of the new one) → what changed (:func:`_delta`)
        self._public: dict[tuple[int, int], tuple[dict[str, bytes], list[str], frozenset]] = {}
        #: (id of the held public part, id of the new one) → the frame of that delta alone;
        #: ("view", ids of the parts) → a whole view's frame
        self._frames: dict[tuple, bytes] = {}
        #: the parts whose ids key the maps above, alive as long as this update
        self._keep: list[object] = []

    def frame(self, new: Held, old: Held | None) -> bytes:
        """The frame for a connection now sent the view ``new``: the whole view when it holds
        none (``old`` None: a connection that did not ask for deltas, or a first view), else
        the delta from ``old``: every key whose value is not the held one, and ``gone``, the
        keys the view no longer has."""
        if old is None:
            key: tuple = ("view", id(new.public), id(new.own))
            frame = self._frames.get(key)
            if frame is None:
                self._keep.append(new)
                frame = self._frames[key] = self._pack({"view": new.whole()})
            return frame
        ids = (id(old.public), id(new.public))
        public = self._public.get(ids)
        if public is None:
            self._keep += (old.public, new.public)
            public = self._public[ids] = _delta(old.public, new.public)
        delta, gone, touched = public
        was, now = old.own, new.own
        if not was and not now:  # the public part's delta alone
            return self._public_frame(ids, delta, gone)
        if was and now and (was is now or was.keys() == now.keys()) and touched.isdisjoint(now):
            # the usual seat: the same own keys, which the public part's delta leaves alone
            # (the very same map: a table's ``packed_own_view`` of a seat whose own keys
            # did not change)
            if was is now:
                return self._public_frame(ids, delta, gone)
            mine = {k: v for k, v in now.items() if was[k] != v}
            if not mine:
                return self._public_frame(ids, delta, gone)
            return self._delta_frame({**delta, **mine}, gone)
        own = {**(was or {}), **(now or {})}  # the keys a seat's own part decides
        mine, lost = _own_delta(own, old, new)
        changed = {k: v for k, v in delta.items() if k not in own} | mine
        return self._delta_frame(changed, [k for k in gone if k not in own] + lost)

    def _public_frame(
        self, ids: tuple[int, int], delta: dict[str, bytes], gone: list[str]
    ) -> bytes:
        """The frame of the public part's delta alone (``ids``: of the two public parts)."""
        frame = self._frames.get(ids)
        if frame is None:
            frame = self._frames[ids] = self._delta_frame(delta, gone)
        return frame

    def _delta_frame(self, delta: dict[str, bytes], gone: list[str]) -> bytes:
        body: dict[str, dict[str, bytes] | bytes] = {"delta": delta}
        if gone:
            body["gone"] = pack(gone)
        return self._pack(body)

    def _pack(self, body: dict[str, dict[str, bytes] | bytes]) -> bytes:
        try:
            return encode_parts(self.head, {"events": self.events, **body})
        except FrameError:  # the action stands; this update cannot travel whole
            log.error("an update is over the frame limit; its events are left out")
            return encode_parts(self.head, {"events": pack([]), **body})


def _delta(
    old: dict[str, bytes], new: dict[str, bytes]
) -> tuple[dict[str, bytes], list[str], frozenset[str]]:
    """The keys of ``new`` whose value is not ``old``'s, the keys ``new`` no longer has, and
    both together."""
    get = old.get
    changed = {k: v for k, v in new.items() if get(k) != v}
    gone = [k for k in old if k not in new]
    return changed, gone, frozenset(changed).union(gone)


def _own_delta(keys: dict, old: Held, new: Held) -> tuple[dict[str, bytes], list[str]]:
    """For the ``keys`` a seat's own part holds in ``old`` or ``new``: those whose value
    changed (the own value, else the public one), and those the view no longer has."""
    mine: dict[str, bytes] = {}
    lost: list[str] = []
    for k in keys:
        was = old.own[k] if old.own and k in old.own else old.public.get(k, _MISSING)
        now = new.own[k] if new.own and k in new.own else new.public.get(k, _MISSING)
        if now is _MISSING:
            if was is not _MISSING:
                lost.append(k)
        elif now != was:
            mine[k] = now  # type: ignore[assignment]
    return mine, lost
