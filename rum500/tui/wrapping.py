"""Text laid out in lines of the screen's width, broken between words and never cut."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Line = StyleAndTextTuples

#: --ascii: the few non-card symbols of the screen in plain ASCII
ASCII_TEXT = str.maketrans(
    {
        "—": "-",
        "−": "-",
        "…": "...",
        "←": "<-",
        "→": "->",
        "↑": "^",
        "↓": "v",
        "▶": ">",
        "◀": "<",
        "★": "*",
        "•": "*",
        "│": "|",
        "·": "-",
        "🔒": "[p]",
        "«": '"',
        "»": '"',
    }
)


def _words(chars: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Styled characters split into words, each with the spaces that follow it (the spaces
    that start the line stay with its first word)."""
    words: list[list[tuple[str, str]]] = []
    word: list[tuple[str, str]] = []
    for style, ch in chars:
        if ch != " " and word and word[-1][1] == " " and any(c != " " for _s, c in word):
            words.append(word)
            word = []
        word.append((style, ch))
    if word:
        words.append(word)
    return words


def _fragments(chars: list[tuple[str, str]]) -> Line:
    out: Line = []
    for style, ch in chars:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return out


def wrap_text(
    fragments: StyleAndTextTuples, width: int, indent: int | None = None, ascii: bool = False
) -> list[Line]:
    """Styled text laid out in lines of at most ``width`` cells, broken between words (a word
    longer than a line is split) and never cut: each ``\\n`` starts a line; a continuation
    line is indented by ``indent`` cells (None: as far as the line it continues). With
    ``ascii``, the symbols are made ASCII first (``…`` is ``...``: three cells, wrapped as
    such)."""
    width = max(4, width)
    chars = [
        (f[0], ch) for f in fragments for ch in (f[1].translate(ASCII_TEXT) if ascii else f[1])
    ]
    rows: list[list[tuple[str, str]]] = [[]]
    for c in chars:
        if c[1] == "\n":
            rows.append([])
        else:
            rows[-1].append(c)
    lines: list[Line] = []
    for row in rows:
        lead = 0
        for _s, ch in row:
            if ch != " ":
                break
            lead += 1
        hang = min(lead if indent is None else indent, width // 2)
        line: list[tuple[str, str]] = []
        used = 0
        fresh = True  # no word on this line yet
        for word in _words(row):
            body = list(word)
            while body and body[-1][1] == " ":
                body.pop()
            w = sum(get_cwidth(ch) for _s, ch in body)
            if not fresh and used + w > width:
                lines.append(_fragments(_rstrip(line)))
                line, used = [("", " ")] * hang, hang
                while word and word[0][1] == " ":
                    word = word[1:]
            fresh = False
            for c in word:
                cw = get_cwidth(c[1])
                if used + cw > width:
                    if c[1] == " ":
                        continue
                    lines.append(_fragments(_rstrip(line)))
                    line, used = [("", " ")] * hang, hang
                line.append(c)
                used += cw
        lines.append(_fragments(_rstrip(line)))
    return lines


def _rstrip(chars: list[tuple[str, str]]) -> list[tuple[str, str]]:
    end = len(chars)
    while end and chars[end - 1][1] == " ":
        end -= 1
    return chars[:end]
