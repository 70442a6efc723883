import pytest

from rum500 import cards as C


def test_every_card_round_trips():
    for card in range(52):
        assert C.parse(C.name(card)) == card
    assert len({C.name(c) for c in range(52)}) == 52


def test_text_form():
    assert C.names(C.parse_many("AS 10H QD 2C")) == ["AS", "10H", "QD", "2C"]
    assert C.parse("th") == C.parse("10H")
    assert C.parse(" ks ") == C.parse("KS")
    assert C.parse_many("AS,2S, 3S") == C.parse_many(["AS", "2S", "3S"])


@pytest.mark.parametrize("bad", ["", "1S", "11H", "AX", "ZZ", "10", "S", "AS2", "  "])
def test_bad_names_are_value_errors(bad):
    with pytest.raises(ValueError, match="not a card"):
        C.parse(bad)


@pytest.mark.parametrize("bad", [None, 3, ["AS"], b"AS"])
def test_non_strings_are_value_errors(bad):
    with pytest.raises(ValueError):
        C.parse(bad)


def test_rule_2_card_values():
    """RULES.md §2: ace 15, K Q J 10 are 10, 2..9 face value."""
    assert C.value(C.parse("AH")) == 15
    for n in ("KS", "QD", "JC", "10H"):
        assert C.value(C.parse(n)) == 10
    for r in range(2, 10):
        assert C.value(C.parse(f"{r}D")) == r
    assert C.hand_points(C.parse_many("AH")) == 15  # §10: A♥ left in hand costs 15


def test_decks():
    assert sorted(C.deck(1)) == list(range(52))
    assert len(C.deck(2)) == 104
