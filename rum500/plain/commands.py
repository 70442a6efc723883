"""A typed line of ``rum500 --plain`` to what it does at the table.

Each command puts the table screen's cursor and selection where a key would find them and
plays the same move (:mod:`rum500.tui.moves`, through :class:`~rum500.plain.model.PlainModel`),
so the plain mode refuses exactly what the screen refuses, in the same words; a line that is
no command, or a card that is not one, gets a clear line and changes nothing. English words
always work; Russian aliases too (:data:`ALIASES`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rum500 import cards as C
from rum500.i18n import _
from rum500.narrate import meld_number, spoken_card, spoken_cards
from rum500.plain import words
from rum500.plain.model import PlainModel
from rum500.tui.zones import Zone

Command = Callable[[PlainModel, list[str]], None]

#: Russian (and short) words for the commands
ALIASES = {
    "тянуть": "draw",
    "взять": "take",
    "копать": "dig",
    "выложить": "meld",
    "добавить": "lay",
    "сбросить": "discard",
    "рамми": "call",
    "пас": "pass",
    "готов": "ready",
    "рука": "hand",
    "стол": "table",
    "сброс": "pile",
    "счёт": "scores",
    "счет": "scores",
    "подсказка": "hint",
    "отмена": "undo",
    "сказать": "say",
    "помощь": "help",
    "выход": "quit",
    "конец": "end",
    "статус": "status",
    "итоги": "review",
    "игроки": "players",
    "старт": "start",
    "передать": "handover",
    "да": "yes",
    "нет": "no",
    "y": "yes",
    "n": "no",
    "?": "help",
    "rummy": "call",
    "deal": "ready",
    "exit": "quit",
    "chat": "say",
    "lay-off": "lay",
    "layoff": "lay",
    "показать": "show",
    "зрители": "watchers",
}
#: the words that end over the shoulder (``show stop``)
STOP = {"stop", "end", "off", "стоп", "хватит"}
#: what may be typed while a question waits for its answer
READING = {"help", "hand", "table", "pile", "scores", "review", "status", "players", "say"}
READING |= {"watchers"}


def card_of(text: str) -> str | None:
    """``9h`` -> ``9H`` (``T`` for ten accepted), None when it is not a card."""
    try:
        return C.name(C.parse(text.strip().strip(",.")))
    except ValueError:
        return None


def cards_of(m: PlainModel, texts: list[str]) -> list[str] | None:
    """The cards named, all in this seat's hand; else None, said why."""
    cards = []
    for text in texts:
        card = card_of(text)
        if card is None:
            m.feed.say(
                _("{text} is not a card: write cards as AS 10H QD 2C.").format(text=text), True
            )
            return None
        cards.append(card)
    missing = Counter(cards) - Counter(m.tableview.hand())
    if missing:
        m.feed.say(_("You do not hold {card}.").format(card=spoken_card(next(iter(missing)))), True)
        return None
    return cards


def run(m: PlainModel, line: str) -> bool:
    """Do what ``line`` says; False when it asks to leave at once (the end of the input)."""
    parts = line.split()
    if not parts:
        return True
    word = parts[0].lower()
    word = ALIASES.get(word, word)
    if word.isdigit() and m.overlay == "choose":
        i = int(word) - 1
        if 0 <= i < len(m.choices):
            m.choose_pick(i)
        else:
            m.feed.say(_("Choose a number from 1 to {n}.").format(n=len(m.choices)), True)
        return True
    if m.asking and word not in READING and word not in ("yes", "no", "quit", "help"):
        m.feed.say(_("Answer the question first."), True)
        m.say_question()
        return True
    command = COMMANDS.get(word)
    if command is None:
        m.feed.say(_("Unknown command {word}: type help for the list.").format(word=parts[0]), True)
        return True
    if m.tableview.view is None and word in PLAYS - {"say"}:
        m.feed.say(words.no_match(), True)
        return True
    if m.feed.link_down and word in PLAYS:
        m.offline_key("")
        return True
    try:
        command(m, parts[1:])
    finally:
        if m.overlay != "choose":
            m.selection.selected.clear()
            m.selection.choosing_meld_for = None
            m.selection.zone = Zone.HAND
            m.selection.pile_cursor = None
    return True


# ---------------------------------------------------------------------- the moves


def _draw(m: PlainModel, args: list[str]) -> None:
    m.draw_stock()


def _take(m: PlainModel, args: list[str]) -> None:
    pile = m.tableview.pile()
    if not args:
        m.selection.pile_cursor = None
        m.take_pile()
        return
    card = card_of(args[0])
    if card is None:
        m.feed.say(
            _("{text} is not a card: write cards as AS 10H QD 2C.").format(text=args[0]), True
        )
        return
    if card not in pile:
        m.feed.say(_("{card} is not in the discard pile.").format(card=spoken_card(card)), True)
        return
    m.selection.pile_cursor = len(pile) - 1 - pile[::-1].index(card)  # the copy nearest the top
    m.selection.zone = Zone.PILE
    m.take_pile()


def _dig(m: PlainModel, args: list[str]) -> None:
    pile = m.tableview.pile()
    if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= max(1, len(pile)):
        m.feed.say(
            _("dig N: N from 1 to the size of the discard pile ({n}).").format(n=len(pile)), True
        )
        return
    m.selection.pile_cursor = len(pile) - int(args[0])
    m.selection.zone = Zone.PILE
    m.take_pile()


def _meld(m: PlainModel, args: list[str]) -> None:
    if len(args) < 3:
        m.feed.say(_("meld needs three or more cards: meld 9S 9H 9D."), True)
        return
    cards = cards_of(m, args)
    if cards is not None:
        m.selection.selected = Counter(cards)
        m.meld_selected()


def _lay(m: PlainModel, args: list[str]) -> None:
    on = [a.lower() for a in args[1:2]] in (["on"], ["на"])
    number = args[2] if on and len(args) == 3 else args[1] if len(args) == 2 else None
    if not args or len(args) > 3 or (len(args) == 3 and not on):
        m.feed.say(_("lay CARD on N: lay 8H on 4 (table lists the melds)."), True)
        return
    cards = cards_of(m, args[:1])
    if cards is None:
        return
    card = cards[0]
    ids = [meld.get("id") for meld in m.tableview.melds()]
    if number is None:
        fits = sorted({a["meld"] for a in m.tableview.legal("layoff") if a["card"] == card})
        if len(fits) > 1:
            m.feed.say(
                _("{card} fits melds {melds}: type lay {short} on N.").format(
                    card=spoken_card(card),
                    melds=", ".join(str(meld_number(f)) for f in fits),
                    short=card,
                ),
                True,
            )
            return
        m.selection.zone = Zone.HAND
    else:
        # (numbered from 1, as table and the log say: meld_number)
        if not number.isdigit() or int(number) - 1 not in ids:
            if not ids:
                said = _("There is no meld {n}: no meld is on the table yet.").format(n=number)
            else:
                said = _(
                    "There is no meld {n} on the table: its melds are {numbers} (table lists them)."
                ).format(n=number, numbers=", ".join(str(meld_number(i)) for i in ids))
            m.feed.say(said, True)
            return
        m.selection.zone = Zone.MELDS
        m.selection.meld_cursor = ids.index(int(number) - 1)
    m.selection.selected = Counter([card])
    m.lay_off()


def _discard(m: PlainModel, args: list[str]) -> None:
    if len(args) != 1:
        m.feed.say(_("discard CARD: discard QS."), True)
        return
    cards = cards_of(m, args)
    if cards is not None:
        m.selection.selected = Counter(cards)
        m.discard()


def _ready(m: PlainModel, args: list[str]) -> None:
    if m.review.open:
        m.review.ready()
    elif m.tableview.legal("deal"):
        m.deal()
    elif m.tableview.phase == "hand_over":
        m.deal()  # says who deals, or why not
    else:
        m.feed.say(_("The hand is not over: there is nothing to be ready for."), True)


def _say(m: PlainModel, args: list[str]) -> None:
    text = " ".join(args)[:200]
    if not text:
        m.feed.say(_("say TEXT: say hello to the table."), True)
    elif m.send_chat is None:
        m.feed.say(_("Not connected to a table."), True)
    else:
        m.spawn(m._chat(text))


def _yes(m: PlainModel, args: list[str]) -> None:
    if m.overlay == "confirm":
        m.confirm_yes()
    elif m.overlay == "quit":
        m.confirm_quit()
    else:
        m.feed.say(_("There is no question to answer."), True)


def _no(m: PlainModel, args: list[str]) -> None:
    if m.asking:
        m.close_overlay()
        m.feed.say(_("Cancelled."))
    else:
        m.feed.say(_("There is no question to answer."), True)


def _quit(m: PlainModel, args: list[str]) -> None:
    if m.overlay == "quit":  # quit twice: leave
        m.confirm_quit()
    else:
        m.ask_quit()


# ---------------------------------------------------------------------- over the shoulder


def watchers_text(m: PlainModel) -> str:
    """``Spectators: 1 Cid, 2 Dan.`` — numbered as ``show N`` takes them."""
    listed = m.shoulder.watchers()
    if not listed:
        return _("Nobody is watching this table.")
    return _("Spectators: {names}.").format(
        names=", ".join(f"{k} {name}" for k, (_id, name) in enumerate(listed, 1))
    )


def _show(m: PlainModel, args: list[str]) -> None:
    """``show NAME|N``: show my hand to that spectator; ``show stop``: end it."""
    s = m.shoulder
    if m.tableview.spectator or m.tableview.view is None or not m.tableview.in_progress:
        m.feed.say(_("Only a seated player shows their hand, during a match."), True)
        return
    if args and args[0].lower() in STOP:
        if s.mine() is None:
            m.feed.say(_("You do not show your hand to anyone."), True)
        else:
            s.end()
        return
    if s.mine() is not None:
        m.feed.say(
            _("You show your hand to {name}: type show stop first.").format(name=s.mine()), True
        )
        return
    listed = s.watchers()
    if not args:
        m.feed.say(_("show NAME or N: show your hand to a spectator (watchers lists them)."), True)
        return
    who = " ".join(args)
    names = [name.lower() for _id, name in listed]
    if who.isdigit() and 1 <= int(who) <= len(listed):
        s.pick(int(who) - 1)
    elif who.lower() in names:
        s.pick(names.index(who.lower()))
    else:
        m.feed.say(_("{who} is not watching this table.").format(who=who), True)
        m.out(watchers_text(m))


def _hand(m: PlainModel, args: list[str]) -> None:
    short = bool(args) and args[0].lower() in ("short", "коротко")
    shown = m.shoulder.shown() if m.tableview.spectator else None
    if shown is None:
        m.out(words.hand_text(m.tableview, short=short))
        return
    seat, hand = shown
    cards = " ".join(hand) if short else spoken_cards(hand)
    m.out(
        _("{player}'s hand, shown to you: {cards}.").format(
            player=m.tableview.player_name(seat), cards=cards or _("none")
        )
    )


def _hint(m: PlainModel, args: list[str]) -> None:
    if m.tableview.spectator and not m.shoulder.may_hint():
        shown = m.shoulder.shown()
        if shown is None:
            m.feed.say(
                _("No hand is shown to you: a spectator gets a hint only over a shoulder."), True
            )
        elif not m.tableview.hint_allowed:
            m.feed.say(_("The host turned the hint off at this table."), True)
        else:
            m.feed.say(
                _("{player} has no move to make now.").format(
                    player=m.tableview.player_name(shown[0])
                ),
                True,
            )
        return
    m.hint()


def _out(lines: Callable[[PlainModel], list[str] | str]) -> Command:
    def say(m: PlainModel, args: list[str]) -> None:
        said = lines(m)
        for line in [said] if isinstance(said, str) else said:
            m.out(line)

    return say


def _players(m: PlainModel) -> str:
    seats = (m.tableview.lobby or {}).get("seats")
    if isinstance(seats, list) and seats:
        from rum500.plain.model import seats_text

        return seats_text(seats)
    return _("Seats: {seats}.").format(seats=", ".join(m.tableview.names) or "-")


COMMANDS: dict[str, Command] = {
    "draw": _draw,
    "take": _take,
    "dig": _dig,
    "meld": _meld,
    "lay": _lay,
    "discard": _discard,
    "call": lambda m, a: m.claim.call(),
    "pass": lambda m, a: m.claim.pass_(),
    "end": lambda m, a: m.end_hand(),
    "ready": _ready,
    "undo": lambda m, a: m.take_back(),
    "hint": _hint,
    "hand": _hand,
    "show": _show,
    "watchers": _out(watchers_text),
    "table": _out(lambda m: words.table_text(m.tableview)),
    "pile": _out(lambda m: words.pile_text(m.tableview)),
    "scores": _out(lambda m: words.scores_text(m.tableview)),
    "review": _out(lambda m: [*words.review_text(m.tableview), *filter(None, [m.coach_text()])]),
    "status": _out(lambda m: words.status_text(m.tableview)),
    "players": _out(_players),
    "say": _say,
    "help": _out(lambda m: words.help_lines()),
    "yes": _yes,
    "no": _no,
    "quit": _quit,
    "start": lambda m, a: (
        m.host_player.start_with_bots()
        if m.host_player.can_start()
        else m.feed.say(_("Only the host player starts the match, before it begins."), True)
    ),
    "handover": lambda m, a: m.host_player.offer_handoff(),
    "hints": lambda m, a: m.host_player.toggle_table_hint(),
}
#: the commands that go to the host (not while the link is down)
PLAYS = {
    "draw",
    "take",
    "dig",
    "meld",
    "lay",
    "discard",
    "call",
    "pass",
    "end",
    "ready",
    "undo",
    "say",
}
