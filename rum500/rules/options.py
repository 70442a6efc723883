"""Table options (RULES.md §9, §11, §12): the :class:`Options` of a table and, beside each
field, its metadata (:class:`OptionSpec`). The defaults are the seed game.

Every surface that lists options reads :data:`OPTION_SPECS` — one entry per field, in field
order — and writes no option by name: the command line's flags (``rum500 play``, ``host``,
``sim``), the lobby's host and solo forms, the help screen's house-rule lines, ``rum500 sim``,
the bots' :class:`~rum500.bots.seat.SeatView`. On the wire and on disk an option is its field
name: ``to_dict()`` in the view and the stored game, ``changed()`` in the TXT record's
``options`` (JSON) and ``welcome``'s ``table.changed``, written ``name=value`` by ``rum500
list`` and the lobby (:func:`rum500.narrate.options_text`), and the names of
``to_dict()`` in ``hello``'s ``options`` (a client that does not name an option in force is
refused at the door). Adding an option is one field with its :func:`option` metadata here
plus its rule in the engine.

The texts are English msgids marked with ``N_`` (this package imports nothing of rum500 but
cards, so not :mod:`rum500.i18n`): whoever shows one translates it with ``_()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for translation (Babel's default keyword); translated where shown."""
    return message


EMPTY_STOCK_RULES = ("play_on", "reshuffle", "end")
TEAM_COUNTS = (0, 2, 3)
#: the numbers of players each number of teams is for (RULES.md §11.3)
TEAM_PLAYERS = {2: (4, 6), 3: (6,)}
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_TARGET = 1_000_000_000
#: the largest first meld (RULES.md §12.1)
MAX_FIRST_MELD = 200
#: the title of each group of options (``OptionSpec.group``): the command line's argument
#: groups
GROUP_TITLES = {
    "§9": N_("table options (docs/rules.md §9)"),
    "§11": N_("house rules (docs/rules.md §11)"),
    "§12": N_("family variants (docs/rules.md §12)"),
}
OFF = N_("off")


def hand_size(players: int) -> int:
    """7 cards each, 13 when there are two players (RULES.md §3); see
    :meth:`Options.hand_size` for a table's."""
    return 13 if players == 2 else 7


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What every surface needs to know of one option (the metadata of an ``Options`` field).

    * ``kind`` — ``"bool"`` (a flag; off is ``False``), ``"int"`` (a whole number from
      ``low`` to ``high``) or ``"choice"`` (one of ``choices``' values).
    * ``label`` — the lobby form's line; ``help`` — the command line's help.
    * ``section`` — where RULES.md says it (``"§9"``, ``"§11.2"``, ``"§12.5"``); its
      ``group`` is the section's chapter.
    * ``choices`` — ``(value, label)`` pairs the lobby form steps through, the default among
      them (a ``bool`` has its ``False`` and ``True`` lines); on the command line a choice
      takes the values that are not "off" (``None`` or ``0``) — or, when it has a ``high``
      (``first_meld``), any whole number from ``low`` to ``high``.
    * ``noun`` — an ``int``'s name in a refusal ("a score from 1 to …").
    * ``explain`` — the help screen's paragraph while the option is on (``""``: the help
      screen does not list it); ``{n}`` in it is the value.
    * ``scores`` — the option changes what cards score (§11.4, §12.3, §12.4): the review's
      score sheet names it ("Scored with: …", its label and its value's).
    * ``needs`` — a ``bool`` option this one is only played with (``validate()`` refuses it
      without; ``""``: none).
    * ``name``, ``default`` — the field's, filled in by :data:`OPTION_SPECS`.
    """

    kind: str
    label: str
    help: str
    section: str
    choices: tuple[tuple[Any, str], ...] = ()
    low: int = 0
    high: int = 0
    noun: str = ""
    explain: str = ""
    scores: bool = False
    needs: str = ""
    name: str = ""
    default: Any = None

    @property
    def group(self) -> str:
        """The RULES.md chapter of the option: ``"§9"``, ``"§11"`` or ``"§12"``."""
        return self.section.split(".")[0]

    @property
    def flag(self) -> str:
        """The command line's flag: ``--`` and the name with dashes (its ``dest`` is the name)."""
        return "--" + self.name.replace("_", "-")

    def flag_choices(self) -> list[Any]:
        """The values the command line takes for a ``choice`` (not "off": no flag is off)."""
        return [v for v, _label in self.choices if v is not None and v != 0]

    def value_label(self, value: Any) -> str:
        """The lobby's label (a msgid) of ``value``; its ``str()`` when it has none."""
        return next((label for v, label in self.choices if v == value), str(value))


def option(default: Any, kind: str, label: str, help: str, section: str, **meta: Any) -> Any:
    """A field of :class:`Options` with its :class:`OptionSpec` as metadata."""
    spec = OptionSpec(kind, label, help, section, **meta)
    return field(default=default, metadata={"option": spec})


def _on_off(off: str, on: str) -> tuple[tuple[Any, str], ...]:
    return ((False, off), (True, on))


@dataclass(frozen=True, slots=True)
class Options:
    """The table's rule options.

    * ``target`` — the score that ends the match (500).
    * ``decks`` — ``None`` for auto (1 deck for 2–4 players, 2 for 5–8), or 1 or 2.
    * ``top_card_free`` — the top card of the discard pile alone may be taken without playing
      it this turn (it may not be discarded again this turn).
    * ``must_discard`` — a player may only go out by discarding their last card.
    * ``empty_stock`` — ``"play_on"`` (draw from the discard pile or end the hand),
      ``"reshuffle"`` (once per hand), or ``"end"`` (the hand ends).
    * ``jokers`` — two jokers per deck, wild (RULES.md §11.1).
    * ``rummy_calls`` — calling "Rummy!" on a discard that could be laid off (§11.2): a claim
      phase follows every discard.
    * ``teams`` — partnerships (§11.3): ``0`` every player alone; ``2`` two teams (4 or 6
      players: teams of two or of three); ``3`` three teams of two (6 players). Seat ``s``
      plays for team ``s % teams``, so partners sit apart.
    * ``ace_always_15`` — an ace scores 15 wherever it is, even low in a run (§11.4).
    * ``first_meld`` — ``0`` off, else N (1 to 200): until a player has opened in the hand
      with new melds of at least N points in one turn, they may not lay off nor call
      "Rummy!" (§12.1).
    * ``dug_card_new_meld`` — the card dug for must go into a new meld this turn; a lay-off
      of it does not count (§12.2; the free top card of "top card free" may still be laid
      off).
    * ``five_point_pips`` — cards 2 to 9 and an ace low in a run score 5 each (§12.3).
    * ``joker_as_card`` — a joker on the table scores the card it stands for; in hand 15
      (§12.4; only with ``jokers``).
    * ``ten_cards`` — two players are dealt 10 cards each instead of 13 (§12.5); no effect
      with more players.
    * ``runs_of_four`` — a new run needs at least 4 cards (§12.6); sets are unchanged.

    Each field's metadata is its :class:`OptionSpec` (see :data:`OPTION_SPECS`).
    """

    target: int = option(
        500,
        "int",
        N_("Target score"),
        N_("score that wins (500; up to 1000000000)"),
        "§9",
        low=1,
        high=MAX_TARGET,
        noun=N_("a score"),
    )
    decks: int | None = option(
        None,
        "choice",
        N_("Decks"),
        N_("decks (auto: 1 up to 4 players)"),
        "§9",
        choices=((None, N_("auto")), (1, "1"), (2, "2")),
    )
    top_card_free: bool = option(
        False,
        "bool",
        N_("Discard pick-up"),
        N_("the top discard may be taken without playing it"),
        "§9",
        choices=_on_off(N_("the card dug for must be played"), N_("top card free")),
    )
    must_discard: bool = option(
        False,
        "bool",
        N_("Going out"),
        N_("go out only by discarding"),
        "§9",
        choices=_on_off(N_("by any play"), N_("must discard")),
    )
    empty_stock: str = option(
        "play_on",
        "choice",
        N_("Empty stock"),
        N_("when the stock runs out (play_on)"),
        "§9",
        choices=(
            ("play_on", N_("play on from the pile")),
            ("reshuffle", N_("reshuffle once")),
            ("end", N_("end at once")),
        ),
    )
    jokers: bool = option(
        False,
        "bool",
        N_("Jokers"),
        N_("two jokers per deck, wild"),
        "§11.1",
        choices=_on_off(OFF, N_("two per deck")),
        explain=N_(
            "  Jokers: two per deck, wild. In a meld a joker stands for one card you\n"
            "  name (asked when two fit); it keeps that name, shown beside it: 🃏9♥.\n"
            "  A meld needs two natural cards and never more jokers than natural cards.\n"
            "  A joker scores 15, on the table or left in hand."
        ),
    )
    rummy_calls: bool = option(
        False,
        "bool",
        N_("Rummy! calls"),
        N_('any player may call "Rummy!" on a discard that could be laid off'),
        "§11.2",
        choices=_on_off(OFF, N_("on")),  # the lobby offers the claim window's seconds for "on"
        explain=N_(
            "  Rummy!: after every discard the next player waits a moment. If the\n"
            "  discard could be laid off on a meld, any other player may press r to\n"
            "  call Rummy! and lay it off for their own score; x = no call. The\n"
            "  first call the host receives wins."
        ),
    )
    teams: int = option(
        0,
        "choice",
        N_("Partnerships"),
        N_("partnerships: 2 teams (4 or 6 players) or 3 teams of two (6 players)"),
        "§11.3",
        choices=(
            (0, OFF),
            (2, N_("2 teams (4 or 6 players)")),
            (3, N_("3 teams (6 players)")),
        ),
        explain=N_(
            "  Partnerships: {n} teams (letters A, B, C beside the names); partners sit\n"
            "  apart. A team's total is the sum of its players' scores, and the\n"
            "  target and ties count team totals."
        ),
    )
    ace_always_15: bool = option(
        False,
        "bool",
        N_("Aces"),
        N_("an ace scores 15 even low in A-2-3"),
        "§11.4",
        choices=_on_off(N_("1 when low in a run"), N_("always 15")),
        scores=True,
        explain=N_("  Aces score 15 wherever they are, even low in A-2-3."),
    )
    first_meld: int = option(
        0,
        "choice",
        N_("First meld"),
        N_("a player's first meld of the hand must score at least N points (1-200)"),
        "§12.1",
        choices=((0, OFF), (30, "30"), (50, "50")),
        low=1,
        high=MAX_FIRST_MELD,
        noun=N_("a number of points"),
        explain=N_(
            "  First meld: a player opens by laying down, in one turn, new melds\n"
            "  scoring at least {n} points; until then no lay-off and no Rummy!."
        ),
    )
    dug_card_new_meld: bool = option(
        False,
        "bool",
        N_("Card dug for"),
        N_("the card dug for must go into a new meld (a lay-off of it does not count)"),
        "§12.2",
        choices=_on_off(N_("melded or laid off"), N_("into a new meld")),
        explain=N_(
            "  The card dug for must go into a new meld this turn: laying it off\n"
            "  does not count (a free top card may still be laid off)."
        ),
    )
    five_point_pips: bool = option(
        False,
        "bool",
        N_("Pip cards"),
        N_("cards 2 to 9 and a low ace score 5 each"),
        "§12.3",
        choices=_on_off(N_("face value"), N_("5 points each")),
        scores=True,
        explain=N_(
            "  Pip cards: 2 to 9 score 5 each, on the table and in hand, and so does an\n"
            "  ace low in a run (A-2-3 scores 15); 10, J, Q, K score 10."
        ),
    )
    joker_as_card: bool = option(
        False,
        "bool",
        N_("Joker value"),
        N_("a joker on the table scores the card it stands for (needs --jokers)"),
        "§12.4",
        choices=_on_off("15", N_("the card it stands for")),
        scores=True,
        needs="jokers",
        explain=N_(
            "  A joker on the table scores the card it stands for (named 9♥: 9);\n"
            "  a joker left in hand still costs 15."
        ),
    )
    ten_cards: bool = option(
        False,
        "bool",
        N_("Two-player hand"),
        N_("two players are dealt 10 cards each, not 13"),
        "§12.5",
        choices=_on_off(N_("13 cards"), N_("10 cards")),
        explain=N_("  Two players are dealt 10 cards each, not 13."),
    )
    runs_of_four: bool = option(
        False,
        "bool",
        N_("Shortest run"),
        N_("a new run needs at least 4 cards (sets still 3 or 4)"),
        "§12.6",
        choices=_on_off(N_("3 cards"), N_("4 cards")),
        explain=N_(
            "  Runs of four: a new run needs at least 4 cards (5♥ 6♥ 7♥ 8♥); sets are\n"
            "  still 3 or 4 cards, and a run on the table grows by lay-offs as usual."
        ),
    )

    def validate(self, players: int) -> None:
        """Raise ``ValueError`` when these options cannot be played by ``players`` players."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("the number of players must be a whole number")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Rummy 500 is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise ValueError("the target score must be a positive whole number")
        if self.decks not in (None, 1, 2) or isinstance(self.decks, bool):
            raise ValueError("decks must be auto, 1 or 2")
        size = self.hand_size(players)
        if self.decks == 1 and players * size + 1 > 52:
            raise ValueError(
                f"one deck is too small for {players} players "
                f"({players} × {size} cards and the upcard)"
            )
        if self.empty_stock not in EMPTY_STOCK_RULES:
            raise ValueError(f"empty_stock must be one of {', '.join(EMPTY_STOCK_RULES)}")
        for flag in _FLAGS:
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        for s in OPTION_SPECS:  # §12.4: joker_as_card only with jokers on
            if s.needs and getattr(self, s.name) and not getattr(self, s.needs):
                raise ValueError(f"{s.name} is only played with {s.needs} on")
        fm = self.first_meld
        if not isinstance(fm, int) or isinstance(fm, bool) or not 0 <= fm <= MAX_FIRST_MELD:
            raise ValueError(
                f"first_meld must be 0 (off) or a number of points from 1 to {MAX_FIRST_MELD}"
            )
        if self.teams not in TEAM_COUNTS or isinstance(self.teams, bool):
            raise ValueError("teams must be 0 (every player alone), 2 or 3")
        if self.teams and players not in TEAM_PLAYERS[self.teams]:
            raise ValueError(
                f"{self.teams} teams are for "
                f"{' or '.join(map(str, TEAM_PLAYERS[self.teams]))} players, not {players}"
            )

    def hand_size(self, players: int) -> int:
        """Cards dealt to each of ``players`` (RULES.md §3; 10 at two with ``ten_cards``,
        §12.5)."""
        if players == 2 and self.ten_cards:
            return 10
        return hand_size(players)

    def deck_count(self, players: int) -> int:
        if self.decks is not None:
            return self.decks
        return 1 if players <= 4 else 2

    def team(self, seat: int) -> int:
        """The team of ``seat`` (seats alternate team by team); its own seat without teams."""
        return seat % self.teams if self.teams else seat

    def to_dict(self) -> dict:
        return {f: getattr(self, f) for f in _FIELDS}

    @classmethod
    def from_dict(cls, d: dict) -> Options:
        """Build from a plain dict; unknown keys are refused with a ``ValueError``."""
        if not isinstance(d, dict):
            raise ValueError("options must be a map")
        unknown = set(d) - set(_FIELDS)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
        return cls(**d)

    def changed(self) -> dict:
        """The options that differ from the seed game."""
        default = Options()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


#: every option's metadata, in field order (see the module docstring)
OPTION_SPECS: tuple[OptionSpec, ...] = tuple(
    replace(f.metadata["option"], name=f.name, default=f.default) for f in fields(Options)
)
#: the options' names (``to_dict()``'s keys, ``hello``'s ``options``)
OPTION_NAMES = tuple(s.name for s in OPTION_SPECS)
_FIELDS = OPTION_NAMES
_FLAGS = tuple(s.name for s in OPTION_SPECS if s.kind == "bool")


def spec(name: str) -> OptionSpec:
    """The metadata of the option ``name`` (``KeyError`` when there is none)."""
    for s in OPTION_SPECS:
        if s.name == name:
            return s
    raise KeyError(name)


def options_from(values: Any) -> Options:
    """:class:`Options` from a lookup ``values(spec)`` of each option's value, where ``None``
    (or a missing value) means the default: the command line's arguments, a lobby form."""
    out = {}
    for s in OPTION_SPECS:
        value = values(s)
        out[s.name] = s.default if value is None else value
    return Options(**out)
