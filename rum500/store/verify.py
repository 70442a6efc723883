"""``rum500 verify FILE``: every hand of an exported match checked as a client checks it at
the table (docs/rules.md, "A deal nobody can stack"; docs/storage.md, the export's
``deals``). For each hand: its committed deal's secret must match its commitment, and the
deal the file records (every hand, the upcard, the whole stock in order) must be the one
the secret and the contributions give (rum500/rules/shuffle.py) — and the one the match's
actions, replayed by the engine, were played from. A hand dealt without a commitment (an
older file, a table with a fixed seed) is "not committed".

:func:`rum500.store.deals.dealt_hands` gives the export's ``deals``; :func:`verify_match`
the verdicts."""

from __future__ import annotations

import sys
from pathlib import Path

from rum500 import cards as C
from rum500.configs import VerifyConfig
from rum500.i18n import N_, _
from rum500.rules import Options
from rum500.rules.shuffle import check_deal, deal_order, hand_key, layout
from rum500.store.db import StoreError
from rum500.store.deals import replayed
from rum500.store.exchange import _check_fields, read_document
from rum500.store.matchfile import checksum

FIELDS = ("hands", "upcard", "stock")


def verify_match(match: dict) -> list[dict]:
    """One verdict per hand: ``{"hand", "ok", "status", "detail"}``, ``status`` one of
    ``checked``, ``not_committed``, ``wrong_secret``, ``differs`` (the deal the file records
    is not the one its commitment gives), ``not_played`` (it is not the one the match's
    actions were played from), ``unplayable``; ``detail`` in the current language."""
    recorded = {d.get("hand"): d for d in match.get("deals") or [] if isinstance(d, dict)}
    players = int(match["players"])
    options = Options.from_dict(match["options"])
    deck = C.deck(options.deck_count(players), options.jokers)
    size = options.hand_size(players)
    deals, actions, stopped = replayed(match)
    out = []
    for played, action in zip(deals, actions, strict=True):
        hand = played["hand"]
        out.append(_verdict(hand, played, action, recorded.get(hand), players, deck, size))
    if stopped is not None:
        out.append({**stopped, "ok": False})
    return out


def _verdict(
    hand: int,
    played: dict,
    action: dict | None,
    saved: dict | None,
    players: int,
    deck: list[int],
    size: int,
) -> dict:
    def verdict(status: str, detail: str = "") -> dict:
        return {
            "hand": hand,
            "ok": status in ("checked", "not_committed"),
            "status": status,
            "detail": detail,
        }

    if saved is not None:
        differs = _first_difference(saved, played, PLAYED_WITH)
        if differs:
            return verdict("not_played", differs)
    if action is None or "secret" not in action:
        return verdict("not_committed")
    if check_deal(action, players) is not None:
        return verdict("wrong_secret", _("the secret does not match the commitment"))
    order, _cut = deal_order(hand_key(action["secret"], action["contributions"]), deck)
    derived = {"hand": hand, **layout(order, players, played["dealer"], size)}
    differs = _first_difference(saved or played, derived, DEAL_GIVES)
    if differs:
        return verdict("differs", differs)
    if saved is None:
        return verdict("differs", _("the file records no deal for this hand"))
    return verdict("checked")


#: where a recorded deal parts from the one its commitment gives …
DEAL_GIVES = {
    "hand": N_("seat {seat}'s hand is {cards}, the deal gives {other}"),
    "hands": N_("the number of hands differs"),
    "upcard": N_("the upcard is {card}, the deal gives {other}"),
    "card": N_("stock card {n} from the top is {card}, the deal gives {other}"),
    "size": N_("the stock holds {n} cards, the deal gives {other}"),
}
#: … and from the one the match's actions were played from
PLAYED_WITH = {
    "hand": N_("seat {seat}'s hand is {cards}, the match was played with {other}"),
    "hands": N_("the number of hands differs"),
    "upcard": N_("the upcard is {card}, the match was played with {other}"),
    "card": N_("stock card {n} from the top is {card}, the match was played with {other}"),
    "size": N_("the stock holds {n} cards, the match was played with {other}"),
}


def _first_difference(saved: dict, derived: dict, words: dict[str, str]) -> str:
    """Where the deal ``saved`` (as the file records it) first differs from ``derived``, in
    ``words`` (:data:`DEAL_GIVES`, :data:`PLAYED_WITH`) and the current language; "" when it
    does not."""
    for seat, (a, b) in enumerate(zip(saved.get("hands") or [], derived["hands"], strict=False)):
        if a != b:
            mine, theirs = " ".join(map(str, a)), " ".join(b)
            return _(words["hand"]).format(seat=seat, cards=mine, other=theirs)
    if len(saved.get("hands") or []) != len(derived["hands"]):
        return _(words["hands"])
    if saved.get("upcard") != derived["upcard"]:
        return _(words["upcard"]).format(card=saved.get("upcard"), other=derived["upcard"])
    stock = saved.get("stock") or []
    for i, (a, b) in enumerate(zip(stock, derived["stock"], strict=False)):
        if a != b:
            return _(words["card"]).format(n=i + 1, card=a, other=b)
    if len(stock) != len(derived["stock"]):
        return _(words["size"]).format(n=len(stock), other=len(derived["stock"]))
    return ""


def read_match(file: Path) -> tuple[dict, bool]:
    """The ``match`` of an export file and whether its checksum holds (``StoreError`` when it
    is no match file at all: the same words as ``rum500 import``'s)."""
    doc = read_document(file)
    match = doc["match"]
    sound = checksum(match) == doc["sha256"].lower()
    _check_fields(file, match)
    return match, sound


def run_verify(config: VerifyConfig) -> int:
    """Print one line per hand; 0 when every committed hand checks (and the file's checksum
    holds), 1 otherwise, 2 when the file is not a match."""
    file = Path(config.file)
    try:
        match, sound = read_match(file)
        verdicts = verify_match(match)
    except StoreError as e:
        print(f"rum500: {e.said()}", file=sys.stderr)
        return 2
    failed = not sound
    shown = _("standard input") if config.file == "-" else str(file)
    if not sound:
        print(_("{file} fails its checksum: it was edited after export").format(file=shown))
    words = {
        "checked": _("deal checked"),
        "not_committed": _("not committed"),
        "wrong_secret": _("NOT CHECKED: wrong secret"),
        "differs": _("NOT CHECKED: the deal differs from its commitment"),
        "not_played": _("NOT CHECKED: the file's deal is not the one the match was played from"),
        "unplayable": _("NOT CHECKED: the match cannot be replayed"),
    }
    for v in verdicts:
        failed |= not v["ok"]
        detail = f" — {v['detail']}" if v["detail"] else ""
        print(_("hand {n}: {verdict}").format(n=v["hand"], verdict=words[v["status"]]) + detail)
    checked = sum(1 for v in verdicts if v["status"] == "checked")
    if verdicts and all(v["status"] == "not_committed" for v in verdicts):
        print(
            _(
                "No hand of this match was dealt from a commitment (a table with --seed, or "
                "an older match): there was nothing to check."
            )
        )
    print(
        _("{file}: {checked} of {hands} hands checked, {failed}.").format(
            file=shown,
            checked=checked,
            hands=len(verdicts),
            failed=_("FAILED") if failed else _("no hand failed"),
        )
    )
    return 1 if failed else 0
