"""Catalogs: the committed .mo is the compiled .po (Babel), every marked message has a Russian
translation that keeps its {placeholders}, and the language switch works."""

from __future__ import annotations

import gettext
import io
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from rum500 import i18n
from rum500.tui import describe
from rum500.tui.helptext import help_lines, rules_text


@pytest.fixture(autouse=True)
def english_after() -> None:
    yield
    i18n.set_language("en")


def _mo_catalog(data: bytes) -> dict:
    """What gettext reads from a .mo: {msgid or (msgid, n): text}, without the header."""
    loaded = gettext.GNUTranslations(io.BytesIO(data))
    return {k: v for k, v in loaded._catalog.items() if k != ""}  # type: ignore[attr-defined]


def test_committed_mo_matches_po() -> None:
    pos = i18n.po_files()
    assert pos, "no .po catalog found"
    for po in pos:
        catalog = i18n.read_catalog(po)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)  # what pybabel compile writes
        shipped = po.with_suffix(".mo").read_bytes()
        assert _mo_catalog(shipped) == _mo_catalog(compiled.getvalue()), (
            f"{po.with_suffix('.mo')} is stale: run pybabel compile -d rum500/locale -D rum500"
        )
        with po.with_suffix(".mo").open("rb") as f:
            loaded = gettext.GNUTranslations(f)
        assert loaded.gettext("Help") == catalog.get("Help").string
        assert loaded.plural(2) == 1 and loaded.plural(5) == 2  # Russian plural forms


def test_compile_command_writes_what_gettext_reads(tmp_path: Path) -> None:
    """``pybabel compile`` (the documented step) gives the shipped .mo's catalog."""
    po = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "rum500.po"
    out = tmp_path / "rum500.mo"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "compile",
            "-i",
            str(po),
            "-o",
            str(out),
            "-l",
            "ru",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert _mo_catalog(out.read_bytes()) == _mo_catalog(po.with_suffix(".mo").read_bytes())


def _fields(text: str | tuple) -> set[str]:
    if isinstance(text, tuple | list):  # plural forms (ngettext): each keeps every placeholder
        forms = [_fields(t) for t in text]
        return forms[0] if all(f == forms[0] for f in forms) else {"<the plural forms differ>"}
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


def test_every_message_is_translated_with_its_placeholders() -> None:
    po = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "rum500.po"
    catalog = i18n.read_catalog(po)
    messages = i18n.extract_messages()
    assert len(messages) > 100
    # babel.cfg's IllegalMove keyword: the rules' refusals are extracted too
    assert (None, "it is not your turn") in messages
    assert ("rank", "K") in messages
    missing = []
    for ctx, msgid in messages:
        entry = catalog.get(msgid, context=ctx)
        if entry is None or not entry.string or entry.fuzzy:
            missing.append(msgid)
            continue
        assert _fields(entry.string) == _fields(msgid), msgid
    assert missing == []
    assert i18n.missing_entries(po) == []


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


def test_the_help_keys_descriptions_start_in_one_column_in_every_language() -> None:
    """The keys part of the help: each key's words start in the same column (17), in
    Russian too (a key name of 15 letters pushed its words one column right)."""
    from rum500.tui.helptext import _KEY_ROW, keys_text

    try:
        for language in ("en", "ru"):
            i18n.set_language(language)
            rows = [m for line in keys_text().splitlines() if (m := _KEY_ROW.match(line))]
            assert len(rows) > 15, language
            assert {len(m.group(1)) + len(m.group(2)) for m in rows} == {17}, language
    finally:
        i18n.set_language("en")


def test_the_help_says_the_tables_target() -> None:
    """The rules in the help end the match at the table's target, not always at 500."""
    from rum500.rules import Options

    options = Options(target=100).to_dict()
    try:
        assert "Once a total reaches 100, the highest" in "\n".join(help_lines(options=options))
        assert "Once a total reaches 500, the highest" in "\n".join(help_lines())
        i18n.set_language("ru")
        assert "Когда чей-то итог достиг 100," in "\n".join(help_lines(options=options))
    finally:
        i18n.set_language("en")


def test_language_from_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert i18n.detect_language() == "ru"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert i18n.detect_language() == "en"


def test_babel_extract_and_update_keep_every_translation(tmp_path: Path) -> None:
    """The README's workflow: ``pybabel extract -F babel.cfg`` then ``pybabel update`` on (a
    copy of) the catalog keeps every translation and adds what the code marks new."""
    pot = tmp_path / "rum500.pot"
    babel = [sys.executable, "-m", "babel.messages.frontend"]
    r = subprocess.run(
        [*babel, "extract", "-F", str(i18n.BABEL_CFG), "-o", str(pot), str(i18n.PROJECT_DIR)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=i18n.PROJECT_DIR,
    )
    assert r.returncode == 0, r.stderr
    po = tmp_path / "ru" / "LC_MESSAGES" / "rum500.po"
    po.parent.mkdir(parents=True)
    shipped = i18n.LOCALE_DIR / "ru" / "LC_MESSAGES" / "rum500.po"
    po.write_bytes(shipped.read_bytes())
    r = subprocess.run(
        [
            *babel,
            "update",
            "-i",
            str(pot),
            "-d",
            str(tmp_path),
            "-D",
            "rum500",
            "--no-fuzzy-matching",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    before = {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
        for m in i18n.read_catalog(shipped)
        if m.id and m.string
    }
    after = i18n.read_catalog(po)
    marked = set(i18n.extract_messages())
    for (ctx, msgid), text in before.items():
        if (ctx, msgid) in marked:
            assert after.get(msgid, context=ctx).string == text, msgid
    assert ("rank", "K") in {(m.context, m.id) for m in after if m.id}


def test_russian_says_kon_for_a_hand_and_razdacha_for_a_deal() -> None:
    """One word for one thing (the vocabulary of docs/rules.md): a hand, the round from the
    deal to its scoring, is «кон»; «раздача» is only the deal itself (the shuffle and its
    commitment, the cards dealt). "Went out" — rid of every card — is never «вышел из игры»,
    which says the player left the match."""
    catalog = i18n.read_catalog(next(p for p in i18n.po_files() if "/ru/" in p.as_posix()))
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        english, russian = " ".join(ids), " ".join(texts)
        if re.search(r"раздач", russian, re.IGNORECASE) and not re.search(
            r"\bdeal", english, re.IGNORECASE
        ):
            wrong.append((english, russian))
        if "вышел из игры" in russian and re.search(r"\bwent out\b", english):
            wrong.append((english, russian))
    assert not wrong, "\n".join(f"{e!r} -> {r!r}" for e, r in wrong)


def test_bot_levels_are_named_in_the_players_language_and_kept_in_english() -> None:
    """The lobby's form shows a level in Russian; the value it sets stays the command line's
    word (``--bot-level hard``)."""
    from rum500.tui.lobby import _levels

    try:
        i18n.set_language("ru")
        shown = dict(_levels())
    finally:
        i18n.set_language("en")
    assert shown["hard"] == "сильный" and shown["random"] == "случайный"
    assert dict(_levels())["hard"] == "hard"
