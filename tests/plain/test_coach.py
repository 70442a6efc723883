"""Issue 25 §2 (the coach of issue 24 §2): at ``rum500 --plain play`` the review's coach line —
this seat's biggest mistake of the hand — is said as a line when it arrives, through pipes,
and ``review`` says it again after the hand's review."""

from __future__ import annotations

import re

from tests.plain.driver import Plain

COACH = re.compile(
    r"^(Your biggest mistake: .+ \(−\d+ points? expected; better: .+\)\."
    r"|Coach: no mistake found in your play this hand\.)$"
)


def test_the_coach_line_is_said_in_the_plain_mode() -> None:
    p = Plain(
        "--plain", "play", "--seed", "6", "--bots", "1", "--bot-delay", "0", "--name", "Ann",
        "--review-timeout", "300", "--lang", "en",
    )  # fmt: skip
    try:
        while True:  # Ann throws her last card each turn: the coach finds something to say
            line = p.next_line()
            assert line is not None, p.seen[-20:]
            if "End the hand now?" in line:
                p.send("yes")
            elif line.startswith("Your turn"):
                if "stock is empty" in line:
                    p.send("end")
                    continue
                p.send("draw")
                p.until("You drew")
                p.send("hand short")
                hand = p.until("Your hand").rstrip(".").split(": ", 1)[1].split()
                p.send("discard " + hand[-1])
            elif line.startswith("Type review"):
                break
        said = p.until("Your biggest mistake:", "Coach:", wait=240)
        assert COACH.fullmatch(said), said
        p.send("review")
        p.until("Totals:")
        assert p.next_line() == said  # the review ends with the coach's line
        p.send("quit")
        p.send("yes")
        p.close()
        assert b"\x1b" not in p.raw
    finally:
        p.proc.kill()
