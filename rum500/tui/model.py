"""The table screen's model: the coordinator of what the screen shows and every move a key
can make.

:class:`TableModel` holds its parts, each an object of a module of its own, built with a
narrow port (never the model): ``tableview`` (:class:`~rum500.tui.tableview.TableView`: what
the host sent — the view ``Game.view(seat)``, the seats — and its accessors; the others read
it), ``selection`` (:class:`~rum500.tui.selection.Selection`: the cursor and the selected
cards, over the table view), ``feed`` (:class:`~rum500.tui.feed.Feed`: the log, chat,
message line, notice and banner) and ``host_player`` (:class:`~rum500.tui.hostplayer.
HostPlayer`: what our own host lets its player do — start with bots, the hint off for all,
hand the table over, the quit question — given the table view, the feed and four callables).
What is left here coordinates them: it applies the host's messages, carries out what a move
(:mod:`rum500.tui.moves`) comes to, and keeps the overlay stack. It never touches the
terminal: the layout reads it, the key bindings call its methods, and moves leave through
``send`` (an async callable, the connection's ``act``) run by ``spawn`` (the application's
``create_background_task``). Every action it sends is first checked against
``view["legal_actions"]``, so only legal moves leave; the host's refusal, if any, comes back
as a one-line message.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from rum500.i18n import _
from rum500.tui import describe, moves
from rum500.tui import hint as hints
from rum500.tui.changes import Changes
from rum500.tui.claim import Claim
from rum500.tui.coachline import CoachLine
from rum500.tui.feed import CHAT_LINES, LOG_LINES, Feed
from rum500.tui.helptext import help_lines
from rum500.tui.hostplayer import HostPlayer
from rum500.tui.review import Review
from rum500.tui.scores import Scores
from rum500.tui.selection import Selection
from rum500.tui.shoulder import Shoulder
from rum500.tui.tableview import TableView
from rum500.tui.zones import ZONES, Zone

__all__ = ["CHAT_LINES", "LOG_LINES", "ZONES", "Refused", "TableModel", "Zone"]

Send = Callable[[dict], Awaitable[Any]]
Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class LessonPort(Protocol):
    """What the table screen uses of a lesson (``rum500 learn``): the panel's text, a look
    at each new view, and the move filter — a sentence keeps a legal move back (why it is
    weak here), None lets it go."""

    def text(self) -> str: ...

    def follow(self, view: dict) -> str | None: ...

    def check(self, action: dict, view: dict | None = None) -> str | None: ...


class Refused(Exception):
    """The host refused an action; ``str(e)`` is the reason for the player, ``template`` and
    ``params`` (when the host sent them) the same reason to translate."""

    def __init__(
        self, message: str, template: str | None = None, params: dict | None = None
    ) -> None:
        super().__init__(message)
        self.template = template
        self.params = params or {}


def _default_spawn(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.ensure_future(coro)


class TableModel:
    """State of the table screen. See the module docstring."""

    def __init__(
        self,
        *,
        name: str = "",
        send: Send | None = None,
        chat: Send | None = None,
        spawn: Spawn | None = None,
        ascii: bool = False,
        feed: Feed | None = None,
        tableview: TableView | None = None,
    ) -> None:
        #: the screen's redraw (the application's ``invalidate``), called on every change
        self.on_change: Callable[[], None] = lambda: None
        redraw = lambda: self.on_change()  # noqa: E731 (late-bound: the app sets on_change)
        #: the log, chat, message line, notice and banner (``feed``: one that also speaks)
        self.feed = feed if feed is not None else Feed(redraw)
        #: what the host sent (the view, the seats) and its accessors, read by every part
        self.tableview = tableview if tableview is not None else TableView()
        #: the cursor and the selected cards, over ``tableview``
        self.selection = Selection(self.tableview, redraw)
        self.exit: Callable[[], None] = lambda: None
        self.name = name
        self.send = send
        self.send_chat = chat
        self.spawn: Spawn = spawn or _default_spawn
        self.ascii = ascii
        #: keeps the hand's sort order (key o) for the next table: the reason when it cannot
        self.keep_sort: Callable[[str], str | None] | None = None
        self._init_overlays()
        #: what our own host lets its player do (start with bots, the hint for all, hand over)
        self.host_player = HostPlayer(
            self.tableview,
            self.feed,
            ask=self.choose_here,
            spawn=lambda coro: self.spawn(coro),
            exit=lambda: self.exit(),
            on_change=redraw,
        )
        self.closed_by_host: str | None = None  # the host closed the table: why
        self.sent: list[dict] = []
        self.busy = False
        #: works out the hint for a view, off the event loop (injectable: tests slow it)
        self.advise: Callable[[dict], Awaitable[dict | None]] = hints.advise_off_loop
        self.hint_pending: asyncio.Future | None = None  # the hint being worked out
        #: a lesson's port (rum500/learn/script.Lesson): its panel's text, its move filter
        self.lesson: LessonPort | None = None

    def _init_overlays(self) -> None:
        """The overlay stack and what each overlay shows."""
        #: the open overlays, the top one shown (tui/overlays/registry.py names them: "help",
        #: "quit", "sheet" (the hand-end review), "scores", "confirm", "choose", "final", "chat")
        self.overlay_stack: list[str] = []
        self.help_scroll = 0
        self.rule_page = 0  # the house rules' lesson shown (overlay "rules", L in the help)
        self.help_width = 76  # the help's width when it was last drawn (80 columns)
        self.review = Review(self)
        self.claim = Claim(self)  # the "Rummy!" claim window (house rule)
        self.coach = CoachLine(self)  # the review's coach line (tui/coachline.py)
        self.shoulder = Shoulder(self)  # over the shoulder (tui/shoulder.py; overlay "shoulder")
        #: a question with numbered answers (overlay "choose"): (label, action to send)
        self.choose_text = ""
        self.choices: list[tuple[str, dict]] = []
        #: a numbered question answered here, not by an action: called with the answer's index
        self.choose_local: Callable[[int], None] | None = None
        self.scores = Scores(self)
        self.changes = Changes()
        self.confirm_text = ""
        self.confirm_action: Callable[[], None] | None = None
        self.sheet: dict | None = None  # the last finished hand's result, until closed
        self.sheet_closed_for: int | None = None  # the hand whose review the player closed
        self.final_closed = False
        #: the client's check of each hand's deal: hand -> {ok, reason, text} (rum500/dealcheck)
        self.deal_checks: dict[int, dict] = {}

    def offline_key(self, key: str) -> None:
        """A key that would play or talk to the host while the link is down."""
        self.feed.say(_("The host cannot be reached: wait for the table to come back (q leaves)."))

    # ------------------------------------------------------------------ messages from the host

    def apply_message(self, msg: dict) -> None:
        """Take one message from the host: welcome, lobby (the seats), state, chat, moved,
        standby, error or refused, notice."""
        kind = msg.get("type")
        if kind == "welcome":
            self.tableview.take_welcome(msg)
        elif kind == "lobby":
            said = self.tableview.take_lobby(msg)
            self.lobby_taken(msg)
            self.feed.log.extend(said)
            self.coach.take_lobby(msg)
        elif kind == "state":
            view = msg.get("view")
            if isinstance(view, dict) and "players" in view:  # {} before the match starts
                self.set_view(view, msg.get("events") or [])
        elif kind == "chat":
            self.feed.heard_chat(
                msg.get("name") or self.tableview.player_name(msg.get("seat")), msg.get("text", "")
            )
        elif kind == "moved":
            self.feed.log.append(_("The table moves to another host: following it…"))
            self.shoulder.moved()
        elif kind == "standby" and isinstance(msg.get("name"), str):
            self.feed.log.append(
                _("If the host goes, {name}'s machine takes the table over.").format(
                    name=msg["name"][:24]
                )
            )
        elif kind == "error" and msg.get("code") == "moved":
            pass  # said with "moved"
        elif kind in ("error", "refused"):
            why = describe.refusal(
                str(msg.get("message", "")), msg.get("template"), msg.get("params"), self.ascii
            )
            self.feed.say(why, error=True)
        elif kind == "notice":
            self.feed.heard_notice(msg)
        elif kind == "deal_checked" and isinstance(msg.get("hand"), int):
            self.deal_checks[msg["hand"]] = msg
            self.feed.log.append(_(str(msg.get("text", ""))))
        self.on_change()

    def lobby_taken(self, msg: dict) -> None:
        """The host's seats list ``msg`` is taken, its lines not yet logged (the plain mode
        says who sits where here)."""

    def set_view(self, view: dict, events: list[dict] | None = None) -> None:
        """A new view (and the public events that led to it): the view's parts, the log, the
        review sheet, the overlays that no longer hold, the cursor, my turn's prompt."""
        old_turn = self.tableview.view["turn"] if self.tableview.view else None
        old_phase = self.tableview.view["phase"] if self.tableview.view else None
        old_hand = Counter((self.tableview.view or {}).get("hand") or [])
        self.tableview.take_view(view)
        self.changes.apply(
            [e for e in events or [] if isinstance(e, dict)],
            view.get("seat"),
            Counter(view.get("hand") or []) - old_hand,
        )
        self.review.update(view.get("review"))
        self.claim.update(view.get("claim"))
        self._log_events(view, events or [])
        self.shoulder.follow(view)
        self.selection.follow_view(view)
        self._follow_sheet(view)
        self.coach.follow(view, [e for e in events or [] if isinstance(e, dict)], self.sheet)
        # my turn begins: the turn came to me, or the "Rummy!" window before my draw closed
        begins = view["turn"] != old_turn or old_phase == "claim"
        if begins and self.tableview.my_turn and view["phase"] == "draw":
            self.selection.turn_begins()
            self.feed.say(self.tableview.draw_prompt())
        elif old_turn is None and self.tableview.my_turn and view["phase"] == "play":
            # joined or resumed in the middle of my turn (drawn already): say where it is
            self.feed.say(_("Your turn: meld, lay off, then discard."))
        elif view["turn"] != old_turn and self.feed.message and not self.feed.message_is_error:
            self.feed.message = ""
        if self.lesson is not None and (said := self.lesson.follow(view)):
            self.feed.say(said)  # the lesson's last words, under the review that covers its panel

    def _log_events(self, view: dict, events: list[dict]) -> None:
        """The events in the log (the first view alone: who deals); a call of "Rummy!" to
        the claim's banner; a hand's end opens its sheet."""
        if not self.feed.log and not events:
            self.feed.log.append(
                _("— Hand {n}: {dealer} deals.").format(
                    n=view["hand_number"], dealer=self.tableview.player_name(view["dealer"])
                )
            )
        for e in events:
            self.feed.log.extend(describe.event(e, self.tableview.player_name, self.ascii, view))
            if e.get("type") == "rummy":
                self.claim.called(describe.rummy_text(e, self.tableview.player_name, self.ascii))
            if e.get("type") == "hand_end":
                self.sheet = dict(e)  # at game over, the final standings come after it
                if self.overlay in (None, "final"):
                    self.overlay = "sheet"

    def _follow_sheet(self, view: dict) -> None:
        """The review sheet and the overlays as the new view leaves them: the last hand's
        sheet while the hand is over (unless closed), none once the next is dealt; a numbered
        question whose moves are no longer legal goes; the resting overlay shows."""
        last = view.get("last_hand")
        if (
            view["phase"] == "hand_over"
            and self.sheet is None
            and isinstance(last, dict)
            and last.get("hand") != self.sheet_closed_for
        ):
            self.sheet = dict(last)
        if view["phase"] in ("draw", "play") and self.sheet is not None:
            self.sheet = None  # the next hand is dealt: the review is over
            if self.overlay in ("sheet", "confirm"):
                self.overlay = None
        if self.overlay == "choose" and self.choose_local is None:  # a move to choose
            legal = view.get("legal_actions") or []
            if any(a not in legal for _label, a in self.choices):
                self.choices = []  # the position moved on: the question no longer holds
                self.overlay = None
        if self.overlay is None:
            self.overlay = self._resting()

    def host_closed(self, why: str) -> None:
        """The host closed the table: that is final; leave the table screen."""
        self.closed_by_host = why
        self.feed.banner = why
        self.on_change()
        self.exit()

    def connection_lost(self, why: str = "", until: float | None = None) -> None:
        """The link to the host is down: say so (``until``: the moment, on the monotonic
        clock, this screen stops trying to rejoin; the banner counts down to it). No key
        that would go to the host works until :meth:`connection_back`."""
        self.feed.banner = _("Connection lost — trying to rejoin…") + (f" ({why})" if why else "")
        if until is not None:
            self.feed.rejoin_until = until
        if not self.feed.link_down:
            self.feed.link_down = True
            self.feed.message = ""  # an answer the table gave before: no longer so
            if self.overlay in ("choose", "confirm", "chat"):  # their answer goes to the host
                self.close_overlay()
        self.on_change()

    def connection_back(self) -> None:
        self.feed.link_down = False
        self.feed.rejoin_until = None
        if self.feed.banner:
            self.feed.banner = ""
            self.feed.say(_("Rejoined the table."))
        self.on_change()

    # ------------------------------------------------------------------ cursor keys that play

    def toggle_select(self) -> None:
        """Space: select or unselect the card under the cursor (in the hand); on the pile,
        take from it; on a meld while a lay-off is being chosen, lay off there."""
        if self.selection.zone != Zone.HAND:
            if self.selection.zone == Zone.PILE:
                self.take_pile()
            elif self.selection.choosing_meld_for:
                self.lay_off()
            return
        hand = self.tableview.hand()
        if not hand:
            return
        self.selection.flip_selected(min(self.selection.hand_cursor, len(hand) - 1))
        self.on_change()

    def clear_selection(self) -> None:
        self.selection.unselect_all()
        self.feed.message = ""
        self.on_change()

    def toggle_sort(self) -> None:
        self.selection.flip_sort()
        rank = self.tableview.sort_mode == "rank"
        said = _("Hand sorted by rank.") if rank else _("Hand sorted by suit.")
        why = self.keep_sort(self.tableview.sort_mode) if self.keep_sort is not None else None
        if why:
            said += " " + _("(Not kept for the next table: {why}.)").format(why=why)
        self.feed.say(said)

    def click_hand(self, i: int) -> None:
        self.selection.zone = Zone.HAND
        self.selection.hand_cursor = i
        self.toggle_select()

    def click_pile(self, i: int) -> None:
        """A click chooses the depth; a second click on the same card takes from there."""
        if self.selection.zone == Zone.PILE and self.selection.pile_index() == i:
            self.take_pile()
            return
        self.selection.zone = Zone.PILE
        self.selection.pile_cursor = i
        self.on_change()

    def click_meld(self, i: int) -> None:
        self.selection.zone = Zone.MELDS
        self.selection.meld_cursor = i
        if self.selection.choosing_meld_for or len(self.selection.selected_cards()) == 1:
            self.lay_off()
        else:
            self.on_change()

    # ------------------------------------------------------------------ moves

    def help_lines(self, width: int | None = None) -> list[str]:
        """The help screen, with the house rules on at this table, wrapped to ``width`` (the
        width it was last drawn at when None)."""
        if width is not None:
            self.help_width = width
        can_hand_over = (
            self.host_player.hosting
            and self.host_player.successors is not None
            and bool(self.host_player.successors())
        )
        return help_lines(
            self.ascii, (self.tableview.view or {}).get("options"), can_hand_over, self.help_width
        )

    def lesson_text(self) -> str:
        """The lesson's panel (``rum500 learn``), else ""."""
        return self.lesson.text() if self.lesson is not None else ""

    def banner_text(self) -> str:
        """A call of "Rummy!" in the last few seconds, in words (else "")."""
        return self.claim.banner_text()

    def submit_action(self, action: dict) -> None:
        """Send ``action`` (already checked against the view) to the host."""
        self._submit(action)

    def choose(self, question: str, choices: list[tuple[str, dict]]) -> None:
        """Ask which of ``choices`` (label, action) to play: the keys 1, 2 … answer."""
        self.choose_text = question
        self.choose_local = None
        self.choices = choices[:9]
        self.overlay = "choose"
        self.on_change()

    def choose_here(self, question: str, labels: list[str], answer: Callable[[int], None]) -> None:
        """Ask ``question`` with numbered ``labels`` answered here, not by an action: the key
        1, 2 … calls ``answer`` with the answer's index."""
        self.choose(question, [(label, {}) for label in labels])
        self.choose_local = answer

    def choose_pick(self, i: int) -> None:
        if self.overlay != "choose" or not 0 <= i < len(self.choices):
            return
        if self.choose_local is not None:
            local, self.choose_local = self.choose_local, None
            self.choices = []
            self.close_top()
            local(i)
            self.on_change()
            return
        action = self.choices[i][1]
        self.choices = []
        self.close_top()
        self.selection.unselect_all()
        self.selection.zone = Zone.HAND
        self._submit(action)

    def _submit(self, action: dict) -> None:
        if self.lesson is not None and (why := self.lesson.check(action, self.tableview.view)):
            self.feed.say(why, error=True)  # the lesson keeps the move back: nothing is sent
            return
        if not self.send:
            self.feed.say(_("Not connected to a table."), error=True)
            return
        if self.feed.link_down:
            self.offline_key("")
            return
        self.sent.append(action)
        self.coach.played(self.tableview.view, action)
        self.feed.message = ""
        self.spawn(self._send(action))
        self.on_change()

    async def _send(self, action: dict) -> None:
        assert self.send is not None
        self.busy = True
        try:
            await self.send(action)
        except Refused as e:
            self.feed.say(describe.refusal(str(e), e.template, e.params, self.ascii), error=True)
        except (ConnectionError, OSError) as e:
            self.connection_lost(str(e))
        finally:
            self.busy = False
            self.on_change()

    def play(self, outcome: moves.Outcome | None) -> None:
        """Carry out what a move (:mod:`rum500.tui.moves`) came to: send its action, say its
        line, or ask its question."""
        if isinstance(outcome, moves.Send):
            self._submit(outcome.action)
        elif isinstance(outcome, moves.Say):
            self.feed.say(outcome.text, error=outcome.error)
        elif isinstance(outcome, moves.Choose):
            self.choose(outcome.question, outcome.choices)
        elif isinstance(outcome, moves.Confirm):
            action = outcome.action
            self.ask(outcome.question, lambda: self._submit(action))

    def _need_turn(self) -> bool:
        """Whether this seat may play now (else said why)."""
        why = moves.need_turn(self)
        self.play(why)
        return why is None

    def draw_stock(self) -> None:
        self.play(moves.draw_stock(self))

    def take_pile(self) -> None:
        """Take the card at the cursor's depth and every card above it."""
        self.play(moves.take_pile(self))

    def meld_selected(self) -> None:
        self.play(moves.meld_selected(self))

    def lay_off(self) -> None:
        """Lay off the selected card: on the meld under the cursor, or the only one it fits."""
        self.play(moves.lay_off(self))

    def discard(self) -> None:
        """Discard the selected card (the first d with nothing selected selects it)."""
        self.play(moves.discard(self))

    def end_hand(self) -> None:
        """e: end the hand (the stock is empty), after a question that shows its score."""
        self.play(moves.end_hand(self))

    def deal(self) -> None:
        """n: deal the next hand when it is my deal (during a review: I am ready). A lesson's
        hand is its last: n says so and leaves its review open."""
        if why := self.lesson_over():
            self.feed.say(why, error=True)
        elif self.review.open:
            self.review.ready()
        elif self.tableview.legal("deal"):
            self.sheet = None
            if self.overlay == "sheet":
                self.close_top()
            self._submit({"type": "deal"})
        elif self.tableview.phase == "hand_over":
            self._need_turn()
        else:
            self.feed.say(
                _("You can deal only when a hand is over and it is your deal."), error=True
            )

    def lesson_over(self) -> str | None:
        """A lesson's (``rum500 learn``) hand is over: what it says of the next hand it does
        not deal (else None)."""
        if self.lesson is None or self.tableview.phase != "hand_over":
            return None
        return self.lesson.check({"type": "deal"}, self.tableview.view)

    # ------------------------------------------------------------------ take back, confirm

    def can_take_back(self) -> bool:
        if self.tableview.legal("take_back"):
            return True
        return (
            self.tableview.my_turn
            and self.tableview.phase == "play"
            and self.changes.my_plays > 0
            and self.tableview.solo
        )

    def take_back(self) -> None:
        """u: take back my last meld or lay-off of this turn (solo tables only)."""
        self.play(moves.take_back(self))

    def ask(self, question: str, action: Callable[[], None]) -> None:
        """A yes/no question in an overlay; y runs ``action``."""
        self.confirm_text = question
        self.confirm_action = action
        self.overlay = "confirm"
        self.on_change()

    def confirm_yes(self) -> None:
        action = self.confirm_action
        self.confirm_action = None
        self.close_top()
        if action is not None:
            action()
        self.on_change()

    # ------------------------------------------------------------------ hint

    def hint(self) -> None:
        """What the strongest bot would do in my place: said in one line, and set up so that
        one more key plays it (cards selected, the cursor on the meld or the pile's depth).
        It is worked out off the event loop (:attr:`advise`); until it arrives the message
        line says so, and :attr:`hint_pending` is the task. A spectator shown a hand gets
        the hint for that seat (:meth:`Shoulder.hint`)."""
        if self.tableview.spectator:
            return self.shoulder.hint()
        if not self._need_turn() or not self.tableview.view:
            return
        if not self.tableview.hint_allowed:
            self.feed.say(_("The host turned the hint off at this table."), error=True)
            return
        self.feed.say(_("Working out a hint…"))  # the search runs in a worker: seconds, at worst
        if self.hint_pending is not None and not self.hint_pending.done():
            return
        pending = self.spawn(self._hint(self.tableview.view))
        self.hint_pending = pending if isinstance(pending, asyncio.Future) else None

    async def _hint(self, view: dict) -> None:
        """The hint for ``view``, worked out off the event loop (:attr:`advise`); applied
        only if the position is still ``view``'s when it arrives (the same view sent again —
        someone came or went — keeps it; a move made drops it)."""
        action = await self.advise(view)
        if not hints.same_position(self.tableview.view, view):  # the hint no longer holds
            if self.feed.message == _("Working out a hint…"):
                self.feed.say("")
            return
        if action is None:
            self.feed.say(_("No hint available."), error=True)
            return
        move = describe.action(action, view, self.tableview.player_name, self.ascii)
        self.coach.hinted(view, action)
        key = hints.set_up(self.selection, action)
        self.feed.say(
            _("Hint: {move} (press {key}).").format(move=move, key=key)
            if key
            else _("Hint: {move}").format(move=move)
        )
        self.on_change()

    def enter(self) -> None:
        """Enter: confirm a lay-off being chosen, take from the pile at the cursor, or open
        the review of the hand that just ended."""
        if self.selection.choosing_meld_for:
            self.lay_off()
        elif (
            self.selection.zone == Zone.PILE
            and self.tableview.my_turn
            and self.tableview.phase == "draw"
        ):
            self.take_pile()
        elif self.tableview.phase == "hand_over" and (self.tableview.view or {}).get("last_hand"):
            self.sheet = dict(self.tableview.view["last_hand"])  # type: ignore[index]
            self.overlay = "sheet"  # the review again (and ready, when the table waits for me)
            if self.review.waits_for_me:
                self.review.ready()
            self.on_change()
        elif self.tableview.legal("deal"):
            self.deal()

    # ------------------------------------------------------------------ overlays

    @property
    def overlay(self) -> str | None:
        """The overlay shown (the top of :attr:`overlay_stack`), None: the table."""
        return self.overlay_stack[-1] if self.overlay_stack else None

    @overlay.setter
    def overlay(self, name: str | None) -> None:
        """Open ``name`` over the others (pyvim's focus push); one already open comes back to
        the top, closing those over it; None closes them all."""
        if name is None:
            self.overlay_stack.clear()
        elif name in self.overlay_stack:
            del self.overlay_stack[self.overlay_stack.index(name) + 1 :]
        else:
            self.overlay_stack.append(name)

    def close_top(self) -> None:
        """Close the overlay on top (pyvim's focus pop): the one under it shows again while it
        still holds (help over the review pops back to the review), else the resting one."""
        if self.overlay_stack:
            self.overlay_stack.pop()
        while self.overlay_stack and not self._holds(self.overlay_stack[-1]):
            self.overlay_stack.pop()
        if not self.overlay_stack:
            self.overlay = self._resting()

    def _holds(self, name: str) -> bool:
        """Whether an overlay under the top one still has something to show."""
        if name == "sheet":
            return self.sheet is not None
        if name == "final":
            return self.tableview.finished and not self.final_closed
        if name == "choose":
            return bool(self.choices)
        if name == "confirm":
            return self.confirm_action is not None
        return True

    def _resting(self) -> str | None:
        """The overlay to show when no other is open: a score sheet not yet closed, else the
        final standings until closed once."""
        if self.sheet is not None:
            return "sheet"
        if self.tableview.finished and not self.final_closed:
            return "final"
        return None

    def toggle_help(self) -> None:
        if self.overlay == "help":
            self.close_top()
        else:
            self.overlay = "help"
        self.help_scroll = 0
        self.on_change()

    def scroll_help(self, step: int, lines: int) -> None:
        self.help_scroll = max(0, min(max(0, lines - 1), self.help_scroll + step))
        self.on_change()

    def close_overlay(self) -> None:
        self.choose_local = None
        if self.overlay == "sheet":
            if self.sheet is not None:
                self.sheet_closed_for = self.sheet.get("hand")
            self.sheet = None
        elif self.overlay == "confirm":
            self.confirm_action = None
        elif self.overlay == "final":
            self.final_closed = True
        elif self.overlay == "chat":
            self.feed.chat_input = ""
        elif self.overlay == "choose":
            self.choices = []
        if not self.feed.message_is_error:
            self.feed.message = ""  # what was said about the overlay goes with it
        self.close_top()
        self.on_change()

    def ask_quit(self) -> None:
        """q / Ctrl-C: leave at once when nothing is at stake (a lesson whose hand is over
        too), else ask first."""
        lesson_done = self.lesson is not None and self.tableview.phase == "hand_over"
        if (
            not self.tableview.in_progress or self.tableview.spectator or lesson_done
        ) and not self.host_player.guests_waiting:
            self.exit()
            return
        self.overlay = "quit"
        self.on_change()

    def confirm_quit(self) -> None:
        self.exit()

    def open_chat(self) -> None:
        self.overlay = "chat"
        self.feed.chat_input = ""
        self.on_change()

    def chat_send(self) -> None:
        text = self.feed.chat_input.strip()
        self.close_top()
        self.feed.chat_input = ""
        if text and self.send_chat:
            self.spawn(self._chat(text))
        self.on_change()

    async def _chat(self, text: str) -> None:
        assert self.send_chat is not None
        try:
            await self.send_chat(text)
        except (Refused, ConnectionError, OSError) as e:
            self.feed.say(_("Chat not sent: {why}").format(why=e), error=True)
