"""``rum500 --plain``: the game for screen readers and braille displays (issue 25 §2).

No full-screen drawing, no cursor, no colour, no symbol, no escape sequence: one line per
event, in words a speech synthesiser reads well (the narrator's :data:`rum500.narrate.SPOKEN`
voice, in the player's language), and commands typed as lines (``draw``, ``take 9H``,
``meld 9S 9H 9D`` …; ``help`` lists them). It reads standard input line by line with asyncio,
so it works through pipes; the end of the input leaves the table as ``q`` does.

* :mod:`rum500.plain.words` — what the table is, said in words (hand, melds, pile, scores);
* :mod:`rum500.plain.model` — :class:`PlainModel`, the table screen's model speaking lines;
* :mod:`rum500.plain.commands` — a typed line to a move (the moves of
  :mod:`rum500.tui.moves`, the same as the keys');
* :mod:`rum500.plain.session` — the input and output loop at one table;
* :mod:`rum500.plain.main` — the runners of ``play``, ``host``, ``join`` and the plain lobby.
"""
