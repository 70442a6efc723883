"""The "Rummy!" claim window at the host (rum500/claims.py, RULES.md §11.2): real hosts on
127.0.0.1 and real :class:`net.client.Client` connections.

Where a test must tell "the window closed early" from "the window timed out", the window's
clock is frozen (``claim_window.clock``), so only the players can close it."""

from __future__ import annotations

import asyncio
import json

import pytest

from net.client import ActionRefused, Client, HandshakeError
from rum500.claims import ClaimWindow, check_window
from rum500.host import HostConfig, start_host
from rum500.rules import Game, IllegalMove, Options, Phase
from tests.host.claim_tables import (
    CALLS,
    KnowsAll,
    claim_position,
    frozen,
    seated,
    view_where,
)
from tests.net.util import synced, wait_for
from tests.rules.positions import position


async def test_every_seat_sees_the_window_and_the_first_valid_call_wins(hosts):
    game = claim_position()
    host, (ann, bea, cid) = await seated(game, 3, claim_window=10.0)
    hosts.append((host, [ann, bea, cid]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    for c in (ann, bea, cid):
        v = await view_where(c, lambda v: v["phase"] == "claim")
        assert v["claim"]["card"] == "7D" and v["claim"]["from"] == 0
        assert v["claim"]["seconds_left"] == 10.0
        assert v["claim"]["waiting"] == [1, 2] and v["claim"]["passed"] == []
    assert bea.view["legal_actions"] == [{"type": "rummy", "seat": 1, "meld": 0}]
    assert ann.view["legal_actions"] == []  # no call on one's own discard
    # both call; the host judges them in the order it receives them
    await bea.act({"type": "rummy", "meld": 0})
    with pytest.raises(ActionRefused, match="Rummy! may only be called on a discard"):
        await cid.act({"type": "rummy", "meld": 0})
    views = [await view_where(c, lambda v: v["phase"] == "draw") for c in (ann, bea, cid)]
    for v in views:
        assert v["melds"][0]["cards"] == ["4D", "5D", "6D", "7D"]
        assert v["table_points"] == [0, 22, 0]  # 4+5+6 and the 7 for the caller
        assert v["turn"] == 1 and v["claim"] is None
    assert game.actions[-1] == {"type": "rummy", "seat": 1, "meld": 0}
    assert sorted(game.hands[1]) == sorted(claim_position().hands[1])  # the caller's hand


async def test_a_call_on_a_card_that_cannot_be_laid_off_is_refused_and_costs_nothing(hosts):
    game = position(
        ["2C 7D 9S", "3H 8C JS", "KH QC 10S"],
        melds=[("4D 5D 6D", 1)],
        phase="play",
        options=CALLS,
    )
    host, players = await seated(game, 3, claim_window=10.0)
    hosts.append((host, players))
    ann, bea, cid = players
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "2C"})
    await view_where(bea, lambda v: v["phase"] == "claim")
    before = game.to_dict()
    with pytest.raises(ActionRefused, match="2C"):
        await bea.act({"type": "rummy", "meld": 0})
    assert game.to_dict() == before and game.phase is Phase.CLAIM
    with pytest.raises(ActionRefused, match="own discard"):
        await ann.act({"type": "rummy", "meld": 0})
    with pytest.raises(ActionRefused, match="host closes the claim window"):
        await bea.act({"type": "close_claims"})
    with pytest.raises(ActionRefused, match="Rummy! may still be called"):
        await bea.act({"type": "draw", "source": "stock"})
    assert game.to_dict() == before
    # the refused caller may still pass; the window closes when both have passed
    await bea.act({"type": "pass"})
    v = await view_where(ann, lambda v: v["claim"] and v["claim"]["passed"] == [1])
    assert v["claim"]["waiting"] == [2] and v["phase"] == "claim"
    await cid.act({"type": "pass"})
    await view_where(bea, lambda v: v["phase"] == "draw" and v["turn"] == 1)
    assert game.actions[-1] == {"type": "close_claims"}


async def test_a_pass_is_for_the_claim_window_only(hosts):
    host, players = await seated(claim_position(), 2, claim_window=10.0)
    hosts.append((host, players))
    ann, bea = players
    with pytest.raises(ActionRefused, match="no discard to pass on"):
        await bea.act({"type": "pass"})
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    await view_where(ann, lambda v: v["phase"] == "claim")
    with pytest.raises(ActionRefused, match="own discard"):
        await ann.act({"type": "pass"})
    await bea.act({"type": "pass"})  # the only other human passed: the window closes
    await view_where(ann, lambda v: v["phase"] == "draw" and v["turn"] == 1)
    with pytest.raises(ActionRefused, match="no discard to pass on"):
        await bea.act({"type": "pass"})


async def test_no_window_without_another_human_and_bots_are_never_held(hosts):
    """Ann alone with two bots: her discard is closed at once (the window's clock is frozen,
    so only that can close it); a bot's discard waits for Ann, who passes."""
    game = claim_position()
    host, (ann,) = await seated(game, 1, claim_window=10.0, bot_delay=0.0)
    hosts.append((host, [ann]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    # the bots of seats 1 and 2 play on: seat 1 draws, plays and discards
    await wait_for(lambda: game.phase is Phase.CLAIM and game.claim_from == 1, 10)
    v = await view_where(ann, lambda v: v["phase"] == "claim" and v["claim"]["from"] == 1)
    assert v["claim"]["waiting"] == [0]
    await synced(ann)
    assert game.phase is Phase.CLAIM and game.claim_from == 1  # it waits for Ann
    await ann.act({"type": "pass"})
    await wait_for(lambda: game.claim_from != 1, 10)
    assert {"type": "close_claims"} in game.actions


async def test_a_table_of_bots_with_calls_and_jokers_plays_a_whole_match():
    options = Options(rummy_calls=True, jokers=True, target=100)
    host = await start_host(
        HostConfig(players=3, bots=3, bot_level="random", seed=5, options=options)
    )
    try:
        host.start_now()
        await asyncio.wait_for(host.finished(), 120)
        assert host.table.game.winner is not None
        assert {"type": "close_claims"} in host.table.game.actions
    finally:
        await host.close()


async def test_the_window_times_out_and_the_host_closes_it(hosts):
    game = claim_position()
    host, players = await seated(game, 2, claim_window=0.5)
    hosts.append((host, players))
    ann, bea = players
    await ann.act({"type": "discard", "card": "7D"})
    await view_where(bea, lambda v: v["phase"] == "draw" and v["turn"] == 1)
    assert game.actions[-1] == {"type": "close_claims"}


# ---------------------------------------------------------------------- the window alone


def test_the_window_length_is_checked():
    assert check_window(3) == 3.0
    for bad in (0.4, 10.5, True, "3", float("nan")):
        with pytest.raises(ValueError):
            check_window(bad)  # type: ignore[arg-type]


def test_a_call_after_the_deadline_is_refused():
    now = [0.0]
    window = ClaimWindow(2.0, clock=lambda: now[0])
    game = claim_position()
    game.apply({"type": "discard", "card": "7D"})
    window.follow(game)
    assert window.open and window.left() == 2.0
    window.check_call()  # in time
    now[0] = 2.0
    with pytest.raises(IllegalMove, match="too late"):
        window.check_call()
    assert window.due(game, [0, 1, 2]) == 0.0
    game.apply({"type": "close_claims"})
    window.follow(game)
    assert not window.open and window.view(game, [1])["seconds_left"] == 0.0


# ---------------------------------------------------------------------- hello's options


class KnowsNoCalls(Client):
    options = [o for o in Options().to_dict() if o != "rummy_calls"]


async def test_a_client_that_does_not_know_an_option_in_force_is_refused_naming_it(make_host):
    host = await make_host(players=2, options=Options(jokers=True, rummy_calls=True))
    with pytest.raises(HandshakeError, match="jokers, rummy_calls") as old:
        await Client.connect(host.address, host.port, name="Old")  # no "options": refused
    assert old.value.code == "options"
    with pytest.raises(HandshakeError, match="rummy_calls") as some:
        await KnowsNoCalls.connect(host.address, host.port, name="Some")
    assert "jokers" not in str(some.value) and some.value.code == "options"
    new = await KnowsAll.connect(host.address, host.port, name="New")
    try:
        assert new.seat == 0 and new.table_info["claim_window"] == 3.0
    finally:
        await new.close()


async def test_an_older_client_still_sits_at_a_table_of_the_seed_options(make_host):
    host = await make_host(players=2, options=Options(top_card_free=True, target=300))
    old = await Client.connect(host.address, host.port, name="Old")
    try:
        assert old.seat == 0 and "claim_window" not in old.table_info
    finally:
        await old.close()


async def test_the_terminal_client_names_every_option_it_knows(make_host):
    from rum500.client import RumClient

    options = Options(jokers=True, rummy_calls=True, teams=2, ace_always_15=True)
    host = await make_host(players=4, options=options)
    c = await RumClient.connect(host.address, host.port, name="Ann")
    try:
        assert c.seat == 0
    finally:
        await c.close()


# ---------------------------------------------------------------------- the command line


def test_the_house_rule_flags_reach_the_host_and_the_headless_log_names_calls():
    from rum500.cli import build_parser, command_config
    from rum500.configs import host_config
    from rum500.narrate import plain as describe_event

    def config_from_args(args):  # the typed config's HostConfig (the seam moved to cli)
        return host_config(command_config(args))

    args = build_parser().parse_args(
        [
            "host",
            "--players",
            "4",
            "--jokers",
            "--rummy-calls",
            "--claim-window",
            "1.5",
            "--teams",
            "2",
            "--ace-always-15",
        ]
    )
    config = config_from_args(args)
    assert config.options == Options(jokers=True, rummy_calls=True, teams=2, ace_always_15=True)
    assert config.claim_window == 1.5
    plain = config_from_args(build_parser().parse_args(["host"]))
    assert plain.options == Options() and plain.claim_window == 3.0
    for bad in ("0.4", "11", "nan"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["host", "--rummy-calls", "--claim-window", bad])
    names = ["Ann", "Bea", "Cid"]
    event = {"type": "rummy", "seat": 2, "meld": 0, "card": "7D", "from": 0}
    assert describe_event(event, names) == "Cid calls Rummy! on Ann's 7D and lays it off on meld 1"
    assert describe_event({"type": "pass", "seat": 1}, names) == "Bea does not call Rummy!"
    assert describe_event({"type": "close_claims"}, names) == "nobody calls Rummy!"
    meld = {"type": "meld", "seat": 0, "meld": 1, "cards": ["7H", "8H", "JK"], "jokers": ["9H"]}
    assert describe_event(meld, names) == "Ann melds 7H 8H JK (the joker as 9H)"


def test_sim_takes_the_house_rules(capsys):
    from rum500.cli import main

    code = main(
        [
            "sim",
            "--games",
            "1",
            "--players",
            "4",
            "--bots",
            "random",
            "--jobs",
            "1",
            "--hands",
            "1",
            "--jokers",
            "--rummy-calls",
            "--teams",
            "2",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["options"] == {"jokers": True, "rummy_calls": True, "teams": 2}
    assert main(["sim", "--games", "1", "--players", "3", "--teams", "2"]) == 2
    assert "2 teams are for 4 or 6 players" in capsys.readouterr().err


async def test_the_terminal_client_says_in_one_line_why_a_house_rule_table_refused_it(
    make_host, monkeypatch, tmp_path
):
    from rum500.tui import connection
    from rum500.tui.connection import NetSession, SessionError

    monkeypatch.setenv("RUM500_HOME", str(tmp_path))
    host = await make_host(players=2, options=Options(jokers=True))

    class Old(connection.RumClient):  # a rum500 from before the jokers
        options = [o for o in Options().to_dict() if o != "jokers"]

    monkeypatch.setattr(connection, "RumClient", Old)
    session = NetSession(host.address, host.port, name="Ann", use_saved_token=False)
    with pytest.raises(SessionError) as refused:
        await session.open()
    why = str(refused.value)
    assert why.startswith("The table plays a house rule this rum500 does not know (")
    assert "jokers" in why and "\n" not in why


async def test_the_lan_announcement_carries_the_house_rules(make_host):
    options = Options(jokers=True, rummy_calls=True, teams=2, ace_always_15=True)
    host = await make_host(players=4, options=options)
    txt = json.loads(host.txt()["options"])
    assert txt == {"jokers": True, "rummy_calls": True, "teams": 2, "ace_always_15": True}


# ---------------------------------------------------------------------- which discard


async def test_a_call_or_pass_names_its_discard_and_a_late_one_is_refused(hosts):
    """A call or a pass sent just as its window closes lands in the next window: naming its
    discard (``on``, the view's ``claim.on``) it is refused with a sentence of its own, never
    judged against the next discard; without ``on`` it keeps its old meaning."""
    game = claim_position()
    host, (ann, bea, cid) = await seated(game, 3, claim_window=10.0)
    hosts.append((host, [ann, bea, cid]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    views = [await view_where(c, lambda v: v["phase"] == "claim") for c in (ann, bea, cid)]
    first = views[0]["claim"]["on"]
    assert isinstance(first, int) and all(v["claim"]["on"] == first for v in views)
    await bea.act({"type": "pass", "on": first})
    await cid.act({"type": "pass", "on": first})  # both passed: the window closes
    await view_where(bea, lambda v: v["phase"] == "draw" and v["turn"] == 1)
    await bea.act({"type": "draw", "source": "stock"})
    await bea.act({"type": "discard", "card": "3H"})
    v = await view_where(cid, lambda v: v["phase"] == "claim" and v["claim"]["from"] == 1)
    second = v["claim"]["on"]
    assert isinstance(second, int) and second != first
    before = game.to_dict()
    # late answers to Ann's 7♦ — refused as such, whatever Bea's discard is
    late = "the discard you answered is no longer open to calls"
    with pytest.raises(ActionRefused, match=late):
        await bea.act({"type": "rummy", "meld": 0, "on": first})
    with pytest.raises(ActionRefused, match=late):
        await cid.act({"type": "pass", "on": first})
    with pytest.raises(ActionRefused, match="'on' names a discard"):
        await cid.act({"type": "pass", "on": "7D"})
    assert game.to_dict() == before and host.table.claim_window.passed == set()
    # the same frames without "on" are judged against the open window (Bea's 3♥)
    with pytest.raises(ActionRefused, match="own discard"):
        await bea.act({"type": "rummy", "meld": 0})
    await cid.act({"type": "pass"})
    await view_where(ann, lambda v: v["claim"] and v["claim"]["passed"] == [2])
    await ann.act({"type": "pass", "on": second})  # the right one is taken
    await view_where(cid, lambda v: v["phase"] == "draw" and v["turn"] == 2)
    assert game.actions[-1] == {"type": "close_claims"}  # "on" is not a part of the game


async def test_a_late_pass_after_the_window_names_its_discard_and_is_refused(hosts):
    """A ``pass`` that names its discard and comes once no window is open at all."""
    game = claim_position()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    on = (await view_where(bea, lambda v: v["phase"] == "claim"))["claim"]["on"]
    await bea.act({"type": "pass", "on": on})
    await view_where(bea, lambda v: v["phase"] == "draw")
    with pytest.raises(ActionRefused, match="no longer open to calls"):
        await bea.act({"type": "pass", "on": on})
    with pytest.raises(ActionRefused, match="no longer open to calls"):
        await bea.act({"type": "rummy", "meld": 0, "on": on})
    # without "on": the sentences of a call or pass with no window open
    with pytest.raises(ActionRefused, match="no discard to pass on now"):
        await bea.act({"type": "pass"})
    with pytest.raises(ActionRefused, match="Rummy! may only be called on a discard"):
        await bea.act({"type": "rummy", "meld": 0})


def test_on_the_deadline_a_call_naming_its_discard_is_too_late():
    now = [0.0]
    window = ClaimWindow(2.0, clock=lambda: now[0])
    game = claim_position()
    assert window.on is None
    game.apply({"type": "discard", "card": "7D"})
    window.follow(game)
    on = window.on
    assert on == len(game.actions) and window.view(game, [1])["on"] == on
    window.check_on({"type": "rummy", "on": on})  # its own window, in time
    moved = ClaimWindow(2.0)  # the table's next host (a handoff, a failover) says the same
    moved.follow(Game.from_dict(game.to_dict()))
    assert moved.on == on
    now[0] = 2.0
    window.check_on({"type": "rummy", "on": on})  # still its window …
    with pytest.raises(IllegalMove, match="too late: the claim window has closed"):
        window.check_call()  # … but the deadline has passed
    game.apply({"type": "close_claims"})
    window.follow(game)
    with pytest.raises(IllegalMove, match="no longer open to calls"):
        window.check_on({"type": "pass", "on": on})


async def test_our_clients_name_the_discard_they_answer(hosts):
    """The terminal client's r and x, and the headless guest's bot, send ``on``."""
    from rum500.claims import answering
    from rum500.tui.model import TableModel

    game = claim_position()
    host, (ann, bea) = await seated(game, 2, claim_window=10.0)
    hosts.append((host, [ann, bea]))
    host.table.claim_window.clock = frozen
    await ann.act({"type": "discard", "card": "7D"})
    view = await view_where(bea, lambda v: v["phase"] == "claim")
    on = view["claim"]["on"]

    async def send(action: dict) -> None:  # the terminal client's way, through the client
        await bea.act(action)

    model = TableModel(name="Bea", send=send)
    model.apply_message({"type": "welcome", "seat": 1})
    model.apply_message({"type": "state", "seq": bea.seq, "view": view, "events": []})
    model.claim.call()  # the key r
    assert model.sent == [{"type": "rummy", "seat": 1, "meld": 0, "on": on}]
    await view_where(bea, lambda v: v["phase"] == "draw")
    assert game.actions[-1] == {"type": "rummy", "seat": 1, "meld": 0}
    model.spawn = lambda coro: coro.close()  # type: ignore[assignment]  # not sent again
    model.claim.update(view["claim"])
    model.claim.pass_()  # the key x
    assert model.sent[-1] == {"type": "pass", "on": on}
    # the headless guest's bot (rum500/handoff/headless.py) sends what answering() makes
    assert answering({"type": "pass"}, view) == {"type": "pass", "on": on}
    assert answering({"type": "draw", "source": "stock"}, view) == {
        "type": "draw",
        "source": "stock",
    }
