"""Each hand of a match as it was dealt, from its actions replayed by the engine: the
export's ``deals`` (docs/storage.md) that ``rum500 verify`` (rum500/store/verify.py) checks
against each hand's commitment."""

from __future__ import annotations

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options
from rum500.rules.shuffle import check_deal


def _snapshot(game: Game) -> dict:
    """The hand just dealt in ``game`` as the export records it."""
    return {
        "hand": game.hand_number,
        "dealer": game.dealer,
        "hands": [C.names(h) for h in game.hands],
        "upcard": C.name(game.pile[0]),
        "stock": C.names(game.stock[::-1]),  # its top first
    }


def replayed(match: dict) -> tuple[list[dict], list[dict | None], dict | None]:
    """Replay ``match``'s actions: each hand as dealt, each hand's deal action (None: dealt
    at the match's creation from its seed), and where the replay stopped (None: it did not):
    ``{"hand", "status", "detail"}``."""
    game = Game(
        int(match["players"]),
        int(str(match["seed"])),
        Options.from_dict(match["options"]),
        match.get("deck"),
    )
    players = game.players
    deals: list[dict] = [_snapshot(game)]
    actions: list[dict | None] = [None]
    for k, entry in enumerate(match["actions"]):
        action = entry.get("action") if isinstance(entry, dict) else None
        hand = game.hand_number
        dealing = isinstance(action, dict) and action.get("type") == "deal"
        first = k == 0 and dealing
        try:
            game.apply(action, entry.get("seat") if isinstance(entry, dict) else None)
        except (IllegalMove, ValueError, TypeError, KeyError) as e:
            if first:
                deals, actions = [], []
            bad = dealing and "secret" in action and check_deal(action, players) is not None
            return (
                deals,
                actions,
                {
                    "hand": hand if first else hand + 1 if dealing else hand,
                    "status": "wrong_secret" if bad else "unplayable",
                    # the action's index in the match's list, as rum500 analyse numbers it
                    "detail": f"action {k}: {e}",
                },
            )
        if dealing:
            if first and game.hand_number == hand:  # the first hand, dealt again
                deals, actions = [], []
            deals.append(_snapshot(game))
            actions.append(dict(game.actions[-1]))
    return deals, actions, None


def dealt_hands(match: dict) -> list[dict]:
    """Every hand of ``match`` (players, seed, options, deck, actions as exported) as dealt."""
    return replayed(match)[0]
