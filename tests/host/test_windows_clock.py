"""The hand-end review window and the takeover countdown as clock-injected objects
(rum500/host/review.py, rum500/host/takeover.py): driven by a hand-made clock, no host."""

from __future__ import annotations

from dataclasses import dataclass

from rum500.host.review import ReviewWindow
from rum500.host.takeover import Takeover


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_review_counts_down_from_its_length_and_waits_for_who_is_not_ready():
    clock = Clock()
    review = ReviewWindow(30.0, clock)
    assert review.left() == 0.0 and review.until is None  # none open
    review.open()
    assert review.left() == 30.0
    clock.now += 12.5
    assert review.left() == 17.5
    assert review.say_ready(1) and not review.say_ready(1)  # twice: nothing new
    assert review.waiting([0, 1, 2]) == [0, 2]
    clock.now += 100
    assert review.left() == 0.0  # due: the host deals anyway
    review.close()
    assert review.ready == set() and review.until is None


def test_a_carried_review_goes_on_with_who_was_ready_and_the_time_left():
    clock = Clock()
    review = ReviewWindow(30.0, clock)
    review.carry([2], 4.0)
    assert review.ready == {2} and review.left() == 4.0
    review.carry([], -3.0)  # a negative time left is no time left
    assert review.left() == 0.0


def test_a_zero_or_negative_length_is_due_at_once():
    review = ReviewWindow(-5.0, Clock())
    review.open()
    assert review.left() == 0.0


@dataclass
class Seat:
    taken: bool = True
    bot: bool = False
    conn: object | None = None
    away_since: float | None = None


def test_the_takeover_counts_down_an_away_players_seat_only():
    clock = Clock()
    takeover = Takeover(60.0, clock)
    away = Seat(away_since=90.0)
    here = Seat(conn=object())
    bot = Seat(bot=True)
    empty = Seat(taken=False)
    assert takeover.wait(away) == 50.0
    assert [takeover.wait(s) for s in (here, bot, empty)] == [None, None, None]
    clock.now += 49.96
    assert takeover.countdown([away, here]) == [0.0, None]  # rounded to a tenth
    clock.now += 10
    assert takeover.wait(away) == 0.0  # a bot plays it now


def test_an_away_seat_with_no_time_yet_waits_the_whole_length_and_off_is_never():
    clock = Clock()
    assert Takeover(5.0, clock).wait(Seat()) == 5.0
    assert Takeover(None, clock).wait(Seat(away_since=0.0)) is None
