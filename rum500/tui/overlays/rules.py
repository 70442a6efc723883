"""The house rules' lessons (``L`` in the help): one short page per house rule on at this
table (:mod:`rum500.learn.pages`), ← → between pages, Esc back to the help."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.layout import AnyContainer

from rum500.i18n import _
from rum500.learn.pages import pages
from rum500.tui.feed import Feed
from rum500.tui.overlays.keymap import Key, Kit, Overlay
from rum500.tui.tableview import TableView
from rum500.tui.wrapping import wrap_text


class RulePages(Protocol):
    """What the lessons' pages use of the table screen (a narrow port)."""

    tableview: TableView  # what the host sent, and its accessors
    rule_page: int
    overlay: str | None
    feed: Feed  # the message line

    def close_overlay(self) -> None: ...

    def on_change(self) -> None: ...


def page_texts(model: RulePages) -> list[str]:
    return pages((model.tableview.view or {}).get("options"))


def open_pages(model: RulePages) -> None:
    """Open the first page over the help."""
    model.rule_page = 0
    model.overlay = "rules"
    model.on_change()


def turn(model: RulePages, step: int) -> None:
    model.rule_page = max(0, min(len(page_texts(model)) - 1, model.rule_page + step))
    model.on_change()


def lines(model: RulePages, width: int) -> list:
    texts = page_texts(model)
    k = max(0, min(model.rule_page, len(texts) - 1))
    title, _sep, text = texts[k].partition("\n")
    out = [[("class:label", title)], []]
    out += wrap_text([("", text)], width, indent=0)
    out += [
        [],
        [
            (
                "class:dim",
                _("Page {k} of {n} · ← → pages · Esc closes").format(k=k + 1, n=len(texts)),
            )
        ],
    ]
    return out


def keys(model: RulePages) -> list[Key]:
    return [
        Key(("left",), lambda: turn(model, -1)),
        Key(("right",), lambda: turn(model, 1), "←→", lambda: _("pages")),
        Key(("escape", "q", "enter", "L"), model.close_overlay, "Esc", lambda: _("close")),
    ]


def body(model: RulePages, kit: Kit) -> AnyContainer:
    return kit.scrolled(lambda w: lines(model, w), lambda n, room: 0)


def why(model: RulePages, key: str) -> None:
    model.feed.say(_("The house rules' lessons are open: Esc closes them."))


OVERLAY = Overlay(
    "rules",
    lambda: _("House rules, a lesson each"),
    keys,
    body,
    lambda kit: kit.above_the_keys(),
    why,
)
