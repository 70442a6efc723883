"""The runners of ``rum500 --plain`` (and ``RUM500_PLAIN=1``): ``play``, ``host``, ``join`` and
the lobby, each taking the same typed config as the terminal client's runner
(:mod:`rum500.configs`) and playing the table through the same host and session code
(:func:`rum500.tui.main.host_and_play`, :func:`rum500.tui.main.play_at`), with a
:class:`~rum500.plain.model.PlainModel` and the line loop of :mod:`rum500.plain.session` in
place of the screen. No terminal is needed: it runs through pipes.

The plain lobby (``rum500 --plain``) reads the same lines: ``list`` the LAN's tables, ``join``
one by its number, name or ``HOST:PORT`` (``watch`` to spectate), ``play`` a solo match,
``host`` a table, ``quit``.
"""

from __future__ import annotations

import dataclasses
import getpass
from collections.abc import Awaitable, Callable
from typing import Any

from rum500.configs import (
    PlainHostConfig,
    PlainJoinConfig,
    PlainLobbyConfig,
    PlainPlayConfig,
    host_config,
)
from rum500.host.addresses import parse_address
from rum500.i18n import _, set_language
from rum500.plain.session import Inbox, plain_model, say
from rum500.tui import main as screen
from rum500.tui.connection import SessionError


def _run(body: Callable[[Inbox], Awaitable[int]]) -> int:
    async def main() -> int:
        inbox = Inbox()
        try:
            return await body(inbox)
        finally:
            inbox.close()

    return screen._run(main())


def run_play(args: PlainPlayConfig) -> int:
    """``rum500 --plain play``: a solo table hosted here, played in lines."""
    set_language(args.lang)
    name = screen.player_name(args)
    try:
        config = screen.solo_config(args, name)
    except ValueError as e:
        return screen._fail(str(e))
    return _run(lambda inbox: _host(config, name, args, inbox, interactive_start=False))


def run_host(args: PlainHostConfig) -> int:
    """``rum500 --plain host``: host a table and play at it in lines (``start`` fills the
    free seats with bots)."""
    set_language(args.lang)
    # --resume: a login name may take the only seat
    args = dataclasses.replace(
        args, player_given=bool(args.player), player=screen.player_name(args)
    )
    try:
        config = host_config(args)
        config.bot_level = screen._bot_level(config.bot_level)
        config.bot_delay = screen.DEFAULT_BOT_DELAY
        config.options.validate(config.players)
    except (EOFError, KeyboardInterrupt):
        return screen._fail(_("no password given"))
    except ValueError as e:
        return screen._fail(str(e))
    return _run(lambda inbox: _host(config, args.player or "", args, inbox, interactive_start=True))


async def _host(config: Any, name: str, args: Any, inbox: Inbox, *, interactive_start: bool) -> int:
    try:
        return await screen.host_and_play(
            config,
            name,
            True,
            args=args,
            interactive_start=interactive_start,
            model=plain_model(config.host_player or name, inbox),
            say_resume=True,
        )
    except SessionError as e:
        return screen._fail(str(e))


def run_join(args: PlainJoinConfig) -> int:
    """``rum500 --plain join TABLE|HOST:PORT``."""
    set_language(args.lang)
    if why := screen.bad_port(args.table):
        return screen._fail(why)
    password = args.password
    if password is True:
        try:
            password = getpass.getpass(_("table password: "))
        except (EOFError, KeyboardInterrupt):
            return screen._fail(_("no password given"))
    return _run(lambda inbox: _join(args, password or None, inbox))


async def _join(args: PlainJoinConfig, password: str | None, inbox: Inbox) -> int:
    try:
        address = parse_address(args.table)
        where = (*address, None) if address else await screen.find_table(args.table, args.timeout)
        name = screen.player_name(args)
        return await screen.play_at(
            where[0],
            where[1],
            table_id=where[2],
            name=name,
            ascii=True,
            password=password,
            spectate=args.spectate,
            guest_bind=args.bind,
            guest_announce=args.announce,
            model=plain_model(name, inbox),
        )
    except SessionError as e:
        return screen._fail(str(e))


def run_lobby(args: PlainLobbyConfig) -> int:
    """``rum500 --plain``: the plain lobby (see the module)."""
    set_language(args.lang)
    from rum500.plain.lobby import Lobby

    return _run(lambda inbox: Lobby(screen.player_name(args), inbox, say).run())


__all__ = ["run_host", "run_join", "run_lobby", "run_play"]
