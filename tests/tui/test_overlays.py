"""The overlay registry (tui/overlays): every mode's keys are both in the key bar and in the
key bindings (one list, no second table); the overlay stack pops back to the overlay under the
one closed (help over the review returns to the review)."""

from __future__ import annotations

import pytest
from prompt_toolkit.key_binding.key_bindings import _parse_key

from rum500.i18n import set_language
from rum500.tui.keys import build_key_bindings, key_bar, mode_of, with_twins
from rum500.tui.model import TableModel
from rum500.tui.overlays.keymap import Overlay
from rum500.tui.overlays.registry import BY_NAME, OVERLAYS, TABLE
from tests.tui.local import at_hand_end


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def opened(model: TableModel, mode: Overlay) -> TableModel:
    """``model`` with ``mode`` open (what it needs to show filled in)."""
    model.overlay = None
    if mode.name == "choose":
        model.choose("Which?", [("one", {"type": "pass"}), ("two", {"type": "pass"})])
    elif mode.name == "confirm":
        model.ask("Sure?", lambda: None)
    elif mode.name == "final":
        model.tableview.finished = True
        model.overlay = "final"
    elif mode.name:
        model.overlay = mode.name
    assert mode_of(model) is mode
    return model


def test_the_registry_names_each_overlay_once() -> None:
    names = [o.name for o in OVERLAYS]
    assert len(set(names)) == len(names) and "" not in names
    assert set(names) - {"shoulder"} == {
        *("help", "quit", "confirm", "choose", "sheet", "scores", "final", "chat", "rules")
    }
    assert {o.name: o for o in OVERLAYS} == BY_NAME


@pytest.mark.parametrize("mode", [TABLE, *OVERLAYS], ids=lambda m: m.name or "table")
def test_every_key_of_a_mode_is_in_the_bar_and_bound(mode: Overlay) -> None:
    """Each key a mode lists is bound (with its Cyrillic twin) and acts while the mode is
    open; each one the bar names is in the bar whenever it is offered."""
    model = opened(at_hand_end(), mode)
    bindings = build_key_bindings(model)
    bar = {(k, label) for k, label, _f in key_bar(model)}
    for key in mode.keys(model):
        if key.bar and key.offered():
            assert (key.bar, key.label()) in bar, (mode.name, key.bar)
        for name in with_twins(key.keys):
            parsed = _parse_key(name)
            active = [
                b
                for b in bindings.get_bindings_for_keys((parsed,))
                if b.keys == (parsed,) and b.filter()
            ]
            if key.when():
                assert active, (mode.name, name)
    assert all(label for _k, label, _f in key_bar(model))


def test_the_bar_names_no_key_that_is_not_in_the_list() -> None:
    model = at_hand_end()
    for mode in (TABLE, *OVERLAYS):
        opened(model, mode)
        listed = {(k.bar, k.handler) for k in mode.keys(model) if k.bar}
        bar = {k for k, _l, _f in key_bar(model)}
        assert bar <= {b for b, _h in listed}, mode.name


def test_help_over_the_review_pops_back_to_the_review() -> None:
    model = at_hand_end()
    assert model.overlay == "sheet"
    model.toggle_help()
    assert model.overlay_stack == ["sheet", "help"]
    model.close_overlay()
    assert model.overlay == "sheet" and model.sheet is not None


def test_the_stack_pops_back_one_overlay_at_a_time() -> None:
    model = at_hand_end()
    model.scores.toggle()
    model.toggle_help()
    assert model.overlay_stack == ["sheet", "scores", "help"]
    model.toggle_help()  # ? again closes the help: the score table is back
    assert model.overlay == "scores"
    model.close_overlay()
    assert model.overlay == "sheet"
    model.close_overlay()  # the review closed: the table
    assert model.overlay is None and model.overlay_stack == []


def test_an_overlay_under_the_top_that_no_longer_holds_is_skipped() -> None:
    """The review under the help ends (the next hand is dealt) while the help is open:
    closing the help shows the table, not an empty review."""
    model = at_hand_end()
    model.toggle_help()
    model.sheet = None
    model.close_overlay()
    assert model.overlay is None


def test_opening_an_overlay_already_open_brings_it_back_to_the_top() -> None:
    model = at_hand_end()
    model.overlay = "scores"
    model.overlay = "help"
    model.overlay = "scores"
    assert model.overlay_stack == ["sheet", "scores"]
    model.overlay = None
    assert model.overlay_stack == []
