"""Analysis of a finished hand: how good each decision was, in hindsight and without it.

The layer above the bots and beside the words: pure computation from a record, which the
command line (``baloot analyze``) and the web server (a hand's analysis page) show. For every
play and declaration, the exact value of each option in the real deal (the solver, all four
hands known), what a searching bot would have chosen from the seat's view alone, and the loss
of the choice made, marked as chess analysis marks a move; for bids and doubles, the bot's
sampled estimates instead, as they have no exact value. See ``docs/analysis.md``.

- :mod:`baloot.analysis.marks`: :class:`Mark`, :class:`Unit`, the thresholds, :func:`mark_of`;
- :mod:`baloot.analysis.model`: :class:`Decision`, :class:`Option`, :class:`HandAnalysis`,
  :class:`Analysis` and their JSON;
- :mod:`baloot.analysis.analyze`: :func:`analyze_record`, :func:`analyze_position` (a
  :class:`Point` with its decision);
- :mod:`baloot.analysis.judge`: where the values come from (:class:`SolverAndBot`).
"""

from __future__ import annotations

from .analyze import AnalysisError, Point, Progress, analyze_position, analyze_record
from .judge import DEFAULT_BOT, Judge, JudgeError, SolverAndBot
from .marks import BLUNDER, INACCURACY, MISTAKE, THRESHOLDS, Mark, Unit, mark_of
from .model import FORMAT, Analysis, Decision, HandAnalysis, Option, Tally

__all__ = [
    "BLUNDER",
    "DEFAULT_BOT",
    "FORMAT",
    "INACCURACY",
    "MISTAKE",
    "THRESHOLDS",
    "Analysis",
    "AnalysisError",
    "Decision",
    "HandAnalysis",
    "Judge",
    "JudgeError",
    "Mark",
    "Option",
    "Point",
    "Progress",
    "SolverAndBot",
    "Tally",
    "Unit",
    "analyze_position",
    "analyze_record",
    "mark_of",
]
