"""kill -9 of real hosts at random moments, then ``rum500 host --resume``: nothing is lost.

The hosts are real ``rum500 host --headless`` processes with bots only, watched over
loopback by a spectator; the whole run happens inside a network namespace of its own
(``unshare --net``), so the hosts' LAN announcements never leave this machine's loopback.
The count of matches is ``RUM500_KILL_MATCHES`` (100 by default: about a minute here).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.store import isolated

MATCHES = int(os.environ.get("RUM500_KILL_MATCHES", "100"))


@pytest.mark.e2e
@pytest.mark.netns
def test_sigkill_at_random_moments_then_resume(tmp_path: Path) -> None:
    done = isolated.run(
        f"{sys.executable} -m tests.store.kill_harness --matches {MATCHES} --jobs 12 "
        f"--work {tmp_path}",
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(reports) == MATCHES
    for r in reports:
        assert "error" not in r, r
        assert r["killed"], r
        assert r["integrity_after_kill"] == "ok", r
        # the last update the spectator received is a position the log holds at the kill
        assert r["seen_at"] is not None, r
        assert r["finished"] and r["replays_to_end"], r
        if r["resumed"]:
            assert r["resume_position_ok"], r  # --resume rebuilt exactly what was logged
            assert r["resume_exit"] == 0 and r["resume_said_game_over"], r
            assert r["integrity_after_resume"] == "ok", r
            assert r["prefix_kept"], r  # and journaled on into the same match
            # among all the positions of the whole match, what the spectator saw last
            # comes no later than what was on disk when the host was killed
            assert r["seen_at_final"] is not None, r
            assert r["seen_at_final"] <= r["saved_actions"], r
            assert r["matches_in_log"] == 1, r
    resumed = sum(r["resumed"] for r in reports)
    assert resumed >= MATCHES // 3, f"only {resumed} of {MATCHES} were killed mid-match"


@pytest.mark.e2e
@pytest.mark.netns
def test_a_player_rejoins_a_resumed_host_with_the_token(tmp_path: Path) -> None:
    """A player plays at a real host; kill -9; --resume; the player rejoins with the seat's
    token, finds the position it last saw (or later), and plays on."""
    done = isolated.run(
        f"{sys.executable} -m tests.store.rejoin_harness --work {tmp_path}", timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout.splitlines()[-1])
    assert r["same_seat"], r
    assert r["seen_in_log"], r  # the last update the player saw is in the log
    assert r["rejoined_view_in_log"], r  # and the rejoined view is a logged position
    assert r["played_on"] and r["actions_after"] >= r["actions_at_resume"] + 2, r
    assert r["matches_in_log"] == 1, r
