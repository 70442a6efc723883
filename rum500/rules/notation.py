"""The engine's notation: the phases, the fast path's moves (small tuples of card numbers,
``MOVE_*``) and their actions (the dicts of the dict API and the wire, ``docs/rules.md``), and
the conversion from the one to the other (:func:`action_of`).

The normalised actions that come back again and again are shared dicts (read-only): the
draws, the discards, the lay-offs (:data:`LAYOFF_ACTIONS`), and any equal action kept in a
match's action list (:func:`shared`). Imports nothing of ours but :mod:`rum500.cards`."""

from __future__ import annotations

from enum import StrEnum

from rum500 import cards as C

# Move kinds of the fast path (the first item of each tuple of Game.legal_moves()):
MOVE_STOCK = 0  # (MOVE_STOCK,)
MOVE_DIG = 1  # (MOVE_DIG, index)
MOVE_END_HAND = 2  # (MOVE_END_HAND,)
MOVE_MELD = 3  # (MOVE_MELD, cards, wild): cards canonical; wild None or a tuple of bools
MOVE_LAYOFF = 4  # (MOVE_LAYOFF, held, meld id, card, wild): held is JOKER when wild
MOVE_DISCARD = 5  # (MOVE_DISCARD, card)
MOVE_DEAL = 6  # (MOVE_DEAL,)
MOVE_CLOSE_CLAIMS = 7  # (MOVE_CLOSE_CLAIMS,)


class Phase(StrEnum):
    DRAW = "draw"
    PLAY = "play"
    CLAIM = "claim"  # "Rummy!" calls on the last discard (option), before the next draw
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


def action_of(move: tuple) -> dict:
    """The action (dict API, wire form) of a fast-path move of :meth:`Game.legal_moves`."""
    kind = move[0]
    if kind == MOVE_DISCARD:
        return {"type": "discard", "card": C.name(move[1])}
    if kind == MOVE_MELD:
        return meld_action(move[1], move[2])
    if kind == MOVE_LAYOFF:
        if move[4]:
            return joker_layoff_action(move[3], move[2])
        return layoff_action(move[3], move[2])
    if kind == MOVE_STOCK:
        return {"type": "draw", "source": "stock"}
    if kind == MOVE_DIG:
        return {"type": "draw", "source": "discard", "index": move[1]}
    if kind == MOVE_END_HAND:
        return {"type": "end_hand"}
    if kind == MOVE_DEAL:
        return {"type": "deal"}
    return {"type": "close_claims"}


def meld_action(
    cards: list[int] | tuple[int, ...], wild: list[bool] | tuple[bool, ...] | None
) -> dict:
    """A meld in its normalised form: the cards as put down (``JK`` for a joker) and, with
    jokers, ``jokers``: what each stands for, in the order of the cards."""
    if not wild:
        return {"type": "meld", "cards": C.names(cards)}
    return {
        "type": "meld",
        "cards": [C.JOKER_NAME if w else C.name(c) for c, w in zip(cards, wild, strict=True)],
        "jokers": [C.name(c) for c, w in zip(cards, wild, strict=True) if w],
    }


def layoff_action(card: int, meld: int) -> dict:
    """The normalised lay-off of ``card`` on meld ``meld`` (one dict per pair, read-only)."""
    action = {"type": "layoff", "card": C.name(card), "meld": meld}
    if len(LAYOFF_ACTIONS) < _SHARED_MAX:
        LAYOFF_ACTIONS[card, meld] = action
    return action


LAYOFF_ACTIONS: dict[tuple[int, int], dict] = {}


def listed_meld_action(cards: tuple[int, ...]) -> dict:
    """:func:`meld_action` of a meld without a joker as the fast path lists it (one dict per
    meld, read-only)."""
    action = MELD_ACTIONS.get(cards)
    if action is None:
        action = meld_action(cards, None)
        if len(MELD_ACTIONS) < _SHARED_MAX:
            MELD_ACTIONS[cards] = action
    return action


MELD_ACTIONS: dict[tuple[int, ...], dict] = {}


def joker_layoff_action(stands_for: int, meld: int) -> dict:
    return {"type": "layoff", "card": C.JOKER_NAME, "meld": meld, "joker": C.name(stands_for)}


NAMES = [C.name(c) for c in range(C.DECK_SIZE + 1)]
#: each card's bit in a card mask (``BITS[c] == 1 << c``, without the shift)
BITS = [1 << c for c in range(C.DECK_SIZE + 1)]

#: the moves that are the same tuple every time
STOCK_MOVE = (MOVE_STOCK,)
END_HAND_MOVE = (MOVE_END_HAND,)
DIG_MOVES = [(MOVE_DIG, i) for i in range(2 * (C.DECK_SIZE + 2 * C.JOKERS_PER_DECK))]
DISCARD_MOVES = [(MOVE_DISCARD, c) for c in range(C.DECK_SIZE + 1)]

#: the normalised actions that are the same dict every time (read-only, as shared's)
STOCK_ACTION = {"type": "draw", "source": "stock"}
DIG_ACTIONS = [{"type": "draw", "source": "discard", "index": i} for i in range(len(DIG_MOVES))]
DISCARD_ACTIONS = [{"type": "discard", "card": name} for name in NAMES]


#: one dict for all equal actions in :attr:`Game.actions` (a long match holds thousands of
#: ``{"type": "draw", "source": "stock"}``): treat them as read-only. At most this many kept.
_SHARED_MAX = 50_000
_SHARED: dict[tuple, dict] = {}


def shared(action: dict) -> dict:
    """The shared dict equal to ``action`` (``action`` itself when new, or unhashable)."""
    try:
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(action.items()))
        found = _SHARED.get(key)
    except TypeError:  # a value that cannot be a key (a map): not shared
        return action
    if found is not None:
        return found
    if len(_SHARED) < _SHARED_MAX:
        _SHARED[key] = action
    return action
