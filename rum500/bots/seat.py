"""What a bot may read: one seat's view, checked and turned into card numbers.

A bot is handed the dict of :meth:`rum500.rules.Game.view` for its own seat — the same map a
network client receives — and nothing else. :func:`read_view` is the only way the bots read
it: it refuses anything that is not such a view (a :class:`~rum500.rules.Game`, the full
``to_dict()`` state, a spectator's view), so a bot cannot be handed the game by mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rum500 import cards as C
from rum500.rules.melds import Meld
from rum500.rules.options import Options, options_from

#: Keys every seat view carries.
VIEW_KEYS = frozenset(
    {
        "seat",
        "players",
        "phase",
        "turn",
        "hand",
        "hand_sizes",
        "stock",
        "discard_pile",
        "melds",
        "must_play",
        "no_discard",
        "legal_actions",
    }
)
#: Keys only the full state has: their presence means someone handed a bot the game.
SECRET_KEYS = frozenset({"hands", "rng", "actions", "deck"})


class NotAView(TypeError):
    """A bot was given something other than its seat's view."""


@dataclass(slots=True)
class SeatView:
    """A seat view in card numbers (see :mod:`rum500.cards`)."""

    seat: int
    players: int
    phase: str
    turn: int | None
    hand: list[int]
    hand_sizes: list[int]
    stock: int
    pile: list[int]  # bottom → top
    melds: list[Meld]
    must_play: int | None
    no_discard: int | None
    legal: list[dict]
    decks: int
    totals: list[int]
    target: int
    must_discard: bool
    top_card_free: bool
    empty_stock: str
    jokers: bool = False
    raw: Mapping | None = None  # the checked view itself (the expert rebuilds positions from it)
    #: every table option of the view (:func:`view_options`); the four above are its fields
    options: Options = Options()

    def unseen(self) -> list[int]:
        """How many copies of each card this seat has not seen (hands of others + stock):
        53 counts, the last for the jokers (:data:`rum500.cards.JOKER`, none without the
        option)."""
        left = [self.decks] * C.DECK_SIZE + [self.decks * C.JOKERS_PER_DECK * self.jokers]
        for c in self.hand:
            left[c] -= 1
        for c in self.pile:
            left[c] -= 1
        for m in self.melds:
            for c in m.physical():
                left[c] -= 1
        return [max(0, n) for n in left]

    @property
    def min_run(self) -> int:
        """The shortest new run at this table: 4 with runs_of_four (RULES.md §12.6)."""
        return 4 if self.options.runs_of_four else 3

    @property
    def new_meld(self) -> bool:
        """dug_card_new_meld (RULES.md §12.2): the card dug for must go into a new meld."""
        return bool(self.options.dug_card_new_meld)

    @property
    def first_meld(self) -> int:
        """The table's first meld N (RULES.md §12.1), 0 when off."""
        return int(self.options.first_meld or 0)

    @property
    def opened(self) -> bool:
        """This seat has opened in this hand (always, without a first meld): the view's
        ``opened``."""
        if not self.first_meld or not self.raw:
            return True
        seats = self.raw.get("opened") or []
        return bool(seats[self.seat]) if self.seat < len(seats) else True

    @property
    def to_open(self) -> int:
        """The points this seat's new melds still need this turn to open (§12.1): N less the
        view's ``opening`` (this turn's new-meld points); 0 once opened."""
        if self.opened:
            return 0
        return max(0, self.first_meld - int(self.raw.get("opening") or 0))  # type: ignore[union-attr]

    @property
    def next_seat(self) -> int:
        return (self.seat + 1) % self.players


def table_meld(d: Mapping) -> Meld:
    """Rebuild a table meld from its view form (``{id, kind, owner, cards, by, ace}``)."""
    try:
        return Meld.from_dict(dict(d))
    except (ValueError, KeyError, TypeError) as e:
        raise NotAView(f"a meld of the view is not a meld: {e}") from None


def read_view(view: object) -> SeatView:
    """Check that ``view`` is one seat's view and read it; anything else raises
    :class:`NotAView` (a ``TypeError``) saying what was wrong."""
    if not isinstance(view, Mapping):
        raise NotAView(
            f"a bot reads only its seat's view (the dict of Game.view(seat)), "
            f"not a {type(view).__name__}"
        )
    secret = SECRET_KEYS & view.keys()
    if secret:
        raise NotAView(
            "a bot reads only its seat's view, not the full game state "
            f"(it holds {', '.join(sorted(secret))})"
        )
    missing = VIEW_KEYS - view.keys()
    if missing:
        raise NotAView(f"not a seat view: no {', '.join(sorted(missing))}")
    if not isinstance(view["seat"], int) or not isinstance(view["hand"], list):
        raise NotAView("a spectator's view has no seat to play")
    if not isinstance(view["stock"], int):
        raise NotAView("a seat view shows only the size of the stock")
    options = view_options(view)
    must_play = view["must_play"]
    no_discard = view["no_discard"]
    return SeatView(
        seat=view["seat"],
        players=int(view["players"]),
        phase=str(view["phase"]),
        turn=view["turn"],
        hand=C.parse_many(view["hand"]),
        hand_sizes=list(view["hand_sizes"]),
        stock=view["stock"],
        pile=C.parse_many(view["discard_pile"]),
        melds=[table_meld(m) for m in view["melds"]],
        must_play=C.parse(must_play) if must_play is not None else None,
        no_discard=C.parse(no_discard) if no_discard is not None else None,
        legal=list(view["legal_actions"]),
        decks=int(view.get("decks") or 1),
        totals=list(view.get("totals") or [0] * int(view["players"])),
        target=int(view.get("target") or 500),
        must_discard=bool(options.must_discard),
        top_card_free=bool(options.top_card_free),
        empty_stock=str(options.empty_stock),
        jokers=bool(options.jokers),
        raw=view,
        options=options,
    )


def view_options(view: Mapping) -> Options:
    """The table's options as a seat view carries them (``options``, ``Options.to_dict()``):
    every option of :data:`~rum500.rules.options.OPTION_SPECS`, a missing or ``None`` one at
    its default (a name this rum500 does not know is left out: the door refuses such a table
    to a client, and a bot reads what it knows)."""
    given = view.get("options")
    given = given if isinstance(given, Mapping) else {}
    return options_from(lambda spec: given.get(spec.name))
