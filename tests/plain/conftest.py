"""Every plain-mode test that builds a PlainModel in the test process switches the whole
process to cards in words (``describe.speak_cards``) and may switch its language: both are
put back after each test, so a screen test that runs next in the same worker reads cards as
symbols, in English (test_variant_moves and test_tmux_text once read "5 of hearts")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rum500 import i18n
from rum500.tui import describe


@pytest.fixture(autouse=True)
def cards_as_symbols_after() -> Iterator[None]:
    yield
    describe.speak_cards(False)
    i18n.set_language("en")
