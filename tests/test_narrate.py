"""rum500.narrate: one narrator of the public events (docs/protocol.md §8), three voices — the
terminal log (translated, cards as the player draws them), the replay (past tense, one line
per action) and the headless log (plain English, cards as on the wire)."""

from __future__ import annotations

import random

import pytest

from rum500 import i18n
from rum500.narrate import LOG, REPLAY, Voice, narrate, narrate_action, plain, seat_names
from rum500.rules import Game, Options, Phase

NAMES = ["Ann", "Bea", "Cid"]


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def fancy(card: str, stands_for: str | None) -> str:
    """A card writer of our own: the narrator uses whatever it is given."""
    return f"<{card}{'=' + stands_for if stands_for else ''}>"


def test_one_event_in_each_voice() -> None:
    e = {"type": "layoff", "seat": 1, "card": "JK", "joker": "9H", "meld": 2}
    assert narrate(e, NAMES, LOG) == ["Bea lays off JK as 9H."]  # the default card writer
    assert narrate(e, NAMES, LOG.with_cards(fancy)) == ["Bea lays off <JK=9H>."]
    assert narrate(e, NAMES, REPLAY.with_cards(fancy)) == ["Bea laid off <JK=9H> on meld 3"]
    assert plain(e, NAMES) == "Bea lays off JK as 9H on meld 3"


def test_a_meld_with_a_joker_named() -> None:
    e = {"type": "meld", "seat": 0, "meld": 1, "cards": ["7H", "8H", "JK"], "jokers": ["9H"]}
    assert narrate(e, NAMES, LOG.with_cards(fancy)) == ["Ann melds <7H> <8H> <JK=9H>."]
    assert plain(e, NAMES) == "Ann melds 7H 8H JK (the joker as 9H)"


def test_taking_from_the_pile_counts_the_cards_above() -> None:
    def took(n: int) -> dict:
        cards = ["5S", "6S", "7S", "8S"][: n + 1]
        return {"type": "draw", "seat": 2, "source": "discard", "index": 0, "cards": cards}

    assert narrate(took(0), NAMES, REPLAY) == ["Cid took 5S from the discard pile"]
    assert narrate(took(1), NAMES, REPLAY) == ["Cid took 5S and the card above it"]
    assert narrate(took(3), NAMES, REPLAY) == ["Cid took 5S and the 3 cards above it"]
    # the log has one phrase for all three: the keys fall back to "draw.discard"
    assert narrate(took(3), NAMES, LOG) == ["Cid takes 5S 6S 7S 8S from the discard pile."]
    assert plain(took(1), NAMES) == "Cid takes 5S and the 1 card above it from the discard pile"
    assert plain(took(2), NAMES) == "Cid takes 5S and the 2 cards above it from the discard pile"


def test_a_phrase_falls_back_to_the_shorter_key_then_to_silence() -> None:
    voice = Voice({"draw": "{who} draws", "other": "? {event}"}, translated=False)
    assert voice.say("draw.discard.above.one", who="Ann") == "Ann draws"
    assert voice.say("meld") is None
    assert narrate({"type": "meld", "seat": 0, "cards": []}, NAMES, voice) == []
    assert narrate({"type": "odd"}, NAMES, voice) == ["? {'type': 'odd'}"]
    assert narrate({"type": "odd"}, NAMES, LOG) == []  # the log says nothing it cannot name
    assert plain({"type": "odd", "x": 1}, NAMES) == "{'type': 'odd', 'x': 1}"


def test_the_end_of_a_hand() -> None:
    e = {"type": "hand_end", "hand": 3, "went_out": 0, "scores": [40, -5], "totals": [90, 10]}
    assert narrate(e, NAMES, LOG) == ["Ann goes out.", "Hand 3 over: Ann +40, Bea -5."]
    assert plain(e, NAMES) == "hand 3 over: Ann +40, Bea -5; totals Ann 90, Bea 10"
    won = {"type": "game_over", "winner": 1, "totals": [90, 510]}
    assert narrate(won, NAMES, LOG) == ["Bea wins the match with 510!"]
    assert plain({**won, "winners": [1, 2]}, NAMES) == "game over: Bea, Cid win"
    assert narrate({**won, "winners": [1, 2]}, NAMES, LOG) == ["Bea wins the match with 510!"]


def test_the_replay_tells_an_action_in_one_line() -> None:
    events = [
        {"type": "discard", "seat": 0, "card": "7H"},
        {"type": "hand_end", "hand": 4, "went_out": 0, "scores": [1, 2], "totals": [500, 2]},
        {"type": "game_over", "winner": 0, "totals": [500, 2]},
    ]
    line = narrate_action(events, NAMES, REPLAY)
    assert line == "Ann discarded 7H; the hand is over; Ann wins the match"
    assert narrate_action([{"type": "ready", "seat": 0}, *events[1:]], NAMES, REPLAY) == ""


def test_names_from_a_list_or_a_function() -> None:
    name_of = seat_names(NAMES)
    assert [name_of(s) for s in (0, 2, 3, -1, None)] == ["Ann", "Cid", "?", "?", "?"]
    e = {"type": "pass", "seat": 5}
    assert narrate(e, lambda s: f"Seat {s + 1}", LOG) == ["Seat 6 does not call Rummy!"]  # type: ignore[operator]


def test_the_translated_voices_speak_russian_and_the_plain_one_does_not() -> None:
    i18n.set_language("ru")
    e = {"type": "pass", "seat": 0}
    said = narrate(e, NAMES, LOG)[0]
    assert said.startswith("Ann ") and said != "Ann does not call Rummy!"
    taken = {"type": "draw", "seat": 0, "source": "discard", "cards": ["5S", "6S", "7S"]}
    assert "2" in narrate(taken, NAMES, REPLAY)[0]  # the plural form of the catalog
    assert plain(e, NAMES) == "Ann does not call Rummy!"


def test_every_event_of_random_matches_is_told_by_every_voice() -> None:
    """Every event the engine makes, with every house rule, in every voice: a line each in
    the plain voice, never an exception, the replay's line for every action."""
    for seed in range(6):
        options = Options(target=150, jokers=True, rummy_calls=True, teams=2 if seed % 2 else 0)
        game = Game(4, seed, options)
        rng = random.Random(seed)
        while game.to_move is not None:
            if game.phase is Phase.CLAIM:
                calls = [c for s in game.claim_seats() for c in game.claims(s)]
                action, seat = (
                    (calls[0], calls[0]["seat"]) if calls else ({"type": "close_claims"}, None)
                )
            else:
                seat, action = game.to_move, rng.choice(game.legal_actions())
            events = game.apply(action, seat)
            assert narrate_action(events, NAMES + ["Dan"], REPLAY)
            for e in events:
                assert narrate(e, NAMES + ["Dan"], LOG) or e["type"] == "close_claims"
                line = plain(e, NAMES + ["Dan"])
                assert line and not line.startswith("{"), e
