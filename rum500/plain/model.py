"""The table screen's model, speaking: :class:`PlainModel` is the terminal client's
:class:`~rum500.tui.model.TableModel` (the same moves, refusals, review, claim window, hint,
host player's powers) whose every change is said as a line (``out``) instead of drawn.

* the events in the :data:`rum500.narrate.SPOKEN` voice (the log's other lines — the host's
  notices, the hint turned off, the table moving — as they come);
* the one-line message (a refusal is the engine's own sentence, translated);
* a question (numbered answers, yes or no), said with how to answer it;
* what the seat draws, its new hand when dealt, my turn with what it may do;
* the "Rummy!" window: opened, and counted down in words while this seat may call.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from rum500.i18n import _, ngettext
from rum500.narrate import SPOKEN, narrate, shown_name, spoken_card, spoken_cards
from rum500.plain import words
from rum500.tui import describe
from rum500.tui.feed import Feed
from rum500.tui.model import TableModel
from rum500.tui.tableview import TableView

Out = Callable[[str], None]
#: a key of the screen named in a sentence the moves share with it (`` (s)``): not said here
KEY_NAMED = re.compile(r" \((?:[a-zA-Z]|Enter|Esc)\)")
#: seconds left at which the "Rummy!" window is counted down aloud
CLAIM_STEPS = (10, 5, 2, 1)
#: steps of 20 ms a move accepted waits for the state it leaves (then the next line is read)
SETTLE_STEPS = 100
#: seconds left at which the wait for the next hand is said again
REVIEW_STEPS = (20, 10, 5)


class _SaidLog(deque):
    """The model's log, saying each line as it is added (unless ``quiet``)."""

    def __init__(self, out: Out, maxlen: int) -> None:
        super().__init__(maxlen=maxlen)
        self.out = out
        self.quiet = False

    def append(self, line: Any) -> None:
        super().append(line)
        if not self.quiet and line:
            self.out(str(line))

    def extend(self, lines: Any) -> None:
        for line in lines:
            self.append(line)


class PlainFeed(Feed):
    """The feed, speaking: its log says each line as it is added (:class:`_SaidLog`), a chat
    line is said with who said it, and the one-line message goes to ``said`` (the model
    decides when: after a new view's events)."""

    def __init__(self, out: Out, said: Out, on_change: Callable[[], None]) -> None:
        super().__init__(on_change)
        self.out = out
        self.said = said
        self.log = _SaidLog(out, self.log.maxlen or 300)

    def say(self, text: str, error: bool = False) -> None:
        super().say(text, error)
        if text and not (self.log and self.log[-1] == text):  # (said as it was logged)
            self.said(text)

    def heard_chat(self, who: str, text: object) -> None:
        super().heard_chat(who, text)
        self.out(_("{who} says: {text}").format(who=who, text=" ".join(str(text).split())))


class PlainTableView(TableView):
    """The view reader whose draw prompt names the pile's top card in words (no keys)."""

    def draw_prompt(self) -> str:
        stock, pile = self.can_draw_stock(), bool(self.legal_pile_indices())
        top = spoken_card(self.pile()[-1]) if self.pile() else ""
        if stock and pile:
            return _("Your turn: draw, or take {card} from the discard pile.").format(card=top)
        if stock:
            return _("Your turn: draw from the stock.")
        if pile and self.legal("end_hand"):
            return _("Your turn: the stock is empty: take from the discard pile, or end.")
        if pile:
            return _("Your turn: the stock is empty: take from the discard pile.")
        return _("Your turn: the stock is empty: end the hand.")


class PlainModel(TableModel):
    """A table model that says, line by line, what the screen would show. See the module."""

    def __init__(self, *, name: str = "", out: Out = print) -> None:
        describe.speak_cards()  # refusals and questions say cards in words too
        self.out = out
        #: what is said while a new view is taken, said after its events and hand
        self.held: list[str] | None = None
        self.feed: PlainFeed = PlainFeed(out, self._said, lambda: self.on_change())
        super().__init__(name=name, ascii=True, feed=self.feed, tableview=PlainTableView())
        self.said_banner = ""
        self.claim_said: int | None = None  # the last second of the window said aloud
        self.review_said: int | None = None
        self.seats_said = ""
        self.views_seen = 0  # views taken so far (a move waits for the one it leaves)
        self.settling = False  # a move sent, its state not yet here
        self.shown_seat: int | None = None  # the seat whose hand is shown to me (a spectator)
        self.coach_said: int | None = None  # the hand whose coach line was said
        self.on_change = self._changed
        self.lesson_said = ""  # the lesson's text said last (rum500 --plain learn)

    # ------------------------------------------------------------------ what is said

    def _said(self, text: str) -> None:
        """A line on the message line, said (a new view's events and hand come first)."""
        if self.lesson is not None and text == self.lesson.text():
            self.lesson_said = text
        if self.held is not None:  # a new view's events and hand come first
            self.held.append(KEY_NAMED.sub("", text))
        else:
            self.out(KEY_NAMED.sub("", text))

    def lobby_taken(self, msg: dict) -> None:
        """Before the match: who sits where (said when it changes)."""
        seats = msg.get("seats") if isinstance(msg.get("seats"), list) else []
        if self.tableview.view is None and seats:
            line = seats_text(seats)
            if line != self.seats_said:
                self.seats_said = line
                self.out(line)
                if self.host_player.can_start():
                    self.out(_("Type start to fill the free seats with bots and begin."))

    def connection_lost(self, why: str = "", until: float | None = None) -> None:
        super().connection_lost(why, until)
        self._say_banner()

    def host_closed(self, why: str) -> None:
        self.feed.banner = why
        self._say_banner()
        super().host_closed(why)

    def _say_banner(self) -> None:
        if self.feed.banner and self.feed.banner != self.said_banner:
            self.said_banner = self.feed.banner
            self.out(self.feed.banner)

    # ------------------------------------------------------------------ a move sent

    def _submit(self, action: dict) -> None:
        self.settling = True  # until the move's answer and state are here (see _send)
        sent = len(self.sent)
        super()._submit(action)
        if len(self.sent) == sent:  # not sent (no link): nothing to wait for
            self.settling = False

    async def _send(self, action: dict) -> None:
        """Send, and (accepted) wait a moment for the state it leaves, so that the next
        typed line reads the table after it (:attr:`settling`, read by the line loop)."""
        seen = self.views_seen
        self.settling = True
        self.feed.message_is_error = False
        try:
            await super()._send(action)
            for _tick in range(SETTLE_STEPS):
                if self.views_seen != seen or self.feed.message_is_error or self.feed.link_down:
                    break
                await asyncio.sleep(0.02)
        finally:
            self.settling = False

    # ------------------------------------------------------------------ a new view

    def set_view(self, view: dict, events: list[dict] | None = None) -> None:
        self.views_seen += 1
        old = self.tableview.view or {}
        old_hand = Counter(old.get("hand") or [])
        was_open = self.claim.open
        self.held = []
        try:
            super().set_view(view, events)
        finally:
            held, self.held = self.held, None
        hand = Counter(view.get("hand") or [])
        if view.get("hand_number") != old.get("hand_number") and view.get("phase") != "hand_over":
            if self.tableview.seat is not None:
                self.out(words.hand_text(self.tableview))
        elif hand - old_hand and old.get("phase") == "draw":
            drawn = sorted((hand - old_hand).elements(), key=self.tableview.hand().index)
            self.out(_("You drew {cards}.").format(cards=spoken_cards(drawn)))
        for line in held:  # my turn's prompt, after what led to it
            self.out(line)
        self._say_shown()
        self.follow_lesson()
        if self.claim.open and not was_open:
            self.claim_said = None
            self._say_claim()
        if view.get("phase") == "hand_over" and self.review.waits_for_me:
            self.out(_("Type review to hear the hand's review, ready for the next hand."))
        if view.get("winner") is not None and old.get("winner") is None:
            self.out(_("The match is over. Type scores to hear the totals, quit to leave."))

    def follow_lesson(self) -> None:
        """``rum500 --plain learn``: the lesson's text, said when it changes."""
        text = self.lesson.text() if self.lesson is not None else ""
        if text and text != self.lesson_said:
            self.lesson_said = text
            self.out(text)

    def _changed(self) -> None:
        """What the screen would redraw: the coach's line, said once when it arrives."""
        coach = self.coach
        hand = coach.review_hand
        if coach.state in ("done", "failed") and hand is not None and hand != self.coach_said:
            self.coach_said = hand
            self.out(coach.text())

    def coach_text(self) -> str:
        """The coach's line of the last hand's review ("" when there is none)."""
        last = (self.tableview.view or {}).get("last_hand")
        hand = last.get("hand") if isinstance(last, dict) else None
        return self.coach.text() if hand is not None and hand == self.coach.review_hand else ""

    def _say_shown(self) -> None:
        """A spectator: a hand shown to it (over the shoulder) is said once when it starts."""
        shown = self.shoulder.shown() if self.tableview.spectator else None
        seat = shown[0] if shown else None
        if shown and seat != self.shown_seat:
            self.out(
                _("{player}'s hand, shown to you: {cards}.").format(
                    player=self.tableview.player_name(seat),
                    cards=spoken_cards(shown[1]) or _("none"),
                )
            )
        self.shown_seat = seat

    def _log_events(self, view: dict, events: list[dict]) -> None:
        """The terminal's log is kept (quietly); the events are said in the spoken voice."""
        self.feed.log.quiet = True
        try:
            super()._log_events(view, events)
        finally:
            self.feed.log.quiet = False
        for e in events:
            for line in narrate(e, self.tableview.player_name, SPOKEN):
                self.out(line)

    # ------------------------------------------------------------------ countdowns

    def tick(self) -> None:
        """Each half second: count the "Rummy!" window down while this seat may call, and
        say who the next hand waits for at a few steps."""
        left = self.claim.seconds_left() if self.claim.open else None
        calling = self.claim.may_act() and bool(self.tableview.legal("rummy"))
        if left is not None and left != self.claim_said and left in CLAIM_STEPS and calling:
            self.claim_said = left
            self.out(
                ngettext(
                    "{n} second left to call Rummy!", "{n} seconds left to call Rummy!", left
                ).format(n=left)
            )
        review = self.review.seconds_left() if self.review.open else None
        if review is not None and review != self.review_said and review in REVIEW_STEPS:
            self.review_said = review
            self.out(self.review.wait_text())

    def _say_claim(self) -> None:
        """The window opens: whose discard, how long, and whether this seat may call."""
        card = spoken_card(self.claim.card or "?")
        left = self.claim.seconds_left()
        if not self.claim.may_act():
            return
        if self.tableview.legal("rummy"):
            line = _("{who} discarded {card}: type call for Rummy!, or pass.")
        else:
            line = _("{who} discarded {card}: you cannot call Rummy! on it; type pass.")
        text = line.format(who=self.tableview.player_name(self.claim.by), card=card)
        if left is not None:
            self.claim_said = left
            text += " " + ngettext("{n} second.", "{n} seconds.", left).format(n=left)
        self.out(text)

    # ------------------------------------------------------------------ questions

    def choose(self, question: str, choices: list[tuple[str, dict]]) -> None:
        super().choose(question, choices)
        self.say_question()

    def ask(self, question: str, action: Callable[[], None]) -> None:
        super().ask(question, action)
        self.say_question()

    def ask_quit(self) -> None:
        super().ask_quit()
        if self.overlay == "quit":
            self.say_question()

    def say_question(self) -> None:
        """The open question again, with how to answer it."""
        if self.overlay == "choose":
            listed = "; ".join(f"{k} {label}" for k, (label, _a) in enumerate(self.choices, 1))
            self.out(
                _("{question} {choices}. Type the number, or no.").format(
                    question=self.choose_text, choices=listed
                )
            )
        elif self.overlay == "confirm":
            self.out(plain_question(self.confirm_text))
        elif self.overlay == "quit":
            self.out(plain_question(self.host_player.quit_question()))

    @property
    def asking(self) -> bool:
        return self.overlay in ("choose", "confirm", "quit")

    # ------------------------------------------------------------------ hint

    async def _hint(self, view: dict) -> None:
        """The hint, said with the line that plays it."""
        action = await self.advise(view)
        if self.tableview.view is not view:
            return
        if action is None:
            self.feed.say(_("No hint available."), error=True)
            return
        move = describe.action(action, view, self.tableview.player_name, self.ascii)
        self.feed.say(
            _("Hint: {move}. Type: {command}").format(
                move=move, command=words.command_for(action, view)
            )
        )


def plain_question(text: str) -> str:
    """A question of the screen (``… y = leave, n = stay``) with its keys read as words."""
    words = {"y": _("yes"), "n": _("no")}
    return re.sub(r"\b([yn]) [=—] ", lambda m: words[m.group(1)] + ": ", text)


def seats_text(seats: list) -> str:
    """``Seats: Ann, Bob (bot), free.``"""
    said = []
    for s in seats:
        if not isinstance(s, dict) or not s.get("name"):
            said.append(_("free"))
        elif s.get("bot"):
            name = shown_name(str(s["name"])[:24], True)
            said.append(_("{name} (bot)").format(name=name))
        else:
            said.append(str(s["name"])[:24])
    return _("Seats: {seats}.").format(seats=", ".join(said))
