"""What changed at the table since the player last looked: read from the host's update events.

* ``drawn``: the card(s) this seat drew on its current turn (marked in the hand until the
  turn ends);
* ``moves[seat]``: each other seat's last turn — what it took from the stock or the discard
  pile (and how deep), what it melded and laid off, what it discarded — kept until that seat
  starts its next turn (so it is still on show during ours);
* ``my_plays``: how many melds and lay-offs this seat made this turn (what take back may undo).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Move:
    """One seat's latest turn, as the events told it."""

    source: str | None = None  # "stock" or "discard"
    taken: list[str] = field(default_factory=list)  # cards taken from the discard pile
    depth: int = 0  # how many cards it took from the pile
    #: (cards, meld id, what its jokers stand for, in order)
    melded: list[tuple[list[str], int | None, list[str]]] = field(default_factory=list)
    #: (card, meld id, what it stands for when it is a joker)
    laid_off: list[tuple[str, int | None, str | None]] = field(default_factory=list)
    discarded: str | None = None
    ended: bool = False  # ended the hand (stock empty)


class Changes:
    def __init__(self) -> None:
        self.drawn: Counter[str] = Counter()
        self.moves: dict[int, Move] = {}
        self.my_plays = 0

    def reset(self) -> None:
        self.drawn.clear()
        self.moves.clear()
        self.my_plays = 0

    def apply(self, events: list[dict], my_seat: int | None, gained: Counter[str]) -> None:
        """Take one update's events; ``gained`` is what this seat's hand gained with it (a
        stock draw's card is not in the public event)."""
        for e in events:
            if not isinstance(e, dict):
                continue
            kind = e.get("type")
            seat = e.get("seat")
            if kind == "deal":
                self.reset()
                continue
            if kind in ("hand_end", "game_over"):
                self.drawn.clear()
                self.my_plays = 0
                continue
            if not isinstance(seat, int):
                continue
            if seat == my_seat:
                self._mine(kind, e, gained)
            else:
                self._theirs(seat, kind, e)

    def _mine(self, kind: object, e: dict, gained: Counter[str]) -> None:
        if kind == "draw":
            self.drawn = Counter(gained)
            self.my_plays = 0
        elif kind in ("meld", "layoff"):
            self.my_plays += 1
        elif kind == "take_back":
            self.my_plays = max(0, self.my_plays - 1)
        elif kind in ("discard", "end_hand"):
            self.drawn.clear()
            self.my_plays = 0

    def _theirs(self, seat: int, kind: object, e: dict) -> None:
        if kind == "draw":
            cards = e.get("cards")
            taken = [str(c) for c in cards] if isinstance(cards, list) else []
            source = "stock" if e.get("source") == "stock" else "discard"
            self.moves[seat] = Move(
                source=source,
                taken=taken if source == "discard" else [],
                depth=len(taken) if source == "discard" else 0,
            )
            return
        move = self.moves.setdefault(seat, Move())
        if kind == "meld":
            cards = e.get("cards")
            meld = e.get("meld")
            jokers = e.get("jokers")
            if isinstance(cards, list):
                move.melded.append(
                    (
                        [str(c) for c in cards],
                        meld if isinstance(meld, int) else None,
                        [str(j) for j in jokers] if isinstance(jokers, list) else [],
                    )
                )
        elif kind == "layoff":
            meld = e.get("meld")
            joker = e.get("joker")
            move.laid_off.append(
                (
                    str(e.get("card", "?")),
                    meld if isinstance(meld, int) else None,
                    str(joker) if joker else None,
                )
            )
        elif kind == "take_back":
            undone = e.get("action") if isinstance(e.get("action"), dict) else {}
            if undone.get("type") == "meld" and move.melded:
                move.melded.pop()
            elif undone.get("type") == "layoff" and move.laid_off:
                move.laid_off.pop()
        elif kind == "discard":
            move.discarded = str(e.get("card", "?"))
        elif kind == "end_hand":
            move.ended = True

    def fresh(self) -> tuple[set[int], set[tuple[int, str]]]:
        """What other seats put on the table in their last turn: the ids of the melds they
        made, and (meld id, card) for each lay-off."""
        melds: set[int] = set()
        layoffs: set[tuple[int, str]] = set()
        for m in self.moves.values():
            melds.update(i for _, i, _j in m.melded if i is not None)
            layoffs.update((i, c) for c, i, _j in m.laid_off if i is not None)
        return melds, layoffs
