"""Catalogs: the committed .mo is the compiled .po, every marked message has a Russian
translation that keeps its {placeholders}, and the language switch works."""

from __future__ import annotations

import gettext
import re
import string

import pytest

from rum500 import i18n
from rum500.tui import describe
from rum500.tui.helptext import help_lines, rules_text


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    i18n.set_language("en")


def test_committed_mo_matches_po() -> None:
    pos = i18n.po_files()
    assert pos, "no .po catalog found"
    for po in pos:
        catalog = i18n.parse_po(po.read_text(encoding="utf-8"))
        assert po.with_suffix(".mo").read_bytes() == i18n.compile_mo(catalog), (
            f"{po.with_suffix('.mo')} is stale: run python -m rum500.i18n"
        )
        with po.with_suffix(".mo").open("rb") as f:
            loaded = gettext.GNUTranslations(f)
        assert loaded.gettext("Help") == catalog["Help"]


def _fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


def test_every_message_is_translated_with_its_placeholders() -> None:
    po = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "rum500.po"
    catalog = i18n.parse_po(po.read_text(encoding="utf-8"))
    messages = i18n.extract_messages()
    assert len(messages) > 100
    missing = []
    for ctx, msgid in messages:
        key = msgid if ctx is None else f"{ctx}\x04{msgid}"
        if not catalog.get(key):
            missing.append(msgid)
            continue
        assert _fields(catalog[key]) == _fields(msgid), msgid
    assert missing == []


def test_language_switch() -> None:
    assert i18n.set_language("ru") == "ru"
    assert describe.card_text("QH") == "Д♥"
    assert describe.card_text("AS", ascii=True) == "ТS"
    assert re.search("[а-я]", rules_text())
    assert all(len(line) <= 78 for line in help_lines())
    assert describe.refusal("9D must be played this turn") == "9♦ нужно сыграть в этот ход."
    assert i18n.set_language("en") == "en"
    assert describe.card_text("QH") == "Q♥"
    assert all(len(line) <= 78 for line in help_lines())
    assert i18n.set_language("xx") == "en"


def test_language_from_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.detect_language() == "ru"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert i18n.detect_language() == "en"


def test_parse_po_handles_continuations_and_fuzzy() -> None:
    text = (
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n\n'
        'msgid "a"\nmsgstr "б"\n\n'
        '#, fuzzy\nmsgid "c"\nmsgstr "д"\n\n'
        'msgctxt "rank"\nmsgid "K"\nmsgstr "К"\n\n'
        'msgid ""\n"two\\n"\n"lines"\nmsgstr ""\n"две\\n"\n"строки"\n'
    )
    cat = i18n.parse_po(text)
    assert cat["a"] == "б" and "c" not in cat
    assert cat["rank\x04K"] == "К"
    assert cat["two\nlines"] == "две\nстроки"
    with pytest.raises(ValueError, match="line"):
        i18n.parse_po('msgid "x"\nnonsense "y"\n')
