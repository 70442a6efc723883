"""The table screen's feed: the log, the chat, the one-line message, the host's notice and the
banner (the link to the host down, the rejoin countdown), and the chat line being typed.

:class:`Feed` keeps each within its bounds (the newest :data:`LOG_LINES` log lines and
:data:`CHAT_LINES` chat lines, a host's own words cut to 200 characters by
:func:`rum500.i18n.from_host` — never its translation —, a chat line to 200) and calls
``on_change`` (given to it: the screen's redraw) when what it shows changes. It knows
nothing of the match: :mod:`rum500.tui.render` wraps its lines for the screen. The table
screen's model holds one (``TableModel.feed``), and so do the parts that speak
(``TableModel.host_player``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from rum500.i18n import _, from_host
from rum500.tui.countdown import whole_seconds_left

LOG_LINES = 300
CHAT_LINES = 100


class Feed:
    """The log, chat, message line, notice and banner of the table screen."""

    def __init__(self, on_change: Callable[[], None] = lambda: None) -> None:
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.chat_lines: deque[str] = deque(maxlen=CHAT_LINES)
        self.message = ""
        self.message_is_error = False
        self.banner = ""
        self.notice = ""  # the host's latest notice (a banner)
        self.chat_input = ""
        #: the link to the host is down (game keys are not offered); until when this screen
        #: keeps trying to rejoin the host (monotonic), when that is limited
        self.link_down = False
        self.rejoin_until: float | None = None
        self.on_change = on_change  # the screen's redraw

    def say(self, text: str, error: bool = False) -> None:
        """The one-line message (``error``: shown as one, and kept when an overlay closes)."""
        self.message = text
        self.message_is_error = error
        self.on_change()

    def heard_chat(self, who: str, text: object) -> None:
        """A chat line from ``who``."""
        self.chat_lines.append(f"{who}: {text}")

    def heard_notice(self, msg: dict) -> None:
        """The host's notice (in this player's language): the banner line, and the log."""
        said = from_host(msg.get("text") or msg.get("code"), msg.get("template"), msg.get("params"))
        text = " ".join(said.split())  # from_host bounds what the host wrote
        self.notice = text
        if text:
            self.log.append(text)

    def rejoin_left(self) -> int | None:
        """Whole seconds this screen still tries to rejoin the host (None: no limit)."""
        if not self.link_down:
            return None
        return whole_seconds_left(self.rejoin_until, time.monotonic())

    def banner_now(self) -> str:
        """The banner line as it reads now (the rejoin countdown moves)."""
        left = self.rejoin_left()
        if left is None or not self.banner:
            return self.banner
        return _("The host is not answering — trying to rejoin for {n} s more").format(n=left)

    def chat_type(self, text: str) -> None:
        if len(self.chat_input) < 200:
            self.chat_input += text.replace("\n", " ")
        self.on_change()

    def chat_backspace(self) -> None:
        self.chat_input = self.chat_input[:-1]
        self.on_change()
