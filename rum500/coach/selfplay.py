"""Matches between bots as the game log keeps them: the coach's benchmark and tests analyse
them (``bench/analyse.py``, ``tests/coach``)."""

from __future__ import annotations

from rum500.bots import make_bot
from rum500.rules import Game, Options
from rum500.rules.game import Phase


def bot_record(
    levels: list[str],
    seed: int,
    hands: int | None = None,
    target: int = 500,
    committed: dict | None = None,
) -> dict:
    """A match between bots of ``levels`` (seat by seat; only its first ``hands`` hands when
    given) as a record of the game log (:func:`rum500.store.log.load_match`'s keys that the
    analysis reads: ``id``, ``players``, ``seed``, ``options``, ``deck``, ``actions``,
    ``seats``). Every bot sees every update; "Rummy!" calls are closed at once.
    ``committed``: a committed deal action (docs/rules.md "A deal nobody can stack") applied
    as the match's first action, as a host without a fixed seed does: hand 1 dealt again."""
    options = Options(target=target)
    game = Game(len(levels), seed, options)
    bots = [make_bot(level, seed * 16 + s) for s, level in enumerate(levels)]
    actions = []
    if committed is not None:
        game.apply(dict(committed))
        actions.append({"seat": None, "action": dict(game.actions[-1])})
    while game.to_move is not None and (hands is None or len(game.results) < hands):
        seat = game.to_move
        if game.phase is Phase.CLAIM:
            game.apply({"type": "close_claims"})
            actions.append({"seat": None, "action": dict(game.actions[-1])})
            continue
        events = game.apply(bots[seat].choose(game.view(seat)), seat=seat)
        actions.append({"seat": seat, "action": dict(game.actions[-1])})
        for s, bot in enumerate(bots):
            if hasattr(bot, "observe"):
                bot.observe(events, game.view(s))
    return {
        "id": seed,
        "players": len(levels),
        "seed": seed,
        "options": options.to_dict(),
        "deck": None,
        "actions": actions,
        "seats": [{"seat": s, "name": f"{level} {s}"} for s, level in enumerate(levels)],
        "winner": game.winner,
    }
