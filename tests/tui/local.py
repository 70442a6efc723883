"""A table in the test process: the engine plus bots behind the session interface the screen
uses (act, chat, pump, close). Model tests drive a real Game through it."""

from __future__ import annotations

import asyncio

from rum500.bots import make_bot
from rum500.rules import Game, IllegalMove, Options
from rum500.tui.model import Refused, TableModel


class LocalSession:
    def __init__(
        self,
        players: int = 2,
        seed: int = 7,
        seat: int = 0,
        target: int = 500,
        bot_level: str = "random",
        names: list[str] | None = None,
        autoplay: bool = True,
    ) -> None:
        self.game = Game(players, seed=seed, options=Options(target=target))
        self.seat = seat
        self.bots = {s: make_bot(bot_level, seed=s) for s in range(players) if s != seat}
        self.names = names or ["You"] + [f"Bot {s}" for s in range(1, players)]
        self.models: list[TableModel] = []
        self.chats: list[str] = []
        self.autoplay = autoplay
        self.closed = False

    def _push(self, events: list[dict]) -> None:
        for m in self.models:
            m.apply_message({"type": "state", "view": self.game.view(self.seat), "events": events})

    def play_bots(self) -> None:
        """Let the bots move until it is this seat's turn (or the match is over)."""
        g = self.game
        while g.to_move is not None and g.to_move != self.seat:
            seat = g.to_move
            action = self.bots[seat].choose(g.view(seat))
            self._push(g.apply(action, seat=seat))

    async def act(self, action: dict) -> None:
        try:
            if action.get("type") == "take_back":  # as the host does it at a solo table
                last = self.game.actions[-1] if self.game.actions else {}
                if self.game.to_move != self.seat or last.get("type") not in ("meld", "layoff"):
                    raise IllegalMove("nothing to take back this turn")
                events = [{"type": "take_back", "seat": self.seat, "action": self.game.pop()}]
            else:
                events = self.game.apply(action, seat=self.seat)
        except IllegalMove as e:
            raise Refused(str(e), e.template, e.params) from None
        self._push(events)
        if self.autoplay:
            self.play_bots()

    async def chat(self, text: str) -> None:
        self.chats.append(text)
        for m in self.models:
            m.apply_message(
                {"type": "chat", "seat": self.seat, "name": self.names[self.seat], "text": text}
            )

    async def pump(self, model: TableModel) -> None:
        self.models.append(model)
        model.apply_message({"type": "welcome", "seat": self.seat, "table": "test table"})
        model.apply_message(
            {
                "type": "lobby",
                "table": "test table",
                "state": "playing",
                "seats": [
                    {"seat": i, "name": n, "bot": i != self.seat} for i, n in enumerate(self.names)
                ],
            }
        )
        self._push([])
        if self.autoplay:
            self.play_bots()
        while not self.closed:
            await asyncio.sleep(3600)

    async def close(self) -> None:
        self.closed = True


def at_hand_end() -> TableModel:
    """A seated model whose hand just ended (the review open), with a score table."""
    game = Game(2, seed=5)
    bots = [make_bot("random", seed=s) for s in range(2)]
    events: list[dict] = []
    while game.phase.value != "hand_over":
        events = game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    model = TableModel(name="Ann")
    model.apply_message({"type": "welcome", "seat": 0, "table": "t"})
    view = game.view(0)
    view["review"] = {"hand": 1, "waiting": [0], "seconds_left": 30.0}
    model.apply_message({"type": "state", "view": view, "events": events})
    return model
