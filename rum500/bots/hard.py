"""The ``hard`` bot: plays by expected score, from everything its seat has seen.

* It counts the cards it has not seen (the discard pile and the table are public), less
  the cards each opponent is known to hold (taken from the pile, not played since).
* A card left in hand is worth ``(2P - 1) × value`` at the end of the hand, where ``P`` is
  the chance of putting it down before the hand ends: from its outs (the unseen cards that
  would make it a meld, or let it go on a table meld) and the draws left — fewer when the
  stock is short or an opponent is close to going out.
* Draw: the stock is valued as the average over every card it could bring, each dig by the
  plan it allows; the best expectation wins.
* Play: lays down the plan that sheds the most, but holds back a meld that would let an
  opponent lay off cards it is known to hold, while nobody is close to going out.
* Discard: the card whose loss costs least, plus the risk of feeding an opponent — the
  chance that the card, on top of the pile, lets it dig for something (the card itself, or
  a deeper card it helps to meld), estimated by Monte Carlo over the hands that opponent
  may hold (its known cards plus unseen cards at random, rejecting hands that could have
  used what it passed over); the next player counts fully, the others half. The pile stays
  open, so a hand that cannot dig now counts by its chance of drawing, in the draws left,
  a card that melds the discard with its cards and the pile's: while the stock is long a
  card that goes with one in the pile is thrown only when it costs far more to keep.
* With partners (rum500/bots/teams.py): a partner is no feeding risk; a discard a partner is
  known to be able to use gains what a far opponent's use would cost; a meld is not held back
  for a partner's lay-offs; going out counts the partner's cards caught in hand against it.
"""

from __future__ import annotations

from rum500 import cards as C
from rum500.bots.base import PlanningBot, dig, discard, draw_stock
from rum500.bots.hands import Plan, diggable, feeds, fits, held_masks, outs, plan
from rum500.bots.medium import dug_plan
from rum500.bots.seat import SeatView
from rum500.bots.teams import is_partner, partner_seats, usable
from rum500.rules.melds import layoff_position, make_meld
from rum500.rules.scoring import hand_cost

#: Sampled hands of the next player per discard decision.
SAMPLES = 40
#: How much the players after the next one count in the feeding risk (they come later).
FAR_WEIGHT = 0.5
#: Re-draws of a sampled hand that could have used a card its player passed over.
REJECT_TRIES = 3
#: Average points an opponent still holds per card when a hand ends.
POINTS_PER_CARD = 6.0
#: What the next player gains when it can use a discard: it sheds and scores the card and
#: the two it melds it with, so about twice the card and twice its partners.
FEED_WEIGHT = 2.0
FEED_BONUS = 30.0
#: Chance of putting down a card whose missing partner lies in the discard pile.
PILE_OUT_CHANCE = 0.7
#: Draws an opponent needs per card in hand before it can go out (a rough pace).
OUT_PACE = 1.0
#: Holding melds back only while every opponent holds at least this many cards.
HOLD_MIN_CARDS = 6


class HardBot(PlanningBot):
    level = "hard"
    #: Count in the feeding risk the digs a discard allows later, not only on the next turn
    #: (:meth:`feed_chance`).
    later_feed = True

    # ------------------------------------------------------------------ knowledge

    def stock_unseen(self, v: SeatView) -> list[int]:
        """Unseen copies of each card that may still be in the stock."""
        unseen = v.unseen()
        for seat in range(v.players):
            if seat == v.seat:
                continue
            for c in self.known(v, seat):
                unseen[c] -= 1
        return unseen

    def known(self, v: SeatView, seat: int) -> list[int]:
        """Cards ``seat`` is known to hold (dropping any memory the view contradicts)."""
        unseen = v.unseen()
        out = []
        for c in self.tracker.known_cards(seat):
            if unseen[c] > 0:
                unseen[c] -= 1
                out.append(c)
        return out[: v.hand_sizes[seat]]

    def draws_left(self, v: SeatView) -> float:
        """How many more draws this seat can expect after the current one."""
        stock_turns = v.stock / v.players
        others = [n for s, n in enumerate(v.hand_sizes) if s != v.seat]
        out_turns = 1 + min(others) * OUT_PACE if others else stock_turns
        return max(0.0, min(stock_turns, out_turns))

    # ------------------------------------------------------------------ valuation

    def keep_value(
        self, card: int, rest: list[int], v: SeatView, unseen: list[int], total: int, turns: float
    ) -> float:
        """Expected end-of-hand worth of keeping ``card`` in hand (a joker: it will go down).
        Face values also with five-point pips (RULES.md §12.3): valued at 5 the hard bot won
        fewer matches against medium (120 matches each way under load: 72.5% vs 79.2%), so
        the face value stays its measure of a card."""
        value = C.VALUES[card]
        if card >= C.DECK_SIZE:
            return value
        if turns <= 0 or total <= 0:
            return -value
        n = len(outs(card, rest, unseen, v.melds, v.min_run))
        p = 1.0 - (1.0 - min(1.0, n / total)) ** turns
        if p < PILE_OUT_CHANCE and outs(card, rest, self.pile_counts(v), v.melds, v.min_run):
            p = PILE_OUT_CHANCE  # what it needs lies in the discard pile: dig for it
        return (2 * p - 1) * value

    def pile_counts(self, v: SeatView) -> list[int]:
        counts = [0] * (C.DECK_SIZE + 1)
        for c in v.pile:
            counts[c] += 1
        return counts

    def leftover_value(
        self, dead: list[int], v: SeatView, unseen: list[int], total: int, turns: float
    ) -> float:
        """Worth of the cards a plan leaves in hand, after discarding the worst of them."""
        if not dead:
            return self.out_bonus(v)
        worths = []
        for i, c in enumerate(dead):
            rest = dead[:i] + dead[i + 1 :]
            worths.append(self.keep_value(c, rest, v, unseen, total, turns))
        if len(dead) == 1:
            return self.out_bonus(v)
        return sum(worths) - min(worths)

    def out_bonus(self, v: SeatView) -> float:
        """Going out ends the hand: what the others are caught holding, shared among them
        (with partners, what a partner is caught holding counts against the team)."""
        mates = set(partner_seats(v))
        others = [n for s, n in enumerate(v.hand_sizes) if s != v.seat and s not in mates]
        caught = sum(others) - sum(v.hand_sizes[s] for s in mates)
        return POINTS_PER_CARD * caught / max(1, len(others) + len(mates))

    def state_value(self, p: Plan, v: SeatView, unseen: list[int], turns: float) -> float:
        total = sum(unseen)
        return p.table_points + self.leftover_value(p.dead, v, unseen, total, turns)

    # ------------------------------------------------------------------ draw

    def draw(self, v: SeatView) -> dict:
        options = self.draw_scores(v)
        if not options:
            return self._fallback(v)
        return max(options, key=lambda o: o[0])[1]

    def draw_scores(self, v: SeatView) -> list[tuple[float, dict]]:
        """The stock (its expected worth over the unseen cards), each dig that can place its
        card, and ending the hand, each with its worth, in that order."""
        unseen = self.stock_unseen(v)
        total = sum(unseen)
        turns = self.draws_left(v)
        options: list[tuple[float, dict]] = []
        if v.stock and total > 0:
            ev = 0.0
            for x in range(len(unseen)):
                n = unseen[x]
                if not n:
                    continue
                unseen[x] -= 1
                p = plan([*v.hand, x], v.melds, v.seat, None, v.min_run)
                ev += n * self.state_value(p, v, unseen, turns)
                unseen[x] += 1
            options.append((ev / total, draw_stock()))
        for a in v.legal:
            if a["type"] == "draw" and a.get("source") == "discard":
                i = a["index"]
                p, _taken, force = dug_plan(v, i)
                if force is not None and not p.places(force):
                    continue
                options.append((self.state_value(p, v, unseen, turns), dig(i)))
            elif a["type"] == "end_hand":
                options.append((-float(hand_cost(v.hand, v.options)), a))
        return options

    # ------------------------------------------------------------------ play

    def placements(self, v: SeatView, p: Plan) -> list[dict]:
        actions = super().placements(v, p)
        if v.must_play is not None or not self.may_hold(v, p):
            return actions
        feeds = self.feeding_melds(v, p)
        return [a for a in actions if a["type"] != "meld" or tuple(a["cards"]) not in feeds]

    def may_hold(self, v: SeatView, p: Plan) -> bool:
        """Holding melds is only worth the risk while nobody is close to going out, the stock
        is long, and this seat is not going out itself."""
        others = [n for s, n in enumerate(v.hand_sizes) if s != v.seat]
        return (
            len(p.dead) > 1
            and min(others, default=0) >= HOLD_MIN_CARDS
            and v.stock >= 2 * v.players
        )

    def feeding_melds(self, v: SeatView, p: Plan) -> set[tuple[str, ...]]:
        """The plan's melds on which an opponent could lay off a card it is known to hold."""
        held = [
            c
            for s in range(v.players)
            if s != v.seat and not is_partner(v, s)  # a partner's lay-off scores for the team
            for c in self.known(v, s)
            if c < C.DECK_SIZE
        ]
        out: set[tuple[str, ...]] = set()
        if not held:
            return out
        for cards in p.melds:
            m = make_meld(-1, cards, v.seat)
            if any(layoff_position(m, c) is not None for c in held):
                out.add(tuple(C.names(cards)))
        return out

    # ------------------------------------------------------------------ discard

    def sample_hands(self, v: SeatView, seat: int, count: int = SAMPLES) -> list[list[int]]:
        """Hands ``seat`` may hold: its known cards plus unseen cards at random, re-drawn
        (a few times) when they could have used a card it passed over."""
        known = self.known(v, seat)
        pool: list[int] = []
        for c, n in enumerate(self.stock_unseen(v)):
            pool += [c] * n
        need = min(len(pool), max(0, v.hand_sizes[seat] - len(known)))
        passed = self.tracker.avoided(seat)
        out = []
        for _ in range(count):
            hand = known + self.rng.sample(pool, need)
            for _try in range(REJECT_TRIES):
                if not any(fits(c, hand, [], v.min_run) for c in passed):
                    break
                hand = known + self.rng.sample(pool, need)
            out.append(hand)
        return out

    def feed_chance(self, v: SeatView, cards: list[int]) -> dict[int, float]:
        """For each card, the chance that discarding it lets an opponent dig for a card it
        could not have dug for otherwise: the card itself, or a deeper one that the card
        (taken along with it) helps to meld. The next player has the first go; the others
        count for ``FAR_WEIGHT`` (the card may be gone or buried by then).

        A discard stays in the pile, and the pile stays open: with :attr:`later_feed`, a hand
        that cannot dig now digs later when it draws a card that melds the discard with its
        cards and the pile's — the chance of drawing one of those outs in the draws left
        (:meth:`draws_left`), as :meth:`keep_value` counts this seat's own."""
        miss = dict.fromkeys(cards, 1.0)
        #: a card's outs by what the hand and the pile hold of its rank and its suit
        outs_of: dict[tuple[int, int, int], int] = {}
        unseen = self.stock_unseen(v)
        total = sum(unseen)
        turns = self.draws_left(v) if self.later_feed and total else 0.0
        for k in range(1, v.players):
            seat = (v.seat + k) % v.players
            weight = 1.0 if k == 1 else FAR_WEIGHT
            if not weight:
                break
            if is_partner(v, seat):
                continue  # a partner who digs for it scores for the team (teams.py)
            hands = self.sample_hands(v, seat, SAMPLES if k == 1 else SAMPLES // 2)
            hits = dict.fromkeys(cards, 0.0)
            for hand in hands:
                before = diggable(hand, v.pile, v.melds, v.min_run, v.new_meld)
                ranks: list[int] | None = None
                for c in cards:
                    if feeds(hand, v.pile, c, before, v.melds, v.min_run, v.new_meld):
                        hits[c] += 1
                    elif turns > 0:
                        if ranks is None:
                            ranks, suits = held_masks(hand, v.pile)
                        # outs() reads of the hand and the pile only the card's rank and suit
                        key = (c, ranks[c % 13] & ~(1 << c // 13), suits[c // 13])
                        n = outs_of.get(key)
                        if n is None:
                            n = outs_of[key] = len(
                                outs(c, hand + v.pile, unseen, v.melds, v.min_run)
                            )
                        hits[c] += 1.0 - (1.0 - min(1.0, n / total)) ** turns
            for c in cards:
                miss[c] *= 1.0 - weight * hits[c] / len(hands)
        return {c: 1.0 - miss[c] for c in cards}

    def discard(self, v: SeatView, p: Plan) -> dict:
        scored = self.discard_scores(v, p)
        if not scored:
            return self._fallback(v)
        return discard(scored[0][1])

    def discard_scores(self, v: SeatView, p: Plan) -> list[tuple[float, int]]:
        """Each card that may be discarded with its worth (what the rest of the hand is worth
        less the feeding risk), best first; one candidate is not valued (score 0)."""
        cands = self.discard_candidates(v, p)
        if len(cands) <= 1:
            return [(0.0, c) for c in cands]
        unseen = self.stock_unseen(v)
        total = sum(unseen)
        turns = self.draws_left(v)
        feed = self.feed_chance(v, cands)
        mates = [self.known(v, s) for s in partner_seats(v)]
        helps = {c: any(usable(c, held, v.min_run) for held in mates) for c in cands}
        hand = list(p.dead) if set(cands) <= set(p.dead) else list(v.hand)
        out: list[tuple[float, int]] = []
        for c in cands:
            rest = list(hand)
            rest.remove(c)
            keep = sum(
                self.keep_value(d, rest[:i] + rest[i + 1 :], v, unseen, total, turns)
                for i, d in enumerate(rest)
            )
            cost = FEED_WEIGHT * C.VALUES[c] + FEED_BONUS
            score = keep - feed[c] * cost
            if helps[c]:  # a partner known to use it gains what an opponent would, if it
                score += (1.0 - feed[c]) * FAR_WEIGHT * cost
            out.append((score, c))
        out.sort(key=lambda o: -o[0])  # stable: equal scores keep the candidates' order
        return out
