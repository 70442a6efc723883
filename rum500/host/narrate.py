"""Events and options in words, for the headless host's log, the headless guest's and
``rum500 list``: :func:`describe_event`, :func:`options_text` (moved as they are from the old
``rum500/hosting.py``)."""

from __future__ import annotations

from rum500 import narrate


def describe_event(event: dict, names: list[str]) -> str:
    """One line of plain English for a public event (the headless host's log): the
    narrator's plain voice (:func:`rum500.narrate.plain`)."""
    return narrate.plain(event, names)


def options_text(options: object) -> str:
    """A table's options that differ from the standard game (its TXT record's ``options``,
    ``welcome``'s ``table.changed``) as ``rum500 list``, the lobby and the waiting room show
    them: ``target=300 jokers=True teams=2``; "" when there are none."""
    if not isinstance(options, dict):
        return ""
    return " ".join(f"{k}={v}" for k, v in options.items())
