"""``rum500 learn``: a first hand that teaches (issue 25 §1).

:mod:`rum500.learn.script` holds the lesson as data — the stacked deal, the bot's scripted
moves and the steps (a situation over the view, the text, the moves expected, why another move
is weak) — and :class:`~rum500.learn.script.Lesson`, the port the table screen's model uses
(``TableModel.lesson``: the panel's text, the move filter). :mod:`rum500.learn.session` plays
the hand in this process: the engine, the learner's seat and the scripted bot, as a session of
the terminal client (:class:`rum500.tui.app.Session`). :mod:`rum500.learn.pages` holds the
house rules' short pages the help (``?``) opens at any table.
"""
