"""The end of a hand and of the match: the points on the table and in hand, the totals (per
team with partnerships), the winner or a tie at the target (RULES.md §7, §8, §11.3, §11.4).

:class:`Scoring` is a base of :class:`rum500.rules.game.Game`: ``_end_hand`` scores the hand,
appends its result, and moves the match to ``hand_over`` or ``game_over``. Imports nothing of
the engine above it."""

from __future__ import annotations

from rum500 import cards as C
from rum500.rules.melds import Meld
from rum500.rules.notation import Phase
from rum500.rules.options import Options

#: §12.3: what 2 … 9 score with five-point pips (ranks 1 … 8; the ace is rank 0)
PIP_VALUE = 5


def meld_points(m: Meld, options: Options) -> list[int]:
    """What each card of the meld ``m`` scores for the seat that put it there, under the
    table's ``options`` (RULES.md §2, §11.1, §11.4; §12.3: with five-point pips 2 … 9 and a
    low ace score 5; §12.4: with "joker as its card" a joker scores the card it stands for,
    there — a low ace 1, or 5 with pips). ``m.points`` is the seed game's (a joker 15)."""
    if not (options.five_point_pips or options.joker_as_card or options.ace_always_15):
        return list(m.points)
    wild = m.wild or [False] * len(m.cards)
    low_run = m.kind == "run" and m.lo == 0  # its ace sits low
    out = []
    for card, w in zip(m.cards, wild, strict=True):
        if w and not options.joker_as_card:
            out.append(C.JOKER_VALUE)
            continue
        r = C.rank(card)
        if r == C.ACE:
            if low_run and not options.ace_always_15:
                out.append(PIP_VALUE if options.five_point_pips else C.LOW_ACE_VALUE)
            else:
                out.append(C.VALUES[card])
        elif options.five_point_pips and C.VALUES[card] < 10:
            out.append(PIP_VALUE)
        else:
            out.append(C.VALUES[card])
    return out


#: per card (the joker last): what it costs left in hand with five-point pips (§12.3)
PIP_VALUES = tuple(PIP_VALUE if v < 10 else v for v in C.VALUES)


def hand_values(options: Options) -> tuple[int, ...]:
    """Per card (the joker last): what it costs left in hand at a table with ``options`` —
    :data:`rum500.cards.VALUES`, or :data:`PIP_VALUES` with five-point pips."""
    return PIP_VALUES if options.five_point_pips else C.VALUES


def hand_cost(hand: list[int], options: Options) -> int:
    """What the cards left in ``hand`` cost at the end of a hand: an ace and a joker 15,
    10 … K 10, 2 … 9 face value — 5 each with five-point pips (RULES.md §2, §12.3)."""
    values = hand_values(options)
    return sum(values[c] for c in hand)


class Scoring:
    """The scoring of a hand and the end of the match (see the module docstring)."""

    players: int
    options: Options
    hands: list[list[int]]
    melds: list[Meld]
    totals: list[int]
    results: list[dict]
    hand_number: int
    dealer: int
    turn: int
    phase: Phase
    winner: int | None
    went_out: int | None
    must_play: int | None
    no_discard: int | None
    claim_from: int | None

    def table_points(self) -> list[int]:
        """Each seat's points on the table this hand (RULES.md §7; §11.4: with "ace always
        15", a low ace too scores 15; §12.3, §12.4: see :func:`meld_points`)."""
        pts = [0] * self.players
        o = self.options
        if o.five_point_pips or o.joker_as_card:
            for m in self.melds:
                for seat, p in zip(m.by, meld_points(m, o), strict=True):
                    pts[seat] += p
            return pts
        if o.ace_always_15:
            for m in self.melds:
                for seat, p in zip(m.by, m.points, strict=True):
                    pts[seat] += C.VALUES[0] if p == C.LOW_ACE_VALUE else p
            return pts
        for m in self.melds:
            by = m.by
            first = by[0]
            if by.count(first) == len(by):  # (the usual meld: one seat put all of it down)
                pts[first] += sum(m.points)
            else:
                for seat, p in zip(by, m.points, strict=True):
                    pts[seat] += p
        return pts

    def hand_points(self) -> list[int]:
        """What each seat's hand costs if the hand ended now (RULES.md §7; see
        :func:`hand_cost`)."""
        return [hand_cost(h, self.options) for h in self.hands]

    def team_totals(self) -> list[int]:
        """With partnerships, each team's total: the sum of its players' (RULES.md §11.3)."""
        return self._by_team(self.totals)

    def _by_team(self, per_seat: list[int]) -> list[int]:
        out = [0] * self.options.teams
        for seat, value in enumerate(per_seat):
            out[self.options.team(seat)] += value
        return out

    def _end_hand(self, reason: str) -> list[dict]:
        table = self.table_points()
        in_hand = self.hand_points()
        scores = [t - h for t, h in zip(table, in_hand, strict=True)]
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        result = {
            "hand": self.hand_number,
            "dealer": self.dealer,
            "reason": reason,
            "went_out": self.went_out,
            "table_points": table,
            "hand_points": in_hand,
            "scores": scores,
            "totals": list(self.totals),
            "hands": [C.names(h) for h in self.hands],
        }
        teams = self.options.teams
        if teams:
            result["team_scores"] = self._by_team(scores)
            result["team_totals"] = self.team_totals()
        self.results.append(result)
        self.must_play = None
        self.no_discard = None
        self.claim_from = None
        events = [{"type": "hand_end", **result}]
        # RULES.md §8 — on team totals with partnerships (§11.3)
        totals = result["team_totals"] if teams else self.totals
        best = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        if best >= self.options.target and len(leaders) == 1:
            over: dict = {"type": "game_over"}
            if teams:
                members = self._members(leaders[0])
                self.winner = members[0]
                over.update(winner=self.winner, team=leaders[0], winners=members)
                over["team_totals"] = list(totals)
            else:
                self.winner = leaders[0]
                over["winner"] = self.winner
            over["totals"] = list(self.totals)
            self.phase = Phase.GAME_OVER
            events.append(over)
        else:
            self.phase = Phase.HAND_OVER
            self.turn = (self.dealer + 1) % self.players  # the next dealer deals
            if best >= self.options.target:
                if teams:
                    seats = sorted(s for t in leaders for s in self._members(t))
                    events.append({"type": "tie", "seats": seats, "teams": leaders, "total": best})
                else:
                    events.append({"type": "tie", "seats": leaders, "total": best})
        return events

    def _members(self, team: int) -> list[int]:
        return [s for s in range(self.players) if self.options.team(s) == team]
