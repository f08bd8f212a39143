"""The words of the game in English and Arabic, for every interface.

The layer between the bots and the interfaces: ``baloot play`` and ``baloot replay``
(:mod:`baloot.cli`) and the web server (:mod:`baloot.server`) word the same things the same
way from here. It imports the engine, the records, the view, the table and the bots, never an
interface.

Where words live: a sentence has one home. A sentence the terminal says (a call, a question,
a suit, a score sheet's line, a hint, the engine's reasons, an analysis) lives here, and a web
page that says it too shows it from here, never from a copy in the pages' catalog
(``server/static/i18n.js``): worded by the server when the server holds what it words (a
sheet, a hint: ``POST /api/words`` and the sheet endpoint), or, when the page puts it together
itself, as one of :mod:`baloot.words.pages`, served as ``/game-words.js``. The pages' catalog
holds only what the pages alone say: their links, forms, buttons, statuses and prompts, and
the game's words in the pages' own wording.

- :mod:`baloot.words.strings`: the catalogs (:data:`LANGUAGES`, :func:`strings`,
  :class:`Strings`, :func:`language` to check a language asked for) and the engine's reasons
  worded;
- :mod:`baloot.words.play`, :mod:`baloot.words.reasons`, :mod:`baloot.words.analysis`: more
  catalogs (the terminal table's commands; the engine's reasons in Arabic; the report of
  ``baloot analyze``);
- :mod:`baloot.words.sheet`: the score sheet (:func:`sheet_text`, and :func:`sheet_texts`
  for the JSON of a ``hand-over`` message);
- :mod:`baloot.words.hints`: the heuristic bot's hints (:func:`hint_text`,
  :func:`hint_lines`, and :func:`hint_texts` for the ``why`` of a ``hint`` message);
- :mod:`baloot.words.pages`: the words of the game a web page puts together itself, under
  the page's keys;
- :mod:`baloot.words.lobby`: the names and lines of the bots and the rule flags a table is
  made with.

What a web page sends back is checked before it is worded: :func:`sheet_texts` and
:func:`hint_texts` refuse an unknown language, key or parameter with a one-line
:class:`ValueError`.

>>> hint_texts([{"key": "forced_pass", "params": {}}], "en")
['Passing is the only answer here.']
>>> sheet_texts([{"key": "gahwa", "params": {"team": "NS"}}], "ar")
['قهوة: شمال-جنوب فاز بالجولة وبالمباراة معها']
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
