"""The host player's part of the table screen: what our own host lets the player who hosts do.

:class:`HostPlayer` keeps what our host hands the screen (start with bots, turn the hint off
for everyone, the saved match's id, who may take the table and the handing over), and the
moves that use them: ``g`` (start with bots), ``I`` (the hint off/on for all), ``H`` (hand the
table to another player's machine, then keep the seat or leave it to a bot), the quit
question that says what leaving closes or how to resume. At someone else's table each is None
and the keys are not offered. The table screen's model holds one (``TableModel.host_player``),
built with its narrow port: the table view it reads, the feed it speaks to, and four callables
(``ask`` a numbered question answered here, ``spawn`` a task, ``exit`` the screen, redraw).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rum500.i18n import _
from rum500.tui.feed import Feed
from rum500.tui.tableview import TableView

#: a numbered question answered here: (question, the answers' labels, called with the index)
Ask = Callable[[str, list[str], Callable[[int], None]], None]


class HostPlayer:
    """The host player's handles on our own host, and the moves they make."""

    def __init__(
        self,
        tableview: TableView,
        feed: Feed,
        *,
        ask: Ask,
        spawn: Callable[[Any], Any],
        exit: Callable[[], None],
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        """What our own host gives the host player (None at someone else's table), and what
        it uses of the rest of the screen (its port)."""
        self.tableview = tableview
        self.feed = feed
        self.ask = ask
        self.spawn = spawn
        self.exit = exit
        self.on_change = on_change
        #: our own host: turn the hint off/on for everyone at the table (Host.set_hint)
        self.set_table_hint: Callable[[bool], None] | None = None
        #: our own host: the match's id in the game log (None: not saved)
        self.saved_game: Callable[[], int | None] | None = None
        self.start_now: Callable[[], None] | None = None  # our own host: start with bots
        #: our own host: the players who may take the table, and handing it to a seat
        self.successors: Callable[[], list[tuple[int, str]]] | None = None
        self.hand_over: Callable[..., Any] | None = None  # (seat, leave_to_bot=False)
        self.hosting = False  # our own process hosts this table
        self.leaving = False  # the seat is left to a bot with the table: no following it

    def can_start(self) -> bool:
        return (
            self.start_now is not None
            and self.tableview.view is None
            and bool(self.tableview.lobby)
            and ((self.tableview.lobby or {}).get("state") == "lobby")
        )

    def start_with_bots(self) -> None:
        """g, at our own table before it starts: bots take the free seats, the match begins."""
        if self.can_start() and self.start_now is not None:
            self.start_now()
            self.feed.say(_("Bots take the free seats: the match begins."))

    @property
    def guests_waiting(self) -> bool:
        """We host this table, it has not started, and someone else has sat down: leaving
        would close it under them."""
        if self.start_now is None or self.tableview.view is not None or not self.tableview.lobby:
            return False
        seats = self.tableview.lobby.get("seats") or []
        people = [
            s
            for s in seats
            if isinstance(s, dict) and s.get("name") and not s.get("bot") and s.get("connected")
        ]
        return len(people) > 1

    def quit_question(self) -> str:
        if self.guests_waiting:
            return _("Close the table for the players waiting? y = close, n = stay")
        if self.hosting and self.tableview.others_seated:
            return _("You host this table: leaving closes it for everyone. y = leave, n = stay")
        game_id = self.resumable_as()
        if game_id is not None:
            return _(
                "Leave the match? It is saved: rum500 play --resume {id} picks it up later. "
                "y = leave, n = stay"
            ).format(id=game_id)
        return _("Leave the match? y = leave, n = stay")

    def resumable_as(self) -> int | None:
        """The game log's id of this match when leaving it now leaves a solo match that
        ``rum500 play --resume ID`` picks up (we host it, no other person sits here, it is
        not over); else None."""
        if not self.hosting or self.tableview.others_seated or not self.tableview.in_progress:
            return None
        game_id = self.saved_game() if self.saved_game is not None else None
        return game_id if isinstance(game_id, int) else None

    def can_set_table_hint(self) -> bool:
        """We host a table where another person plays: the hint may be turned off for all."""
        return self.hosting and self.set_table_hint is not None and self.tableview.others_seated

    def toggle_table_hint(self) -> None:
        """I (the host player): turn the hint off for everyone at the table, or on again;
        every player's log says so (the lobby message carries it)."""
        if not self.can_set_table_hint() or self.set_table_hint is None:
            self.feed.say(
                _("Only the host player turns the hint off, at a table of several people.")
            )
            return
        self.set_table_hint(not self.tableview.hint_allowed)
        self.on_change()

    def offer_handoff(self) -> None:
        """H: the host player hands the table to another player's machine (who: 1, 2 …)."""
        if not self.hosting or self.successors is None or self.hand_over is None:
            self.feed.say(_("Only the host player can hand the table over."), error=True)
            return
        if not self.tableview.view:
            self.feed.say(_("The table can be handed over once the match has started."), error=True)
            return
        found = self.successors()
        if not found:
            self.feed.say(
                _("Nobody here can take the table: their rum500 must be able to host."),
                error=True,
            )
            return
        seats = [seat for seat, _name in found]
        self.ask(
            _("Hand the table to whose machine?"),
            [name for _seat, name in found],
            lambda i: self._ask_seat_kept(seats[i]),
        )

    def _ask_seat_kept(self, seat: int) -> None:
        """After who: whether the host player keeps their seat there or leaves it to a bot."""
        name = self.tableview.player_name(seat)
        self.ask(
            _("Hand the table to {name}'s machine, and your seat?").format(name=name),
            [
                _("keep my seat: I play on at {name}'s table").format(name=name),
                _("leave my seat to a bot, and leave the table"),
            ],
            lambda i: self.spawn(self._hand_over(seat, leave_to_bot=i == 1)),
        )

    async def _hand_over(self, seat: int, leave_to_bot: bool = False) -> None:
        assert self.hand_over is not None
        self.feed.say(_("Handing the table over…"))
        self.leaving = leave_to_bot  # the screen does not follow the table then
        try:
            await self.hand_over(seat, leave_to_bot=leave_to_bot)
        except Exception as e:  # HandoffError: the table stays here
            self.leaving = False
            self.feed.say(str(e), error=True)
            return
        self.hosting = False
        self.feed.log.append(
            _("The table moved to {name}'s machine.").format(name=self.tableview.player_name(seat))
        )
        self.on_change()
        if leave_to_bot:
            self.exit()

    def host_gone(self) -> None:
        """This process no longer hosts the table: it was cut off from the players and the
        standby took the table over (our own connection follows it there)."""
        self.hosting = False
        text = _("This machine lost touch with the table: the standby's machine hosts it now.")
        self.feed.log.append(text)
        self.feed.say(text)
        self.on_change()

    def host_here(
        self,
        successors: Callable[[], list[tuple[int, str]]],
        hand_over: Callable[..., Any],
        taken_over: bool = False,
    ) -> None:
        """This process hosts the table: the quit question says that leaving closes it for
        everyone, and H hands it over (``successors``: who may take it; ``hand_over(seat,
        leave_to_bot=…)``). ``taken_over``: it came here from another host (a handoff or a
        failover), so the player is told."""
        self.hosting = True
        self.successors = successors
        self.hand_over = hand_over
        if taken_over:  # (the others come back after: H shows once one of them can host)
            text = _(
                "You host this table now: leaving closes it for everyone; H hands it on once "
                "another player here can host."
            )
            self.feed.log.append(text)
            self.feed.say(text)
        self.on_change()
