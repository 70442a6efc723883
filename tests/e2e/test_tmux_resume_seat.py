"""``rum500 host --resume`` in a real terminal (tmux), with no ``--player``: the player's name
is the login name. At a match of several people that name must be a seat's: else the host is
refused with one line naming the seats (exit status 2) — it never shows someone else's hand
while the player's own seat counts down to a bot."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.test_resume_seat import REFUSAL, leave_a_match

from .test_tmux_cli import Term

pytestmark = pytest.mark.e2e

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed", allow_module_level=True)


@pytest.fixture
def term(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Term]:
    monkeypatch.setenv("RUM500_HOME", str(tmp_path))  # the game log the test leaves
    t = Term(tmp_path)
    yield t
    t.close()


def test_host_resume_takes_the_seat_of_the_login_name_or_none(
    term: Term, monkeypatch: pytest.MonkeyPatch
) -> None:
    leave_a_match(["Ann", "Cy"])  # two people and a bot
    monkeypatch.setenv("LOGNAME", "Bob")  # the login name (getpass.getuser), for tmux too
    term.run("host --resume 1 --no-announce --bind 127.0.0.1 --bot-delay 0")
    term.wait(lambda s: "EXITED" in s, "rum500 ending")
    assert "EXITED 2" in term.screen()
    stderr = (term.home / "stderr.txt").read_text()
    assert stderr.strip().splitlines() == ["rum500: " + REFUSAL.format(name="Bob")]

    monkeypatch.setenv("LOGNAME", "Cy")
    term.run("host --resume 1 --no-announce --bind 127.0.0.1 --bot-delay 0")
    screen = term.wait(lambda s: "(you)" in s and "Stock:" in s, "the resumed table")
    assert re.search(r"^\s*2 Cy \(you\)", screen, re.M)  # seat 2 is Cy's, and mine
    assert re.search(r"^\W*1 Ann \(away", screen, re.M)  # Ann's seat waits for Ann
