"""A finished match read back into positions: the step list ``rum500 replay`` shows.

:class:`Replay` rebuilds the match once from its seed and actions (``Game.apply`` on a fresh
game, never touching the log) and keeps one :class:`Frame` per position: the deal, then one
per action, every hand face up, and the action that led there in words
(:mod:`rum500.narrate`'s replay voice, each card marked with :func:`card_mark` so a screen can
draw it as it draws every card). It moves through the positions by move and by hand; the
full-screen viewer that shows it is :mod:`rum500.tui.replay`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rum500 import cards as C
from rum500.i18n import _
from rum500.narrate import REPLAY, narrate, narrate_action, shown_name
from rum500.rules import Game
from rum500.store.log import new_game

CARD_START, CARD_END = "\x1e", "\x1f"  # around a card code in Frame.what


def card_mark(card: object, stands_for: object = None) -> str:
    """A card in :attr:`Frame.what`: shown like every other card when rendered; a joker
    with the card it stands for (``JK=9H``: ``🃏9♥``, as on the table)."""
    if stands_for and card == C.JOKER_NAME:
        return f"{CARD_START}{card}={stands_for}{CARD_END}"
    return f"{CARD_START}{card}{CARD_END}"


def plain_what(what: str) -> str:
    """:attr:`Frame.what` with its card codes as plain text (``3D``)."""
    return what.replace(CARD_START, "").replace(CARD_END, "")


@dataclass
class Frame:
    """One position of the match, with everything shown."""

    step: int  # 0: the first deal; k: after the k-th action
    hand_number: int
    move: int  # actions since this hand's deal
    phase: str
    dealer: int
    turn: int | None
    hands: list[list[str]]
    pile: list[str]
    stock: int
    melds: list[dict]
    table_points: list[int]
    totals: list[int]
    must_play: str | None
    what: str  # the action that led here, in words (cards marked with card_mark)
    result: dict | None  # the hand's score sheet, once it is over
    winner: int | None


class Replay:
    """The frames of a whole match and the position being shown."""

    VOICE = REPLAY.with_cards(card_mark)

    def __init__(self, match: dict) -> None:
        self.match = match
        #: the seats' names as the player reads them (a bot the host named "Bot 2" in the
        #: player's language)
        self.names = [shown_name(s["name"], bool(s.get("bot"))) for s in match["seats"]]
        game = new_game(match)
        dealt = _("{who} dealt").format(who=self._who(game.dealer))
        self.frames: list[Frame] = [self._frame(game, 0, 0, dealt)]
        actions = match["actions"]
        #: the first position shown: 1 in a match whose deals were committed (its first
        #: action deals hand 1 again, docs/rules.md "A deal nobody can stack": the seed's
        #: deal before it was never played nor shown); frame k stays the position after k
        #: actions either way
        self.first = 1 if actions and dict(actions[0]["action"]).get("type") == "deal" else 0
        move = 0
        for k, entry in enumerate(actions, start=1):
            action = entry["action"]
            seat = game.to_move
            events = game.apply(action, entry.get("seat"))
            move = 0 if action.get("type") == "deal" else move + 1
            self.frames.append(self._frame(game, k, move, self._describe(seat, action, events)))
        self.index = self.first

    # ------------------------------------------------------------------ building

    def _who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def _frame(self, game: Game, step: int, move: int, what: str) -> Frame:
        v = game.view(None)
        hands = [  # every hand as the terminal client shows one: by suit, aces high
            sorted(game.view(s)["hand"], key=lambda t: C.sort_key_by_suit(C.parse(t)))
            for s in range(v["players"])
        ]
        over = v["phase"] in ("hand_over", "game_over")
        return Frame(
            step=step,
            hand_number=v["hand_number"],
            move=move,
            phase=v["phase"],
            dealer=v["dealer"],
            turn=v["turn"],
            hands=hands,
            pile=list(v["discard_pile"]),
            stock=v["stock"],
            melds=v["melds"],
            table_points=list(v["table_points"]),
            totals=list(v["totals"]),
            must_play=v["must_play"],
            what=what,
            result=v["last_hand"] if over else None,
            winner=v["winner"],
        )

    def _describe(self, seat: int | None, action: dict, events: list[dict]) -> str:
        """The action in words: its events as the replay tells them (``Ann: kind`` for an
        action the replay has no words for, then what followed it)."""
        text = narrate_action(events, self.names, self.VOICE)
        if text:
            return text
        rest = (line for e in events[1:] for line in narrate(e, self.names, self.VOICE))
        return f"{self._who(seat)}: {action.get('type')}" + "".join(rest)

    # ------------------------------------------------------------------ moving

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    @property
    def hands_total(self) -> int:
        return self.frames[-1].hand_number

    def go(self, index: int) -> None:
        self.index = max(self.first, min(len(self.frames) - 1, index))

    def next_move(self) -> None:
        self.go(self.index + 1)

    def prev_move(self) -> None:
        self.go(self.index - 1)

    def next_hand(self) -> None:
        """The deal of the next hand (or the end of the match)."""
        here = self.frame.hand_number
        for k in range(self.index + 1, len(self.frames)):
            if self.frames[k].hand_number > here:
                self.go(k)
                return
        self.go(len(self.frames) - 1)

    def prev_hand(self) -> None:
        """The deal of this hand, or of the previous one when already there."""
        here = self.frame.hand_number
        target = here if self.frame.move > 0 or self.frame.phase == "hand_over" else here - 1
        target = max(1, target)
        for k, f in enumerate(self.frames):
            if f.hand_number == target:
                self.go(k)
                return

    # ------------------------------------------------------------------ showing

    def moves_in_hand(self) -> int:
        here = self.frame.hand_number
        return max(f.move for f in self.frames if f.hand_number == here)
