"""One narrator of the game's public events (docs/protocol.md §8) for every place that tells them.

:func:`narrate` turns one event and the seat names into the lines a :class:`Voice` says. The
narrator reads each event once (who acted, which cards, the scores …); a voice only chooses
the words and writes the cards:

* :data:`LOG` — the terminal client's log: present tense, translated (``_``), cards as the
  player asked (``--ascii`` or not) — ``Ann discards 7♥.``
* :data:`REPLAY` — ``rum500 replay``: past tense, translated; the events of one action joined
  into one line (their phrases after the first begin with ``"; "``) — ``Ann discarded 7♥;
  the hand is over``
* :data:`PLAIN` — the headless host's and guest's log: plain English, never translated, cards
  as on the wire — ``Ann discards 7H``.
* :data:`SPOKEN` — ``rum500 --plain`` (screen readers, braille): present tense, translated,
  cards in words (:func:`spoken_card`) separated by commas, no symbol a speech synthesiser
  stumbles on — ``Bob takes 9 of hearts and 2 cards above it from the discard pile.``

A voice's phrase is looked up by a key such as ``"draw.discard.above.one"``; a voice
without that key falls back to ``"draw.discard.above"``, then ``"draw.discard"``, then
``"draw"``; a kind it has no phrase for at all is said with its ``"other"`` phrase, or not
at all. Phrases of the translated voices are the catalog's msgids (marked with ``N_`` /
``ngettext``, so ``pybabel extract`` finds them); the card writer is passed in
(:meth:`Voice.with_cards`), so the narrator knows nothing of screens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rum500.i18n import N_, _, ngettext, pgettext


def kept_instead(best: Mapping, played: Mapping, card: Callable[[str, object], str]) -> str | None:
    """The coach's better move when it is a discard in place of the meld or lay-off played,
    said as keeping those cards ("keep those cards and discard 6♠": "discard 6♠" alone read
    as if melding were wrong); None for any other pair. ``card(name, joker)`` writes a card
    (symbols on a screen, codes in analyse's text)."""
    if best.get("type") != "discard" or played.get("type") not in ("meld", "layoff"):
        return None
    discard = card(str(best.get("card", "?")), None)
    if played["type"] == "meld":
        return _("keep those cards and discard {card}").format(card=discard)
    kept = card(str(played.get("card", "?")), played.get("joker"))
    return _("keep {kept} in hand and discard {card}").format(kept=kept, card=discard)


def meld_number(meld_id: object) -> object:
    """A meld's number as people read it: its id on the wire plus one (melds are numbered
    from 1, as the discard pile's cards are; ``lay 8H on 1`` lays off on meld id 0). Anything
    but an int is left as it is."""
    return meld_id + 1 if isinstance(meld_id, int) and not isinstance(meld_id, bool) else meld_id


#: a seat's name by its number (None or out of range: the caller decides, e.g. ``?``)
NameOf = Callable[[int | None], str]
#: a card as a voice writes it: ``(card, what a joker stands for or None) -> text``
CardText = Callable[[str, str | None], str]
#: a phrase: a template (a msgid in a translated voice), or a plural one chosen by a count
Phrase = str | Callable[[int], str]


def plain_card(card: object, stands_for: object = None) -> str:
    """A card as on the wire (``7H``); a joker on the table ``JK as 9H``."""
    return f"{card} as {stands_for}" if stands_for else str(card)


@dataclass(frozen=True)
class Voice:
    """How events are told: the phrases by key, how a card is written, whether to translate."""

    phrases: Mapping[str, Phrase]
    card: CardText = plain_card
    translated: bool = True
    #: what stands between the cards of a list (:data:`SPOKEN`: a comma, read as a pause)
    joiner: str = " "

    def with_cards(self, card: CardText) -> Voice:
        """This voice writing its cards with ``card``."""
        return replace(self, card=card)

    def say(self, key: str, n: int = 0, **fields: object) -> str | None:
        """The phrase for ``key`` (or the nearest shorter key) filled in, or None."""
        parts = key.split(".")
        while parts:
            phrase = self.phrases.get(".".join(parts))
            if phrase is not None:
                if callable(phrase):
                    template = phrase(n)
                else:
                    template = _(phrase) if self.translated else phrase
                return template.format(n=n, **fields)
            parts.pop()
        return None


def seat_names(names: Sequence[str] | NameOf) -> NameOf:
    """``names`` as a :data:`NameOf`: a list gives ``?`` for a seat it does not have."""
    if callable(names):
        return names

    def name_of(seat: int | None) -> str:
        ok = isinstance(seat, int) and 0 <= seat < len(names)
        return names[seat] if ok else "?"  # type: ignore[index]

    return name_of


def narrate(event: dict, names: Sequence[str] | NameOf, voice: Voice) -> list[str]:
    """The lines ``voice`` says for one public event; ``[]`` when it says nothing of it."""
    name_of = seat_names(names)
    kind = str(event.get("type"))
    read = _READERS.get(kind)
    if read is None:
        line = voice.say("other", event=event)
        return [line] if line is not None else []
    lines = []
    for key, n, fields in read(event, name_of, voice):
        line = voice.say(key, n, **fields)
        if line is not None:
            lines.append(line)
    return lines


def narrate_action(events: list[dict], names: Sequence[str] | NameOf, voice: Voice) -> str:
    """One line for the events one action caused (the :data:`REPLAY` voice): the action's
    own event first, then what followed (a reshuffle, the hand's end …); ``""`` when the
    voice says nothing of the first."""
    said = [narrate(e, names, voice) for e in events]
    if not said or not said[0]:
        return ""
    return "".join(line for lines in said for line in lines)


# ---------------------------------------------------------------------- reading the events
# Each reader yields (phrase key, count, fields) for the lines of one event kind.

Said = list[tuple[str, int, dict[str, object]]]


def _cards(cards: object, voice: Voice) -> str:
    return voice.joiner.join(
        voice.card(str(c), None) for c in (cards if isinstance(cards, list) else [])
    )


def _named(cards: object, jokers: object, voice: Voice) -> str:
    """Cards put down, each joker with the card it stands for (``jokers`` in their order)."""
    names = iter(str(j) for j in (jokers if isinstance(jokers, list) else []))
    return voice.joiner.join(
        voice.card(str(c), next(names, None) if c == "JK" else None)
        for c in (cards if isinstance(cards, list) else [])
    )


def _deal(e: dict, name_of: NameOf, voice: Voice) -> Said:
    dealer = name_of(e.get("dealer"))
    card = voice.card(e.get("upcard", "?"), None)  # type: ignore[arg-type]
    return [("deal", e.get("hand"), {"who": dealer, "dealer": dealer, "card": card})]  # type: ignore[list-item]


def _draw(e: dict, name_of: NameOf, voice: Voice) -> Said:
    who = name_of(e.get("seat"))
    if e.get("source") == "stock":
        return [("draw.stock", 0, {"who": who, "stock": e.get("stock")})]
    taken = e.get("cards") or []
    above = len(taken) - 1
    fields = {
        "who": who,
        "card": voice.card(str(taken[0]), None) if taken else "?",
        "cards": _cards(taken, voice),
    }
    if above == 1:
        return [("draw.discard.above.one", above, fields)]
    if above > 1:
        return [("draw.discard.above", above, fields)]
    return [("draw.discard", 0, fields)]


def _meld(e: dict, name_of: NameOf, voice: Voice) -> Said:
    fields = {
        "who": name_of(e.get("seat")),
        "cards": _named(e.get("cards"), e.get("jokers"), voice),
        "bare": _cards(e.get("cards"), voice),
        "jokers": " ".join(str(j) for j in e.get("jokers") or []),
    }
    return [("meld.jokers" if e.get("jokers") else "meld", 0, fields)]


def _layoff(e: dict, name_of: NameOf, voice: Voice) -> Said:
    card = voice.card(str(e.get("card", "?")), e.get("joker"))
    fields = {"who": name_of(e.get("seat")), "card": card, "meld": meld_number(e.get("meld"))}
    if isinstance(e.get("meld_cards"), str):  # the meld by its cards (the terminal log's)
        fields["meld_cards"] = e["meld_cards"]
        return [("layoff.on", 0, fields)]
    return [("layoff", 0, fields)]


def _rummy(e: dict, name_of: NameOf, voice: Voice) -> Said:
    fields = {
        "who": name_of(e.get("seat")),
        "whom": name_of(e.get("from")),
        "card": voice.card(str(e.get("card", "?")), e.get("joker")),
        "meld": meld_number(e.get("meld")),
    }
    return [("rummy", 0, fields)]


def _seat_only(e: dict, name_of: NameOf, voice: Voice) -> Said:
    """``pass``, ``close_claims``, ``discard``, ``end_hand``, ``ready``, ``reshuffle``."""
    fields = {
        "who": name_of(e.get("seat")),
        "card": voice.card(e.get("card", "?"), None),  # type: ignore[arg-type]
        "stock": e.get("stock"),
    }
    return [(str(e.get("type")), 0, fields)]


def _take_back(e: dict, name_of: NameOf, voice: Voice) -> Said:
    undone = e.get("action") if isinstance(e.get("action"), dict) else {}
    kind = undone.get("type")  # type: ignore[union-attr]
    card = voice.card(str(undone.get("card", "?")), None)  # type: ignore[union-attr]
    cards = _cards(undone.get("cards"), voice) if kind == "meld" else card  # type: ignore[union-attr]
    key = f"take_back.{kind}" if kind in ("meld", "layoff") else "take_back"
    return [(key, 0, {"who": name_of(e.get("seat")), "card": card, "cards": cards})]


def _hand_end(e: dict, name_of: NameOf, voice: Voice) -> Said:
    said: Said = []
    if e.get("went_out") is not None:
        said.append(("went_out", 0, {"who": name_of(e["went_out"])}))
    scores = ", ".join(f"{name_of(s)} {v:+d}" for s, v in enumerate(e.get("scores") or []))
    totals = ", ".join(f"{name_of(s)} {t}" for s, t in enumerate(e.get("totals") or []))
    said.append(("hand_end", e.get("hand"), {"scores": scores, "totals": totals}))  # type: ignore[arg-type]
    return said


def _tie(e: dict, name_of: NameOf, voice: Voice) -> Said:
    return [("tie", 0, {"total": e.get("total")})]


def _game_over(e: dict, name_of: NameOf, voice: Voice) -> Said:
    totals = e.get("totals") or []
    w = e.get("winner")
    fields = {
        "who": name_of(w),
        "total": totals[w] if isinstance(w, int) and 0 <= w < len(totals) else "?",
        "winners": ", ".join(name_of(s) for s in e.get("winners") or []),
    }
    return [("game_over.team" if e.get("winners") else "game_over", 0, fields)]


_READERS: dict[str, Callable[[dict, NameOf, Voice], Said]] = {
    "deal": _deal,
    "draw": _draw,
    "meld": _meld,
    "layoff": _layoff,
    "rummy": _rummy,
    "pass": _seat_only,
    "close_claims": _seat_only,
    "discard": _seat_only,
    "end_hand": _seat_only,
    "ready": _seat_only,
    "reshuffle": _seat_only,
    "take_back": _take_back,
    "hand_end": _hand_end,
    "tie": _tie,
    "game_over": _game_over,
}


# ---------------------------------------------------------------------- the voices


def _english(singular: str, plural: str, n: int) -> str:
    """English plurals, for the voice that is never translated."""
    return singular if n == 1 else plural


LOG = Voice(
    {
        "deal": N_("— Hand {n}: {dealer} deals; the upcard is {card}."),
        "draw.stock": N_("{who} draws from the stock."),
        "draw.discard": N_("{who} takes {cards} from the discard pile."),
        "meld": N_("{who} melds {cards}."),
        "layoff": N_("{who} lays off {card}."),
        "layoff.on": N_("{who} lays off {card} on {meld_cards}."),
        "discard": N_("{who} discards {card}."),
        "rummy": N_("{who} calls Rummy! and takes {card} from {whom}."),
        "pass": N_("{who} does not call Rummy!"),
        "take_back": N_("{who} takes back {cards}."),
        "ready": N_("{who} is ready for the next hand."),
        "reshuffle": N_("The discard pile is shuffled into a new stock."),
        "end_hand": N_("{who} ends the hand: the stock is empty."),
        "went_out": N_("{who} goes out."),
        "hand_end": N_("Hand {n} over: {scores}."),
        "tie": N_("Tied at {total}: another hand is played."),
        "game_over": N_("{who} wins the match with {total}!"),
    }
)

REPLAY = Voice(
    {
        "deal": N_("{who} dealt hand {n}"),
        "draw.stock": N_("{who} drew from the stock"),
        "draw.discard": N_("{who} took {cards} from the discard pile"),
        "draw.discard.above.one": N_("{who} took {card} and the card above it"),
        "draw.discard.above": lambda n: ngettext(
            "{who} took {card} and the {n} card above it",
            "{who} took {card} and the {n} cards above it",
            n,
        ),
        "meld": N_("{who} melded {cards}"),
        "layoff": N_("{who} laid off {card} on meld {meld}"),
        "rummy": N_("{who} called Rummy! and laid {card} off on meld {meld}"),
        "close_claims": N_("nobody called Rummy!"),
        "discard": N_("{who} discarded {card}"),
        "end_hand": N_("{who} ended the hand (the stock is empty)"),
        "reshuffle": N_("; the discard pile was turned over as the new stock"),
        "hand_end": N_("; the hand is over"),
        "tie": N_("; a tie at the target: play goes on"),
        "game_over": N_("; {who} wins the match"),
    }
)

PLAIN = Voice(
    {
        "deal": "hand {n}: {dealer} deals, upcard {card}",
        "draw.stock": "{who} draws from the stock ({stock} left)",
        "draw.discard": "{who} takes {card} from the discard pile",
        "draw.discard.above": lambda n: _english(
            "{who} takes {card} and the {n} card above it from the discard pile",
            "{who} takes {card} and the {n} cards above it from the discard pile",
            n,
        ),
        "meld": "{who} melds {cards}",
        "meld.jokers": "{who} melds {bare} (the joker as {jokers})",
        "layoff": "{who} lays off {card} on meld {meld}",
        "rummy": "{who} calls Rummy! on {whom}'s {card} and lays it off on meld {meld}",
        "pass": "{who} does not call Rummy!",
        "close_claims": "nobody calls Rummy!",
        "discard": "{who} discards {card}",
        "reshuffle": "the discard pile becomes a new stock of {stock} cards",
        "end_hand": "{who} ends the hand: the stock is empty",
        "hand_end": "hand {n} over: {scores}; totals {totals}",
        "tie": "tied at {total}: another hand is played",
        "game_over": "game over: {who} wins",
        "game_over.team": "game over: {winners} win",
        "ready": "{who} is ready for the next hand",
        "take_back": "{who} takes back a play",
        "take_back.meld": "{who} takes back the meld {cards}",
        "take_back.layoff": "{who} takes back the lay-off of {card}",
        "other": "{event}",
    },
    translated=False,
)


def spoken_rank(rank: str) -> str:
    """A rank in words, in the current language (``ace``, ``9``; Russian ``туз``, ``девятка``)."""
    words = {
        "A": pgettext("spoken rank", "ace"),
        "2": pgettext("spoken rank", "2"),
        "3": pgettext("spoken rank", "3"),
        "4": pgettext("spoken rank", "4"),
        "5": pgettext("spoken rank", "5"),
        "6": pgettext("spoken rank", "6"),
        "7": pgettext("spoken rank", "7"),
        "8": pgettext("spoken rank", "8"),
        "9": pgettext("spoken rank", "9"),
        "10": pgettext("spoken rank", "10"),
        "J": pgettext("spoken rank", "jack"),
        "Q": pgettext("spoken rank", "queen"),
        "K": pgettext("spoken rank", "king"),
    }
    return words.get(rank, rank)


def spoken_suit(suit: str) -> str:
    """A suit in words as it follows a rank (``hearts``; Russian ``червей``)."""
    words = {
        "S": pgettext("spoken suit", "spades"),
        "H": pgettext("spoken suit", "hearts"),
        "D": pgettext("spoken suit", "diamonds"),
        "C": pgettext("spoken suit", "clubs"),
    }
    return words.get(suit, suit)


def spoken_card(card: str, stands_for: str | None = None) -> str:
    """A card in words for a speech synthesiser: ``9 of hearts`` (``девятка червей``),
    ``joker``; a joker on the table ``joker as 9 of hearts``. Not a card: as given."""
    if card == "JK":
        if stands_for:
            return pgettext("spoken card", "joker as {card}").format(card=spoken_card(stands_for))
        return pgettext("spoken card", "joker")
    rank, suit = card[:-1], card[-1:]
    if suit not in "SHDC" or not suit or rank not in (*"A23456789JQK", "10"):
        return card
    return pgettext("spoken card", "{rank} of {suit}").format(
        rank=spoken_rank(rank), suit=spoken_suit(suit)
    )


def spoken_cards(cards: Sequence[str], joiner: str = ", ") -> str:
    """Cards in words, separated by commas (a pause when read aloud)."""
    return joiner.join(spoken_card(str(c)) for c in cards)


SPOKEN = Voice(
    {
        "deal": N_("Hand {n}: {dealer} deals; the upcard is {card}."),
        "draw.stock": N_("{who} draws from the stock."),
        "draw.discard": N_("{who} takes {card} from the discard pile."),
        "draw.discard.above": lambda n: ngettext(
            "{who} takes {card} and {n} card above it from the discard pile.",
            "{who} takes {card} and {n} cards above it from the discard pile.",
            n,
        ),
        "meld": N_("{who} melds {cards}."),
        "layoff": N_("{who} lays off {card} on meld {meld}."),
        "discard": N_("{who} discards {card}."),
        "rummy": N_("{who} calls Rummy! and takes {card} from {whom}."),
        "pass": N_("{who} does not call Rummy!"),
        "close_claims": N_("Nobody calls Rummy!"),
        "take_back": N_("{who} takes back {cards}."),
        "ready": N_("{who} is ready for the next hand."),
        "reshuffle": N_("The discard pile is shuffled into a new stock."),
        "end_hand": N_("{who} ends the hand: the stock is empty."),
        "went_out": N_("{who} goes out."),
        "hand_end": N_("Hand {n} over: {scores}. Totals: {totals}."),
        "tie": N_("Tied at {total}: another hand is played."),
        "game_over": N_("{who} wins the match with {total}!"),
        "game_over.team": N_("{winners} win the match!"),
    },
    card=spoken_card,
    joiner=", ",
)


def plain(event: dict, names: Sequence[str] | NameOf) -> str:
    """One line of plain English for a public event (the headless host's and guest's log)."""
    return " ".join(narrate(event, names, PLAIN))


def options_text(options: object) -> str:
    """A table's options that differ from the standard game (its TXT record's ``options``,
    ``welcome``'s ``table.changed``) as ``rum500 list``, the lobby and the waiting room show
    them: ``target=300 jokers=True teams=2``; "" when there are none."""
    if not isinstance(options, dict):
        return ""
    return " ".join(f"{k}={v}" for k, v in options.items())


def level_name(level: str) -> str:
    """A bot level as the player reads it, in the player's language (``stats``, the lobby's
    form); the command line and the game log keep the English word (``--bot-level hard``)."""
    names = {
        "random": pgettext("bot level", "random"),
        "easy": pgettext("bot level", "easy"),
        "medium": pgettext("bot level", "medium"),
        "hard": pgettext("bot level", "hard"),
        "expert": pgettext("bot level", "expert"),
    }
    return names.get(level, level)


#: the name a host gives a bot (``Bot 3``, in the host's words: the log keeps it so)
_BOT_NAME = re.compile(r"Bot ([1-9][0-9]?)")


def shown_name(name: str, bot: bool) -> str:
    """A seat's name as this player reads it: a bot named ``Bot 3`` (the host's default) is
    "Bot 3" in the player's language; any other name as it is."""
    number = _BOT_NAME.fullmatch(name) if bot else None
    return _("Bot {n}").format(n=number.group(1)) if number else name
