"""The words of the game a web page puts together itself, under the page's names for them.

A sentence has one home (the rule of :mod:`baloot.words`): a page that says a sentence the
terminal says too (a call, a question, a suit, a column of the analysis) shows it from these
catalogs, never from a copy in its own. :data:`PAGE_WORDS` names, for each such word of the
pages, the key that words it here; the server sends :func:`page_words` of every language as
the module ``/game-words.js``, which the pages' catalog (``server/static/i18n.js``) imports,
so that a page's ``t("a_pass")`` reads this package's ``call_pass``. The templates are the
same, ``{fields}`` included: a page passes the fields these templates name.

>>> page_words("en")["a_pass"], page_words("ar")["a_pass"], page_words("en")["suit_h"]
('Pass', 'بس', 'hearts')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from baloot.core.cards import Suit
from baloot.core.reasons import REASONS

from .lobby import lobby_words
from .reasons import REASON_TABLES, YOU_TABLES
from .strings import TABLES

#: A page's key → the key of :data:`~baloot.words.strings.TABLES` that words it.
PAGE_WORDS: Final[Mapping[str, str]] = {
    # names
    **{f"suit_{suit.letter}": f"suit_{int(suit)}" for suit in Suit},
    "joiner": "joiner",
    "sun": "call_sun",
    "contract_hokum": "call_hokum",
    "contract_sun": "call_sun",
    "contract_ashkal": "call_ashkal",
    "hokum_in": "hokum_in",
    "level_gahwa": "call_gahwa",
    "locked": "locked",
    "open": "open",
    "kaboot": "decided_kaboot",
    "dealer_badge": "dealer_mark",
    "phase_doubling": "doubling_label",
    "rules_custom": "rules_custom",
    "preset_name_classic": "preset_classic",
    "preset_name_federation": "preset_federation",
    "choice_game_points": "row_game_points",
    # the score sheets
    "sheet_title": "sheet_title",
    "col_contract": "running_contract",
    "annulled": "running_annulled",
    "in_play": "running_in_play",
    "row_tricks": "row_tricks",
    "row_card_points": "row_card_points",
    "row_card_game_points": "row_card_game_points",
    "row_projects": "row_projects",
    "row_baloot": "row_baloot",
    "row_game_points": "row_game_points",
    "row_written": "row_written",
    "row_totals": "row_totals",
    # questions
    "q_take-over-sun": "ask_takeover",
    "q_take-over-ashkal": "ask_takeover_ashkal",
    "q_triple": "ask_triple",
    "q_four": "ask_four",
    "q_gahwa": "ask_gahwa",
    "q_lead": "ask_lead",
    # calls and the words said with a card
    "a_pass": "call_pass",
    "a_pass_stand": "pass_let_stand",
    "a_pass_keep": "pass_keep_hokum",
    "a_hokum": "hokum_in",
    "a_sun": "call_sun",
    "a_ashkal": "call_ashkal",
    "a_kawesh": "call_kawesh",
    "a_double": "call_double",
    "a_double_open": "call_double_open",
    "a_double_locked": "call_double_locked",
    "a_triple": "call_triple",
    "a_four_open": "call_four_open",
    "a_four_locked": "call_four_locked",
    "a_gahwa": "call_gahwa",
    "w_ekka": "ekka",
    # the analysis of a hand
    "analysis_result": "analysis_contract",
    "analysis_col_position": "analysis_col_position",
    "analysis_col_bot": "analysis_col_bot",
    "mark_inaccuracy": "mark_inaccuracy",
    "mark_mistake": "mark_mistake",
    "mark_blunder": "mark_blunder",
    "analysis_no_decisions": "analysis_no_decision",
    "analysis_forced": "analysis_forced",
    "analysis_note_exact": "analysis_exact_note",
    "analysis_note_marks": "analysis_marks_note",
    "analysis_note_equity": "analysis_equity_note",
}


def page_words(lang: str) -> dict[str, str]:
    """The templates of :data:`PAGE_WORDS` in ``lang``, by the pages' keys, the engine's
    reasons (``reason_CODE`` as said of any seat, ``you_CODE`` as said to the seat they are
    about: :meth:`Strings.rule <baloot.words.strings.Strings.rule>` chooses the same way), and
    the names and lines of the bots and rule flags (:func:`~baloot.words.lobby.lobby_words`).

    >>> page_words("en")["you_must_follow"], page_words("ar")["reason_must_follow"]
    ('you must follow {suit}', '{seat}: يجب أن يتبع النوع الملعوب {suit}')
    """
    table = TABLES[lang]
    words = {page_key: table[key] for page_key, key in PAGE_WORDS.items()}
    reasons = REASON_TABLES.get(lang, {})
    words |= {f"reason_{code}": reasons.get(code, template) for code, template in REASONS.items()}
    words |= {f"you_{code}": template for code, template in YOU_TABLES[lang].items()}
    return words | lobby_words(lang)
