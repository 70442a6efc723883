"""The house rules' short lessons, one page per rule on at a table (RULES.md §9, §11, §12):
what changes, a worked example, the keys. The help (``?``, then ``L``) opens them at any
table (:mod:`rum500.tui.overlays.rules`). Pure text: imports nothing of ours but i18n."""

from __future__ import annotations

from collections.abc import Callable

from rum500.i18n import _


def _jokers(n: object) -> str:
    return _(
        "JOKERS\n"
        "Two jokers per deck, wild. In a meld a joker stands for one card and keeps it: "
        "7♥ 8♥ 🃏 asks 6♥ or 9♥? (keys 1, 2). A meld needs two natural cards and never "
        "more jokers than natural cards. A joker scores 15, on the table or in hand: "
        "meld it early."
    )


def _rummy(n: object) -> str:
    return _(
        "RUMMY! CALLS\n"
        "After every discard the next player waits a moment. If the discard fits a meld on "
        "the table, anyone else may press r to call Rummy! and lay it off for their own "
        "score (x: no call). So before you discard, look at the melds: a card that fits "
        "one is a gift to the others."
    )


def _teams(n: object) -> str:
    return _(
        "PARTNERSHIPS\n"
        "{n} teams; partners sit apart (letters A, B, C beside the names). You play your "
        "own hand as usual; your team's total is the sum of its players' scores. Lay off "
        "on a partner's melds freely, and keep what your opponents need off the pile."
    ).format(n=n)


def _aces(n: object) -> str:
    return _(
        "ACES ALWAYS 15\n"
        "An ace scores 15 wherever it sits: A♥ 2♥ 3♥ is worth 20, not 6. A low run with "
        "an ace is as good as a high one, and an ace left in hand still costs 15."
    )


def _ten(n: object) -> str:
    return _(
        "TEN CARDS\n"
        "Two players get 10 cards each, not 13: hands end sooner, so put melds down as "
        "soon as you have them and keep few high cards."
    )


def _top_free(n: object) -> str:
    return _(
        "TOP CARD FREE\n"
        "The top card of the pile may be taken alone without playing it this turn (t with "
        "the cursor on it) — but you may not throw it back in the same turn. Digging "
        "deeper still obliges you to play the deepest card."
    )


def _must_discard(n: object) -> str:
    return _(
        "MUST DISCARD TO GO OUT\n"
        "Your last card must be the discard: you may never put it on the table. Keep one "
        "card to throw when you meld the rest; digging is refused when it would leave "
        "you nothing to discard."
    )


def _empty_stock(n: object) -> str:
    if n == "reshuffle":
        return _(
            "RESHUFFLE ONCE\n"
            "When the stock runs out, the discard pile but its top card is shuffled into a "
            "new stock, once per hand. The next time, take from the pile or end the hand."
        )
    return _(
        "END AT ONCE\n"
        "The hand ends the moment the stock is empty, and is scored as usual: in a long "
        "hand, count the stock and put your melds down before it runs out."
    )


def _target(n: object) -> str:
    return _(
        "TARGET {n}\n"
        "The match ends once a total reaches {n}, not 500: the highest total wins, a tie "
        "plays another hand."
    ).format(n=n)


def _decks(n: object) -> str:
    return _(
        "{n} DECKS\n"
        "With two decks a card can come twice: a set still needs different suits, and two "
        "copies of a card are alike (either may be played as the card dug for)."
    ).format(n=n)


def _first_meld(n: object) -> str:
    return _(
        "FIRST MELD OF {n}\n"
        "You open by laying down, in one turn, new melds scoring at least {n} points. Until "
        "you have opened you may not lay off or call Rummy!, and once you start a turn's "
        "melds you must reach {n} before you discard. Each hand starts with nobody opened."
    ).format(n=n)


def _dug_new_meld(n: object) -> str:
    return _(
        "THE DUG CARD INTO A NEW MELD\n"
        "The deepest card you take from the pile must go into a new meld this turn: laying "
        "it off does not count, not even on a meld you put down this turn. Dig for 8♥ "
        "only with 8♣ 8♦ or 9♥ 10♥ in hand, not for the 5♥ 6♥ 7♥ on the table."
    )


def _five_point_pips(n: object) -> str:
    return _(
        "FIVE-POINT PIPS\n"
        "Cards 2 to 9 score 5 each, on the table and in hand; 10, J, Q, K score 10, an ace "
        "15 (a low ace in a run 5: A♥ 2♥ 3♥ is worth 15). A 9 left in hand costs only 5: "
        "the court cards and aces are the ones to shed."
    )


def _joker_as_card(n: object) -> str:
    return _(
        "A JOKER WORTH ITS CARD\n"
        "On the table a joker scores the card it stands for: 7♥ 8♥ 🃏 as 9♥ is worth 24, "
        "not 30. Left in hand a joker still costs 15: put it down, but a joker in a high "
        "meld is worth more."
    )


def _runs_of_four(n: object) -> str:
    return _(
        "RUNS OF FOUR\n"
        "A new run needs at least 4 cards: 5♥ 6♥ 7♥ is not a meld, 5♥ 6♥ 7♥ 8♥ is. Sets "
        "are still 3 or 4 cards, and a run on the table grows one card at a time as usual. "
        "Three in a row is only a draw to a run: sets come down sooner."
    )


#: option -> (is it on, given its value; its page)
PAGES: dict[str, tuple[Callable[[object], bool], Callable[[object], str]]] = {
    "jokers": (bool, _jokers),
    "rummy_calls": (bool, _rummy),
    "teams": (bool, _teams),
    "ace_always_15": (bool, _aces),
    "ten_cards": (bool, _ten),
    "top_card_free": (bool, _top_free),
    "must_discard": (bool, _must_discard),
    "empty_stock": (lambda v: v in ("reshuffle", "end"), _empty_stock),
    "target": (lambda v: isinstance(v, int) and v != 500, _target),
    "decks": (lambda v: v == 2, _decks),
    "first_meld": (lambda v: isinstance(v, int) and v > 0, _first_meld),  # RULES.md §12.1
    "dug_card_new_meld": (bool, _dug_new_meld),  # §12.2
    "five_point_pips": (bool, _five_point_pips),  # §12.3
    "joker_as_card": (bool, _joker_as_card),  # §12.4
    "runs_of_four": (bool, _runs_of_four),  # §12.6
}


def pages(options: object) -> list[str]:
    """One page per house rule on at a table with these ``options`` (the view's), in the
    order of :data:`PAGES`; the standard game's page when none is."""
    o = options if isinstance(options, dict) else {}
    out = [page(o[name]) for name, (on, page) in PAGES.items() if name in o and on(o[name])]
    if out:
        return out
    return [
        _(
            "THE STANDARD GAME\n"
            "No house rule is on at this table: the rules are the summary in the help. "
            "A first hand that teaches them: rum500 learn. House rules are chosen when a "
            "table is made (rum500 play --help, or the lobby's form)."
        )
    ]
