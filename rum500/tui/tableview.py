"""What the table screen reads: the host's latest view of the match and of the seats.

:class:`TableView` keeps what the host sent (the view ``Game.view(seat)``, the lobby's seats
list, the welcome's table and options, the away countdowns) and answers questions about it:
whose turn, which moves are legal, my hand in display order, the pile, the melds, who sits
where. It changes nothing but its own fields, says nothing and draws nothing; what a host
message also means for the log is returned as lines for the caller's feed
(:mod:`rum500.tui.feed`). The table screen's model holds one (``TableModel.tableview``) and hands
it to the parts that read it (the selection, the host player).
"""

from __future__ import annotations

import time

from rum500 import cards as C
from rum500.i18n import _, from_host
from rum500.narrate import shown_name
from rum500.rules.options import Options
from rum500.rules.scoring import hand_cost
from rum500.tui.countdown import deadline, whole_seconds_left


class TableView:
    """The host's latest view and seats, and the accessors the screen and the moves read."""

    def __init__(self) -> None:
        self.view: dict | None = None
        self.lobby: dict | None = None  # the host's latest seats list (before and during play)
        self.my_seat: int | None = None
        self.away: set[int] = set()
        self.names: list[str] = []
        self.table_name = ""
        self.address = ""
        self.spectator = False
        self.sort_mode = "suit"
        self.takeover: dict[int, float] = {}  # away seat -> when a bot takes it (monotonic)
        self.addresses: list[str] = []  # where friends reach this table (the lobby message)
        #: the table's options that differ from the standard game (welcome's table.changed)
        self.table_options: dict = {}
        self.hint_allowed = True  # the lobby message's "hint": the host may turn it off
        self.failover_note = ""  # the lobby's sentence about failover
        #: the spectators of the last seats list (id -> name; None before the first)
        self.watching: dict[int, str] | None = None
        self.finished = False

    # ------------------------------------------------------------------ the match

    @property
    def seat(self) -> int | None:
        return self.view["seat"] if self.view else None

    @property
    def phase(self) -> str:
        return self.view["phase"] if self.view else ""

    @property
    def my_turn(self) -> bool:
        v = self.view
        return bool(v) and v["seat"] is not None and v["turn"] == v["seat"]

    @property
    def in_progress(self) -> bool:
        """A match is on (leaving would abandon it)."""
        return self.view is not None and self.phase != "game_over" and not self.finished

    def legal(self, kind: str) -> list[dict]:
        if not self.view:
            return []
        return [a for a in self.view.get("legal_actions") or [] if a.get("type") == kind]

    def hand(self) -> list[str]:
        """My hand in display order (by suit or by rank, aces high)."""
        if not self.view or not self.view.get("hand"):
            return []
        return self.in_hand_order(self.view["hand"])

    def in_hand_order(self, cards: list[str]) -> list[str]:
        """``cards`` sorted as this player's hand is shown (by suit or by rank): the hands
        left at the end of a hand, in the review, too. A card that cannot be read goes last."""
        key = C.sort_key_by_suit if self.sort_mode == "suit" else C.sort_key_by_rank

        def order(text: str) -> tuple[int, tuple[int, int]]:
            try:
                return 0, key(C.parse(text))
            except ValueError:
                return 1, (0, 0)

        return sorted(cards, key=order)

    def pile(self) -> list[str]:
        return list(self.view["discard_pile"]) if self.view else []

    def melds(self) -> list[dict]:
        return list(self.view["melds"]) if self.view else []

    def legal_pile_indices(self) -> set[int]:
        return {a["index"] for a in self.legal("draw") if a.get("source") == "discard"}

    def can_draw_stock(self) -> bool:
        return any(a.get("source") == "stock" for a in self.legal("draw"))

    def draw_prompt(self) -> str:
        """What my turn's draw may be, in one line (only what is open now)."""
        stock, pile = self.can_draw_stock(), bool(self.legal_pile_indices())
        if stock and pile:
            return _("Your turn: draw from the stock (s) or take from the pile (t).")
        if stock:
            return _("Your turn: draw from the stock (s).")
        if pile and self.legal("end_hand"):
            return _("Your turn: the stock is empty: take from the pile (t) or end the hand (e).")
        if pile:
            return _("Your turn: the stock is empty: take from the pile (t).")
        if self.legal("end_hand"):
            return _("Your turn: the stock is empty: end the hand (e).")
        return _("Your turn: draw.")

    def hand_score(self) -> tuple[int, int]:
        """My points on the table this hand and the points left in my hand."""
        v = self.view or {}
        seat = v.get("seat")
        table = v["table_points"][seat] if seat is not None and v.get("table_points") else 0
        try:  # as the table scores a hand left (RULES.md §12.3: five-point pips)
            options = Options.from_dict(v["options"]) if v.get("options") else Options()
            left = hand_cost([C.parse(c) for c in v.get("hand") or []], options)
        except (ValueError, TypeError):
            left = 0
        return table, left

    # ------------------------------------------------------------------ the seats

    def player_name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return _("Seat {n}").format(n=seat + 1)

    @property
    def solo(self) -> bool:
        """No other human sits at this table (every other seat is a bot)."""
        seats = (self.lobby or {}).get("seats")
        if not isinstance(seats, list) or self.seat is None:
            return False
        return all(
            isinstance(s, dict) and s.get("bot") for i, s in enumerate(seats) if i != self.seat
        )

    @property
    def others_seated(self) -> bool:
        """Another human sits at this table (leaving our own host would close it on them)."""
        seats = (self.lobby or {}).get("seats")
        if not isinstance(seats, list):
            return False
        return any(
            isinstance(s, dict) and s.get("name") and not s.get("bot")
            for i, s in enumerate(seats)
            if i != self.my_seat
        )

    def shown_addresses(self, hosting: bool = False) -> list[str]:
        """Where friends can join, as this screen shows them (``hosting``: our own process
        hosts the table). The host's own list names an IPv6 link-local address with the
        host's interface (``[fe80::1%eth0]:5500``): that zone means nothing on a guest's
        machine, so a guest is shown such an address with the zone of its own link to the
        host (when it reached the host over a link-local address), else not at all."""
        if hosting:
            return list(self.addresses)
        mine = self.address.partition("%")[2].partition("]")[0] if "%" in self.address else ""
        out = []
        for a in self.addresses:
            if "%" not in a:
                out.append(a)
            elif mine:
                bare, _sep, rest = a.partition("%")
                out.append(f"{bare}%{mine}]{rest.partition(']')[2]}")
        return out

    def takeover_in(self, seat: int) -> int | None:
        """Whole seconds until a bot takes this away player's seat (0: a bot plays it)."""
        return whole_seconds_left(self.takeover.get(seat), time.monotonic())

    # ------------------------------------------------------------------ taking what the host sent

    def take_welcome(self, msg: dict) -> None:
        """The host's welcome: the table's name, its changed options, my seat (None: I
        watch)."""
        self.table_name = str(msg.get("table") or self.table_name)
        info = msg.get("info")
        changed = info.get("changed") if isinstance(info, dict) else None
        if isinstance(changed, dict):  # the options that differ from the standard game
            self.table_options = {str(k)[:30]: v for k, v in list(changed.items())[:20]}
        self.spectator = msg.get("seat") is None
        self.my_seat = msg.get("seat")
        self.watching = None  # a (re)connection: its host numbers its spectators afresh

    def take_lobby(self, msg: dict) -> list[str]:
        """The host's seats list (names, who is away, addresses, the hint, failover).
        Returns the lines it means for the log: the hint turned off or on, a new failover
        note (in this player's language, :func:`rum500.i18n.from_host`)."""
        said: list[str] = []
        self.lobby = msg
        seats = msg.get("seats")
        if isinstance(seats, list):
            names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats]
            self.names = self._shown(names)
            self.away = {i for i, s in enumerate(seats) if isinstance(s, dict) and s.get("away")}
        self.table_name = str(msg.get("table") or self.table_name)
        addresses = msg.get("addresses")
        if isinstance(addresses, list):
            self.addresses = [str(a)[:60] for a in addresses[:8] if isinstance(a, str)]
        hint = msg.get("hint", True)
        if isinstance(hint, bool) and hint != self.hint_allowed:
            self.hint_allowed = hint
            said.append(
                _("The host turned the hint on again for everyone at this table.")
                if hint
                else _("The host turned the hint off for everyone at this table.")
            )
        failover = msg.get("failover")
        note = ""
        if isinstance(failover, dict):
            note = from_host(
                failover.get("note"), failover.get("template"), failover.get("params")
            )[:300]
        if note and note != self.failover_note:
            said.append(note)
        self.failover_note = note
        said += self._watchers_changed(msg.get("watchers"))
        return said

    def _watchers_changed(self, watchers: object) -> list[str]:
        """Who started or stopped watching since the last seats list (nothing on the first:
        who watches then is in the lobby's list); every player and spectator is told."""
        if not isinstance(watchers, list):
            return []
        now = {
            w["id"]: _clean_name(w.get("name"))
            for w in watchers[:64]
            if isinstance(w, dict) and isinstance(w.get("id"), int)
        }
        before, self.watching = self.watching, now
        if before is None:
            return []
        said = [
            _("{name} is watching this table.").format(name=name)
            for ident, name in now.items()
            if ident not in before
        ]
        said += [
            _("{name} stopped watching.").format(name=name)
            for ident, name in before.items()
            if ident not in now
        ]
        return said

    def take_view(self, view: dict) -> None:
        """A new view: kept, with its names (padded to the seats) and away countdowns."""
        self.view = view
        self._set_takeover(view.get("takeover"))
        if isinstance(view.get("names"), list):
            self.names = self._shown([str(n or "") for n in view["names"]])
        if len(self.names) < view["players"]:
            self.names += [""] * (view["players"] - len(self.names))
        if view["phase"] == "game_over":
            self.finished = True

    def _shown(self, names: list[str]) -> list[str]:
        """The seats' names as this player reads them: a bot the host named ``Bot 3`` (its
        default, in the host's words) is "Bot 3" in this player's language."""
        seats = (self.lobby or {}).get("seats")
        if not isinstance(seats, list):
            return names
        out = []
        for i, name in enumerate(names):
            seat = seats[i] if i < len(seats) else None
            out.append(shown_name(name, isinstance(seat, dict) and bool(seat.get("bot"))))
        return out

    def _set_takeover(self, takeover: object) -> None:
        """The view's away countdowns (seconds from now) as moments on our clock."""
        self.takeover = {}
        if not isinstance(takeover, list):
            return
        now = time.monotonic()
        for seat, left in enumerate(takeover[:8]):
            if isinstance(left, int | float) and left >= 0:  # a negative countdown is ignored
                at = deadline(left, now, 86400.0)  # None for NaN and infinity
                if at is not None:
                    self.takeover[seat] = at


def _clean_name(name: object) -> str:
    """A spectator's name as the log shows it (at most 24 characters, one line)."""
    return " ".join(str(name or "?").split())[:24] or "?"
