"""Property tests over random legal play, for 2 to 8 players and every table option — about
half the games with every house rule of RULES.md §11 on (jokers, "Rummy!" calls and, where
the number of players allows, partnerships)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rum500 import cards as C
from rum500.rules import Game, IllegalMove, Options, Phase

TEAMS = {4: [2], 6: [2, 3]}  # RULES.md §11.3


@st.composite
def games_st(draw) -> tuple[int, int, Options]:
    players = draw(st.integers(2, 8))
    house = draw(st.booleans())  # every house rule on
    teams = draw(st.sampled_from([0] + TEAMS.get(players, [])))
    options = Options(
        target=draw(st.sampled_from([100, 300, 500])),
        decks=draw(st.sampled_from([None, 2])),
        top_card_free=draw(st.booleans()),
        must_discard=draw(st.booleans()),
        empty_stock=draw(st.sampled_from(["play_on", "reshuffle", "end"])),
        jokers=house or draw(st.booleans()),
        rummy_calls=house or draw(st.booleans()),
        teams=max(TEAMS.get(players, [0])) if house and not teams else teams,
        ace_always_15=draw(st.booleans()),
        runs_of_four=draw(st.booleans()),  # RULES.md §12.6
        dug_card_new_meld=draw(st.booleans()),  # RULES.md §12.2
        first_meld=draw(st.sampled_from([0, 0, 30, 50])),  # RULES.md §12.1
    )
    # RULES.md §12.3, §12.4 (the joker as its card only with jokers on)
    options = replace(
        options,
        five_point_pips=draw(st.booleans()),
        joker_as_card=options.jokers and draw(st.booleans()),
    )
    return players, draw(st.integers(0, 2**32)), options


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS_PER_HAND = 3000


def all_cards(g: Game) -> Counter:
    """Every card where it lies; a joker on the table counts as a joker (JK)."""
    cards = [c for h in g.hands for c in h] + g.stock + g.pile
    for m in g.melds:
        d = m.to_dict()
        cards += C.parse_many(d["cards"])
    return Counter(cards)


def full_deck(decks: int, jokers: bool) -> Counter:
    """52 cards per deck and, with jokers, two jokers per deck (RULES.md §1, §11.1)."""
    cards = Counter({card: decks for card in range(52)})
    if jokers:
        cards[C.parse("JK")] = 2 * decks
    return cards


def moves(g: Game) -> list[tuple[int | None, dict]]:
    """Every legal (seat, action): the seat to move's, and in a claim phase every call."""
    out: list[tuple[int | None, dict]] = [(None, a) for a in g.legal_actions()]
    if g.phase is Phase.CLAIM:
        out += [(s, a) for s in range(g.players) for a in g.claims(s)]
    return out


def play(g: Game, rng: random.Random, hands: int, each=None) -> None:
    """Random legal play for ``hands`` hands (or to the end of the match)."""
    steps = 0
    while g.phase is not Phase.GAME_OVER and len(g.results) < hands:
        seat, action = rng.choice(moves(g))
        before = len(g.results)
        g.apply(action, seat=seat)
        steps += 1
        if each:
            each(g, action)
        if len(g.results) > before:
            steps = 0
        assert steps < MAX_ACTIONS_PER_HAND, "a hand did not end"


@SETTINGS
@given(games_st())
def test_no_card_is_created_or_lost(params):
    players, seed, options = params
    g = Game(players, seed, options)
    full = full_deck(g.decks, options.jokers)
    assert (
        sum(full.values())
        == {(1, False): 52, (2, False): 104, (1, True): 54, (2, True): 108}[
            (g.decks, options.jokers)
        ]
    )
    play(g, random.Random(seed), 2, lambda g, a: all_cards(g) == full or pytest_fail(a))
    assert all_cards(g) == full


def pytest_fail(action):
    raise AssertionError(f"cards changed after {action}")


def shuffle_hidden(g: Game, seat: int, rng: random.Random) -> Game:
    """The same position, with every card ``seat`` cannot see dealt differently."""
    d = g.to_dict()
    hidden = [c for s, h in enumerate(d["hands"]) if s != seat for c in h] + d["stock"]
    rng.shuffle(hidden)
    for s, h in enumerate(d["hands"]):
        if s != seat:
            d["hands"][s], hidden = hidden[: len(h)], hidden[len(h) :]
    d["stock"] = hidden
    return Game.from_dict(d)


@SETTINGS
@given(games_st())
def test_a_view_never_shows_hidden_cards(params):
    """A seat's view is the same whatever the cards it cannot see: no other seat's hand, no
    stock order, leaks into it (nor into the spectator's view)."""
    players, seed, options = params
    g = Game(players, seed, options)
    rng = random.Random(seed)

    def check(g: Game, _action) -> None:
        if g.phase not in (Phase.DRAW, Phase.PLAY, Phase.CLAIM):
            return
        seat = rng.randrange(players)
        assert shuffle_hidden(g, seat, rng).view(seat) == g.view(seat)
        spectator = g.view(None)
        assert spectator["hand"] is None and spectator["legal_actions"] == []
        assert shuffle_hidden(g, seat, rng).view(None) == spectator

    play(g, rng, 2, check)


# Card points written out from RULES.md §2, independently of rum500.cards: an ace 15 (1 only
# low in a run), K Q J 10 ten, 2…9 face value.
# A joker scores 15 wherever it is (§11.1); with "ace always 15" (§11.4) a low ace too.
RULES_POINTS = {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10}


def rules_points(card: str, low_ace: bool = False, pips: bool = False) -> int:
    if card == "JK":
        return 15
    rank = card[:-1]
    if rank == "A" and low_ace:
        return 5 if pips else 1  # §12.3: a low ace scores 5 with five-point pips
    if pips and rank in "23456789":
        return 5  # §12.3
    return RULES_POINTS.get(rank) or int(rank)


def rules_table_points(
    melds: list[dict], players: int, options: Options | None = None
) -> list[int]:
    """Each seat's points on the table: every card it put there, a run's low ace 1 (§11.4:
    15 with "ace always 15"), 2 … 9 and a low ace 5 with five-point pips (§12.3), a joker 15
    or (§12.4) the card it stands for."""
    o = options or Options()
    pts = [0] * players
    for m in melds:
        stands = m.get("stands_for") or [None] * len(m["cards"])
        for i, (card, seat) in enumerate(zip(m["cards"], m["by"], strict=True)):
            if card == "JK" and o.joker_as_card:
                card = stands[i]
            low = m["kind"] == "run" and i == 0 and card[:-1] == "A" and m["ace"] == "low"
            pts[seat] += rules_points(card, low and not o.ace_always_15, o.five_point_pips)
    return pts


def test_rules_points_follow_the_table_of_rules_2():
    assert [rules_points(c) for c in ["AS", "2H", "9D", "10C", "JS", "QH", "KD"]] == [
        15,
        2,
        9,
        10,
        10,
        10,
        10,
    ]
    assert rules_points("AH", low_ace=True) == 1
    assert rules_points("JK") == 15


@SETTINGS
@given(games_st())
def test_hand_score_is_table_minus_hand(params):
    """Each finished hand scores, per seat, the §2 points of its cards on the table minus those
    left in hand — computed here from RULES.md, not by the engine's own functions."""
    players, seed, options = params
    g = Game(players, seed, options)
    totals = [0] * players

    def check(g: Game, _action) -> None:
        if g.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and len(g.results) > len(check.seen):
            r = g.results[-1]
            check.seen.append(r)
            melds = [m.to_dict() for m in g.melds]
            table = rules_table_points(melds, players, options)
            assert r["table_points"] == table
            for s in range(players):
                held = sum(rules_points(c, pips=options.five_point_pips) for c in r["hands"][s])
                assert r["hand_points"][s] == held
                assert r["scores"][s] == table[s] - held
                totals[s] += r["scores"][s]
            assert r["totals"] == totals == g.totals
            if options.teams:  # partners' scores add up, seats alternating team by team
                team = [
                    sum(totals[s] for s in range(t, players, options.teams))
                    for t in range(options.teams)
                ]
                assert r["team_totals"] == team
            else:
                assert "team_totals" not in r

    check.seen = []
    play(g, random.Random(seed), 3, check)


@SETTINGS
@given(games_st())
def test_save_restore_and_replay_reproduce_every_position(params):
    players, seed, options = params
    g = Game(players, seed, options)
    rng = random.Random(seed)

    def check(g: Game, _action) -> None:
        d = g.to_dict()
        restored = Game.from_dict(d)
        assert restored.to_dict() == d
        # the restored game goes on exactly like the original, random state included
        a, b = g.copy(), restored
        for _ in range(3):
            if a.phase is Phase.GAME_OVER:
                break
            act = rng.choice(a.legal_actions())
            assert a.apply(act) == b.apply(act)
        assert a.to_dict() == b.to_dict()

    play(g, rng, 2, check)
    replayed = Game.replay(players, seed, g.actions, options)
    assert replayed.to_dict() == g.to_dict()


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_a_whole_match_ends(seed):
    g = Game(2, seed, Options(target=200))
    play(g, random.Random(seed), 10**6)
    assert g.phase is Phase.GAME_OVER
    assert g.winner == max(range(2), key=lambda s: g.totals[s])
    assert g.totals[g.winner] >= 200


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(4, 2), (6, 2), (6, 3)]))
def test_a_partnership_match_ends_with_the_best_team_over_the_target(seed, table):
    players, teams = table
    g = Game(players, seed, Options(target=150, teams=teams, jokers=True, rummy_calls=True))
    play(g, random.Random(seed), 10**6)
    assert g.phase is Phase.GAME_OVER
    team_totals = [sum(g.totals[s] for s in range(t, players, teams)) for t in range(teams)]
    best = max(team_totals)
    assert best >= 150 and team_totals.count(best) == 1
    assert team_totals[g.winner % teams] == best


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_st())
def test_every_offered_action_is_accepted(params):
    """Whatever legal_actions() (and, in a claim phase, claims()) offers, apply() accepts —
    every joker name, every call — and the position afterwards is a valid one."""
    players, seed, options = params
    g = Game(players, seed, options)
    rng = random.Random(seed)

    def check(g: Game, _action) -> None:
        if rng.random() < 0.7:
            return  # a sample of the positions: each costs one copy per legal action
        for seat, a in moves(g):
            c = g.copy()
            c.apply(a, seat=seat)
            assert Game.from_dict(c.to_dict()).to_dict() == c.to_dict()

    play(g, rng, 1, check)


# Illegal actions ---------------------------------------------------------------------------


def _key(action: dict) -> object:
    if action.get("type") == "meld" and isinstance(action.get("cards"), list):
        try:
            jokers = action.get("jokers") or []
            return (
                "meld",
                tuple(sorted(C.parse_many(action["cards"]))),
                tuple(sorted(C.parse_many(jokers))) if isinstance(jokers, list) else ("bad",),
            )
        except ValueError:
            return ("bad",)
    return tuple(sorted((k, str(v)) for k, v in action.items()))


def _named_by_the_engine(cand: object) -> bool:
    """A meld, lay-off or call with a joker whose name is left to the engine (§11.1)."""
    if not isinstance(cand, dict):
        return False
    if cand.get("type") == "meld":
        return "JK" in (cand.get("cards") or []) and "jokers" not in cand
    return cand.get("type") in ("layoff", "rummy") and "joker" not in cand


def _candidates(g: Game, rng: random.Random) -> list[object]:
    """Actions of every kind, legal or not, around the position."""
    seat = g.turn
    hand = C.names(g.hands[seat])
    other = C.names(g.hands[(seat + 1) % g.players])
    any_card = [C.name(rng.randrange(52)) for _ in range(3)]
    pool = hand + other + any_card
    melds = [m.id for m in g.melds] + [99, -1, "0", None, True]
    names = [C.name(rng.randrange(52)) for _ in range(2)]
    out: list[object] = [
        {"type": "rummy", "meld": rng.choice(melds)},
        {"type": "rummy", "meld": rng.choice(melds), "seat": rng.randrange(-1, g.players + 1)},
        {"type": "rummy", "meld": rng.choice(melds), "seat": seat, "joker": names[0]},
        {"type": "rummy", "meld": rng.choice(melds), "seat": True},
        {"type": "close_claims"},
        {"type": "meld", "cards": ["JK"] + rng.sample(pool, 2)},
        {"type": "meld", "cards": ["JK"] + rng.sample(pool, 2), "jokers": names[:1]},
        {"type": "meld", "cards": ["JK", "JK"] + rng.sample(pool, 2), "jokers": names},
        {"type": "meld", "cards": ["JK"] + hand[:2], "jokers": "AS"},
        {"type": "meld", "cards": ["JK"] + hand[:2], "jokers": ["JK"]},
        {"type": "layoff", "card": "JK", "meld": rng.choice(melds)},
        {"type": "layoff", "card": "JK", "meld": rng.choice(melds), "joker": names[1]},
        {"type": "layoff", "card": "JK", "meld": rng.choice(melds), "joker": 7},
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard", "index": rng.randrange(-2, len(g.pile) + 2)},
        {"type": "draw", "source": "discard", "index": True},
        {"type": "draw", "source": "discard", "index": "0"},
        {"type": "draw", "source": "sky"},
        {"type": "end_hand"},
        {"type": "deal"},
        {"type": "pass"},
        {"type": 7},
        {"cards": hand},
        [],
        "draw",
        None,
        {"type": "discard", "card": rng.choice(pool)},
        {"type": "discard", "card": "ZZ"},
        {"type": "discard", "card": 12},
        {"type": "discard"},
        {"type": "layoff", "card": rng.choice(pool), "meld": rng.choice(melds)},
        {"type": "meld", "cards": rng.sample(pool, min(len(pool), rng.randint(1, 5)))},
        {"type": "meld", "cards": "AS 2S 3S"},
        {"type": "meld", "cards": ["KS", "AS", "2S"]},
        {"type": "meld", "cards": [None, 3, "AS"]},
        {"type": "meld", "cards": hand[:3] + hand[:1]},
        {"type": "meld", "cards": ["AS"] * 20},
    ]
    return out


@SETTINGS
@given(games_st())
def test_illegal_actions_are_refused_and_change_nothing(params):
    players, seed, options = params
    g = Game(players, seed, options)
    rng = random.Random(seed)
    refused = 0

    def check(g: Game, _action) -> None:
        nonlocal refused
        if g.phase is Phase.GAME_OVER:
            return
        legal = {_key(a) for _, a in moves(g)}
        before = g.to_dict()
        for cand in _candidates(g, rng):
            is_legal = isinstance(cand, dict) and _key(cand) in legal
            if is_legal:
                continue
            try:
                g.apply(cand)
            except IllegalMove as e:
                assert str(e) and e.template.format(**e.params) == str(e)
                assert all(isinstance(v, (str, int)) for v in e.params.values())
                refused += 1
            else:
                # only a joker the engine could name (one card fits) may be accepted unnamed:
                # then the action it records is a legal one, and taking it back restores all
                assert _named_by_the_engine(cand) and _key(g.actions[-1]) in legal, cand
                g.pop()
            assert g.to_dict() == before
        # every legal action from another seat is refused as out of turn (the host's closing
        # of a claim window from any seat)
        wrong = (g.turn + 1) % players
        for a in g.legal_actions()[:3]:
            try:
                g.apply(a, seat=wrong)
            except IllegalMove:
                refused += 1
            else:
                raise AssertionError("accepted an action from the wrong seat")
            assert g.to_dict() == before

    play(g, rng, 1, check)
    assert refused > 0
