"""Issue 25 §3: the four-colour deck's suits, as the client renders them (the SGR codes of
prompt_toolkit's own VT100 output), stay apart in xterm's palette for normal vision and for
protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1.0): every pair of
suits by ``PAIR_THRESHOLD`` ΔE00 and every suit from the ground it is drawn on (the card's
face, the cursor's reverse video, a selected card's yellow, the pile's take range in cyan)
by ``GROUND_THRESHOLD``. The figures: ``python bench/colours.py``."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest


def load_bench() -> ModuleType:
    """``bench/colours.py`` (bench/ is not a package) as the module ``bench_colours``."""
    if "bench_colours" in sys.modules:
        return sys.modules["bench_colours"]
    path = Path(__file__).resolve().parents[2] / "bench" / "colours.py"
    spec = importlib.util.spec_from_file_location("bench_colours", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_colours"] = module
    spec.loader.exec_module(module)
    return module


bench = load_bench()


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 13, 17, 25, 34
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
    ],
)
def test_ciede2000_agrees_with_the_published_pairs(lab1, lab2, expected) -> None:  # type: ignore[no-untyped-def]
    assert bench.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_keep_greys_and_lose_red_green() -> None:
    for vision in bench.VISIONS:
        grey = bench.simulate((128, 128, 128), vision)
        assert max(grey) - min(grey) < 1e-3, vision
    red, green = (255, 0, 0), (0, 255, 0)
    assert bench.delta_e(red, green) > 80
    assert bench.delta_e(red, green, "deuteranopia") < bench.delta_e(red, green) / 2


def test_the_palette_maps_the_codes_the_client_writes() -> None:
    assert bench.sgr_colours([0, 38, 5, 29, 107]) == ((0, 135, 95), (255, 255, 255))
    assert bench.sgr_colours([0, 31, 43, 1, 4, 7]) == ((205, 205, 0), (205, 0, 0))
    assert bench.xterm_256(232) == (8, 8, 8) and bench.xterm_256(231) == (255, 255, 255)


@pytest.mark.parametrize("term", ["xterm", "xterm-256color"])
def test_the_suits_as_rendered(term: str) -> None:
    suits = bench.rendered(term)
    assert {s: codes for s, (codes, _c, _g) in suits.items()} == {
        "♠": "0;30;107",
        "♥": "0;31;107",
        "♦": "0;34;107",
        "♣": "0;38;5;29;107",
    }


#: (term, state): xterm and xterm-256color get 256 colours from prompt_toolkit, every state
#: is checked; a 16-colour console (TERM=linux) draws the plain ANSI green, checked plain and
#: under the cursor (selected and taken cards also carry their [ ] marks and the "take" text)
CASES = [(t, s) for t in ("xterm", "xterm-256color") for s in bench.STATES] + [
    ("linux", "plain"),
    ("linux", "cursor"),
]


@pytest.mark.parametrize(("term", "state"), CASES)
def test_every_pair_of_suits_stays_apart_in_every_vision(term: str, state: str) -> None:
    suits = bench.rendered(term, state)
    assert len(suits) == 4
    for vision in bench.VISIONS:
        for a, b in itertools.combinations(suits, 2):
            d = bench.delta_e(suits[a][1], suits[b][1], vision)
            assert d >= bench.PAIR_THRESHOLD, (vision, a, b, round(d, 1))
        for suit, (_codes, colour, ground) in suits.items():
            d = bench.delta_e(colour, ground, vision)
            assert d >= bench.GROUND_THRESHOLD, (vision, suit, "on its ground", round(d, 1))


def test_the_two_colour_deck_keeps_red_from_black() -> None:
    suits = bench.rendered("xterm-256color", four=False)
    for vision in bench.VISIONS:
        assert bench.delta_e(suits["♥"][1], suits["♠"][1], vision) >= bench.PAIR_THRESHOLD
