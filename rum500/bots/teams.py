"""Bots with partners (RULES.md §11.3): who plays for whom, and a team-aware discard order.

With partnerships the view holds ``teams`` (each seat's team: seat ``s`` plays for team
``s % teams``). A bot then plays for its team:

* a discard: among the cards its level rates equal, not one the next opponent is known to be
  able to use (it fits, or goes next to, the cards that opponent took from the discard pile),
  and rather one a partner is known to be able to use (:func:`discard_key`);
* the ``hard`` bot counts no feeding risk for a partner (a partner who digs for its discard,
  or lays off on its melds, scores for the team) — see :func:`is_partner`.

Everything here is read from the seat's view and the public events the bot remembers.
"""

from __future__ import annotations

from collections.abc import Callable

from rum500.bots.hands import fits, partners
from rum500.bots.seat import SeatView


def teams_of(v: SeatView) -> list[int] | None:
    """Each seat's team, or None without partnerships."""
    raw = v.raw.get("teams") if v.raw is not None else None
    if not isinstance(raw, list) or len(raw) != v.players:
        return None
    return [int(t) for t in raw]


def is_partner(v: SeatView, seat: int) -> bool:
    """``seat`` plays for this seat's team (and is not this seat)."""
    teams = teams_of(v)
    return teams is not None and seat != v.seat and teams[seat] == teams[v.seat]


def partner_seats(v: SeatView) -> list[int]:
    return [s for s in range(v.players) if is_partner(v, s)]


def next_opponent(v: SeatView) -> int:
    """The first seat after this one that is not a partner (the next to draw, as seats
    alternate team by team)."""
    for k in range(1, v.players):
        seat = (v.seat + k) % v.players
        if not is_partner(v, seat):
            return seat
    return v.next_seat


def usable(card: int, held: list[int], min_run: int = 3) -> bool:
    """``held`` (known cards) makes ``card`` worth taking: it melds with them or goes next
    to one of them. ``min_run``: the shortest new run (4 with runs_of_four)."""
    return bool(held) and (fits(card, held, [], min_run) or partners(card, held) > 0)


def discard_key(v: SeatView, card: int, known: Callable[[int], list[int]]) -> tuple[int, int]:
    """Sort key of a discard for the team, smaller is better: (it feeds the next opponent,
    no partner can use it). ``known(seat)``: the cards ``seat`` is known to hold. Without
    partnerships every card is (0, 0): the key changes nothing."""
    if teams_of(v) is None:
        return (0, 0)
    feeds = usable(card, known(next_opponent(v)), v.min_run)
    helps = any(usable(card, known(s), v.min_run) for s in partner_seats(v))
    return (int(feeds), int(not helps))
