"""The words of the game in English and Arabic, for every interface.

The layer between the bots and the interfaces: ``baloot play`` and ``baloot replay``
(:mod:`baloot.cli`) and the web server (:mod:`baloot.server`) word the same things the same
way from here. It imports the engine, the records, the view, the table and the bots, never an
interface.

- :mod:`baloot.words.strings`: the catalogs (:data:`LANGUAGES`, :func:`strings`,
  :class:`Strings`, :func:`language` to check a language asked for) and the engine's reasons
  worded;
- :mod:`baloot.words.play`, :mod:`baloot.words.reasons`, :mod:`baloot.words.analysis`: more
  catalogs (the terminal table's commands; the engine's reasons in Arabic; the report of
  ``baloot analyze``);
- :mod:`baloot.words.sheet`: the score sheet (:func:`sheet_text`, and :func:`sheet_texts`
  for the JSON of a ``hand-over`` message);
- :mod:`baloot.words.hints`: the heuristic bot's hints (:func:`hint_text`,
  :func:`hint_lines`, and :func:`hint_texts` for the ``why`` of a ``hint`` message).

What a web page sends back is checked before it is worded: :func:`sheet_texts` and
:func:`hint_texts` refuse an unknown language, key or parameter with a one-line
:class:`ValueError`.

>>> hint_texts([{"key": "forced_pass", "params": {}}], "en")
['Passing is the only answer here.']
>>> sheet_texts([{"key": "gahwa", "params": {"team": "NS"}}], "ar")
['قهوة: NS فاز بالجولة وبالمباراة معها']
"""

from __future__ import annotations

from .hints import hint_lines, hint_text, hint_texts
from .sheet import sheet_text, sheet_texts
from .strings import LANGUAGES, Strings, language, strings

__all__ = [
    "LANGUAGES",
    "Strings",
    "hint_lines",
    "hint_text",
    "hint_texts",
    "language",
    "sheet_text",
    "sheet_texts",
    "strings",
]
