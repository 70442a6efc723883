"""Words for the screen: cards, events, actions and the host's refusals, in the current language.

Cards are ``AS 10H`` on the wire; on screen the rank (``Т В Д К`` in Russian) is followed by
the suit symbol ``♠♥♦♣``, or the letter ``S H D C`` with ``--ascii``. A joker (``JK``) is
``🃏`` (``*`` with ``--ascii``); on the table it is followed by the card it stands for:
``🃏9♥`` (``*9H``).
"""

from __future__ import annotations

import re

from rum500 import cards as C
from rum500 import narrate
from rum500.i18n import N_, _, pgettext

NameOf = narrate.NameOf
JOKER_SYMBOL = "🃏"
JOKER_ASCII = "*"


def rank_text(rank: str) -> str:
    """The rank as players of the current language write it (Russian: Т В Д К)."""
    if rank == "A":
        return pgettext("rank", "A")
    if rank == "J":
        return pgettext("rank", "J")
    if rank == "Q":
        return pgettext("rank", "Q")
    if rank == "K":
        return pgettext("rank", "K")
    return rank


def split(card: str) -> tuple[str, str]:
    """``"10H"`` → ``("10", "H")``."""
    return card[:-1], card[-1]


def suit_text(suit: str, ascii: bool) -> str:
    return suit if ascii else C.SUIT_SYMBOLS.get(suit, suit)


def joker_text(ascii: bool = False) -> str:
    return JOKER_ASCII if ascii else JOKER_SYMBOL


#: ``rum500 --plain`` (:func:`speak_cards`): every card in words, lists with commas
_spoken = False


def speak_cards(on: bool = True) -> None:
    """From now on in this process, cards are written in words (:func:`rum500.narrate.
    spoken_card`) for a screen reader: the plain mode's refusals and questions."""
    global _spoken
    _spoken = on


def _sep() -> str:
    return ", " if _spoken else " "


def card_text(card: str, ascii: bool = False, stands_for: str | None = None) -> str:
    """``10♥``; a joker ``🃏`` — on the table with what it stands for, ``🃏9♥``."""
    if _spoken:
        return narrate.spoken_card(card, stands_for)
    if card == C.JOKER_NAME:
        return joker_text(ascii) + (card_text(stands_for, ascii) if stands_for else "")
    rank, suit = split(card)
    return rank_text(rank) + suit_text(suit, ascii)


def meld_text(meld: dict, ascii: bool = False) -> str:
    """A meld's cards as they lie, a joker with what it stands for: ``7♥ 8♥ 🃏9♥``."""
    cards = [str(c) for c in meld.get("cards") or []]
    stands = meld.get("stands_for") or [None] * len(cards)
    return _sep().join(card_text(c, ascii, s) for c, s in zip(cards, stands, strict=False))


def cards_text(cards: list[str], ascii: bool = False) -> str:
    return _sep().join(card_text(c, ascii) for c in cards)


def named_cards_text(cards: list, jokers: object, ascii: bool = False) -> str:
    """Cards put down, each joker with the card it stands for (``jokers``: the names in the
    order the jokers come, as a ``meld`` event or action has them): ``🃏9♥ A♥ A♦``."""
    names = iter(str(j) for j in (jokers if isinstance(jokers, list) else []))
    return _sep().join(
        card_text(str(c), ascii, next(names, None) if c == C.JOKER_NAME else None) for c in cards
    )


def log_voice(ascii: bool = False) -> narrate.Voice:
    """The terminal log's voice of :mod:`rum500.narrate`, writing cards as :func:`card_text`."""
    return narrate.LOG.with_cards(lambda card, stands_for: card_text(card, ascii, stands_for))


def event(e: dict, name_of: NameOf, ascii: bool = False, view: dict | None = None) -> list[str]:
    """Log lines for one public event from the host (:func:`rum500.narrate.narrate`). With
    the ``view`` the event came with, a lay-off names its meld by the cards it held before
    (the screen numbers no meld): ``Bob lays off 8♥ on 5♥ 6♥ 7♥.``"""
    if view is not None and e.get("type") == "layoff":
        meld = meld_of(view, e.get("meld"))
        if meld is not None:
            e = {**e, "meld_cards": _meld_before(meld, str(e.get("card")), ascii)}
    return narrate.narrate(e, name_of, log_voice(ascii))


def meld_of(view: dict, meld_id: object) -> dict | None:
    """The meld of ``view`` with id ``meld_id`` (None: no such meld)."""
    return next((m for m in view.get("melds") or [] if m.get("id") == meld_id), None)


def _meld_before(meld: dict, card: str, ascii: bool) -> str:
    """``meld``'s cards (as :func:`meld_text` writes them) but ``card``, the one laid off."""
    cards = [str(c) for c in meld.get("cards") or []]
    stands = list(meld.get("stands_for") or [None] * len(cards))
    if card in cards:  # a run grows at an end; a set anywhere (two decks: either copy)
        k = 0 if cards[0] == card else len(cards) - 1 - cards[::-1].index(card)
        del cards[k]
        del stands[k : k + 1]
    return meld_text({"cards": cards, "stands_for": stands}, ascii)


def rummy_text(e: dict, name_of: NameOf, ascii: bool = False) -> str:
    """``Bea calls Rummy! and takes 7♦ from Ann.`` (a ``rummy`` event)."""
    return narrate.narrate({**e, "type": "rummy"}, name_of, log_voice(ascii))[0]


def better(best: dict, played: dict, view: dict, name_of: NameOf, ascii: bool = False) -> str:
    """The coach's better move in words. A discard in place of a meld or a lay-off says the
    cards are kept ("keep those cards and discard 6♠"): "discard 6♠" alone read as if
    melding were wrong."""
    kept = narrate.kept_instead(best, played, lambda c, joker: card_text(c, ascii, joker))
    return kept or action(best, view, name_of, ascii)


def action(a: dict, view: dict, name_of: NameOf, ascii: bool = False) -> str:
    """One line saying what an action does, e.g. for the hint."""
    kind = a.get("type")
    if kind == "draw":
        if a.get("source") == "stock":
            return _("draw from the stock")
        pile = view.get("discard_pile") or []
        i = a.get("index", len(pile) - 1)
        return _("take {cards} from the discard pile").format(cards=cards_text(pile[i:], ascii))
    if kind == "meld":
        shown = named_cards_text(a.get("cards") or [], a.get("jokers"), ascii)
        return _("meld {cards}").format(cards=shown)
    if kind == "layoff":
        meld = meld_of(view, a.get("meld"))
        on = meld_text(meld, ascii) if meld else "?"
        return _("lay off {card} on {meld}").format(
            card=card_text(str(a.get("card", "?")), ascii, a.get("joker")), meld=on
        )
    if kind == "rummy":
        meld = meld_of(view, a.get("meld"))
        on = meld_text(meld, ascii) if meld else "?"
        claim = view.get("claim") or {}
        return _("call Rummy!: {card} on {meld}").format(
            card=card_text(str(claim.get("card", "?")), ascii, a.get("joker")), meld=on
        )
    if kind == "discard":
        return _("discard {card}").format(card=card_text(a.get("card", "?"), ascii))
    if kind == "end_hand":
        return _("end the hand")
    if kind == "deal":
        return _("deal the next hand")
    return str(kind)


# For a refusal that comes without its template (a host that sends none), the common ones
# are recognised by their shape.
_REFUSALS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(\S+) must be played this turn$"), N_("{0} must be played this turn.")),
    (re.compile(r"^you do not hold (\S+)$"), N_("You do not hold {0}.")),
    (
        re.compile(r"^draw first: from the stock or the discard pile$"),
        N_("Draw first: from the stock (s) or the discard pile (t)."),
    ),
    (re.compile(r"^you have already drawn this turn$"), N_("You have already drawn this turn.")),
    (re.compile(r"^it is not your turn.*$", re.I), N_("It is not your turn.")),
    (re.compile(r"^not your turn.*$", re.I), N_("It is not your turn.")),
    (
        re.compile(
            r"^you may not take (\S+): it must be played this turn and no meld or lay-off "
            r"could take it$"
        ),
        N_(
            "You may not take {0}: it must be played this turn and no meld or lay-off could "
            "take it."
        ),
    ),
]


def refusal(
    message: str,
    template: str | None = None,
    params: dict | None = None,
    ascii: bool = False,
) -> str:
    """The host's (or the rules') refusal in the current language: by its English template
    and parameters when given (``rum500.rules.IllegalMove``), else by the shape of the
    sentence for the common ones, else as sent."""
    if isinstance(template, str) and template:
        fields = {}
        for key, value in (params if isinstance(params, dict) else {}).items():
            if key == "reason":
                fields[key] = _(str(value))
            elif key in ("card", "cards", "meld_cards"):
                fields[key] = _sep().join(_card_or_text(c, ascii) for c in str(value).split())
            else:
                fields[key] = value
        try:
            text = _(template).format(**fields)
        except (KeyError, IndexError, ValueError):
            return message
        return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
    text = message.strip().rstrip(".")
    for pattern, shape in _REFUSALS:
        m = pattern.match(text)
        if m:
            return _(shape).format(*(_card_or_text(g, ascii) for g in m.groups()))
    return message


def _card_or_text(text: str, ascii: bool = False) -> str:
    try:
        return card_text(C.name(C.parse(text)), ascii)
    except ValueError:
        return text
