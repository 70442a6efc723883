"""The player's screen settings kept between runs: ``settings.json`` in the data folder (beside
the game log and ``tokens.json``; ``$RUM500_HOME`` when set): the lobby's four-colour deck
(``four_colour``: ♠ black, ♥ red, ♦ blue, ♣ green), which every screen of a later run uses
too, as ``--four-colour`` would; and how the hand is sorted (``hand_sort``: ``suit`` or
``rank``, the table's key o), which every later table starts with.

A file that is missing, too big or not what this module wrote reads as no settings; a file
that cannot be written gives the reason (the setting still holds for this run).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from rum500.tokens import data_dir

FILE = "settings.json"
#: the biggest settings file read (anything bigger is not ours)
MAX_BYTES = 4096
#: the settings and their kind (anything else in the file is left out)
KNOWN = {"four_colour": bool, "hand_sort": str}
#: the values a setting of kind ``str`` may take (anything else reads as not set)
CHOICES = {"hand_sort": ("suit", "rank")}


def path() -> Path:
    return data_dir() / FILE


def load() -> dict:
    """The settings saved (only :data:`KNOWN` ones of the right kind), ``{}`` when none."""
    try:
        with path().open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_BYTES else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: v
        for k, v in data.items()
        if k in KNOWN and isinstance(v, KNOWN[k]) and (k not in CHOICES or v in CHOICES[k])
    }


def save(**changes: object) -> str | None:
    """Keep ``changes`` over the saved settings; the reason when it cannot be written."""
    settings = {**load(), **{k: v for k, v in changes.items() if k in KNOWN}}
    target = path()
    tmp = target.with_name(FILE + ".tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp.write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return str(e)
    return None


def four_colour() -> bool:
    """Whether the lobby's four-colour deck was turned on (in this or an earlier run)."""
    return bool(load().get("four_colour"))


def hand_sort() -> str:
    """How the hand was last sorted at a table (key o): ``suit`` (the default) or ``rank``."""
    return str(load().get("hand_sort", "suit"))
