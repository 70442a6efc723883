"""The hand's sort order (key o) is kept between tables and runs: settings.json in the data
folder, as the four-colour deck is; a table started later shows the hand in that order."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rum500.tui import settings
from rum500.tui.main import table_model

HAND = ["QH", "2S", "QS", "2H", "9D"]


def shown(hand: list[str]) -> list[str]:
    model = table_model("Ann", ascii=False)
    model.tableview.view = {"hand": list(hand)}
    return model.tableview.hand()


def test_the_order_chosen_with_o_is_the_next_tables_order() -> None:
    by_suit = shown(HAND)
    first = table_model("Ann", ascii=False)
    first.tableview.view = {"hand": list(HAND)}
    first.toggle_sort()
    by_rank = first.tableview.hand()
    assert by_rank != by_suit
    assert "Hand sorted by rank." in first.feed.message
    assert json.loads(settings.path().read_text())["hand_sort"] == "rank"
    assert shown(HAND) == by_rank  # a later table (or run) starts by rank
    first.toggle_sort()
    assert shown(HAND) == by_suit


def test_a_settings_file_not_ours_sorts_by_suit(tmp_path: Path) -> None:
    settings.path().parent.mkdir(parents=True, exist_ok=True)
    settings.path().write_text(json.dumps({"hand_sort": "colour", "four_colour": True}))
    assert settings.hand_sort() == "suit" and settings.four_colour()
    assert table_model("Ann", ascii=False).tableview.sort_mode == "suit"


def test_a_settings_file_that_cannot_be_written_says_so_and_still_sorts() -> None:
    folder = settings.path().parent
    folder.mkdir(parents=True, exist_ok=True)
    settings.path().mkdir()  # a folder where the file should be: the save fails
    model = table_model("Ann", ascii=False)
    model.tableview.view = {"hand": list(HAND)}
    model.toggle_sort()
    assert model.tableview.sort_mode == "rank"
    assert "Hand sorted by rank." in model.feed.message
    assert "Not kept for the next table" in model.feed.message
    assert os.path.isdir(settings.path())
