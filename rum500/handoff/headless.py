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
``handoff NAME --bot`` too, leaving the host's own player's seat (``--player``) to a bot
there, ``seats`` prints who may take it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from net.client import ActionRefused, Client, ClientError, ConnectionLost, HandshakeError
from rum500.bots import make_bot
from rum500.claims import answering
from rum500.client import RumClient, save_token, take_seat
from rum500.configs import HeadlessGuestConfig
from rum500.handoff.guest import Guest
from rum500.handoff.planned import HandoffError, TableMover
from rum500.host.addresses import parse_address
from rum500.narrate import plain

log = logging.getLogger(__name__)


def say(line: str) -> None:
    print(line, flush=True)


async def where_is(table: str, timeout: float) -> tuple[str, int, str | None]:
    """``HOST:PORT`` (its table id unknown: None), or the address and the id of the LAN
    table with that name or id."""
    where = parse_address(table)
    if where is not None:
        return (*where, None)
    from net.discovery import find

    found = await find(table, timeout)
    if found is None:
        raise ConnectionLost(f"no table called {table!r} answered on the LAN")
    return found.address, found.port, found.table_id or None


async def play_seat(
    client: Client,
    level: str,
    seed: int | None,
    out: Callable[[str], None],
    delay: float = 0.0,
    on_rejoined: Callable[[], None] | None = None,
) -> int:
    """Play ``client``'s seat with a bot until the match is over, following the table
    wherever it goes (``on_rejoined()`` each time it got there). Returns 0 at game over or
    when the host closed the table (``shutdown``: it is not followed), 2 when the table is
    lost for good."""
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
                if kind == "deal_checked":
                    out(f"deal check: hand {msg.get('hand')}: {msg.get('text')}")
                if kind == "lobby" and (msg.get("failover") or {}).get("note") != note:
                    note = msg["failover"]["note"]
                    out(f"failover: {note}")
                if kind != "state":
                    continue
                view = msg["view"]
                names = view.get("names") or names
                for event in msg.get("events") or []:
                    out(f"event: {plain(event, names)}")
                if view["phase"] == "game_over":
                    await _last_check(client, out)
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
            if on_rejoined is not None:
                on_rejoined()


async def _last_check(client: Client, out: Callable[[str], None]) -> None:
    """The check of the match's last deal: its ``reveal`` comes right after the state that
    ends the match (docs/protocol.md §17), so wait a moment for it."""
    if not getattr(client, "deal_check", False):
        return
    with contextlib.suppress(TimeoutError, ClientError):
        async with asyncio.timeout(2.0):
            async for msg in client.messages():
                if msg.get("type") == "deal_checked":
                    out(f"deal check: hand {msg.get('hand')}: {msg.get('text')}")
                    return


async def _act(client: Client, bot: Any, view: dict, readied: set[int]) -> None:
    seat = client.seat
    review = view.get("review")
    try:
        if review and seat in (review.get("waiting") or []) and view["turn"] != seat:
            if review["hand"] not in readied:
                readied.add(review["hand"])
                await client.act({"type": "ready"})
        elif view["turn"] == seat and view["legal_actions"]:
            # the bot thinks in a thread: this process may host the table (a handoff or a
            # failover brings it here), and its event loop serves every player meanwhile;
            # a call or a pass names the discard it answers (claim.on)
            action = await asyncio.to_thread(bot.choose, view)
            await client.act(answering(action, view))
    except ActionRefused as e:
        log.info("refused: %s", e)  # an older view, or a table on its way elsewhere


async def run_guest_async(args: HeadlessGuestConfig) -> int:
    """Take the seat saved for this table in ``tokens.json`` (by the table's id, wherever it
    was, else by its address: a guest restarted gets its seat back), or a new one; the
    token is saved again wherever the table goes."""
    name = args.name or "guest"
    try:
        host, port, table_id = await where_is(args.table, args.timeout)
        client = await take_seat(
            RumClient, host, port, name=name, password=args.password, table_id=table_id
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
        announce=args.announce,
        log_path=_log_path() if args.keep_log else None,
        on_event=say,
    )
    say(
        f"joined {client.table_info.get('name')} id {client.table_id} seat {client.seat} "
        f"as {client.name} at {host}:{port}"
    )
    try:
        return await play_seat(
            client,
            args.bot_level,
            args.seed,
            say,
            args.bot_delay,
            on_rejoined=lambda: save_token(client),
        )
    finally:
        if guest.host is not None:
            await asyncio.sleep(1.0)  # the other players take in the end
        await client.close()
        await guest.close()


def _log_path() -> Any:
    from rum500.store.db import db_path

    return db_path()


def run_guest(args: HeadlessGuestConfig) -> int:
    """``rum500 join TABLE --headless``."""
    if args.spectate:
        print("rum500: join --headless plays a seat: it cannot --spectate", file=sys.stderr)
        return 2
    if args.verbose == 0:
        logging.getLogger().setLevel(logging.WARNING)
    if args.password is True:
        import dataclasses
        import getpass

        args = dataclasses.replace(args, password=getpass.getpass("table password: "))
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
                name, _sep, flag = words[1].strip().rpartition(" ")
                to_bot = flag == "--bot" and bool(name.strip())
                name = name.strip() if to_bot else words[1].strip()
                seat = mover.seat_named(name)
                if seat is None:
                    out(f"no player called {name!r} at this table")
                    continue
                if to_bot and mover.host.seat is None:
                    out("this host has no seat of its own (--player) to leave to a bot")
                    continue
                try:
                    addresses, port = await mover.hand_over(seat, leave_to_bot=to_bot)
                except HandoffError as e:
                    out(str(e))
                    continue
                bot = " (the host's seat left to a bot)" if to_bot else ""
                out(f"table handed over to {name} at {', '.join(addresses)} port {port}{bot}")
                done.set()
                return
            else:
                out("commands: handoff NAME, handoff NAME --bot, seats")

    return asyncio.create_task(serve())


__all__ = ["play_seat", "read_commands", "run_guest"]
