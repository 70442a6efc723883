"""Issue 25 §2: the plain mode's typed commands play exactly the moves they name — through the
same moves as the keys (rum500.tui.moves) against a real Game in the test process — and the
spoken voice of the narrator (rum500.narrate.SPOKEN)."""

from __future__ import annotations

import asyncio

import pytest

from rum500 import i18n, narrate
from rum500.bots import make_bot
from rum500.plain import commands, words
from rum500.plain.model import PlainModel
from tests.tui.local import LocalSession


async def settle(m: PlainModel) -> None:
    for _ in range(200):
        await asyncio.sleep(0)
        if not m.busy and not m.settling:
            return


async def a_table(seed: int) -> tuple[LocalSession, PlainModel, list[str], asyncio.Task]:
    session = LocalSession(seed=seed, target=100)
    said: list[str] = []
    m = PlainModel(name="You", out=said.append)
    m.send, m.send_chat = session.act, session.chat
    pump = asyncio.create_task(session.pump(m))
    await settle(m)
    return session, m, said, pump


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_move_typed_as_its_command_sends_that_move(seed: int) -> None:
    """A random player's every move, typed as the line ``command_for`` gives (``draw``,
    ``dig N``, ``take CARD``, ``meld …``, ``lay CARD on N``, ``discard CARD``, ``end``),
    sends exactly that move, until the match ends."""

    async def main() -> set[str]:
        session, m, said, pump = await a_table(seed)
        bot = make_bot("random", seed=seed)
        typed: set[str] = set()
        for _turn in range(2000):
            view = m.tableview.view
            assert view is not None
            if view["winner"] is not None:
                break
            if view["phase"] == "hand_over":
                commands.run(m, "ready")
                await settle(m)
                continue
            action = bot.choose(view)
            line = words.command_for(action, view)
            if action["type"] == "draw" and "index" in action and len(typed) % 2:
                line = f"take {view['discard_pile'][action['index']]}"  # the same, by card
            sent = len(m.sent)
            commands.run(m, line)
            if m.overlay == "confirm":  # end: asked first
                commands.run(m, "yes")
            await settle(m)
            assert m.sent[sent:] == [action], (line, said[-3:])
            typed.add(line.split()[0])
        pump.cancel()
        return typed

    typed = asyncio.run(main())
    assert {"draw", "discard", "meld"} <= typed


def test_a_meld_of_cards_not_held_and_a_lay_off_on_no_meld_are_refused() -> None:
    async def main() -> list[str]:
        session, m, said, pump = await a_table(4)
        commands.run(m, "draw")
        await settle(m)
        hand = m.tableview.hand()
        missing = next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in hand)
        for line in (f"meld {hand[0]} {hand[1]} {missing}", f"lay {hand[0]} on 77", "lay"):
            commands.run(m, line)
        await settle(m)
        assert m.sent == [{"type": "draw", "source": "stock"}]
        assert m.tableview.hand() == hand and not m.selection.selected
        pump.cancel()
        return said[-3:]

    said = asyncio.run(main())
    assert said[0].startswith("You do not hold ")
    assert said[1] == "There is no meld 77: no meld is on the table yet."
    assert said[2].startswith("lay CARD on N")


def test_the_spoken_voice() -> None:
    names = ["Ann", "Bob"]
    take = {"type": "draw", "seat": 1, "source": "discard", "cards": ["9H", "10H", "JH"]}
    assert narrate.narrate(take, names, narrate.SPOKEN) == [
        "Bob takes 9 of hearts and 2 cards above it from the discard pile."
    ]
    meld = {"type": "meld", "seat": 0, "cards": ["AS", "JK", "3S"], "jokers": ["2S"]}
    assert narrate.narrate(meld, names, narrate.SPOKEN) == [
        "Ann melds ace of spades, joker as 2 of spades, 3 of spades."
    ]
    i18n.set_language("ru")
    assert narrate.narrate(take, names, narrate.SPOKEN) == [
        "Bob берёт из сброса: девятка червей и 2 карты над ней."
    ]
    assert narrate.spoken_card("QD") == "дама бубен"
    # the other voices are as they were
    i18n.set_language("en")
    assert narrate.plain(take, names) == (
        "Bob takes 9H and the 2 cards above it from the discard pile"
    )


def test_the_rummy_window_is_announced_counted_down_and_called() -> None:
    """A discard open for calls that this seat can call: said with its seconds, counted
    down aloud at 5, 2 and 1 seconds left (not each second), and ``call`` sends the call."""
    from rum500.rules import Game

    game = Game(2, seed=3)
    view = game.view(0)
    view.update(
        phase="claim",
        turn=1,
        melds=[{"id": 0, "kind": "set", "cards": ["9S", "9D", "9C"], "owner": 1, "by": [1]}],
        claim={"card": "9H", "from": 1, "seconds_left": 6.0, "on": 4},
        legal_actions=[{"type": "rummy", "meld": 0}, {"type": "pass"}],
    )
    said: list[str] = []
    sent: list[dict] = []
    m = PlainModel(name="Ann", out=said.append)
    now = [100.0]
    m.claim.clock = lambda: now[0]
    m._submit = sent.append  # type: ignore[method-assign]  # what would leave
    m.apply_message({"type": "welcome", "seat": 0, "table": "t"})
    m.apply_message({"type": "lobby", "seats": [{"name": "Ann"}, {"name": "Bob"}]})
    m.apply_message({"type": "state", "view": view, "events": []})
    assert said[-1] == "Bob discarded 9 of hearts: type call for Rummy!, or pass. 6 seconds."
    counted = []
    for t in (100.5, 101.2, 102.1, 103.0, 104.5, 105.2, 105.9):
        now[0] = t
        before = len(said)
        m.tick()
        counted += said[before:]
    assert counted == [
        "5 seconds left to call Rummy!",
        "2 seconds left to call Rummy!",
        "1 second left to call Rummy!",
    ]
    commands.run(m, "call")
    assert sent == [{"type": "rummy", "meld": 0, "on": 4}]


def test_the_pile_is_said_with_each_number_apart_from_its_card() -> None:
    """``pile`` numbers the cards as ``dig N`` takes them, each number followed by a colon so
    that "2, 3 of diamonds" is never heard as "2 3 of diamonds"."""

    async def main() -> tuple[list[str], list[str]]:
        session, m, said, pump = await a_table(3)
        pile = list(reversed(m.tableview.pile()))
        commands.run(m, "pile")
        await settle(m)
        pump.cancel()
        return pile, said

    pile, said = asyncio.run(main())
    line = said[-1]
    assert pile, "the upcard is on the pile"
    expected = "; ".join(f"{k}: {narrate.spoken_card(c)}" for k, c in enumerate(pile, start=1))
    assert line.endswith(f"from the top: {expected}."), line


def test_a_refusal_lists_its_cards_in_words_with_commas() -> None:
    """Heard, not seen: the cards of a refusal are a list a listener can follow."""
    from rum500.rules.melds import IllegalMove
    from rum500.tui import describe

    e = IllegalMove("{cards} is not a meld: {reason}", cards="3S 5S 9S", reason="not a run")
    describe.speak_cards(True)
    try:
        said = describe.refusal(str(e), e.template, e.params)
    finally:
        describe.speak_cards(False)
    assert said.startswith("3 of spades, 5 of spades, 9 of spades is not a meld"), said
    assert describe.refusal(str(e), e.template, e.params).startswith("3♠ 5♠ 9♠ is not a meld")


def test_a_lay_off_on_a_meld_number_not_on_the_table_names_the_numbers_there() -> None:
    """Melds are numbered from 1 for people (as table and the log say them; id 0 on the
    wire is meld 1): a number not on the table is answered with the numbers that are, and a
    number that is lays off on that meld."""
    from rum500.rules import Game

    said: list[str] = []
    m = PlainModel(name="You", out=said.append)
    m.sent = []
    m.send = lambda a: m.sent.append(a)  # type: ignore[method-assign]
    view = Game(2, seed=1).view(0)
    view["hand"] = ["6D", "9C", "KS"]
    view["phase"], view["turn"] = "play", 0
    view["melds"] = [
        {"id": 0, "kind": "run", "cards": ["3D", "4D", "5D"], "by": [1, 1, 1], "owner": 1},
        {"id": 1, "kind": "set", "cards": ["QH", "QS", "QC"], "by": [1, 1, 1], "owner": 1},
    ]
    view["legal_actions"] = [{"type": "layoff", "card": "6D", "meld": 0}] + [
        {"type": "discard", "card": c} for c in view["hand"]
    ]
    m.apply_message({"type": "welcome", "seat": 0})
    m.apply_message({"type": "state", "view": view, "events": []})
    commands.run(m, "lay 6D on 3")
    assert said[-1] == "There is no meld 3 on the table: its melds are 1, 2 (table lists them)."
    commands.run(m, "lay 6D on 0")
    assert said[-1] == "There is no meld 0 on the table: its melds are 1, 2 (table lists them)."
    assert m.sent == []
    assert words.table_text(m.tableview)[:2] == [
        "Meld 1, Seat 2's: 3 of diamonds, 4 of diamonds, 5 of diamonds.",
        "Meld 2, Seat 2's: queen of hearts, queen of spades, queen of clubs.",
    ]
    m.spawn = lambda job: job.close()  # type: ignore[method-assign] # (no link: not sent on)
    commands.run(m, "lay 6D on 1")
    assert m.sent == [{"type": "layoff", "card": "6D", "meld": 0}]
