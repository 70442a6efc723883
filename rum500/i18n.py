"""Translations: gettext catalogs under ``rum500/locale``; English is the source language.

``set_language(lang)`` picks the catalog once per process (``None``: from the locale
environment); ``_`` and ``pgettext`` read the current catalog at call time, so text built
after ``set_language`` is translated.

The compiled ``.mo`` is committed next to its ``.po``. After editing the ``.po`` run
``python -m rum500.i18n`` to rebuild every ``.mo`` (a test checks they agree);
``python -m rum500.i18n --missing`` prints the entries a catalog still lacks.
"""

from __future__ import annotations

import ast
import gettext
import os
import struct
import sys
from pathlib import Path

DOMAIN = "rum500"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ru")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def detect_language() -> str:
    """The language named by the locale environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


def set_language(lang: str | None) -> str:
    """Use ``lang`` ("en", "ru"; None: from the locale) from now on; returns the one chosen."""
    global _translation, _language
    lang = lang or detect_language()
    if lang not in LANGUAGES:
        lang = "en"
    _language = lang
    _translation = gettext.translation(
        DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True
    )
    return lang


def language() -> str:
    return _language


def _(message: str) -> str:
    """The current language's text for ``message``."""
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; ``_`` translates it later."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translation.pgettext(context, message)


# ---------------------------------------------------------------- catalogs (.po -> .mo)


def _unquote(text: str) -> str:
    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(f"not a string: {text}")
    return value


def parse_po(text: str) -> dict[str, str]:
    """The catalog of a ``.po`` file as ``{msgid: msgstr}`` (context as ``ctxt\\x04id``).

    Handles what this project's catalogs use: msgctxt, msgid, msgstr, continued strings and
    comments; untranslated and fuzzy entries are left out, as ``msgfmt`` does.
    """
    catalog: dict[str, str] = {}
    entry: dict[str, str] = {}
    key: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        if "msgid" in entry and (entry.get("msgstr") or entry["msgid"] == ""):
            msgid = entry["msgid"]
            if "msgctxt" in entry:
                msgid = entry["msgctxt"] + "\x04" + msgid
            if not fuzzy or entry["msgid"] == "":
                catalog[msgid] = entry["msgstr"]
        entry = {}
        fuzzy = False

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in entry:
                    flush()
                fuzzy = True
            continue
        try:
            if line.startswith('"'):
                if key is None:
                    raise ValueError("a string outside an entry")
                entry[key] += _unquote(line)
                continue
            word, _sep, rest = line.partition(" ")
            if word not in ("msgctxt", "msgid", "msgstr"):
                raise ValueError(f"unknown keyword {word!r}")
            if word in ("msgctxt", "msgid") and "msgstr" in entry:
                flush()
            key = word
            entry[key] = _unquote(rest.strip())
        except (ValueError, SyntaxError) as e:
            raise ValueError(f"line {lineno}: {e}") from None
    flush()
    return catalog


def compile_mo(catalog: dict[str, str]) -> bytes:
    """GNU ``.mo`` bytes for a catalog (the layout of CPython's ``Tools/i18n/msgfmt.py``)."""
    keys = sorted(catalog)
    ids = b""
    strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for k in keys:
        kb = k.encode("utf-8")
        vb = catalog[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    table = struct.pack(f"{len(koffsets)}i", *koffsets) + struct.pack(
        f"{len(voffsets)}i", *voffsets
    )
    return header + table + ids + strs


SOURCE_DIRS = ("tui", "rules")


def extract_messages(root: Path | None = None) -> list[tuple[str | None, str]]:
    """Every (context, msgid) marked in the sources: ``_("…")``, ``N_("…")``,
    ``pgettext("ctx", "…")`` and the rules' ``IllegalMove("…", …)`` templates, with literal
    strings, in order of first appearance."""
    root = root or Path(__file__).parent
    found: dict[tuple[str | None, str], None] = {}
    files = [root / "i18n.py"] + [p for d in SOURCE_DIRS for p in sorted((root / d).rglob("*.py"))]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            args = node.args
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                continue
            if node.func.id in ("_", "N_", "IllegalMove") and len(args) == 1:
                found[(None, args[0].value)] = None  # type: ignore[union-attr]
            elif node.func.id == "pgettext" and len(args) == 2:
                found[(args[0].value, args[1].value)] = None  # type: ignore[union-attr]
    return list(found)


def _po_quote(text: str) -> str:
    if "\n" not in text.rstrip("\n"):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    lines = text.splitlines(keepends=True)
    return '""\n' + "\n".join(_po_quote(line) for line in lines)


def missing_entries(po: Path) -> str:
    """``.po`` entries (msgstr empty) for the marked messages ``po`` lacks."""
    have = parse_po(po.read_text(encoding="utf-8")) if po.exists() else {}
    raw = po.read_text(encoding="utf-8") if po.exists() else ""
    out = []
    for ctx, msgid in extract_messages():
        key = msgid if ctx is None else ctx + "\x04" + msgid
        if key in have or _po_quote(msgid) in raw:
            continue
        entry = f"msgctxt {_po_quote(ctx)}\n" if ctx is not None else ""
        out.append(entry + f'msgid {_po_quote(msgid)}\nmsgstr ""\n')
    return "\n".join(out)


def po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_all() -> list[Path]:
    """Rebuild every ``.mo`` from its ``.po``; returns the files written."""
    written = []
    for po in po_files():
        mo = po.with_suffix(".mo")
        mo.write_bytes(compile_mo(parse_po(po.read_text(encoding="utf-8"))))
        written.append(mo)
    return written


def main(argv: list[str]) -> int:
    """``python -m rum500.i18n``: rebuild every .mo; ``--missing``: print the .po entries each
    catalog lacks (to translate and paste in), and fail if there are any."""
    if "--missing" in argv:
        lacking = False
        for po in po_files():
            entries = missing_entries(po)
            if entries:
                lacking = True
                print(f"# {po}\n{entries}")
        return 1 if lacking else 0
    for path in compile_all():
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
