"""Translations: gettext catalogs under ``rum500/locale``; English is the source language.

``set_language(lang)`` picks the catalog once per process (``None``: from the locale
environment); ``_`` and ``pgettext`` read the current catalog at call time, so text built
after ``set_language`` is translated.

The runtime is the standard library's :mod:`gettext` on the compiled ``.mo`` committed next
to its ``.po``. The catalogs are kept with Babel (a development tool, in the ``dev`` and
``test`` extras; the README has the workflow): ``pybabel extract -F babel.cfg`` collects the
messages marked with ``_``, ``N_``, ``ngettext``, ``pgettext`` and the rules'
``IllegalMove`` templates, ``pybabel update`` merges them into each ``.po`` and
``pybabel compile`` writes the ``.mo`` (a test checks it agrees with the ``.po``).
``python -m rum500.i18n`` runs that compile step; ``--missing`` lists what a catalog lacks.
"""

from __future__ import annotations

import gettext
import os
import sys
from pathlib import Path
from typing import Any

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


def decimal(x: float, digits: int, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals (a ``+`` before a positive one with ``sign``), with the
    current language's decimal separator (``3,30`` in Russian)."""
    text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    return text.replace(".", pgettext("decimal separator", "."))


#: argparse's own messages that a user can meet: argparse reads them with gettext's
#: module-level functions, so our catalog carries them (listed here so that extraction
#: keeps them) and :func:`translate_argparse` points argparse at it
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
)


def translate_argparse() -> None:
    """Have argparse say its own words ("usage:", "error:", "the following arguments are
    required" …) in the current language: it looks its ``_`` and ``ngettext`` up in its
    module when it speaks, so they are pointed at this catalog's."""
    import argparse

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


#: the most of a host's own text (a sentence, a value in it) a screen shows
HOST_TEXT = 200


def from_host(message: object, template: object = None, params: object = None) -> str:
    """A sentence a host sent (a ``notice``, the lobby's ``failover.note``) in the current
    language: its English ``template`` translated and filled in with ``params`` — each
    value itself translated when the catalog knows it (a reason such as "no answer") —;
    ``message`` as sent when there is no template or the catalog does not know it, on one
    line and cut to :data:`HOST_TEXT` characters (what a host may make a screen show of its
    own words: a translation is our catalog's, with each value so bounded, and is never cut).
    """
    text = " ".join(str(message or "").split())[:HOST_TEXT]
    if not isinstance(template, str) or not template:
        return text
    translated = _(template)
    if translated == template:  # English, or a template this catalog does not know:
        return text  # the sentence as sent (a stranger's template is never formatted)
    fields = params if isinstance(params, dict) else {}
    values = {str(k): _(str(v)[:HOST_TEXT]) for k, v in fields.items()}
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return text


# ---------------------------------------------------------------- catalogs (Babel, dev only)

#: the source checkout: babel.cfg (Babel's extraction map) lives at its top
PROJECT_DIR = Path(__file__).resolve().parent.parent
BABEL_CFG = PROJECT_DIR / "babel.cfg"


def po_files() -> list[Path]:
    return sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract_messages() -> list[tuple[str | None, str]]:
    """Every (context, msgid) marked in the sources, as ``pybabel extract -F babel.cfg``
    finds them, in order of first appearance. Needs Babel."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with BABEL_CFG.open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f, str(BABEL_CFG))
    found: dict[tuple[str | None, str], None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(PROJECT_DIR), method_map, options_map
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            found[(context, msgid)] = None
    return list(found)


def read_catalog(po: Path) -> Any:
    """The ``.po`` file as a Babel ``Catalog``. Needs Babel."""
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        return read_po(f, locale=po.parent.parent.name, domain=DOMAIN)


def missing_entries(po: Path) -> list[tuple[str | None, str]]:
    """The marked messages that ``po`` lacks or leaves untranslated or fuzzy."""
    catalog = read_catalog(po) if po.exists() else None
    out = []
    for ctx, msgid in extract_messages():
        entry = catalog.get(msgid, context=ctx) if catalog is not None else None
        text = entry.string if entry is not None else None
        if isinstance(text, tuple | list):
            text = all(text) and text[0]
        if not text or entry.fuzzy:
            out.append((ctx, msgid))
    return out


def main(argv: list[str]) -> int:
    """``python -m rum500.i18n``: ``pybabel compile`` for every catalog; ``--missing``: list
    the messages each catalog lacks (to add with ``pybabel update``) and fail if any."""
    try:
        from babel.messages.frontend import CommandLineInterface
    except ImportError:
        print("rum500: the catalog tools need Babel: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    if "--missing" in argv:
        lacking = False
        for po in po_files():
            for ctx, msgid in missing_entries(po):
                lacking = True
                where = f" (context {ctx!r})" if ctx else ""
                print(f"{po}: {msgid!r}{where}")
        return 1 if lacking else 0
    cli = CommandLineInterface()
    return cli.run(["pybabel", "compile", "-d", str(LOCALE_DIR), "-D", DOMAIN]) or 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
