"""Entry points of the terminal client: ``rum500`` (lobby), ``play``, ``host`` and ``join``.

Each ``run_*(config) -> int`` takes its typed config (:mod:`rum500.configs`), built by
:mod:`rum500.cli`. Errors a user can
meet (no such table, a port in use, a wrong password) are printed as one line, never a
traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import getpass
import logging
import logging.handlers
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rum500.configs import (
    HostingConfig,
    JoinConfig,
    LearnConfig,
    LobbyConfig,
    PlayConfig,
    ResumeAsk,
    Screen,
    host_config,
)
from rum500.host.addresses import parse_address
from rum500.i18n import _, ngettext, set_language
from rum500.tui.connection import NetSession, SessionError
from rum500.tui.model import TableModel

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from rum500.handoff.serving import Served
    from rum500.host import HostConfig

DEFAULT_BOT_DELAY = 0.7


def _setup(screen: Screen) -> str | None:
    """Language first, the deck's colours; then whether there is a terminal to draw on (a
    reason if not)."""
    set_language(screen.lang)
    _deck(screen)
    return _no_terminal()


def _deck(screen: Screen) -> None:
    """``--four-colour``, or the lobby's setting kept from an earlier run: the four-colour
    deck on every screen of this process."""
    from rum500.tui import settings
    from rum500.tui.render import use_four_colours

    use_four_colours(screen.four_colour or settings.four_colour())


def table_model(name: str, ascii: bool) -> TableModel:
    """The table screen's model for a player here: the hand sorted as at the last table
    (key o), and every change of that order kept for the next one (settings.json)."""
    from rum500.tui import settings

    model = TableModel(name=name, ascii=ascii)
    model.tableview.sort_mode = settings.hand_sort()
    model.keep_sort = lambda mode: settings.save(hand_sort=mode)
    return model


def player_name(args: Any) -> str:
    """The player's name: ``--player`` where the command has it (``host``: ``--name`` names
    the table there), else ``--name``; by default the login name."""
    name = args.player if hasattr(args, "player") else getattr(args, "name", None)
    if not name:
        try:
            name = getpass.getuser()
        except Exception:  # no user database entry (containers)
            name = os.environ.get("USER") or "player"
    return name[:24]


def _fail(message: str) -> int:
    print(f"rum500: {message}", file=sys.stderr)
    return 2


def _bot_level(level: str) -> str:
    """The level itself when it exists; else ``ValueError`` naming those that do."""
    from rum500.bots import LEVELS

    if level not in LEVELS:
        raise ValueError(
            _("no bot level {level!r}: choose from {levels}").format(
                level=level, levels=", ".join(LEVELS)
            )
        )
    return level


def _no_terminal() -> str | None:
    """Why the screen cannot run here (stdin or stdout is not a terminal), or None."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return _("this screen needs a terminal (use rum500 host --headless without one)")
    return None


async def play_at(
    host_address: str,
    port: int,
    *,
    name: str,
    ascii: bool,
    token: str | None = None,
    password: str | None = None,
    spectate: bool = False,
    start_now: Any = None,
    note: str | None = None,
    on_joined: Any = None,
    input: Any = None,
    output: Any = None,
    model: TableModel | None = None,
    guest_bind: str = "0.0.0.0",
    guest_announce: bool = True,
    table_id: str | None = None,
) -> int:
    """Join the table at ``host_address:port`` and run the table screen until the player
    leaves. ``token`` takes a seat reserved by our own host; ``model`` lets a test look in;
    ``guest_bind``, ``guest_announce``: where this machine listens if the table comes to it,
    and whether it may announce it then (only if its host did); ``table_id`` (from the LAN's
    listing): the seat saved for that table is taken back, wherever it was saved."""
    from rum500.tui.app import run_table

    session = NetSession(
        host_address,
        port,
        name=name,
        password=password,
        spectate=spectate,
        token=token,
        table_id=table_id,
    )
    session.guest_bind, session.guest_announce = guest_bind, guest_announce
    await session.open()
    if on_joined is not None:
        on_joined()
    model = model or table_model(name, ascii)
    model.tableview.address = session.key
    model.host_player.start_now = start_now
    if session.guest is not None:  # after a handoff or a failover this process may host
        session.guest.on_hosting = lambda: host_here(model, session.guest)
        session.guest.on_cut_off = model.host_player.host_gone
    if note:  # the status line, and the log: it stays in sight once the status moves on
        model.feed.log.append(note)
        model.feed.say(note)
    runner = getattr(model, "run_session", None)  # the plain mode's loop, not the screen
    if runner is not None:
        status = await runner(session)
    else:
        status = await run_table(session, model, input=input, output=output)
    if model.closed_by_host:  # final: the lobby (or the shell) says why
        raise SessionError(model.closed_by_host)
    return status


def run_play(args: PlayConfig) -> int:
    """``rum500 play``: host a table in this process (on 127.0.0.1 unless ``--lan``), seat the
    player and fill the other seats with bots."""
    if why := _setup(args):
        return _fail(why)
    name = player_name(args)
    try:
        config = solo_config(args, name)
    except ValueError as e:
        return _fail(str(e))
    return _run(_cli_host(config, name, args, interactive_start=False, note=_left_note(args)))


def _left_note(args: PlayConfig) -> str | None:
    """A new ``rum500 play`` while a solo match waits unfinished: the screen's first line
    says so, and how to go on with it (else it would be silently passed over, and this
    new match become the newest to resume)."""
    if args.resume is not None:
        return None
    from rum500.store.log import solo_to_continue

    left = solo_to_continue()
    if left is None:
        return None
    return ngettext(
        "Game {id} is unfinished (after {hands} hand, totals {totals}): this is a new game; "
        "q, then rum500 play --resume {id}, goes on with that one.",
        "Game {id} is unfinished (after {hands} hands, totals {totals}): this is a new game; "
        "q, then rum500 play --resume {id}, goes on with that one.",
        left["hands"],
    ).format(
        id=left["game_id"],
        hands=left["hands"],
        totals=" / ".join(str(t) for t in left["totals"] or []),
    )


def run_learn(args: LearnConfig) -> int:
    """``rum500 learn``: a first hand that teaches (rum500/learn/), against one scripted bot,
    played in this process."""
    if why := _setup(args):
        return _fail(why)
    from rum500.learn.run import learn_at_screen

    return _run(learn_at_screen(player_name(args), args.ascii))


def solo_config(args: PlayConfig, name: str) -> HostConfig:
    """The :class:`HostConfig` of ``rum500 play`` for the player ``name`` (``ValueError``: a
    bot level or options that cannot be)."""
    from rum500.host import HostConfig

    config = HostConfig(
        players=args.bots + 1,
        bots=0,  # bots sit down once the player is in, so every move is seen
        bot_level=_bot_level(args.bot_level),
        seed=args.seed,
        options=args.options,
        table_name=_("{name}'s table").format(name=name),
        host_player=name,
        bind="0.0.0.0" if args.lan else "127.0.0.1",
        announce=bool(args.lan),
        bot_delay=DEFAULT_BOT_DELAY if args.bot_delay is None else args.bot_delay,
        coach=True,  # a solo table: the review's coach line is on
    )
    # alone against bots nobody waits for the player: the review waits as long as they read
    # (open on the LAN, others may sit down: then 30 s, as a host's)
    timeout = args.review_timeout
    config.review_timeout = 30.0 if timeout is None and args.lan else timeout
    config.claim_window = args.claim_window
    config.options.validate(config.players)
    return config


def run_host(args: HostingConfig) -> int:
    """``rum500 host``: host a table and play at it from this terminal."""
    if why := _setup(args):
        return _fail(why)
    # --resume: a login name may take the only seat
    args = dataclasses.replace(args, player_given=bool(args.player), player=player_name(args))
    try:
        config = host_config(args)
        config.bot_level = _bot_level(config.bot_level)
        config.bot_delay = DEFAULT_BOT_DELAY
        config.options.validate(config.players)
    except (EOFError, KeyboardInterrupt):
        return _fail(_("no password given"))
    except ValueError as e:
        return _fail(str(e))
    return _run(_cli_host(config, args.player, args, interactive_start=True))


async def _cli_host(
    config: Any,
    name: str,
    args: PlayConfig | HostingConfig,
    interactive_start: bool,
    note: str | None = None,
) -> int:
    try:
        return await host_and_play(
            config,
            name,
            bool(args.ascii),
            args=args,
            interactive_start=interactive_start,
            say_resume=True,
            note=note,
        )
    except SessionError as e:
        return _fail(str(e))


async def host_and_play(
    config: Any,
    name: str,
    ascii: bool,
    *,
    args: PlayConfig | HostingConfig | ResumeAsk | None = None,
    interactive_start: bool = False,
    input: Any = None,
    output: Any = None,
    model: TableModel | None = None,
    say_resume: bool = False,
    note: str | None = None,
) -> int:
    """Host ``config``'s table in this process and play at it; the host closes when the
    player leaves. ``interactive_start``: wait for players (g starts with bots), else the
    free seats get bots at once. ``say_resume``: a solo match left unfinished prints, after
    the screen, how to pick it up. ``note``: the screen's first line (unless the game log
    has one). The game log is attached by
    :func:`~rum500.handoff.serving.serving` (``args``: the match to resume, if any). Raises
    :class:`SessionError` with a message."""
    from rum500.handoff.serving import serving  # host + game log + handoff room
    from rum500.store import StoreError

    notes: list[str] = []
    started = False
    try:
        async with serving(config, keep_log=True, resume=args, on_note=notes.append) as served:
            started = True
            name = config.host_player or name  # resumed: the name of the seat taken back
            first = notes[0] if notes else note
            note, model = _resumed_note(config, name, ascii, first, model)
            return await _play_hosted(
                served,
                config,
                name,
                ascii,
                note=note,
                model=model,
                interactive_start=interactive_start,
                input=input,
                output=output,
                say_resume=say_resume,
            )
    except StoreError as e:  # the match to resume cannot be loaded
        if started:
            raise
        raise SessionError(e.said()) from None
    except (ValueError, OSError) as e:
        if started:
            raise
        raise SessionError(_("cannot host: {why}").format(why=e)) from None
    finally:
        _say_closing_note(config)  # the log is closed: what it could not save, if anything


def _resumed_note(
    config: HostConfig, name: str, ascii: bool, note: str | None, model: TableModel | None
) -> tuple[str | None, TableModel | None]:
    """The note to start the screen with (the game log's, if it said anything) and the
    model: a resumed match says so in the log too (the status line soon shows the turn)."""
    game = config.resume_game
    if game is None:
        return note, model
    note = _("Resumed game {id} where it was left: hand {hand}, totals {totals}.").format(
        id=getattr(config.journal, "game_id", None) or "?",
        hand=game.hand_number,
        totals=" / ".join(str(t) for t in game.totals),
    )
    model = model or table_model(name, ascii)
    return note, model


async def _play_hosted(
    served: Served,
    config: HostConfig,
    name: str,
    ascii: bool,
    *,
    note: str | None,
    model: TableModel | None,
    interactive_start: bool,
    input: Any,
    output: Any,
    say_resume: bool,
) -> int:
    """Play at the table ``served`` here, until the player leaves (see :func:`host_and_play`)."""
    host, room = served.host, served.room
    if interactive_start and note is None:
        note = _(
            "Hosting {table} on port {port}. Press g to fill free seats with bots and start."
        ).format(table=host.table_name, port=host.port)
    model = model or table_model(name, ascii)
    model.host_player.host_here(room.mover.successors, room.mover.hand_over)
    model.host_player.saved_game = lambda: getattr(config.journal, "game_id", None)
    model.host_player.set_table_hint = host.set_hint
    room.failover.on_cut_off.append(model.host_player.host_gone)
    code = await play_at(
        host.address,
        host.port,
        name=name,
        ascii=ascii,
        token=host.token,
        note=note,
        start_now=host.start_now if interactive_start else None,
        on_joined=None if interactive_start else host.start_now,
        input=input,
        output=output,
        model=model,
        # if the table is handed back here: where this host listened, announced as it was
        guest_bind=config.bind,
        guest_announce=config.announce,
    )
    game_id = model.host_player.resumable_as()
    if say_resume and game_id is not None:
        print(
            _(
                "Game {id} is saved: rum500 play --resume {id} picks it up where you left it."
            ).format(id=game_id),
            flush=True,
        )
    return code


def host_here(model: TableModel, guest: Any) -> None:
    """``guest`` (:class:`rum500.handoff.Guest`) hosts the table now, taken over: the screen
    says so, and H hands it on as at a table hosted from the start."""
    assert guest.room is not None
    model.host_player.host_here(guest.room.mover.successors, guest.hand_over, taken_over=True)


def _say_closing_note(config: HostConfig) -> None:
    """Say, after the screen, what happened to actions the game log (closed by
    :func:`~rum500.handoff.serving.serving`) could not save."""
    note = getattr(config.journal, "closing_note", None)
    if note:
        print(f"rum500: {note}", file=sys.stderr)


def run_join(args: JoinConfig) -> int:
    """``rum500 join TABLE|HOST:PORT``: join a table found on the LAN, or at an address."""
    set_language(args.lang)
    _deck(args)
    if why := bad_port(args.table) or _no_terminal():
        return _fail(why)
    password = args.password
    if password is True:
        try:
            password = getpass.getpass(_("table password: "))
        except (EOFError, KeyboardInterrupt):
            return _fail(_("no password given"))
    return _run(_join(args, password))


async def find_table(name: str, timeout: float) -> tuple[str, int, str | None]:
    """The address and the id of the LAN table called ``name``, or with that id
    (``SessionError`` if none answers)."""
    try:
        from net.discovery import find
    except ImportError:
        raise SessionError(_("LAN discovery is not available: join by HOST:PORT.")) from None
    try:  # as soon as that table answers, however slowly the others do (up to ``timeout``)
        table = await find(name, timeout)
    except OSError as e:
        raise SessionError(_("cannot look for tables: {why}").format(why=e)) from None
    if table is not None:
        return table.address, table.port, table.table_id or None
    raise SessionError(
        _("no table called {name!r} answered on the LAN; try HOST:PORT.").format(name=name)
    )


def bad_port(text: str) -> str | None:
    """Why ``text`` is an address with a wrong port (``127.0.0.1:notaport``), or None when it
    is a good address or a table name."""
    import ipaddress

    text = text.strip()
    if parse_address(text) is not None or ":" not in text or any(c.isspace() for c in text):
        return None
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _sep, port = text.rpartition(":")
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if not host or ":" in host:
                return None
            if not (host == "localhost" or "." in host or port.isdigit()):
                return None  # a table name with a colon in it
    if not port:
        return _("{address}: the port is missing: give HOST:PORT").format(address=text)
    return _("{address}: {port!r} is not a port: give a number from 1 to 65535").format(
        address=text, port=port
    )


async def _join(args: JoinConfig, password: str | None) -> int:
    try:
        address = parse_address(args.table)
        where = (*address, None) if address else await find_table(args.table, args.timeout)
        return await play_at(
            where[0],
            where[1],
            table_id=where[2],
            name=player_name(args),
            ascii=args.ascii,
            password=password,
            spectate=args.spectate,
            guest_bind=args.bind,
            guest_announce=args.announce,
        )
    except SessionError as e:
        return _fail(str(e))


def run_lobby(args: LobbyConfig) -> int:
    """``rum500``: the lobby; then the table chosen there; back to the lobby after it."""
    if why := _setup(args):
        return _fail(why)
    return _run(run_lobby_screen(args))


def _run(coro: Any) -> int:
    """Run the screen; SIGTERM or SIGHUP (the terminal closed) end it as q would, so the
    host closes, the game log is saved and its lock file removed."""

    async def main() -> int:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, task.cancel)  # type: ignore[union-attr]
        return await coro

    try:
        with log_away_from_the_screen():
            return asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:
        return 143
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()


LOG_FILE = "rum500.log"


@contextlib.contextmanager
def log_away_from_the_screen() -> Iterator[Path | None]:
    """While the screen runs, log messages go to ``rum500.log`` in the data folder instead
    of the terminal (a warning printed there would garble the screen); the host's notices
    reach the player as a banner. Yields the log file (None if it cannot be opened: the
    messages are then kept and printed when the screen is gone)."""
    root = logging.getLogger()
    terminal = [
        h
        for h in root.handlers
        if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)
    ]
    path: Path | None = None
    kept: list[logging.LogRecord] = []
    handler: logging.Handler
    try:
        from rum500.store.db import home

        path = home() / LOG_FILE
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=1_000_000, backupCount=1, encoding="utf-8"
        )
        with contextlib.suppress(OSError):
            path.chmod(0o600)
    except OSError:
        path = None
        handler = _Keep(kept)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for h in terminal:
        root.removeHandler(h)
    root.addHandler(handler)
    logging.captureWarnings(True)  # Python's warnings too: they print to stderr otherwise
    try:
        yield path
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        handler.close()
        for h in terminal:
            root.addHandler(h)
        for record in kept:
            if record.levelno >= logging.WARNING:
                print(f"rum500: {record.getMessage()}", file=sys.stderr)


class _Keep(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__()
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.into) < 100:
            self.into.append(record)


async def run_lobby_screen(
    args: LobbyConfig, input: Input | None = None, output: Output | None = None
) -> int:
    """The lobby, then the chosen table, then the lobby again, until the player quits."""
    from prompt_toolkit.application import Application

    from rum500.tui.lobby import LobbyModel, build_lobby_app, watch_lan

    name = player_name(args)
    message = ""
    while True:
        model = LobbyModel(name, ascii=args.ascii)
        model.message = message
        model.resumable = _resumable()
        app = build_lobby_app(model, input, output)
        watcher: asyncio.Task | None = None

        def start(model: LobbyModel = model, app: Application[Any] = app) -> None:
            nonlocal watcher
            watcher = app.create_background_task(watch_lan(model))

        await app.run_async(pre_run=start)
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(BaseException):
                await watcher
        choice = model.choice
        if choice is None:
            return 0
        try:
            message = ""
            await _play_choice(choice, args, input, output)
        except SessionError as e:
            message = str(e)


def _resumable() -> dict | None:
    try:
        from rum500.store.log import solo_to_continue
    except ImportError:  # a build without the game log
        return None
    return solo_to_continue()


async def _play_choice(
    choice: dict, args: LobbyConfig, input: Input | None, output: Output | None
) -> None:
    from rum500.host import HostConfig
    from rum500.tui.lobby import options_of_form

    ascii = args.ascii
    if choice["kind"] == "continue":
        config = HostConfig(
            host_player=choice["name"], bind="127.0.0.1", bot_delay=DEFAULT_BOT_DELAY, coach=True
        )
        resume = ResumeAsk(command="play", resume=str(choice["game_id"]))
        await host_and_play(config, choice["name"], ascii, args=resume, input=input, output=output)
        return
    if choice["kind"] == "join":
        await play_at(
            choice["host"],
            choice["port"],
            name=choice["name"],
            ascii=ascii,
            password=choice["password"],
            spectate=choice["spectate"],
            input=input,
            output=output,
            table_id=choice.get("table_id"),  # its seat is found by id, wherever it was
        )
        return
    options, claim_window = options_of_form(choice)
    solo = choice["kind"] == "solo"
    players = choice["bots"] + 1 if solo else choice["players"]
    config = HostConfig(
        players=players,
        bots=0 if solo else choice["bots"],  # solo: bots sit down once the player is in
        bot_level=choice["bot_level"],
        options=options,
        host_player=choice["name"],
        table_name=choice.get("table") or _("{name}'s table").format(name=choice["name"]),
        bind="127.0.0.1" if solo else "0.0.0.0",
        announce=not solo,
        password=choice.get("password") or None,
        bot_delay=DEFAULT_BOT_DELAY,
        claim_window=claim_window,
        coach=solo or bool(choice.get("coach")),
    )
    try:
        options.validate(players)
    except ValueError as e:
        raise SessionError(str(e)) from None
    await host_and_play(
        config, choice["name"], ascii, interactive_start=not solo, input=input, output=output
    )
