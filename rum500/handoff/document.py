"""The table document: everything a host hands another machine so that it hosts the same table.

It is a plain map (JSON-able): ``format`` (``"rum500-table"``), ``version`` (1), ``table``
(name), ``table_id``, ``players``, ``seed``, ``options``, ``deck``, ``actions`` (the engine's
normalised actions, in order), ``action_seats`` (who played each; None for the host's own
``close_claims``), ``seats`` (``[{name, token, bot}]`` — the tokens are secrets: the document
only ever travels to the new host, or sealed to a standby), ``config`` (the host's settings
that move with the table: ``bot_level``, ``password``, ``review_timeout``, ``claim_window``,
``takeover_after``, ``bot_delay``, ``failover``, ``announce``: whether the table was announced
on the LAN), ``chat`` (the newest chat messages),
``match`` (``uid`` and ``created_at`` of the match in the game log, when there is one) and
``windows`` (the hand-end review and the "Rummy!" claim window open now, so that they go on
where they were: :meth:`rum500.host.GameTable.windows`; a document without it — from an
older rum500 — starts them over).

On the wire it travels as text (msgpack frames carry no ``bin`` and strings are capped at
16 KiB): compact JSON, zlib, URL-safe base64, cut into :data:`CHUNK` characters
(:func:`encode_chunks` / :func:`decode_chunks`). :func:`host_from_document` replays the actions
through the engine (a forged or damaged document is refused with :class:`DocumentError`) and
starts a host on it; with a game log, the match is imported into it and journaled onto.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import secrets
import socket
import zlib
from pathlib import Path
from typing import Any

from rum500.host import Host, HostConfig, start_host
from rum500.rules import Game, IllegalMove, Options, Phase

log = logging.getLogger(__name__)

FORMAT = "rum500-table"
VERSION = 1
CHUNK = 12_000  # characters of base64 per chunk (a frame string holds 16 KiB)
MAX_DOCUMENT = 32 * 1024 * 1024  # bytes of JSON a received document may unpack to
MAX_CHUNKS = 4096


class DocumentError(ValueError):
    """A table document that cannot be hosted; the message says why."""


def table_document(host: Host) -> dict:
    """The document of ``host``'s table as it stands (:meth:`Host.document`; the match must
    have started)."""
    table = host.document()
    if table is None:
        raise DocumentError("the match has not started yet")
    return {"format": FORMAT, "version": VERSION, **table}


def aged(windows: object, seconds: float) -> object:
    """``windows`` (a document's) ``seconds`` later: each ``seconds_left`` that much less —
    the time a standby's copy waited before it took the table over."""
    if not isinstance(windows, dict):
        return windows
    out = dict(windows)
    for name in ("review", "claim"):
        window = out.get(name)
        left = window.get("seconds_left") if isinstance(window, dict) else None
        if isinstance(left, int | float) and not isinstance(left, bool):
            out[name] = {**window, "seconds_left": max(0.0, left - max(0.0, seconds))}
    return out


def encode_chunks(document: dict, size: int = CHUNK) -> list[str]:
    """The document as text chunks of at most ``size`` characters."""
    data = zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 6)
    text = base64.urlsafe_b64encode(data).decode("ascii")
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def decode_chunks(chunks: list[str]) -> dict:
    """The document back from its chunks (:class:`DocumentError` when it is not one)."""
    try:
        data = base64.urlsafe_b64decode("".join(chunks).encode("ascii"))
        unpack = zlib.decompressobj()
        raw = unpack.decompress(data, MAX_DOCUMENT)
        if unpack.unconsumed_tail:
            raise DocumentError("the table document is too large")
        document = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeError, ValueError) as e:
        if isinstance(e, DocumentError):
            raise
        raise DocumentError(f"not a table document ({e})") from None
    return check_document(document)


def check_document(document: object) -> dict:
    """``document`` if it is a table document of a known version; :class:`DocumentError`."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError("not a table document")
    if document.get("version") != VERSION:
        raise DocumentError(f"a table document of version {document.get('version')!r}")
    for key, kind in (
        ("table", str),
        ("table_id", str),
        ("players", int),
        ("seed", int),
        ("options", dict),
        ("actions", list),
        ("seats", list),
        ("config", dict),
    ):
        if not isinstance(document.get(key), kind):
            raise DocumentError(f"the table document has no valid {key!r}")
    seats = document["seats"]
    if len(seats) != document["players"] or not all(
        isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("token"), str)
        for s in seats
    ):
        raise DocumentError("the table document's seats are malformed")
    return document


def replay(document: dict) -> Game:
    """The match of ``document``, every action through the engine."""
    try:
        options = Options.from_dict(document["options"])
        return Game.replay(
            document["players"], document["seed"], document["actions"], options, document["deck"]
        )
    except (IllegalMove, ValueError, TypeError, KeyError) as e:
        raise DocumentError(f"the table document does not replay: {e}") from None


def host_config(document: dict, game: Game, **overrides: Any) -> HostConfig:
    """The :class:`HostConfig` that hosts ``document``'s table (``overrides``: where and how
    this machine hosts it — ``bind``, ``port``, ``interfaces``, ``announce``, ``host_player``…)."""
    settings = document["config"]
    seats = document["seats"]
    action_seats = document.get("action_seats")
    config = HostConfig(
        players=game.players,
        bot_level=str(settings.get("bot_level") or "medium"),
        seed=game.seed,
        options=game.options,
        table_name=document["table"],
        password=settings.get("password") or None,
        bot_delay=float(settings.get("bot_delay") or 0.0),
        resume_game=game,
        resume_seats=[
            {"name": s["name"], "token": s["token"], "bot": bool(s.get("bot"))} for s in seats
        ],
        resume_action_seats=action_seats if isinstance(action_seats, list) else None,
        review_timeout=float(settings.get("review_timeout") or 30.0),
        claim_window=float(settings.get("claim_window") or 0.0) or HostConfig.claim_window,
        takeover_after=settings.get("takeover_after"),
        table_id=document["table_id"],
        chat=[c for c in document.get("chat") or [] if isinstance(c, dict)][-50:],
        failover=str(settings.get("failover") or "auto"),
        resume_windows=windows if isinstance(windows := document.get("windows"), dict) else None,
    )
    for key, value in overrides.items():
        setattr(config, key, value)
    return config


def attach_log(config: HostConfig, document: dict, game: Game, path: Path | str) -> str:
    """Import the match into the game log at ``path`` and journal onto it; the line that
    says so (or why the match is not logged here)."""
    from rum500.store.db import StoreError, now, open_db
    from rum500.store.exchange import import_match
    from rum500.store.journal import Journal

    meta = document.get("match") or {}
    uid = meta.get("uid") if isinstance(meta.get("uid"), str) else None
    seats = config.resume_seats or []
    level = config.bot_level
    match = {
        "uid": uid or f"{document['table_id']}-{len(game.actions)}",
        "created_at": meta.get("created_at") or now(),
        "finished_at": None,
        "table": document["table"],
        "players": game.players,
        "seed": str(game.seed),
        "options": game.options.to_dict(),
        "deck": game.first_deck,
        "seats": [
            {"seat": k, "name": s["name"], "bot": level if s["bot"] else None}
            for k, s in enumerate(seats)
        ],
        "actions": [
            {"seat": seat, "action": dict(a)}
            for seat, a in zip(config.resume_action_seats or [], game.actions, strict=False)
        ],
        "status": "finished" if game.phase is Phase.GAME_OVER else "playing",
        "winner": game.winner,
        "totals": list(game.totals),
        "_game": game,
    }
    try:
        if len(match["actions"]) != len(game.actions):
            raise StoreError("the seats of the actions are missing")
        conn = open_db(path)
        try:
            try:
                mid = import_match(conn, match)
            except StoreError:  # this very log has the match (the old host is this machine):
                match["uid"] = f"{match['uid'][:40]}-{secrets.token_hex(4)}"  # a copy of its own
                mid = import_match(conn, match)
        finally:
            conn.close()
        info = {**match, "game_id": mid, "seats": match["seats"]}
        config.journal = Journal(path, resume_id=mid, game=game, match=info, bot_level=level)
    except StoreError as e:
        log.warning("the handed-over match is not in this game log: %s", e)
        return f"the match is not saved in this game log: {e}"
    return f"the match goes on in this game log as game {mid}"


def config_from_document(
    document: dict, *, log_path: Path | str | None = None, **overrides: Any
) -> HostConfig:
    """How to host ``document``'s table here: replayed, seats with their tokens, the same
    name and id (announced at :meth:`Host.announce`, once the old host is gone, unless
    ``announce_later=False``); ``overrides``: :class:`HostConfig` fields. With ``log_path``
    the match goes on in that game log (``config.journal``). Raises :class:`DocumentError`."""
    document = check_document(document)
    game = replay(document)
    overrides.setdefault("announce_later", True)
    config = host_config(document, game, **overrides)
    if log_path is not None:
        attach_log(config, document, game, log_path)
    return config


async def host_from_document(
    document: dict,
    *,
    log_path: Path | str | None = None,
    sock: socket.socket | None = None,
    **overrides: Any,
) -> Host:
    """Start hosting ``document``'s table here (:func:`config_from_document`, then
    :func:`start_host`), with no room beside it (:func:`rum500.handoff.serving.serving` adds
    one). Raises :class:`DocumentError`, ``ValueError`` or ``OSError``."""
    config = config_from_document(document, log_path=log_path, **overrides)
    try:
        return await start_host(config, sock=sock)
    except BaseException:
        close = getattr(config.journal, "close", None)
        if close is not None:
            close()
        raise
