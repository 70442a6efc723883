"""Issue 25 §2 and §4: over the shoulder in the plain mode, through pipes on loopback — a
plain host player lists the spectators (``watchers``), shows a plain spectator their hand
(``show 1``) and ends it (``show stop``); both hear it start and end; the spectator's ``hand``
says the hand shown and ``hint`` the strongest bot's move for that seat; then nothing."""

from __future__ import annotations

import re
from pathlib import Path

from tests.plain.driver import Plain
from tests.ports import free_port


def test_a_plain_player_shows_a_plain_spectator_their_hand(tmp_path: Path) -> None:
    port = free_port()
    env = {"LANG": "C.UTF-8"}
    ann = Plain(
        "--plain", "host", "--no-announce", "--bind", "127.0.0.1", "--port", str(port),
        "--players", "2", "--name", "Kitchen", "--player", "Ann", "--lang", "en",
        env={**env, "RUM500_HOME": str(tmp_path / "ann")},
    )  # fmt: skip
    cid = None
    try:
        ann.until("Seats: Ann, free.")
        ann.send("show 1")  # before the match: refused in words
        assert "during a match" in ann.until("during a match")
        cid = Plain(
            "--plain", "join", f"127.0.0.1:{port}", "--spectate", "--name", "Cid",
            "--no-announce", "--bind", "127.0.0.1", "--lang", "en",
            env={**env, "RUM500_HOME": str(tmp_path / "cid")},
        )  # fmt: skip
        cid.until("Seats: Ann, free.")
        ann.send("start")
        ann.until("Your hand, ")
        cid.send("hand")
        assert cid.until("You are watching") == "You are watching: you hold no cards."
        cid.send("hint")
        assert "only over a shoulder" in cid.until("No hand is shown")
        ann.send("watchers")
        assert ann.until("Spectators:") == "Spectators: 1 Cid."
        ann.send("show Dan")
        assert ann.until("not watching") == "Dan is not watching this table."
        ann.send("show 1")
        started = "Ann shows their hand to Cid (over the shoulder)."
        ann.until(started)
        cid.until(started)  # every one at the table hears it
        said = cid.until("Ann's hand, shown to you:")  # said once as it starts
        assert re.fullmatch(r"Ann's hand, shown to you: .+ of \w+\.", said), said
        ann.send("hand short")
        mine = ann.until("Your hand").rstrip(".").split(": ", 1)[1].split()
        cid.send("hand short")
        shown = cid.until("shown to you").rstrip(".").split(": ", 1)[1].split()
        assert sorted(shown) == sorted(mine)  # the very cards Ann holds
        ann.send("show 1")
        assert "show stop first" in ann.until("show stop first")
        if not any(line.startswith("Your turn") for line in ann.seen):
            ann.until("Your turn")
        cid.send("hint")  # the strongest bot's move for Ann's seat
        hint = cid.until("Hint for Ann:", "No hint")
        assert re.fullmatch(r"Hint for Ann: .+", hint), hint
        ann.send("show stop")
        ended = "Ann no longer shows their hand to Cid."
        ann.until(ended)
        cid.until(ended)
        cid.send("hand")
        assert cid.until("You are watching") == "You are watching: you hold no cards."
        ann.send("show stop")
        assert ann.until("anyone") == "You do not show your hand to anyone."
        for p in (cid, ann):
            p.send("quit")
            p.send("yes")
            p.close()
            assert b"\x1b" not in p.raw
    finally:
        ann.proc.kill()
        if cid is not None:
            cid.proc.kill()


def test_the_russian_words_for_over_the_shoulder(tmp_path: Path) -> None:
    from rum500.plain.commands import ALIASES, COMMANDS

    assert COMMANDS[ALIASES["показать"]] is COMMANDS["show"]
    assert COMMANDS[ALIASES["зрители"]] is COMMANDS["watchers"]
