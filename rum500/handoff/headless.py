"""``rum500 join TABLE --headless``: a seat played by a bot, with no screen, that can host.

It joins (``TABLE`` is ``HOST:PORT``, a table name or a table id on the LAN), says in
``hello`` that it can host, plays its seat with a bot of ``--bot-level``, and prints one line
per event. It follows the table when it moves (``moved``) or when its host vanishes (to the
standby), and it takes the table itself when the host hands it over or when it is the
standby and the players' shares come. It exits when the match is over or the host closes
the table (0: a closed table is not followed), or when the table cannot be found or refuses
it for good (2).

Lines (stable prefixes, for scripts and tests)::

    joined TABLE id ID seat N as NAME at HOST:PORT
    event: <a public event in plain English>
    lost the host (CODE): following
    rejoined (moved|host|standby) at HOST:PORT seat N
    hosting the table 'TABLE' on port P (handed over|failover)
    standby for the table: port P …
    game over: NAME wins
    the host closed the table

The headless host (``rum500 host --headless``) reads commands on its standard input, one
per line: ``handoff NAME`` hands the table to that player's machine (:func:`read_commands`),
``seats`` prints who may take it.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from net.client import ActionRefused, Client, ClientError, ConnectionLost, HandshakeError
from rum500.bots import make_bot
from rum500.handoff.guest import Guest
from rum500.handoff.planned import HandoffError, TableMover
from rum500.hosting import describe_event
from rum500.rules import Options

log = logging.getLogger(__name__)


class GuestClient(Client):
    """rum500's client: its hello names every table option it knows."""

    options = list(Options().to_dict())


def say(line: str) -> None:
    print(line, flush=True)


async def where_is(table: str, timeout: float) -> tuple[str, int]:
    """``HOST:PORT``, or the address of the LAN table with that name or id."""
    from rum500.tui.connection import parse_address

    where = parse_address(table)
    if where is not None:
        return where
    from net.discovery import find

    found = await find(table, timeout)
    if found is None:
        raise ConnectionLost(f"no table called {table!r} answered on the LAN")
    return found.address, found.port


async def play_seat(
    client: Client,
    level: str,
    seed: int | None,
    out: Callable[[str], None],
    delay: float = 0.0,
) -> int:
    """Play ``client``'s seat with a bot until the match is over, following the table
    wherever it goes. Returns 0 at game over or when the host closed the table
    (``shutdown``: it is not followed), 2 when the table is lost for good."""
    bot = make_bot(level, seed)
    names: list[str] = []
    readied: set[int] = set()
    note = None
    while True:
        try:
            async for msg in client.messages():
                kind = msg.get("type")
                if kind == "moved":
                    out(f"the table moves to {', '.join(msg['addresses'])} port {msg['port']}")
                if kind == "standby" and msg.get("port"):
                    out(f"standby named: seat {msg.get('seat')} at port {msg['port']}")
                if kind == "lobby" and (msg.get("failover") or {}).get("note") != note:
                    note = msg["failover"]["note"]
                    out(f"failover: {note}")
                if kind != "state":
                    continue
                view = msg["view"]
                names = view.get("names") or names
                for event in msg.get("events") or []:
                    out(f"event: {describe_event(event, names)}")
                if view["phase"] == "game_over":
                    winner = view.get("winner")
                    who = names[winner] if isinstance(winner, int) else "?"
                    out(f"game over: {who} wins")
                    return 0
                if msg["seq"] != client.seq:
                    continue  # a newer update is queued
                if delay:
                    await asyncio.sleep(delay)
                    if msg["seq"] != client.seq:
                        continue
                await _act(client, bot, view, readied)
            return 0
        except ConnectionLost as e:
            if client.closed:
                return 0
            if e.code == "shutdown":  # closed for everyone: no one follows it anywhere
                out("the host closed the table")
                return 0
            out(f"lost the host ({e.code or e}): following")
            try:
                how = await client.follow()
            except ClientError as e:
                out(f"cannot find the table again: {e}")
                return 2
            out(f"rejoined ({how}) at {client.host}:{client.port} seat {client.seat}")


async def _act(client: Client, bot: Any, view: dict, readied: set[int]) -> None:
    seat = client.seat
    review = view.get("review")
    try:
        if review and seat in (review.get("waiting") or []) and view["turn"] != seat:
            if review["hand"] not in readied:
                readied.add(review["hand"])
                await client.act({"type": "ready"})
        elif view["turn"] == seat and view["legal_actions"]:
            await client.act(bot.choose(view))
    except ActionRefused as e:
        log.info("refused: %s", e)  # an older view, or a table on its way elsewhere


async def run_guest_async(args: Any) -> int:
    name = args.name or "guest"
    try:
        host, port = await where_is(args.table, args.timeout)
        client = await GuestClient.connect(
            host, port, name=name, password=args.password, can_host=True
        )
    except HandshakeError as e:
        say(f"refused: {e}")
        return 2
    except ClientError as e:
        say(str(e))
        return 2
    from net.discovery import where as where_announced

    client.finder = where_announced  # the table by its id on the LAN, as a last resort
    guest = Guest(
        client,
        bind=args.bind,
        announce=not args.no_announce,
        log_path=None if args.no_log else _log_path(),
        on_event=say,
    )
    say(
        f"joined {client.table_info.get('name')} id {client.table_id} seat {client.seat} "
        f"as {client.name} at {host}:{port}"
    )
    try:
        return await play_seat(client, args.bot_level, args.seed, say, args.bot_delay)
    finally:
        if guest.host is not None:
            await asyncio.sleep(1.0)  # the other players take in the end
        await client.close()
        await guest.close()


def _log_path() -> Any:
    from rum500.store.db import db_path

    return db_path()


def run_guest(args: Any) -> int:
    """``rum500 join TABLE --headless``."""
    if getattr(args, "spectate", False):
        print("rum500: join --headless plays a seat: it cannot --spectate", file=sys.stderr)
        return 2
    if getattr(args, "verbose", 0) == 0:
        logging.getLogger().setLevel(logging.WARNING)
    if args.password is True:
        import getpass

        args.password = getpass.getpass("table password: ")
    try:
        return asyncio.run(run_guest_async(args))
    except KeyboardInterrupt:
        return 130


# ---------------------------------------------------------------------- the headless host


def read_commands(
    mover: TableMover, out: Callable[[str], None], done: asyncio.Event
) -> asyncio.Task:
    """Read commands on standard input for the headless host (see the module docstring);
    ``done`` is set when the table has moved away."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def reader() -> None:  # a daemon thread: a blocking read never holds the exit
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=reader, daemon=True, name="rum500-stdin").start()

    async def serve() -> None:
        while (line := await lines.get()) is not None:
            words = line.split(maxsplit=1)
            if not words:
                continue
            if words[0] == "seats":
                found = mover.successors()
                out("may take the table: " + (", ".join(n for _, n in found) or "nobody"))
            elif words[0] == "handoff" and len(words) == 2:
                seat = mover.seat_named(words[1])
                if seat is None:
                    out(f"no player called {words[1].strip()!r} at this table")
                    continue
                try:
                    addresses, port = await mover.hand_over(seat)
                except HandoffError as e:
                    out(str(e))
                    continue
                out(
                    f"table handed over to {words[1].strip()} at {', '.join(addresses)} port {port}"
                )
                done.set()
                return
            else:
                out("commands: handoff NAME, seats")

    return asyncio.create_task(serve())


__all__ = ["play_seat", "read_commands", "run_guest"]
