"""A client's check of each deal (docs/protocol.md §17, docs/rules.md "A deal nobody can
stack"): what the client saw of a hand — the commitment before the deal, its own
contribution, its own hand as dealt, the upcard, every card it drew from the stock, the
final layout of the review — against the hand replayed from the host's ``reveal`` (the
secret, the contributions, the hand's actions) by the engine itself.

:class:`DealChecker` holds no socket: :class:`rum500.client.RumClient` feeds it the
``commit``, ``state`` and ``reveal`` messages and sends the ``contribute`` it returns. A
verdict is a map ``{"hand", "ok", "reason", "text"}``: ``reason`` is one of
:data:`REASONS`' keys and ``text`` its English sentence (marked for translation: the
screen says it in its player's language)."""

from __future__ import annotations

import secrets
from collections import Counter

from rum500 import cards as C
from rum500.i18n import N_
from rum500.rules import Game, IllegalMove, Options, Phase
from rum500.rules.shuffle import check_deal, commitment, is_hex32

#: every verdict, by its reason
REASONS = {
    "checked": N_("Deal checked: it follows from the commitment and every contribution."),
    "wrong_secret": N_("DEAL NOT CHECKED: the host's secret does not match its commitment."),
    "contribution_missing": N_("DEAL NOT CHECKED: your contribution was not used in the deal."),
    "order_differs": N_("DEAL NOT CHECKED: the cards differ from the committed deal."),
    "no_commitment": N_("Deal not checked: no commitment was seen before this deal."),
    "not_committed": N_("Deal not committed: this table deals from its own seed."),
}
MAX_KEPT = 64  # hands remembered (a long match does not grow the checker without bound)


class DealChecker:
    """What one client saw of each hand, and the verdicts (see the module docstring)."""

    def __init__(self) -> None:
        self.commitments: dict[int, str] = {}  # hand -> the commitment seen before its deal
        self.mine: dict[int, str] = {}  # hand -> the contribution this client sent
        self.seen: dict[int, dict] = {}  # hand -> dealt hand, upcard, stock draws
        self.verdicts: dict[int, dict] = {}
        self._dealt: set[int] = set()  # hands whose deal this client saw happen

    # -- before the deal
    def on_commit(self, msg: dict, seat: int | None) -> dict | None:
        """A ``commit``: remember it; the ``contribute`` to send (None: a spectator, or a
        malformed or late commitment)."""
        hand, value = msg.get("hand"), msg.get("commitment")
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1 or not is_hex32(value):
            return None
        if hand in self._dealt:
            return None  # a commitment after its deal means nothing
        again = self.commitments.get(hand) == value  # the same one, sent again (a rejoin)
        self.commitments[hand] = value  # type: ignore[assignment]
        _trim(self.commitments)
        if seat is None:
            return None
        if not again or hand not in self.mine:
            self.mine[hand] = secrets.token_hex(32)
            _trim(self.mine)
        mine = self.mine[hand]
        return {"type": "contribute", "hand": hand, "commitment": value, "contribution": mine}

    # -- during the hand
    def on_state(self, before: dict | None, view: dict, events: list) -> None:
        """A ``state`` (``before``: the view held until now): note the deal, the dealt hand,
        the upcard and this seat's draws from the stock."""
        seat = view.get("seat")
        for event in events:
            if not isinstance(event, dict):
                continue
            if event.get("type") == "deal" and isinstance(event.get("hand"), int):
                hand = event["hand"]
                self._dealt.add(hand)
                self.seen[hand] = {"upcard": event.get("upcard"), "dealt": None, "draws": []}
                _trim(self.seen)
                if view.get("hand_number") == hand and isinstance(view.get("hand"), list):
                    self.seen[hand]["dealt"] = list(view["hand"])
            elif (
                event.get("type") == "draw"
                and event.get("source") == "stock"
                and event.get("seat") == seat
                and seat is not None
            ):
                record = self.seen.get(view.get("hand_number"))  # type: ignore[arg-type]
                new = Counter(view.get("hand") or []) - Counter((before or {}).get("hand") or [])
                if record is not None and sum(new.values()) == 1:
                    record["draws"].append(next(iter(new)))

    # -- at the hand's end
    def on_reveal(self, msg: dict, view: dict | None) -> dict:
        """A ``reveal``: the verdict on its hand (also kept in :attr:`verdicts`)."""
        hand = msg.get("hand")
        verdict = self._judge(msg, view or {})
        out = {
            "hand": hand,
            "ok": verdict == "checked",
            "reason": verdict,
            "text": REASONS[verdict],
        }
        if isinstance(hand, int):
            self.verdicts[hand] = out
            _trim(self.verdicts)
        return out

    def _judge(self, msg: dict, view: dict) -> str:
        hand, deal = msg.get("hand"), msg.get("deal")
        if deal is None:
            return "not_committed"
        if not isinstance(hand, int) or not isinstance(deal, dict):
            return "order_differs"
        seen_commitment = self.commitments.get(hand)
        if seen_commitment is None:
            return "no_commitment"
        secret = deal.get("secret")
        if not is_hex32(secret) or commitment(secret) != seen_commitment:  # type: ignore[arg-type]
            return "wrong_secret"
        if deal.get("commitment") != seen_commitment:
            return "wrong_secret"
        seat = view.get("seat")
        given = deal.get("contributions")
        mine = self.mine.get(hand)
        if isinstance(seat, int):  # a seated player: its own contribution must be in
            if not isinstance(given, list) or seat >= len(given) or given[seat] is None:
                return "contribution_missing"
            if given[seat] != mine:
                return "contribution_missing"
        if check_deal(deal, view.get("players", -1)) is not None:
            return "order_differs"
        try:
            game = replay_hand(view, msg)
        except (IllegalMove, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return "order_differs"
        return "checked" if self._agrees(game, hand, view, msg) else "order_differs"

    def _agrees(self, game: Game, hand: int, view: dict, msg: dict) -> bool:
        """What this client saw of ``hand`` is what the replayed ``game`` did."""
        dealt, draws = game.dealt_view, game.my_draws  # type: ignore[attr-defined]
        seen = self.seen.get(hand)
        if seen is not None:
            if seen["upcard"] is not None and seen["upcard"] != dealt["upcard"]:
                return False
            if seen["dealt"] is not None and Counter(seen["dealt"]) != Counter(dealt["hand"]):
                return False
            mine = seen["draws"]
            if mine and (mine != draws[-len(mine) :] if seen["dealt"] is None else mine != draws):
                return False
        last = view.get("last_hand") or {}
        if last.get("hand") == hand:
            result = game.results[-1]
            if [Counter(h) for h in last.get("hands") or []] != [
                Counter(h) for h in result["hands"]
            ]:
                return False
            if list(last.get("scores") or []) != list(result["scores"]):
                return False
        return True


def replay_hand(view: dict, msg: dict) -> Game:
    """The hand of the ``reveal`` ``msg`` played again by the engine, from before its deal:
    the table's players and options (``view``), the hand's dealer and the totals before it,
    its committed deal, then its actions. The game returned also has ``dealt_view`` (the
    seat's hand as dealt and the upcard) and ``my_draws`` (the cards that seat drew from the
    stock, in order)."""
    players = int(view["players"])
    seat = view.get("seat")
    game = Game(players, 0, Options.from_dict(view["options"]))
    hand, dealer = int(msg["hand"]), int(msg["dealer"])
    if not 0 <= dealer < players or hand < 1:
        raise ValueError("no such dealer or hand")
    totals = [int(t) for t in msg["totals"]]
    if len(totals) != players:
        raise ValueError("one total per seat")
    deal = {"type": "deal", **msg["deal"]}
    game.totals = totals
    if hand == 1:
        game.dealer = dealer
    else:
        game.phase, game.hand_number = Phase.HAND_OVER, hand - 1
        game.dealer, game.turn = (dealer - 1) % players, dealer
    game._legal = game._legal_dicts = None
    game.apply(deal)
    pile0 = C.name(game.pile[0])
    mine = C.names(game.hands[seat]) if isinstance(seat, int) else []
    draws: list[str] = []
    actions = msg["actions"]
    if not isinstance(actions, list):
        raise ValueError("the actions are a list")
    for action in actions:
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            raise ValueError("actions after the hand's end")
        by = game.turn
        game.apply(action)
        if (
            isinstance(action, dict)
            and action.get("type") == "draw"
            and action.get("source") == "stock"
            and by == seat
        ):
            draws.append(C.name(game.hands[by][-1]))
    if game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or game.hand_number != hand:
        raise ValueError("the actions do not end the hand")
    game.dealt_view = {"hand": mine, "upcard": pile0}  # type: ignore[attr-defined]
    game.my_draws = draws  # type: ignore[attr-defined]
    return game


def _trim(d: dict) -> None:
    while len(d) > MAX_KEPT:
        del d[min(d)]
