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
        15", a low ace too scores 15)."""
        pts = [0] * self.players
        ace15 = self.options.ace_always_15
        for m in self.melds:
            for seat, p in zip(m.by, m.points, strict=True):
                pts[seat] += C.VALUES[0] if ace15 and p == C.LOW_ACE_VALUE else p
        return pts

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
        in_hand = [C.hand_points(h) for h in self.hands]
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
