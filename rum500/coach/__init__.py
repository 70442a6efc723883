"""The coach: the analysis of a match from each seat's view (docs/analysis.md).

:mod:`rum500.coach.analysis` is the public API (:func:`~rum500.coach.analysis.analyse_match`,
:func:`~rum500.coach.analysis.analyse_decision`); :mod:`rum500.coach.search` values moves,
deals and draws over worlds sampled from a seat's view; :mod:`rum500.coach.command` is
``rum500 analyse``.
"""
