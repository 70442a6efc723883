"""The ``?`` screen: every key, then a summary of the rules (RULES.md), in both languages."""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text.utils import fragment_list_to_text

from rum500.i18n import _
from rum500.rules.options import OPTION_SPECS
from rum500.tui.wrapping import wrap_text

#: --ascii: the arrows of the help in plain ASCII (the key column re-aligned after them).
ASCII_ARROWS = str.maketrans(
    {"←": "<-", "→": "->", "↑": "^", "↓": "v", "♦": "D", "—": "-", "♥": "H", "🃏": "*", "…": "..."}
)
_KEY_ROW = re.compile(r"^(  \S.*?)(\s{2,})(\S.*)$")


def keys_text() -> str:
    return _(
        "KEYS\n"
        "  ← → Home End   move the cursor (hand, pile or melds); it stops at the ends\n"
        "  ↑ ↓            move between the discard pile, the melds and your hand\n"
        "  space          select / unselect the card under the cursor\n"
        "  s              draw the top card of the stock\n"
        "  t              take from the discard pile at the cursor's depth\n"
        "  m              meld the selected cards\n"
        "  l              lay off the selected card (none: the one under the cursor) on\n"
        "                 the meld it fits; when several fit, ← → chooses, Enter lays\n"
        "  d              discard the selected card (none selected: the first d selects\n"
        "                 the card under the cursor, a second d discards it)\n"
        "  e              end the hand when the stock is empty (asks, shows the score)\n"
        "  u              take back your last meld or lay-off of this turn (solo)\n"
        "  h              hint: the strongest bot's move, one key away from playing it\n"
        "  r, x           (Rummy! calls) call Rummy! on the discard / no call\n"
        "  1 … 9          answer a question: what a joker stands for, which meld\n"
        "  o              sort the hand by suit / by rank (kept for the next table)\n"
        "  Esc            clear the selection\n"
        "  Enter          after a hand: ready for the next one (the review)\n"
        "  p              the score of every hand so far\n"
        "  c              chat\n"
        "  ?              this help (↑ ↓ scroll, Esc closes)\n"
        "  q, Ctrl-C      leave (asks first during a match)\n"
        "  other keys     say they do nothing here; the bar shows the keys for now\n"
        "  On the table: + marks the card you just drew; green (and a * after the\n"
        "  pile's top card), what the others did in their last turn; 9♦←2 is a 9♦ laid\n"
        "  off by player 2.\n"
        "  Mouse: click a card to select it, a pile card to choose the depth (again to\n"
        "  take), a meld to lay off on it, a key in the bottom line to use it."
    )


def rules_text(target: int = 500) -> str:
    """The rules in short, the match played to ``target`` (the table's)."""
    return _(
        "RULES (summary)\n"
        "  2 to 8 players; one deck up to 4 players, two decks from 5. 13 cards each\n"
        "  with 2 players, else 7. The next card starts the discard pile.\n"
        "  Your turn: draw the top card of the stock, or take any card of the discard\n"
        "  pile together with every card above it. The deepest card you take must be\n"
        "  played this turn (in a new meld or laid off); until then, no discard.\n"
        "  Then meld and lay off as you like, and discard one card to end the turn.\n"
        "  Melds: a set is 3 or 4 cards of one rank; a run is 3 or more cards in a\n"
        "  row of one suit. The ace is low (A-2-3) or high (Q-K-A), never K-A-2.\n"
        "  Lay-off: one card added to any meld on the table; it scores for you.\n"
        "  The hand ends as soon as someone has no cards left. When the stock is empty\n"
        "  you may still take from the pile, or end the hand.\n"
        "  Points: ace 15 (1 when low in a run), K Q J 10 are 10, others face value.\n"
        "  Each hand scores what you put on the table minus what is left in your hand.\n"
        "  Once a total reaches {target}, the highest total wins; a tie plays another hand."
    ).format(target=target)


def house_rules_text(options: dict | None) -> str:
    """The house rules and family variants on at this table (RULES.md §11, §12), each
    explained (every option whose :class:`~rum500.rules.options.OptionSpec` has an
    ``explain``, in field order); "" when none is."""
    o = options if isinstance(options, dict) else {}
    parts = []
    for spec in OPTION_SPECS:
        value = o.get(spec.name)
        if spec.explain and value:
            text = _(spec.explain)
            parts.append(text.format(n=value) if "{n}" in spec.explain else text)
    if not parts:
        return ""
    return _("HOUSE RULES AT THIS TABLE") + "\n" + "\n".join(parts)


def _ascii_line(line: str) -> str:
    m = _KEY_ROW.match(line)
    if not m:
        return line.translate(ASCII_ARROWS)
    key = m.group(1).translate(ASCII_ARROWS)
    column = len(m.group(1)) + len(m.group(2))
    return key.ljust(column - 1) + " " + m.group(3).translate(ASCII_ARROWS)


def host_keys_text() -> str:
    return _(
        "HOSTING\n"
        "  H              hand the table to another player's machine: it hosts from then\n"
        "                 on, and everyone follows by itself (choose who: 1, 2 …; then\n"
        "                 1 keeps your seat, 2 leaves it to a bot and you leave)"
    )


def host_hint_text() -> str:
    return _(
        "  I              turn the hint (h) off for everyone at this table, or on again\n"
        "                 (a table of several people; every player is told)"
    )


def coach_text() -> str:
    """The coach: the review's line and the replay's keys (issue 24 §2)."""
    return _(
        "COACH\n"
        "  At a table with the coach (rum500 play; rum500 host --coach), the review\n"
        "  after a hand names your biggest mistake of the hand and what it cost.\n"
        "  rum500 replay GAME --seat N marks each decision of that seat with its cost:\n"
        "  c              the coach's seat in the replay (each seat in turn, then none)\n"
        "  m, M           the next / previous mistake (the better move is highlighted)"
    )


def shoulder_text() -> str:
    """Over the shoulder (issue 25 §4): the player's key and the spectator's hint."""
    return _(
        "OVER THE SHOULDER\n"
        "  w              show your hand to one spectator, for teaching (choose\n"
        "                 who: 1 … 9), or stop (e); every player sees that you do\n"
        "  h              (a spectator shown a hand) what the expert would play\n"
        "                 for that player, from what you are shown"
    )


def deal_text() -> str:
    """A deal nobody can stack (issue 24 §3, docs/protocol.md §17)."""
    return _(
        "A DEAL NOBODY CAN STACK\n"
        "  Without --seed every hand is dealt from the host's secret and a random\n"
        "  contribution of each player, fixed before anyone sees a card. After the hand\n"
        '  the review says "Deal checked", or in capitals that it was not, and why.\n'
        "  rum500 verify FILE checks every hand of an exported match."
    )


def help_lines(
    ascii: bool = False,
    options: dict | None = None,
    hosting: bool = False,
    width: int | None = None,
) -> list[str]:
    """The help screen's lines; with ``ascii`` the arrows in ASCII, the columns kept; with
    the table's ``options``, the house rules on at this table; ``hosting``: the host
    player's keys too (last). With ``width``, every line longer than that is wrapped between
    words (a key's description goes on under the description, not under the key): no word
    is lost on a narrow screen, nor in a language with longer words."""
    target = options.get("target") if isinstance(options, dict) else None
    played_to = target if isinstance(target, int) and not isinstance(target, bool) else 500
    text = keys_text() + "\n\n" + rules_text(played_to) + "\n\n" + coach_text()
    text += "\n\n" + shoulder_text() + "\n\n" + deal_text()
    house = house_rules_text(options)
    if house:
        text += "\n\n" + house
    if hosting:
        text += "\n\n" + host_keys_text() + "\n" + host_hint_text()
    lines = text.splitlines()
    if ascii:
        lines = [_ascii_line(line) for line in lines]
    if width is None:
        return lines
    out: list[str] = []
    for line, hang in _paragraphs(lines):
        out += [fragment_list_to_text(row) for row in wrap_text([("", line)], width, indent=hang)]
    return out


def _paragraphs(lines: list[str]) -> list[tuple[str, int]]:
    """The help's lines as paragraphs to wrap, each with its continuation indent: a line that
    does not end a sentence goes on in the next one at the same indent (a key's description
    in its column), so that a narrow screen wraps sentences, not the source's line breaks."""
    out: list[tuple[str, int]] = []
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if out and line.strip() and not _KEY_ROW.match(line):
            text, hang = out[-1]
            if text.strip() and indent == hang and not text.rstrip().endswith(_ENDS):
                out[-1] = (text.rstrip() + " " + line.strip(), hang)
                continue
        m = _KEY_ROW.match(line)
        out.append((line, len(m.group(1)) + len(m.group(2)) if m else indent))
    return out


#: what ends a sentence (or a heading) in the help: the next line starts a new one
_ENDS = (".", "!", "?", ":", ")")
