"""The table itself (no overlay open): the moves, the cursor, and the keys every player has.

Only legal moves are offered in the bar; a key that would go to the host does not act while
the link is down (the bar then shows only p, ? and q).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from rum500.i18n import _
from rum500.tui.hostplayer import HostPlayer
from rum500.tui.overlays.common import Common, always_keys, has_results, online, scores_key
from rum500.tui.overlays.keymap import Check, Key, is_character
from rum500.tui.selection import Selection
from rum500.tui.tableview import TableView

if TYPE_CHECKING:
    from rum500.tui.claim import Claim
    from rum500.tui.review import Review
    from rum500.tui.shoulder import Shoulder


class Cursor(Protocol):
    """The cursor keys: along a zone, between zones, select, clear, sort."""

    selection: Selection  # the cursor and the selected cards

    def toggle_select(self) -> None: ...

    def clear_selection(self) -> None: ...

    def toggle_sort(self) -> None: ...


class Plays(Protocol):
    """The moves, and what the bar reads to offer only the legal ones."""

    tableview: TableView  # what the host sent, and its accessors
    claim: Claim
    review: Review
    shoulder: Shoulder

    def can_take_back(self) -> bool: ...

    def draw_stock(self) -> None: ...

    def take_pile(self) -> None: ...

    def meld_selected(self) -> None: ...

    def lay_off(self) -> None: ...

    def discard(self) -> None: ...

    def end_hand(self) -> None: ...

    def take_back(self) -> None: ...

    def deal(self) -> None: ...

    def enter(self) -> None: ...

    def hint(self) -> None: ...


class HostKeys(Protocol):
    """The host player's keys: start with bots, hand the table over, the hint for all."""

    host_player: HostPlayer


class TableKeys(Common, Cursor, Plays, HostKeys, Protocol):
    """What the table's keys use of the table screen (its narrow port)."""


def why(model: TableKeys, key: str) -> None:
    """A letter, digit or sign the table does not use: says so, and where the keys are (a
    key that is not a character — a function key, Tab — says nothing)."""
    if is_character(key):
        model.feed.say(
            _("No key {key} here: the bar shows the keys for now (? lists all).").format(key=key)
        )


def keys(model: TableKeys) -> list[Key]:
    """The table's keys in the bar's order: the cursor, the turn's start (a call of
    "Rummy!", start with bots, the draw), the moves, the score table, the host player's, and
    chat, help and quit."""
    play = online(model)  # keys that go to the host
    return [
        *_cursor_keys(model, play),
        *_draw_keys(model, play),
        *_play_keys(model, play),
        scores_key(model, lambda: has_results(model)),
        *_host_keys(model, play),
        *always_keys(model),
    ]


def _cursor_keys(m: TableKeys, play: Check) -> list[Key]:
    """The arrows, Home/End, space (select, or take from the pile) and Esc (clear)."""
    return [
        Key(("left",), lambda: m.selection.move(-1)),
        Key(("right",), lambda: m.selection.move(1)),
        Key(("home",), m.selection.move_home),
        Key(("end",), m.selection.move_end),
        Key(("up",), lambda: m.selection.switch_zone(-1)),
        Key(("down",), lambda: m.selection.switch_zone(1)),
        Key(("space",), m.toggle_select, when=play),
        Key(("escape",), m.clear_selection),
    ]


def _draw_keys(m: TableKeys, play: Check) -> list[Key]:
    """A call of "Rummy!" or none, start with bots, draw from the stock or take the pile."""
    return [
        Key(
            ("r",),
            m.claim.call,
            "r",
            lambda: _("Rummy!"),
            lambda: m.claim.may_act() and bool(m.tableview.legal("rummy")),
            play,
        ),
        Key(("x",), m.claim.pass_, "x", lambda: _("no call"), m.claim.may_act, play),
        Key(
            ("g",),
            m.host_player.start_with_bots,
            "g",
            lambda: _("start with bots"),
            m.host_player.can_start,
            play,
        ),
        Key(
            ("s",),
            m.draw_stock,
            "s",
            lambda: _("draw from stock"),
            lambda: m.tableview.my_turn and m.tableview.can_draw_stock(),
            play,
        ),
        Key(
            ("t",),
            m.take_pile,
            "t",
            lambda: _("take from pile"),
            lambda: m.tableview.my_turn and bool(m.tableview.legal_pile_indices()),
            play,
        ),
    ]


def _play_keys(m: TableKeys, play: Check) -> list[Key]:
    """Meld, lay off, discard, end the hand, take back, deal, Enter, sort, hint."""

    def turn(kind: str) -> bool:
        return m.tableview.my_turn and bool(m.tableview.legal(kind))

    def enter_label() -> str:
        return _("ready for the next hand") if m.review.waits_for_me else _("review")

    return [
        Key(("m",), m.meld_selected, "m", lambda: _("meld"), lambda: turn("meld"), play),
        Key(("l",), m.lay_off, "l", lambda: _("lay off"), lambda: turn("layoff"), play),
        Key(("d",), m.discard, "d", lambda: _("discard"), lambda: turn("discard"), play),
        Key(("e",), m.end_hand, "e", lambda: _("end the hand"), lambda: turn("end_hand"), play),
        Key(
            ("u",),
            m.take_back,
            "u",
            lambda: _("take back"),
            lambda: m.tableview.my_turn and m.can_take_back(),
            play,
        ),
        Key(
            ("n",),
            m.deal,
            "n",
            lambda: _("deal"),
            lambda: turn("deal") and not m.review.open,
            play,
        ),
        Key(
            ("enter",),
            m.enter,
            "Enter",
            enter_label,
            lambda: (
                m.tableview.phase == "hand_over"
                and bool(m.tableview.view and m.tableview.view.get("last_hand"))
            ),
            play,
        ),
        Key(
            ("o",),
            m.toggle_sort,
            "o",
            lambda: _("sort"),
            lambda: bool(m.tableview.view and m.tableview.view.get("hand")),
        ),
        Key(
            ("h",),
            m.hint,
            "h",
            lambda: _("hint"),
            lambda: (
                (
                    m.tableview.my_turn
                    and m.tableview.phase in ("draw", "play")
                    and m.tableview.hint_allowed
                )
                or m.shoulder.may_hint()
            ),
            play,
        ),
        Key(("w",), m.shoulder.open, "w", lambda: _("show hand"), m.shoulder.may_offer, play),
    ]


def _host_keys(m: TableKeys, play: Check) -> list[Key]:
    """The host player's: hand the table over, the hint off (on) for everyone."""

    def table_hint_label() -> str:
        return _("hint off for all") if m.tableview.hint_allowed else _("hint on for all")

    return [
        Key(
            ("H",),
            m.host_player.offer_handoff,
            "H",
            lambda: _("hand the table over"),
            lambda: bool(
                m.host_player.hosting
                and m.tableview.view
                and m.host_player.successors is not None
                and m.host_player.successors()
            ),
            play,
        ),
        Key(
            ("I",),
            m.host_player.toggle_table_hint,
            "I",
            table_hint_label,
            m.host_player.can_set_table_hint,
            play,
        ),
    ]
