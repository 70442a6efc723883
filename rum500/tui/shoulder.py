"""Over the shoulder on the table screen (docs/protocol.md §12): a seated player shows their
hand to one spectator, for teaching.

:class:`Shoulder` is a part of the table screen (as the review and the claim window are):
it follows the views' ``shoulders`` — a log line when a seat starts or stops showing its
hand (at a change of host it stops: nothing of it is carried, and the log says so) and the
players block's mark —, opens the ``shoulder`` overlay (key ``w``: choose a spectator, or end
it) and sends ``shoulder`` / ``shoulder_end``. For the spectator it reads the shown hand
(``shoulder`` in its view) and works out the hint for that seat from the view it received —
the public view with that seat's own keys over it — off the event loop, as
:mod:`rum500.tui.hint` does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from rum500.i18n import _
from rum500.tui import describe
from rum500.tui import hint as hints
from rum500.tui.feed import Feed
from rum500.tui.tableview import TableView


class Screen(Protocol):
    """What over the shoulder uses of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    ascii: bool
    feed: Feed  # the log and the message line
    overlay: str | None
    advise: Callable[[dict], Awaitable[dict | None]]
    spawn: Callable[[Any], Any]
    on_change: Callable[[], None]

    def close_overlay(self) -> None: ...


class Shoulder:
    """See the module docstring."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        #: sends the host a message that is not an action (the session's ``message``)
        self.send: Callable[[dict], Awaitable[Any]] | None = None
        self._was: list[tuple[int, str]] = []  # (seat, spectator's name) in the last view
        self.pending: asyncio.Future | None = None  # the spectator's hint being worked out

    # -- what the views say

    def follow(self, view: dict) -> None:
        """A new view: a log line for each seat that starts or stops showing its hand."""
        now = _pairs(view.get("shoulders"))
        s = self.screen
        for seat, name in now:
            if (seat, name) not in self._was:
                s.feed.log.append(
                    _("{player} shows their hand to {name} (over the shoulder).").format(
                        player=s.tableview.player_name(seat), name=name
                    )
                )
        for seat, name in self._was:
            if (seat, name) not in now:
                s.feed.log.append(
                    _("{player} no longer shows their hand to {name}.").format(
                        player=s.tableview.player_name(seat), name=name
                    )
                )
        self._was = now

    def moved(self) -> None:
        """The table went to another host: what was shown there ends (nothing of it is
        carried); the log says so now, not on the new host's first view."""
        if self._was:
            self._was = []
            self.screen.feed.log.append(_("The table changed host: no hand is shown any more."))

    def shown_to(self, seat: int) -> str | None:
        """The spectator ``seat`` shows its hand to, or None."""
        return next((name for s, name in self._was if s == seat), None)

    def shown(self) -> tuple[int, list[str]] | None:
        """(seat, hand) of the hand shown to me (a spectator), or None."""
        got = (self.screen.tableview.view or {}).get("shoulder")
        if not isinstance(got, dict) or not isinstance(got.get("seat"), int):
            return None
        hand = got.get("hand")
        cards = [c for c in hand if isinstance(c, str)] if isinstance(hand, list) else []
        return got["seat"], cards

    def watchers(self) -> list[tuple[int, str]]:
        """The spectators now (id, name), as the lobby lists them."""
        out = []
        for w in (self.screen.tableview.lobby or {}).get("watchers") or []:
            if isinstance(w, dict) and isinstance(w.get("id"), int):
                out.append((w["id"], str(w.get("name") or "?")[:24]))
        return out

    # -- the player's side: key w and its overlay

    def mine(self) -> str | None:
        """The spectator I show my hand to, or None."""
        seat = (self.screen.tableview.view or {}).get("seat")
        return self.shown_to(seat) if isinstance(seat, int) else None

    def may_offer(self) -> bool:
        """Key w: a seated player during a match, with a spectator to show to or one to stop."""
        s = self.screen
        if (
            s.tableview.spectator
            or not s.tableview.view
            or not s.tableview.in_progress
            or self.send is None
        ):
            return False
        return bool(self.watchers()) or self.mine() is not None

    def open(self) -> None:
        if self.may_offer():
            self.screen.overlay = "shoulder"
            self.screen.on_change()

    def pick(self, i: int) -> None:
        """Show my hand to the ``i``-th spectator of the list."""
        watchers = self.watchers()
        if 0 <= i < len(watchers) and self.mine() is None:
            self._send({"type": "shoulder", "spectator": watchers[i][0]})

    def end(self) -> None:
        if self.mine() is not None:
            self._send({"type": "shoulder_end"})

    def _send(self, msg: dict) -> None:
        self.screen.close_overlay()
        if self.send is not None:
            self.screen.spawn(self._go(msg))

    async def _go(self, msg: dict) -> None:
        try:
            await self.send(msg)  # type: ignore[misc]
        except ConnectionError as e:
            self.screen.feed.say(str(e), error=True)

    # -- the spectator's side: the hint for the seat shown

    def may_hint(self) -> bool:
        """Key h for a spectator: a hand is shown to me and its seat has a move to make."""
        shown = (self.screen.tableview.view or {}).get("shoulder")
        return (
            self.screen.tableview.spectator
            and self.screen.tableview.hint_allowed
            and isinstance(shown, dict)
            and bool(shown.get("legal_actions"))
        )

    def seat_view(self) -> dict | None:
        """The shown seat's view as I received it: the public view with its own keys over it
        (``seat``, ``hand``, ``legal_actions``), nothing more."""
        view, shown = self.screen.tableview.view, (self.screen.tableview.view or {}).get("shoulder")
        if not view or not isinstance(shown, dict):
            return None
        return {**{k: v for k, v in view.items() if k != "shoulder"}, **shown}

    def hint(self) -> None:
        """h: what the expert would play for the seat shown to me, in the message line."""
        if not self.may_hint():
            return
        self.screen.feed.say(_("Working out a hint…"))
        if self.pending is not None and not self.pending.done():
            return
        pending = self.screen.spawn(self._hint())
        self.pending = pending if isinstance(pending, asyncio.Future) else None

    async def _hint(self) -> None:
        seat_view = self.seat_view()
        if seat_view is None:
            return
        action = await self.screen.advise(seat_view)
        s = self.screen
        if not hints.same_position(self.seat_view(), seat_view):  # the position moved on
            if s.feed.message == _("Working out a hint…"):
                s.feed.say("")
                s.on_change()
            return
        if action is None:
            s.feed.say(_("No hint available."), error=True)
            return
        move = describe.action(action, seat_view, s.tableview.player_name, s.ascii)
        name = s.tableview.player_name(seat_view.get("seat"))
        s.feed.say(_("Hint for {player}: {move}").format(player=name, move=move))
        s.on_change()


def _pairs(value: object) -> list[tuple[int, str]]:
    """``shoulders`` as (seat, spectator's name) pairs, what is not such left out."""
    out = []
    for entry in value if isinstance(value, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("seat"), int):
            out.append((entry["seat"], str(entry.get("name") or "?")[:24]))
    return out
