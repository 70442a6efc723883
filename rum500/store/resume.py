"""Giving a host its game log, and ``rum500 host|play --resume [GAME_ID]``.

:func:`attach_journal` is what :func:`rum500.handoff.serving.serving` calls on the
``HostConfig`` of ``rum500 host`` (headless or not), ``rum500 play`` and the lobby's tables
before ``start_host`` (``keep_log``; ``args``: the command's config or a ``ResumeAsk``):
it sets ``config.journal`` to a :class:`Journal`, and, for ``--resume``, rebuilds the saved
match by replaying its log and sets ``config.resume_game`` / ``config.resume_seats`` (the
saved tokens, so players rejoin where they were) — the journal then appends to that same
match. A host that plays at its own table (``config.host_player``) gets its seat back:
``host_player`` becomes that seat's name (:func:`host_seat`). For ``host`` a name that
matches no human seat of the match is refused (:class:`StoreError` naming the seats),
unless the name was not given (``args.player_given`` false: the login name) and the match
has a single human seat.
The bots go on at the level they played (``config.bot_level``).
"""

from __future__ import annotations

import logging
from typing import Any

from rum500.i18n import _, ngettext
from rum500.store.db import StoreError, db_path, is_empty, open_db
from rum500.store.journal import Journal
from rum500.store.log import is_solo, load_for_resume

log = logging.getLogger("rum500.store")


def attach_journal(config: Any, args: Any = None, *, path: Any = None) -> str:
    """Set ``config.journal`` (and the resumed match for ``args.resume``); returns a line
    for the user. Raises :class:`StoreError` when the match to resume cannot be loaded; a
    game log that cannot be written only gives a warning (the match is then not saved)."""
    resume = getattr(args, "resume", None) if args is not None else None
    where = path if path is not None else db_path()
    if resume is None:
        note = ""
        if is_empty(where):
            note = (
                f"warning: the game log {where} was empty (0 bytes): if it held matches, it "
                "was cut short and they are lost. It starts again with this match."
            )
            log.warning("%s", note)
        try:
            open_db(where).close()
        except StoreError as e:
            note = f"warning: {str(e).rstrip('.')}. This match will not be saved."
            log.warning("%s", note)
        config.journal = Journal(where, bot_level=_level(config))
        return note
    game, seats, info = load_for_resume(resume, where)
    if getattr(args, "command", "host") == "play" and not is_solo(seats):
        raise StoreError(not_solo(info["game_id"], seats))
    if getattr(config, "host_player", None):  # the host plays here: give them their seat
        hosting = getattr(args, "command", "host") == "host"
        given = hosting and getattr(args, "player_given", True)
        mine = host_seat(seats, config.host_player, exact=given)
        if mine is None and hosting:  # never someone else's seat, with their hand
            raise StoreError(no_seat(info["game_id"], config.host_player, seats))
        config.host_player = seats[mine]["name"] if mine is not None else config.host_player
    config.resume_game = game
    config.resume_seats = [{"name": s["name"], "token": s["token"], "bot": s["bot"]} for s in seats]
    config.players = game.players
    levels = [s["bot"] for s in seats if s["bot"] and s["bot"] not in ("bot", "True")]
    if levels:  # the bots go on at the level they played
        config.bot_level = max(set(levels), key=levels.count)
    named = getattr(args, "command", "host") == "host" and getattr(args, "name", None)
    if info["table"] and not named:  # the table keeps its name unless host --name renames it
        config.table_name = info["table"]
    if info["table_id"]:  # and its id: players find the same table (net.discovery.find)
        config.table_id = info["table_id"]
    config.journal = Journal(
        where, resume_id=info["game_id"], game=game, match=info, bot_level=_level(config)
    )
    names = ", ".join(s["name"] for s in seats)
    return (
        f"resuming game {info['game_id']} ({names}): hand {game.hand_number}, "
        f"{len(game.actions)} actions replayed, totals {game.totals}"
    )


def host_seat(seats: list[dict], name: str, exact: bool = False) -> int | None:
    """The seat of a resumed match that the host player takes back: the human seat with
    their name; else (unless ``exact``: the name was given) the only human seat, when the
    match has just one; else None — a seat is never guessed among several people."""
    humans = [k for k, s in enumerate(seats) if not s.get("bot")]
    for k in humans:
        if seats[k]["name"] == name:
            return k
    if exact:
        return None
    return humans[0] if len(humans) == 1 else None


def no_seat(game_id: object, name: str, seats: list[dict]) -> str:
    """The refusal of a resume whose host player's name matches no human seat."""
    names = ", ".join(f"{s['name']} {_('(bot)')}" if s.get("bot") else s["name"] for s in seats)
    return _(
        "no seat of game {id} is called {name}: its seats are {seats}; "
        "use --player with the name of yours"
    ).format(id=game_id, name=name, seats=names)


def not_solo(game_id: object, seats: list[dict]) -> str:
    """The refusal of ``play --resume`` for a match played by several people (or none): it
    is resumed by hosting it, and each player rejoins their own seat."""
    people = [s["name"] for s in seats if not s.get("bot")]
    return ngettext(
        "game {id} is not a solo match ({n} person at its table: {names}): host it again "
        "with 'rum500 host --resume {id}', and the players rejoin their seats",
        "game {id} is not a solo match ({n} people at its table: {names}): host it again "
        "with 'rum500 host --resume {id}', and the players rejoin their seats",
        len(people),
    ).format(id=game_id, n=len(people), names=", ".join(people) or "-")


def _level(config: Any) -> str:
    level = getattr(config, "bot_level", None)
    return level if isinstance(level, str) and level else "bot"


__all__ = ["StoreError", "attach_journal"]
