"""The plain lobby (``rum500 --plain``): the lobby's choices as typed lines — ``list`` the tables
announced on the LAN (numbered), ``join N`` (or a table's name, or ``HOST:PORT``), ``watch N``
to spectate, ``play [BOTS]`` a solo match, ``host [SEATS]`` a table on the LAN, ``quit``. A
table played returns here, with why it ended if it did not end at the player's word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rum500.host.addresses import parse_address
from rum500.i18n import _, pgettext
from rum500.narrate import options_text
from rum500.plain.session import Inbox, plain_model
from rum500.rules.options import MAX_PLAYERS, MIN_PLAYERS
from rum500.tui import main as screen
from rum500.tui.connection import SessionError

#: seconds the lobby listens for the LAN's tables on ``list``
LIST_FOR = 2.0


class Lobby:
    """The lobby's loop: reads ``inbox``'s lines, says its lines with ``out``."""

    def __init__(self, name: str, inbox: Inbox, out: Callable[[str], None]) -> None:
        self.name = name
        self.inbox = inbox
        self.out = out
        self.tables: list[Any] = []  # the last listing (net.discovery.TableInfo)

    def help(self) -> None:
        self.out(
            _(
                "Lobby: list (the tables on the LAN), join N, NAME or HOST:PORT, watch N, "
                "play [BOTS] (a solo match), host [SEATS] (a table on the LAN), quit."
            )
        )

    async def run(self) -> int:
        self.out(_("rum500, plain mode. You are {name}.").format(name=self.name))
        self.help()
        while (line := await self.inbox.get()) is not None:
            words = line.split()
            if not words:
                continue
            word = words[0].lower()
            try:
                if word in ("quit", "exit", "выход"):
                    return 0
                await self.command(word, words[1:])
            except SessionError as e:
                self.out(str(e))
            if self.inbox.ended:
                return 0
        return 0

    async def command(self, word: str, args: list[str]) -> None:
        if word in ("list", "список"):
            await self.list()
        elif word in ("join", "watch", "войти", "смотреть"):
            if not args:
                self.out(_("join N, NAME or HOST:PORT (list shows the tables)."))
                return
            host, port, table_id = await self.find(" ".join(args))
            await screen.play_at(
                host,
                port,
                table_id=table_id,
                name=self.name,
                ascii=True,
                spectate=word in ("watch", "смотреть"),
                model=plain_model(self.name, self.inbox),
            )
            self.out(_("Back in the lobby."))
        elif word in ("play", "играть"):
            await self.host(solo=True, count=args[0] if args else "1")
        elif word in ("host", "создать"):
            await self.host(solo=False, count=args[0] if args else "4")
        else:
            self.help()

    async def list(self) -> None:
        from net.discovery import browse

        try:
            self.tables = await browse(LIST_FOR)
        except OSError as e:
            self.out(_("cannot look for tables: {why}").format(why=e))
            return
        if not self.tables:
            self.out(_("no tables found on the LAN (join by HOST:PORT if multicast is blocked)"))
            return
        for k, t in enumerate(self.tables, 1):
            state = {
                "lobby": pgettext("table state", "lobby"),
                "playing": pgettext("table state", "playing"),
                "finished": pgettext("table state", "finished"),
            }.get(t.state, t.state)
            line = _("{n}: {table}, host {host}, seats {taken} of {seats}, {state}.").format(
                n=k,
                table=t.name,
                host=t.host_player or "-",
                taken=t.seats_taken,
                seats=t.seats_total,
                state=state,
            )
            opts = options_text(t.options)
            self.out(line + (" " + opts if opts else ""))

    async def find(self, text: str) -> tuple[str, int, str | None]:
        """The table named by a number of the last listing, a name, or an address."""
        if text.isdigit() and 1 <= int(text) <= len(self.tables):
            t = self.tables[int(text) - 1]
            return t.address, t.port, t.table_id or None
        address = parse_address(text)
        if address is not None:
            return address[0], address[1], None
        if why := screen.bad_port(text):
            raise SessionError(why)
        return await screen.find_table(text, LIST_FOR)

    async def host(self, *, solo: bool, count: str) -> None:
        """A solo match against ``count`` bots, or a LAN table of ``count`` seats."""
        from rum500.host import HostConfig

        low, high = (1, MAX_PLAYERS - 1) if solo else (MIN_PLAYERS, MAX_PLAYERS)
        if not count.isdigit() or not low <= int(count) <= high:
            self.out(_("A number from {low} to {high}.").format(low=low, high=high))
            return
        n = int(count)
        config = HostConfig(
            players=n + 1 if solo else n,
            bots=0,
            host_player=self.name,
            table_name=_("{name}'s table").format(name=self.name),
            bind="127.0.0.1" if solo else "0.0.0.0",
            announce=not solo,
            bot_delay=screen.DEFAULT_BOT_DELAY,
        )
        await screen.host_and_play(
            config,
            self.name,
            True,
            interactive_start=not solo,
            model=plain_model(self.name, self.inbox),
        )
        self.out(_("Back in the lobby."))
