"""Key bindings of the table screen, made from the model (pyvim's ``create_key_bindings``).

With an overlay open, only that overlay's keys act; any other key gets a one-line answer
(:meth:`TableModel.overlay_key`), never silence.
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from rum500.tui.model import TableModel

#: The letter the same physical key types on a Russian (ЙЦУКЕН) layout, so the keys work
#: whichever layout is active.
CYRILLIC_TWIN = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))


def with_twins(keys: tuple[str, ...]) -> tuple[str, ...]:
    return keys + tuple(CYRILLIC_TWIN[k] for k in keys if k in CYRILLIC_TWIN)


def build_key_bindings(model: TableModel) -> KeyBindings:
    kb = KeyBindings()

    def shown(*names: str) -> Condition:
        return Condition(lambda: model.overlay in names)

    table = Condition(lambda: model.overlay is None)
    online = Condition(lambda: not model.link_down)
    play = table & online  # keys that go to the host: not while the link is down
    chatting = shown("chat")
    helping = shown("help")
    quitting = shown("quit")
    sheet = shown("sheet")
    scores = shown("scores")
    confirm = shown("confirm")
    final = shown("final")
    choosing = shown("choose")
    other_overlay = Condition(lambda: model.overlay not in (None, "chat"))

    def bind(keys: tuple[str, ...], method, flt=table) -> None:  # type: ignore[no-untyped-def]
        for key in with_twins(keys):
            kb.add(key, filter=flt)(lambda event, method=method: method())

    # any key an overlay does not use: one line saying why nothing happens
    @kb.add(Keys.Any, filter=other_overlay)
    def _why(event: KeyPressEvent) -> None:
        model.overlay_key(event.data)

    # while the link to the host is down, a key that would go to it: one line saying so
    @kb.add(Keys.Any, filter=table & ~online)
    def _offline(event: KeyPressEvent) -> None:
        model.offline_key(event.data)

    bind(("left",), lambda: model.move(-1))
    bind(("right",), lambda: model.move(1))
    bind(("home",), model.move_home)
    bind(("end",), model.move_end)
    bind(("up",), lambda: model.switch_zone(-1))
    bind(("down",), lambda: model.switch_zone(1))
    bind(("space",), model.toggle_select, play)
    bind(("s",), model.draw_stock, play)
    bind(("t",), model.take_pile, play)
    bind(("m",), model.meld_selected, play)
    bind(("l",), model.lay_off, play)
    bind(("d",), model.discard, play)
    bind(("e",), model.end_hand, play)
    bind(("n",), model.deal, play)
    bind(("u",), model.take_back, play)
    bind(("enter",), model.enter, play)
    bind(("o",), model.toggle_sort)
    bind(("g",), model.start_with_bots, play)
    bind(("H",), model.offer_handoff, play)
    bind(("I",), model.toggle_table_hint, play)
    bind(("h",), model.hint, play)
    bind(("r",), model.claim.call, play)
    bind(("x",), model.claim.pass_, play)
    bind(("escape",), model.clear_selection)
    bind(("c",), model.open_chat, (table | sheet | scores | final) & online)
    bind(("p",), model.scores.toggle, table | sheet | scores | final)
    bind(("?",), model.toggle_help, table | helping | sheet | scores | final)
    bind(("q", "c-c"), model.ask_quit, table | sheet | scores | final)

    # help: scroll, close
    bind(("up",), lambda: model.scroll_help(-1, len(model.help_lines())), helping)
    bind(("down",), lambda: model.scroll_help(1, len(model.help_lines())), helping)
    bind(("pageup",), lambda: model.scroll_help(-10, len(model.help_lines())), helping)
    bind(("pagedown", "space"), lambda: model.scroll_help(10, len(model.help_lines())), helping)
    bind(("escape", "q", "enter"), model.close_overlay, helping)

    # leaving: y leaves, n stays
    bind(("y", "Y", "c-c"), model.confirm_quit, quitting)
    bind(("n", "N", "escape", "q"), model.close_overlay, quitting)

    # a yes/no question (ending the hand)
    bind(("y", "Y"), model.confirm_yes, confirm)
    bind(("n", "N", "escape", "c-c"), model.close_overlay, confirm)

    # the hand-end review: Enter = ready (or deal / close), arrows scroll, Esc shows the table
    bind(("enter", "n"), model.review.enter, sheet & online)
    bind(("escape",), model.close_overlay, sheet)
    bind(("up",), lambda: model.review.scroll_by(-1), sheet)
    bind(("down",), lambda: model.review.scroll_by(1), sheet)
    bind(("pageup",), lambda: model.review.scroll_by(-10), sheet)
    bind(("pagedown", "space"), lambda: model.review.scroll_by(10), sheet)

    # the score table
    bind(("escape", "enter"), model.close_overlay, scores)
    bind(("up",), lambda: model.scores.scroll_by(-1), scores)
    bind(("down",), lambda: model.scores.scroll_by(1), scores)
    bind(("pageup",), lambda: model.scores.scroll_by(-10), scores)
    bind(("pagedown", "space"), lambda: model.scores.scroll_by(10), scores)

    bind(("escape",), model.close_overlay, final)

    # a numbered question (which card a joker stands for, which meld a call goes on)
    for n in range(1, 10):
        bind((str(n),), lambda n=n: model.choose_pick(n - 1), choosing)
    bind(("escape", "q", "c-c"), model.close_overlay, choosing)

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
