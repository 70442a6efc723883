"""Key bindings of the table screen, made from the model (pyvim's ``create_key_bindings``)."""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from rum500.tui.helptext import help_lines
from rum500.tui.model import TableModel

#: The letter the same physical key types on a Russian (ЙЦУКЕН) layout, so the keys work
#: whichever layout is active.
CYRILLIC_TWIN = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))


def with_twins(keys: tuple[str, ...]) -> tuple[str, ...]:
    return keys + tuple(CYRILLIC_TWIN[k] for k in keys if k in CYRILLIC_TWIN)


def build_key_bindings(model: TableModel) -> KeyBindings:
    kb = KeyBindings()
    table = Condition(lambda: model.overlay is None)
    chatting = Condition(lambda: model.overlay == "chat")
    helping = Condition(lambda: model.overlay == "help")
    quitting = Condition(lambda: model.overlay == "quit")
    sheet = Condition(lambda: model.overlay == "sheet")
    final = Condition(lambda: model.overlay == "final")

    def bind(keys: tuple[str, ...], method, flt=table) -> None:  # type: ignore[no-untyped-def]
        for key in with_twins(keys):
            kb.add(key, filter=flt)(lambda event, method=method: method())

    bind(("left",), lambda: model.move(-1))
    bind(("right",), lambda: model.move(1))
    bind(("home",), model.move_home)
    bind(("up",), lambda: model.switch_zone(-1))
    bind(("down",), lambda: model.switch_zone(1))
    bind(("space",), model.toggle_select)
    bind(("s",), model.draw_stock)
    bind(("t",), model.take_pile)
    bind(("m",), model.meld_selected)
    bind(("l",), model.lay_off)
    bind(("d",), model.discard)
    bind(("e",), model.end_hand)
    bind(("n",), model.deal)
    bind(("enter",), model.enter)
    bind(("o",), model.toggle_sort)
    bind(("g",), model.start_with_bots)
    bind(("h",), model.hint)
    bind(("u", "escape"), model.clear_selection)
    bind(("c",), model.open_chat)
    bind(("?",), model.toggle_help, table | helping)
    bind(("q", "c-c"), model.ask_quit, table | final)

    # help: scroll, close
    bind(("up",), lambda: model.scroll_help(-1, len(help_lines())), helping)
    bind(("down",), lambda: model.scroll_help(1, len(help_lines())), helping)
    bind(("pageup",), lambda: model.scroll_help(-10, len(help_lines())), helping)
    bind(("pagedown", "space"), lambda: model.scroll_help(10, len(help_lines())), helping)
    bind(("escape", "q", "enter"), model.close_overlay, helping)

    # leaving: y leaves, anything else stays
    bind(("y", "Y", "c-c"), model.confirm_quit, quitting)
    bind(("n", "N", "escape", "q"), model.close_overlay, quitting)

    # the score sheet: Enter deals when it is my deal, else closes
    def sheet_enter() -> None:
        if model.legal("deal"):
            model.deal()
        else:
            model.close_overlay()

    bind(("enter", "n"), sheet_enter, sheet)
    bind(("escape", "space"), model.close_overlay, sheet)
    bind(("?",), model.toggle_help, sheet | final)
    bind(("q", "c-c"), model.ask_quit, sheet)
    bind(("escape",), model.close_overlay, final)

    # chat input
    @kb.add(Keys.Any, filter=chatting)
    def _(event: KeyPressEvent) -> None:
        if event.data and event.data.isprintable():
            model.chat_type(event.data)

    bind(("enter",), model.chat_send, chatting)
    bind(("escape",), model.close_overlay, chatting)
    bind(("backspace", "c-h"), model.chat_backspace, chatting)
    bind(("c-c",), model.close_overlay, chatting)
    return kb
