"""The replay's event line shows cards as the rest of the screen does (3♦, not 3D)."""

from __future__ import annotations

import re
from pathlib import Path

from rum500.store import Journal, open_db
from rum500.store.log import load_match
from rum500.tui.replay import ReplayModel

from .conftest import play

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RAW = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")


def screen_text(model: ReplayModel, ascii_only: bool = False) -> list[str]:
    return "".join(text for _style, text in model.render(ascii_only)).splitlines()


def played_match(seed: int) -> dict:
    """A match played with ``seed`` into the game log, as the replay loads it."""
    with Journal() as j:
        play(j, seed=seed)
        mid = j.game_id
    conn = open_db()
    match = load_match(conn, int(mid or 0))
    conn.close()
    return match


def test_event_line_shows_suit_symbols(home: Path) -> None:
    match = played_match(21)
    model = ReplayModel(match)
    kinds: dict[str, int] = {}
    for k, entry in enumerate(match["actions"], start=1):
        kinds.setdefault(entry["action"]["type"], k)
    assert {"discard", "meld"} <= set(kinds)
    for kind, step in kinds.items():
        model.go(step)
        event_line = screen_text(model)[2]
        assert not RAW.search(event_line), (kind, event_line)
        if kind == "discard":
            card = match["actions"][step - 1]["action"]["card"]
            assert f"discarded {card[:-1]}{SUIT[card[-1]]}" in event_line
            ascii_line = screen_text(model, ascii_only=True)[2]
            assert f"discarded {card}" in ascii_line


def test_cards_have_the_tables_faces(home: Path) -> None:
    """Each card of the replay is drawn as the table draws it — black or red on white — not
    in a colour of its own: prompt_toolkit's default style has a class ``black`` (pure black
    on the terminal's background), which made ♠ and ♣ all but invisible on a dark terminal."""
    from prompt_toolkit.styles import default_ui_style, merge_styles

    from rum500.tui import render
    from rum500.tui.replay import build_app

    match = played_match(21)
    model = ReplayModel(match)
    model.go(len(match["actions"]) // 2)
    style = merge_styles([default_ui_style(), build_app(model).style])
    table = merge_styles([default_ui_style(), render.STYLE])
    faces = {}
    for s, text in model.render(False):
        if text.strip() and text.strip()[-1] in "♠♥♦♣":
            faces[text.strip()[-1]] = s
    assert set(faces) >= {"♠", "♥"}, faces
    for suit, s in faces.items():
        colour = "class:card.red" if suit in "♥♦" else "class:card.black"
        got = style.get_attrs_for_style_str(s)
        assert got.bgcolor and got.bgcolor == table.get_attrs_for_style_str(colour).bgcolor, s
        assert got.color == table.get_attrs_for_style_str(colour).color, (suit, s)


def test_a_laid_off_card_is_marked_with_its_player_as_on_the_table(home: Path) -> None:
    """A card laid off on another player's meld shows ``9♦←2`` (player 2 laid it off), as
    the table shows it; the meld's own cards have no mark."""
    for seed in range(21, 60):
        match = played_match(seed)
        model = ReplayModel(match)
        for step in range(1, len(match["actions"]) + 1):
            model.go(step)
            for meld in model.frame.melds:
                others = [
                    (c, b) for c, b in zip(meld["cards"], meld["by"], strict=True)
                    if b != meld["owner"]
                ]  # fmt: skip
                if not others or any(c == "JK" for c in meld["cards"]):
                    continue
                screen = "\n".join(screen_text(model))
                card, by = others[0]
                assert f"{card[:-1]}{SUIT[card[-1]]}←{by + 1}" in screen, screen
                own = next(
                    c for c, b in zip(meld["cards"], meld["by"], strict=True) if b == meld["owner"]
                )
                assert f"{own[:-1]}{SUIT[own[-1]]}←" not in screen
                assert "(+" not in screen
                ascii_screen = "\n".join(screen_text(model, ascii_only=True))
                assert f"{card}<-{by + 1}" in ascii_screen
                return
    raise AssertionError("no lay-off on another player's meld in 39 matches")
