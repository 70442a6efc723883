"""The lobby (``rum500`` with no command): live LAN tables, host, play solo, join by address.

:class:`LobbyModel` holds the tables seen on the LAN (kept up to date by a background task
reading :func:`net.discovery.watch`), the cursor, and the form being filled in. Choosing
something sets ``model.choice`` and leaves the lobby screen; :func:`run_lobby_screen` then
runs the table screen and comes back to the lobby when the player leaves the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from rum500.host.addresses import parse_address
from rum500.i18n import _, ngettext
from rum500.narrate import options_text
from rum500.rules.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFF,
    OPTION_SPECS,
    Options,
    OptionSpec,
    options_from,
)
from rum500.tui import settings
from rum500.tui.keys import with_twins
from rum500.tui.layout import plain
from rum500.tui.render import STYLE, four_colours, use_four_colours


@dataclass
class Field:
    """One line of a form: text, a whole number in a range, or a choice."""

    key: str
    label: str
    value: Any
    choices: list[tuple[Any, str]] = field(default_factory=list)  # (value, label)
    low: int = 0
    high: int = 0
    secret: bool = False

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        return "int" if isinstance(self.value, int) else "text"

    def shown(self) -> str:
        if self.kind == "choice":
            return next((label for v, label in self.choices if v == self.value), str(self.value))
        if self.secret and self.value:
            return "•" * len(self.value)
        return str(self.value)

    def step(self, delta: int) -> None:
        if self.kind == "choice":
            values = [v for v, _label in self.choices]
            i = values.index(self.value) if self.value in values else 0
            self.value = values[(i + delta) % len(values)]
        elif self.kind == "int":
            self.value = max(self.low, min(self.high, self.value + delta))

    def type(self, text: str) -> None:
        if self.kind == "text" and len(self.value) < 40:
            self.value += text
        elif self.kind == "int" and text.isdigit():
            self.value = max(self.low, min(self.high, int(f"{self.value}{text}"[-4:])))

    def backspace(self) -> None:
        if self.kind == "text":
            self.value = self.value[:-1]
        elif self.kind == "int":
            digits = str(self.value)[:-1]
            self.value = max(self.low, min(self.high, int(digits) if digits else self.low))


def _levels() -> list[tuple[Any, str]]:
    from rum500.bots import LEVELS
    from rum500.narrate import level_name

    return [(name, level_name(name)) for name in LEVELS]


#: the widest whole number a form's line takes (four digits typed)
FORM_MAX = 9999
#: the seconds the lobby offers for the claim window on its "Rummy! calls" line
CLAIM_SECONDS = (1, 2, 3, 5, 10)


def _option_fields() -> list[Field]:
    """One line per table option (:data:`~rum500.rules.options.OPTION_SPECS`), at its
    default."""
    return [_option_field(spec) for spec in OPTION_SPECS]


def _option_field(spec: OptionSpec) -> Field:
    """The form's line of an option: a whole number (at most :data:`FORM_MAX`) or a choice
    among its values. "Rummy! calls" steps through the claim window's seconds instead of
    "on" (its value is then ``None`` or the seconds: see :func:`options_of_form`)."""
    if spec.kind == "int":
        return Field(
            spec.name, _(spec.label), spec.default, low=spec.low, high=min(spec.high, FORM_MAX)
        )
    if spec.name == "rummy_calls":
        seconds = [(s, _("{n} s to call").format(n=s)) for s in CLAIM_SECONDS]
        return Field(spec.name, _(spec.label), None, choices=[(None, _(OFF)), *seconds])
    choices = [(v, _(label)) for v, label in spec.choices]
    return Field(spec.name, _(spec.label), spec.default, choices=choices)


def options_of_form(values: dict) -> tuple[Options, float]:
    """The table's :class:`Options` and claim window from a host or solo form's values
    (a missing option is its default; "Rummy! calls" is on with its seconds, 3 by
    default)."""
    calls = values.get("rummy_calls")
    options = options_from(
        lambda spec: (calls is not None) if spec.name == "rummy_calls" else values.get(spec.name)
    )
    return options, float(calls or 3.0)


def host_form(name: str) -> list[Field]:
    return [
        Field("table", _("Table name"), _("{name}'s table").format(name=name)),
        Field("name", _("Your name"), name),
        Field("players", _("Players"), 4, low=MIN_PLAYERS, high=MAX_PLAYERS),
        Field("bots", _("Bots"), 0, low=0, high=MAX_PLAYERS - 1),
        Field("bot_level", _("Bot level"), "medium", choices=_levels()),
        *_option_fields(),
        Field("password", _("Password (empty: none)"), "", secret=True),
    ]


def solo_form(name: str) -> list[Field]:
    return [
        Field("name", _("Your name"), name),
        Field("bots", _("Bots"), 1, low=1, high=MAX_PLAYERS - 1),
        Field("bot_level", _("Bot level"), "medium", choices=_levels()),
        *_option_fields(),
    ]


def address_form(name: str) -> list[Field]:
    return [
        Field("address", _("Address (host:port)"), ""),
        Field("name", _("Your name"), name),
        Field("password", _("Password (if any)"), "", secret=True),
    ]


class LobbyModel:
    """State of the lobby screen. See the module docstring."""

    def __init__(self, name: str, ascii: bool = False) -> None:
        self.name = name
        self.ascii = ascii
        self.tables: dict[str, Any] = {}  # service name -> net.discovery.TableInfo
        self.cursor = 0
        self.form: list[Field] | None = None
        self.form_kind = ""  # "host", "solo", "address", "password"
        self.form_cursor = 0
        self.pending_table: Any = None  # a table waiting for its password
        self.message = ""
        self.discovery = _("Looking for tables on the LAN…")
        self.choice: dict | None = None
        #: the newest unfinished solo match (``r`` continues it), see solo_to_continue
        self.resumable: dict | None = None
        self.exit: Any = lambda: None
        self.on_change: Any = lambda: None

    # -- tables
    def table_list(self) -> list[Any]:
        return sorted(self.tables.values(), key=lambda t: (t.name.lower(), t.port))

    def table_seen(self, event: str, table: Any) -> None:
        """A table added, updated or removed (:func:`net.discovery.watch`: one per table id,
        whichever host serves it now)."""
        if event == "removed":
            self.tables.pop(table.key, None)
        else:
            self.tables[table.key] = table
        self.cursor = max(0, min(self.cursor, len(self.tables) - 1))
        self.on_change()

    def move(self, step: int) -> None:
        if self.form is not None:
            self.form_cursor = (self.form_cursor + step) % (len(self.form) + 1)
        elif self.tables:
            self.cursor = (self.cursor + step) % len(self.tables)
        self.on_change()

    def join_selected(self, spectate: bool = False) -> None:
        tables = self.table_list()
        if not tables:
            self.message = _(
                "No table to join yet: host one (h), play solo (p) or join by address (a)."
            )
            self.on_change()
            return
        t = tables[min(self.cursor, len(tables) - 1)]
        if t.password and not spectate:
            self.pending_table = t
            self.open_form("password")
            return
        self._choose(
            {
                "kind": "join",
                "host": t.address,
                "port": t.port,
                "table_id": t.table_id or None,
                "name": self.name,
                "password": None,
                "spectate": spectate,
            }
        )

    def toggle_four_colour(self) -> None:
        """4: the four-colour deck on or off, kept for the next runs (rum500.tui.settings)."""
        on = not four_colours()
        use_four_colours(on)
        why = settings.save(four_colour=on)
        self.message = _("Four-colour deck: on.") if on else _("Four-colour deck: off.")
        if why:
            self.message += " " + _("Not kept for the next run: {why}").format(why=why)

    def continue_solo(self) -> None:
        """Go on with the newest unfinished solo match (as ``rum500 play --resume``)."""
        if self.resumable is None:
            self.message = _("No solo match to continue: play one (p).")
            self.on_change()
            return
        self._choose({"kind": "continue", "game_id": self.resumable["game_id"], "name": self.name})

    # -- forms
    def open_form(self, kind: str) -> None:
        self.form_kind = kind
        self.form = {
            "host": lambda: host_form(self.name),
            "solo": lambda: solo_form(self.name),
            "address": lambda: address_form(self.name),
            "password": lambda: [Field("password", _("Table password"), "", secret=True)],
        }[kind]()
        self.form_cursor = 0
        self.message = ""
        self.on_change()

    def close_form(self) -> None:
        self.form = None
        self.pending_table = None
        self.message = ""
        self.on_change()

    def field(self) -> Field | None:
        if self.form is None or self.form_cursor >= len(self.form):
            return None
        return self.form[self.form_cursor]

    def form_step(self, delta: int) -> None:
        f = self.field()
        if f is not None:
            f.step(delta)
            self.on_change()

    def form_type(self, text: str) -> None:
        f = self.field()
        if f is not None:
            f.type(text)
            self.on_change()

    def form_backspace(self) -> None:
        f = self.field()
        if f is not None:
            f.backspace()
            self.on_change()

    def values(self) -> dict[str, Any]:
        return {f.key: f.value for f in self.form or []}

    def submit(self) -> None:
        """Enter in a form: on a field, go to the next; on the last line, do it."""
        if self.form is None:
            self.join_selected()
            return
        if self.form_cursor < len(self.form):
            self.form_cursor += 1
            self.on_change()
            return
        v = self.values()
        name = str(v.get("name") or self.name).strip()[:24] or self.name
        if self.form_kind == "password":
            t = self.pending_table
            self._choose(
                {
                    "kind": "join",
                    "host": t.address,
                    "port": t.port,
                    "table_id": t.table_id or None,
                    "name": name,
                    "password": v["password"] or None,
                    "spectate": False,
                }
            )
        elif self.form_kind == "address":
            where = parse_address(str(v["address"]))
            if where is None:
                self.message = _("Write the address as host:port, e.g. 192.168.1.20:5500.")
                self.on_change()
                return
            self._choose(
                {
                    "kind": "join",
                    "host": where[0],
                    "port": where[1],
                    "name": name,
                    "password": v["password"] or None,
                    "spectate": False,
                }
            )
        else:
            if self.form_kind == "host" and v["bots"] >= v["players"]:
                self.message = _("Leave a seat for yourself: fewer bots than players.")
                self.on_change()
                return
            self._choose({"kind": self.form_kind, **v, "name": name})

    def _choose(self, choice: dict) -> None:
        self.choice = choice
        self.exit()


#: the form lines the lobby shows at most (with its title, ▲ ▼, Go and the keys: 24 lines)
FORM_ROWS = 16


def _form_window(fields: int, cursor: int) -> tuple[int, int]:
    """The form lines shown, ``[start, end)``: all of them when they fit :data:`FORM_ROWS`,
    else :data:`FORM_ROWS` lines holding the cursor (on "Go": the last ones)."""
    if fields <= FORM_ROWS:
        return 0, fields
    start = min(max(0, cursor - FORM_ROWS // 2), fields - FORM_ROWS)
    return start, start + FORM_ROWS


def _lobby_text(model: LobbyModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:title", " " + _("Rummy 500 — lobby") + " "), ("", "\n\n")]
    if model.form is not None:
        titles = {
            "host": _("Host a new table"),
            "solo": _("Play solo against bots"),
            "address": _("Join by address"),
            "password": _("This table needs a password"),
        }
        # a long form (the host's: every table option) shows FORM_ROWS lines round the
        # cursor, so the whole screen fits 80×24; ▲ / ▼ say that more lines are above / below
        start, end = _form_window(len(model.form), model.form_cursor)
        out.append(("class:label", titles[model.form_kind] + "\n"))
        out.append(("class:dim", "  ▲\n" if start else "\n"))
        for i, f in enumerate(model.form[start:end], start):
            here = i == model.form_cursor
            arrows = ("◀ ", " ▶") if f.kind != "text" else ("", "_" if here else "")
            out.append(("class:cursor" if here else "", f"  {f.label:<24}"))
            out.append(("class:label" if here else "", f" {arrows[0]}{f.shown()}{arrows[1]}\n"))
        go = model.form_cursor == len(model.form)
        out.append(("class:dim", "  ▼" if end < len(model.form) else ""))
        out.append(("class:key" if go else "class:label", "\n  [ " + _("Go") + " ]"))
        out.append(
            (
                "class:dim",
                "\n\n  " + _("↑↓ field  ←→ change  type to edit  Enter next / go  Esc back"),
            )
        )
    else:
        out.append(("class:label", _("Tables on the LAN") + "\n"))
        tables = model.table_list()
        if not tables:
            out.append(("class:dim", "  " + model.discovery + "\n"))
        for i, t in enumerate(tables):
            here = i == model.cursor
            lock = " 🔒" if t.password else ""
            line = "  {:<22} {:<14} {:>5}  {}{}".format(
                t.name[:22],
                (t.host_player or "-")[:14],
                f"{t.seats_taken}/{t.seats_total}",
                _state_text(t.state),
                lock,
            )
            out.append(("class:cursor" if here else "", line + "\n"))
            options = options_text(t.options)
            out.append(
                (
                    "class:dim",
                    f"      {t.address}:{t.port}" + (f"  {options}" if options else "") + "\n",
                )
            )
        out.append(("", "\n"))
        keys = [
            ("Enter", _("join the table")),
            ("w", _("watch it")),
            ("h", _("host a new table")),
            ("p", _("play solo against bots")),
        ]
        if model.resumable is not None:
            r = model.resumable
            keys.append(
                (
                    "r",
                    _("continue your solo match (game {id}: {players}; {hands})").format(
                        id=r["game_id"],
                        players=", ".join(r["players"]),
                        hands=ngettext("{n} hand played", "{n} hands played", r["hands"]).format(
                            n=r["hands"]
                        ),
                    ),
                )
            )
        keys += [("a", _("join by host:port"))]
        keys += [
            ("4", _("four-colour deck: turn off") if four_colours() else _("four-colour deck"))
        ]
        keys += [("q", _("quit"))]
        for key, label in keys:
            out.append(("class:key", f" {key} "))
            out.append(("", f" {label}\n"))
    if model.message:
        out.append(("class:error", "\n" + model.message))
    return out


def _state_text(state: str) -> str:
    return {"lobby": _("waiting"), "playing": _("playing"), "finished": _("finished")}.get(
        state, state
    )


def build_lobby_app(
    model: LobbyModel, input: Input | None = None, output: Output | None = None
) -> Application[Any]:
    kb = KeyBindings()
    in_form = Condition(lambda: model.form is not None)
    listing = ~in_form

    def bind(keys: tuple[str, ...], fn: Any, flt: Any) -> None:
        for k in with_twins(keys):
            kb.add(k, filter=flt)(lambda event, fn=fn: fn())

    bind(("up",), lambda: model.move(-1), listing | in_form)
    bind(("down", "tab"), lambda: model.move(1), listing | in_form)
    bind(("enter",), model.submit, listing | in_form)
    bind(("w",), lambda: model.join_selected(spectate=True), listing)
    bind(("h",), lambda: model.open_form("host"), listing)
    bind(("p",), lambda: model.open_form("solo"), listing)
    bind(("a",), lambda: model.open_form("address"), listing)
    bind(("r",), model.continue_solo, listing)
    bind(("4",), model.toggle_four_colour, listing)
    bind(("q", "c-c"), lambda: model.exit(), listing)
    bind(("left",), lambda: model.form_step(-1), in_form)
    bind(("right",), lambda: model.form_step(1), in_form)
    bind(("backspace", "c-h"), model.form_backspace, in_form)
    bind(("escape", "c-c"), model.close_form, in_form)

    @kb.add(Keys.Any, filter=in_form)
    def _type(event: KeyPressEvent) -> None:
        if event.data and event.data.isprintable():
            model.form_type(event.data)

    layout = Layout(
        HSplit(
            [
                Window(
                    FormattedTextControl(lambda: plain(model, _lobby_text(model))),
                    wrap_lines=True,
                    always_hide_cursor=True,
                )
            ]
        )
    )
    app: Application[Any] = Application(
        layout=layout, key_bindings=kb, style=STYLE, full_screen=True, input=input, output=output
    )
    app.ttimeoutlen = 0.05
    model.on_change = app.invalidate
    model.exit = lambda: app.exit() if app.is_running else None
    return app


async def watch_lan(model: LobbyModel) -> None:
    """Keep the lobby's table list live (added, updated, removed)."""
    try:
        from net.discovery import watch
    except ImportError:
        model.discovery = _("LAN discovery is not available: join by host:port (a).")
        model.on_change()
        return
    try:
        async for event, table in watch():
            model.table_seen(event, table)
            model.discovery = _("Looking for tables on the LAN…")
    except OSError as e:
        model.discovery = _("LAN discovery failed ({why}): join by host:port (a).").format(why=e)
        model.on_change()
