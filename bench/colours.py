"""The four-colour deck's colours checked (issue 25 §3): how far apart the suits look, with
normal colour vision and with each of the three dichromacies.

    python bench/colours.py [--term xterm-256color] [--two-colour]

The suits are taken as the terminal client renders them: four cards (``A♠ 10♥ Q♦ 2♣``) are
drawn through prompt_toolkit's own VT100 output for ``--term`` (``xterm`` and
``xterm-256color`` both get 8-bit colour depth, ``linux`` 4-bit; the suits' styles are ANSI
colour names, so every one writes the same SGR codes) in each state a card can be in (plain,
under the cursor, selected, in the pile's take range), and the SGR codes of each card are
read back into a foreground and a background. Those are mapped to RGB with xterm's default
palette (the 16 colours of ``XTerm-col.ad``; 256-colour codes through the 6×6×6 cube and the
grey ramp; direct colour as is), then simulated for protanopia, deuteranopia and tritanopia
with the matrices of Machado, Oliveira and Fernandes (2009), severity 1.0, applied in linear
RGB, and compared in CIELAB (D65) with CIEDE2000.

Printed: for each state and vision, ΔE00 between every pair of suits and between each suit
and the ground it is drawn on (the card's face; under the cursor the face is the suit's
colour and the glyph the face's). The card's face is the client's own background
(``bg:ansiwhite``, bright white), never the terminal's default background, so a dark or a
light terminal does not change what a suit is read against; the face itself against both
default backgrounds is printed last. tests/tui/test_colour_blind.py asserts the thresholds
below on the same figures.
"""

from __future__ import annotations

import argparse
import io
import itertools
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RGB = tuple[float, float, float]

#: ΔE00 every pair of suits keeps, in every vision: well above the ~2 of a just-noticeable
#: difference, so that two suits side by side in a hand are told apart at a glance
PAIR_THRESHOLD = 15.0
#: ΔE00 every suit keeps against the ground it is drawn on, in every vision
GROUND_THRESHOLD = 20.0

#: xterm's default 16 colours (XTerm-col.ad: black, red3, green3, yellow3, blue2, magenta3,
#: cyan3, gray90, gray50, red, green, yellow, #5c5cff, magenta, cyan, white)
XTERM_16: list[RGB] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
]
#: the terminal's own default background, dark and light (xterm's reverse video)
DEFAULT_BACKGROUNDS: dict[str, RGB] = {"dark": (0, 0, 0), "light": (255, 255, 255)}
DEFAULT_FOREGROUND: RGB = (229, 229, 229)

#: Machado, Oliveira and Fernandes 2009, severity 1.0 (linear RGB → linear RGB)
MACHADO: dict[str, list[list[float]]] = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}
VISIONS = ["normal", *MACHADO]

#: the cards drawn, one of each suit, and the states a card of the hand or the pile can be in
#: (the extra style classes rum500.tui.render gives it)
CARDS = {"♠": "AS", "♥": "10H", "♦": "QD", "♣": "2C"}
STATES = {
    "plain": "",
    "cursor": "class:cursor",
    "selected": "class:selected",
    "take": "class:take",
}


def xterm_256(n: int) -> RGB:
    """The RGB of 256-colour index ``n``: the 16 colours, the 6×6×6 cube, the grey ramp."""
    if n < 16:
        return XTERM_16[n]
    if n < 232:
        n -= 16
        level = [0, 95, 135, 175, 215, 255]
        return (level[n // 36], level[n // 6 % 6], level[n % 6])
    grey = 8 + 10 * (n - 232)
    return (grey, grey, grey)


def sgr_colours(params: list[int]) -> tuple[RGB, RGB]:
    """The (foreground, background) RGB one run of SGR parameters leaves (from the defaults,
    reverse video applied)."""
    fg: RGB | None = None
    bg: RGB | None = None
    reverse = False
    i = 0
    while i < len(params):
        p = params[i]
        if p == 0:
            fg, bg, reverse = None, None, False
        elif p == 7:
            reverse = True
        elif p == 27:
            reverse = False
        elif 30 <= p <= 37:
            fg = XTERM_16[p - 30]
        elif 90 <= p <= 97:
            fg = XTERM_16[p - 90 + 8]
        elif 40 <= p <= 47:
            bg = XTERM_16[p - 40]
        elif 100 <= p <= 107:
            bg = XTERM_16[p - 100 + 8]
        elif p == 39:
            fg = None
        elif p == 49:
            bg = None
        elif p in (38, 48) and i + 2 < len(params) and params[i + 1] == 5:
            colour = xterm_256(params[i + 2])
            fg, bg = (colour, bg) if p == 38 else (fg, colour)
            i += 2
        elif p in (38, 48) and i + 4 < len(params) and params[i + 1] == 2:
            colour = (params[i + 2], params[i + 3], params[i + 4])
            fg, bg = (colour, bg) if p == 38 else (fg, colour)
            i += 4
        i += 1
    fg = fg or DEFAULT_FOREGROUND
    bg = bg or DEFAULT_BACKGROUNDS["dark"]
    return (bg, fg) if reverse else (fg, bg)


def rendered(term: str, state: str = "plain", four: bool = True) -> dict[str, tuple[str, RGB, RGB]]:
    """Each suit as the client draws it for ``term`` in ``state``: {suit: (SGR parameters,
    the suit's colour, the ground it is read against)}. Under reverse video the glyph takes
    the face's colour and the face the suit's: the suit's colour is then the ground's."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.output.vt100 import Vt100_Output
    from prompt_toolkit.shortcuts import print_formatted_text

    from rum500.tui import render

    class Screen:
        ascii = False
        view = None

        def player_name(self, seat: int | None) -> str:
            return ""

    was = render.four_colours()
    render.use_four_colours(four)
    try:
        buffer = io.StringIO()
        output = Vt100_Output(buffer, lambda: Size(24, 80), term=term)
        fragments = []
        for code in CARDS.values():
            fragments += render.card(Screen(), code, STATES[state]) + [("", " ")]
        print_formatted_text(
            FormattedText(fragments),
            style=render.STYLE,
            output=output,
            color_depth=output.get_default_color_depth(),
        )
    finally:
        render.use_four_colours(was)
    out = {}
    for codes, suit in re.findall(r"\x1b\[([0-9;]*)m[^\x1b ]*?([♠♥♦♣])", buffer.getvalue()):
        params = [int(p) for p in codes.split(";") if p]
        fg, bg = sgr_colours(params)
        suit_colour, ground = (bg, fg) if 7 in params else (fg, bg)
        out[suit] = (codes, suit_colour, ground)
    return out


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb: RGB, vision: str) -> list[float]:
    """The colour as a viewer with ``vision`` sees it, in linear RGB (0…1)."""
    lin = [_linear(c) for c in rgb]
    if vision == "normal":
        return lin
    m = MACHADO[vision]
    return [min(1.0, max(0.0, sum(m[r][k] * lin[k] for k in range(3)))) for r in range(3)]


def lab(linear: list[float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = linear
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """ΔE00 (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_bar = (h1p + h2p + 360) / 2
    else:
        h_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (dc / s_c) * (d_h / s_h)
    )


def delta_e(c1: RGB, c2: RGB, vision: str = "normal") -> float:
    return ciede2000(lab(simulate(c1, vision)), lab(simulate(c2, vision)))


def figures(term: str = "xterm-256color", four: bool = True) -> dict:
    """{state: {vision: {"pairs": {"♠♥": ΔE, …}, "ground": {"♠": ΔE, …}}}}."""
    out: dict = {}
    for state in STATES:
        suits = rendered(term, state, four)
        out[state] = {}
        for vision in VISIONS:
            pairs = {
                a + b: delta_e(suits[a][1], suits[b][1], vision)
                for a, b in itertools.combinations(suits, 2)
            }
            ground = {s: delta_e(c, g, vision) for s, (_codes, c, g) in suits.items()}
            out[state][vision] = {"pairs": pairs, "ground": ground}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--term", default="xterm-256color")
    parser.add_argument("--two-colour", action="store_true", help="the default deck instead")
    args = parser.parse_args()
    four = not args.two_colour
    print(f"TERM={args.term}, {'four' if four else 'two'}-colour deck, xterm's palette; ΔE00")
    print(
        f"thresholds: every pair of suits ≥ {PAIR_THRESHOLD}, each suit and its ground ≥ "
        f"{GROUND_THRESHOLD}"
    )
    for state in STATES:
        suits = rendered(args.term, state, four)
        codes = "  ".join(f"{s} \\e[{c}m" for s, (c, _colour, _ground) in suits.items())
        print(f"\n{state}: {codes}")
        pairs = [a + b for a, b in itertools.combinations(suits, 2)]
        print(
            f"  {'vision':<13}"
            + "".join(f"{p:>7}" for p in pairs)
            + "   |"
            + "".join(f"{s + '/bg':>7}" for s in suits)
        )
        for vision, row in figures(args.term, four)[state].items():
            cells = "".join(f"{row['pairs'][p]:7.1f}" for p in pairs)
            ground = "".join(f"{row['ground'][s]:7.1f}" for s in suits)
            print(f"  {vision:<13}{cells}   |{ground}")
    face = rendered(args.term, "plain", four)["♠"][2]
    print("\nthe card's face against the terminal's default background (normal vision):")
    for name, bg in DEFAULT_BACKGROUNDS.items():
        print(f"  {name:<6} {delta_e(face, bg):5.1f}")


if __name__ == "__main__":
    main()
