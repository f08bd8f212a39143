"""The words of the hints (``h`` in ``baloot play``, ``hint`` at a web table) in English and
Arabic; the hints themselves are the bots' (:mod:`baloot.bots.best_hints`).

:meth:`HeuristicBot.explain <baloot.bots.heuristic.HeuristicBot.explain>` says why it picks
an action as :class:`~baloot.bots.heuristic.HintReason` keys with parameters; here every key
of :data:`~baloot.bots.heuristic.HINT_KEYS` has a template in each language, with exactly the
key's parameters as ``{fields}`` (:func:`check_hint_words` checks it). Seats, suits and
projects in the parameters are worded in the language; cards are written ``10♥``.

>>> from baloot.bots.heuristic import HintReason
>>> why = HintReason("P4_lead_for_ruff", {"card": "7d", "seat": "S", "suit": "d"})
>>> hint_text(why, "en")
'Lead 7♦: your partner S has shown no ♦ diamonds and may still trump it.'
>>> hint_text(why, "ar")
'ابدأ بـ7♦: شريكك جنوب قاطع ♦ ديمن وقد يقطعها بالحكم.'

:func:`hint_texts` words the ``why`` of a ``hint`` message as :meth:`Hint.to_json
<baloot.bots.heuristic.Hint.to_json>` writes it, after checking it (:func:`reason_from_json`):
what comes back from a browser is refused with a one-line :class:`ValueError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from baloot.bots.heuristic import HINT_KEYS, Hint, HintReason
from baloot.core.actions import Action
from baloot.core.cards import CARDS, Card, Suit
from baloot.core.errors import NotationError
from baloot.core.projects import ProjectKind
from baloot.core.seats import Seat
from baloot.records.record import shown
from baloot.view.keyed import key_of, keyed

from .strings import LANGUAGES, Strings, fields, language, strings

EN: Final[dict[str, str]] = {
    # only one legal action
    "forced_last_card": "{card} is your last card.",
    "forced_follow": "{card} is your only {suit} card, and you must follow suit.",
    "forced_trump": "{card} is the only trump the rules let you play here.",
    "forced_card": "{card} is the only card the rules allow here.",
    "forced_pass": "Passing is the only answer here.",
    "forced_action": "{action} is the only legal action.",
    # bidding
    "B1_kawesh": "Kawesh: your first five cards ({cards}) are all 7s, 8s and 9s, so the deal "
    "is annulled.",
    "B2_counted": "Hand values count your cards with the exposed card ({cards}): for a Sun, "
    "Ace 3, Ten beside its Ace 2, King beside the Ace or Ten 1; for a Hokum, trump J 4, 9 3, "
    "A 2, T 1.5, other trumps 1, and side Aces 2.",
    "B3_sun": "Sun: your hand's Sun value is {value} (a Sun needs {need}), and it is worth more "
    "as a Sun than as a Hokum.",
    "B4_ashkal": "Ashkal: your first five cards are worth a Sun on their own ({value}, a Sun "
    "needs {need}) and the exposed {card} would add only {gain}; your partner takes it "
    "instead, where it may sit with his high cards.",
    "B5_hokum": "Hokum: with the exposed card your hand is worth {value} as a Hokum in {suit} "
    "(a Hokum needs {need}), with the J or 9 and a second trump.",
    "B6_take_over": "Sun: take the call over from {seat}; your Sun value is {value} "
    "(a Sun needs {need}).",
    "B6_no_take_over": "Pass: your Sun value {value} is below {need}, not enough to take the "
    "call over from {seat}.",
    "B6_partner_call": "Pass: never take the call from your partner {seat}.",
    "B6_sun_over_hokum": "Sun over {seat}'s Hokum: your Sun value is {value} (a Sun needs {need}).",
    "B6_no_sun_over_hokum": "Pass: your Sun value {value} is below {need}, not enough for a "
    "Sun over {seat}'s Hokum.",
    "B6_sun_over_partner": "Sun over your partner {seat}'s Hokum: your Sun value {value} "
    "reaches {need}, well above an ordinary Sun.",
    "B6_leave_partner": "Pass: leave your partner {seat} the Hokum; a Sun over it needs "
    "{need}, your Sun value is {value}.",
    "B6_switch_to_sun": "Sun instead of your Hokum: the Sun value {value} (a Sun needs {need}) "
    "is further above its mark than the Hokum.",
    "B6_keep_hokum": "Keep your Hokum: as a Sun the hand is worth {value} (a Sun needs {need}), "
    "no better.",
    "B6_sun_closed": "Pass: no Sun may be called over {seat}'s Hokum here.",
    "B7_hokum": "Second-round Hokum: {suit} is your best trump suit, worth {value} (a Hokum "
    "needs {need}).",
    "B7_sun": "Sun: your hand's Sun value is {value} (a Sun needs {need}).",
    "B7_name_trump": "Name {suit} trump: your best trump suit, worth {value}.",
    "B7_sun_not_trump": "Sun rather than a trump: the Sun value {value} (a Sun needs {need}) "
    "beats a Hokum in {suit} ({hokum}, a Hokum needs {hokum_need}).",
    "B8_pass": "Pass: no call is worth it; Sun value {sun} (a Sun needs {sun_need}), and the "
    "best Hokum, in {suit}, is worth {hokum} (a Hokum needs {hokum_need}).",
    "B8_pass_no_trumps": "Pass: Sun value {sun} (a Sun needs {sun_need}), and no suit holds its "
    "J or 9 with a second card for a Hokum.",
    "B8_pass_sun": "Pass: your Sun value {sun} is below {sun_need}.",
    # doubling
    "D1_double": "Double, locked: {trumps} trumps in {suit} with the J or 9, a side Ace and a "
    "defence value of {value} (a Double needs {need}); locked, the declarer may not lead "
    "trumps.",
    "D1_no_double": "Pass: a Double needs three trumps with the J or 9, a side Ace and a "
    "defence value of {need}; you have trumps: {trumps}, side Aces: {aces}, defence value: "
    "{value}.",
    "D2_double_sun": "Double the Sun: {aces} Aces and a Sun value of {value} (a Double needs "
    "three Aces and {need}).",
    "D2_no_double_sun": "Pass: doubling a Sun needs three Aces and a Sun value of {need}; you "
    "have Aces: {aces}, Sun value: {value}.",
    "D3_triple": "Triple: the J and 9 of trumps and a Hokum value of {value} (a Triple needs "
    "{need}).",
    "D3_no_triple": "Pass: a Triple needs the J and 9 of trumps and a Hokum value of {need}; "
    "yours is {value}.",
    "D3_four": "Four, locked: a defence value of {value} (a Four needs {need}).",
    "D3_no_four": "Pass: a Four needs a defence value of {need}; yours is {value}.",
    "D3_gahwa": "Gahwa: a Hokum value of {value} (a Gahwa needs {need}).",
    "D3_no_gahwa": "Pass: a Gahwa needs a Hokum value of {need}; yours is {value}.",
    # projects and play
    "P1_declare": "Declare {projects}: the most project value you can declare.",
    "P2_draw_trumps": "Lead {card}: no one can beat this trump and the opponents may still "
    "hold trumps; draw them.",
    "P3_cash": "Lead {card}: no opponent can beat it or trump it; take the trick now.",
    "P3_ekka": "Announce Ekka with {card}: it is the best card left in its suit, so your "
    "partner need not trump it.",
    "P4_lead_for_ruff": "Lead {card}: your partner {seat} has shown no {suit} and may still "
    "trump it.",
    "P5_lead_cheap": "Lead {card}: the card cheapest to give up.",
    "P6_give_points": "Your partner {seat} is sure to win this trick: give him {card}, "
    "{points} points not worth keeping.",
    "P6_play_low": "Your partner {seat} is sure to win this trick: play {card} and keep your "
    "better cards.",
    "P7_win_cheaply": "Win the trick with {card}, the cheapest card no later opponent can "
    "beat; with it the trick holds {points} points so far.",
    "P7_ruff": "Trump the {suit} with {card}, the cheapest trump no later opponent can beat; "
    "with it the trick holds {points} points so far.",
    "P8_duck": "Play {card}: winning with {winner} would cost more than the trick brings.",
    "P8_discard": "You have no {suit}: throw {card}, the card you miss least.",
    "P8_play_low": "No card of yours surely wins this trick: play {card}, the cheapest.",
    "P9_keep_trump": "Keep {card}: trumps are worth most kept.",
    "P9_keep_baloot": "Keep {cards} together: the Baloot.",
    "P9_keep_master": "Keep {card}: it will win a trick later.",
    "P9_keep_honour": "Keep {card}: it may still win a trick later.",
    "P9_make_void": "Giving up {card} leaves you without {suit}, to trump it later.",
    "default": "No rule of the bot applies here: it takes the first choice.",
    "S1_best_card": "Play {card}: over many deals of the unseen cards that fit what you know, "
    "it is worth {value} points to your side on average, {gain} more than the next best card.",
    "S1_best_call": "{action}: over many deals of the unseen cards that fit what you know, "
    "this call is worth {value} points to your side on average, {gain} more than the next best.",
}

AR: Final[dict[str, str]] = {
    "forced_last_card": "{card} آخر ورقة معك.",
    "forced_follow": "{card} ورقتك الوحيدة من {suit}، ويجب أن تتبع النوع الملعوب.",
    "forced_trump": "{card} ورقة الحكم الوحيدة التي تسمح بها القوانين هنا.",
    "forced_card": "{card} الورقة الوحيدة التي تسمح بها القوانين هنا.",
    "forced_pass": "لا جواب هنا إلا بس.",
    "forced_action": "{action} هي الحركة الوحيدة المسموحة.",
    "B1_kawesh": "كوّش: أوراقك الخمس الأولى ({cards}) كلها 7 و8 و9، فتُلغى الجولة.",
    "B2_counted": "تُحسب قيمة اليد بأوراقك مع المكشوفة ({cards}): في الصن الإكّة 3، والعشرة "
    "مع إكّتها 2، والشايب مع الإكّة أو العشرة 1؛ وفي الحكم الولد 4، والتسعة 3، والإكّة 2، "
    "والعشرة 1.5، وباقي الحكم 1، والإكّة الجانبية 2.",
    "B3_sun": "صن: قيمة يدك في الصن {value} (الصن يحتاج {need})، وهي في الصن أثمن منها في الحكم.",
    "B4_ashkal": "أشكل: أوراقك الخمس وحدها تستحق صن ({value}، والصن يحتاج {need}) والمكشوفة "
    "{card} لا تضيف إلا {gain}؛ يأخذها شريكك فقد تجلس مع كباره.",
    "B5_hokum": "حكم: مع المكشوفة تساوي يدك {value} في حكم {suit} (الحكم يحتاج {need})، ومعك "
    "الولد أو التسعة وورقة حكم ثانية.",
    "B6_take_over": "صن: خذ اللعب من {seat}؛ قيمة الصن عندك {value} (الصن يحتاج {need}).",
    "B6_no_take_over": "بس: قيمة الصن عندك {value} أقل من {need}، لا تكفي لأخذ اللعب من {seat}.",
    "B6_partner_call": "بس: لا تأخذ اللعب من شريكك {seat}.",
    "B6_sun_over_hokum": "صن على حكم {seat}: قيمة الصن عندك {value} (الصن يحتاج {need}).",
    "B6_no_sun_over_hokum": "بس: قيمة الصن عندك {value} أقل من {need}، لا تكفي لصن على حكم {seat}.",
    "B6_sun_over_partner": "صن على حكم شريكك {seat}: قيمة الصن عندك {value} تبلغ {need}، "
    "فوق الصن العادي بكثير.",
    "B6_leave_partner": "بس: اترك الحكم لشريكك {seat}؛ الصن عليه يحتاج {need} وقيمة الصن "
    "عندك {value}.",
    "B6_switch_to_sun": "صن بدل حكمك: قيمة الصن {value} (الصن يحتاج {need}) أبعد فوق حدّها "
    "من الحكم.",
    "B6_keep_hokum": "أبقِ حكمك: اليد في الصن تساوي {value} (الصن يحتاج {need})، وليست أفضل.",
    "B6_sun_closed": "بس: لا يجوز الصن على حكم {seat} هنا.",
    "B7_hokum": "حكم ثاني: {suit} أفضل نوع عندك للحكم، قيمته {value} (الحكم يحتاج {need}).",
    "B7_sun": "صن: قيمة يدك في الصن {value} (الصن يحتاج {need}).",
    "B7_name_trump": "سمِّ {suit} حكمًا: أفضل نوع عندك، قيمته {value}.",
    "B7_sun_not_trump": "صن بدل تسمية الحكم: قيمة الصن {value} (الصن يحتاج {need}) تفوق "
    "الحكم في {suit} ({hokum}، الحكم يحتاج {hokum_need}).",
    "B8_pass": "بس: لا نداء يستحق؛ قيمة الصن {sun} (الصن يحتاج {sun_need})، وأفضل حكم، في "
    "{suit}، قيمته {hokum} (الحكم يحتاج {hokum_need}).",
    "B8_pass_no_trumps": "بس: قيمة الصن {sun} (الصن يحتاج {sun_need})، ولا نوع فيه الولد أو "
    "التسعة مع ورقة ثانية للحكم.",
    "B8_pass_sun": "بس: قيمة الصن عندك {sun} أقل من {sun_need}.",
    "D1_double": "دبل مقفول: معك {trumps} أوراق حكم في {suit} منها الولد أو التسعة، وإكّة "
    "جانبية، وقيمة دفاع {value} (الدبل يحتاج {need})؛ والمقفول يمنع المشتري من البدء بالحكم.",
    "D1_no_double": "بس: الدبل يحتاج ثلاث أوراق حكم منها الولد أو التسعة، وإكّة جانبية، وقيمة "
    "دفاع {need}؛ معك من الحكم: {trumps}، ومن الإكك الجانبية: {aces}، وقيمة الدفاع: {value}.",
    "D2_double_sun": "دبل على الصن: معك {aces} إكك وقيمة صن {value} (الدبل يحتاج ثلاث إكك "
    "و{need}).",
    "D2_no_double_sun": "بس: دبل الصن يحتاج ثلاث إكك وقيمة صن {need}؛ معك من الإكك: {aces}، "
    "وقيمة الصن: {value}.",
    "D3_triple": "ثري: معك الولد والتسعة من الحكم وقيمة حكم {value} (الثري يحتاج {need}).",
    "D3_no_triple": "بس: الثري يحتاج الولد والتسعة من الحكم وقيمة حكم {need}؛ قيمتك {value}.",
    "D3_four": "فور مقفول: قيمة الدفاع عندك {value} (الفور يحتاج {need}).",
    "D3_no_four": "بس: الفور يحتاج قيمة دفاع {need}؛ قيمتك {value}.",
    "D3_gahwa": "قهوة: قيمة الحكم عندك {value} (القهوة تحتاج {need}).",
    "D3_no_gahwa": "بس: القهوة تحتاج قيمة حكم {need}؛ قيمتك {value}.",
    "P1_declare": "أعلن {projects}: أعلى قيمة مشاريع يمكنك إعلانها.",
    "P2_draw_trumps": "ابدأ بـ{card}: لا أحد يعلو على ورقة الحكم هذه، وقد يبقى عند الخصوم "
    "حكم؛ اسحبه.",
    "P3_cash": "ابدأ بـ{card}: لا يعلو عليها خصم ولا يقطعها؛ خذ الأكلة الآن.",
    "P3_ekka": "أعلن إكّة مع {card}: أعلى ورقة باقية في نوعها، فلا يلزم شريكك القطع بالحكم.",
    "P4_lead_for_ruff": "ابدأ بـ{card}: شريكك {seat} قاطع {suit} وقد يقطعها بالحكم.",
    "P5_lead_cheap": "ابدأ بـ{card}: أرخص ورقة تتخلى عنها.",
    "P6_give_points": "شريكك {seat} آخذ هذه الأكلة لا محالة: أعطه {card}، {points} أبناط لا "
    "يستحق إبقاؤها.",
    "P6_play_low": "شريكك {seat} آخذ هذه الأكلة لا محالة: العب {card} وأبقِ أوراقك الأقوى.",
    "P7_win_cheaply": "خذ الأكلة بـ{card}، أرخص ورقة لا يعلو عليها خصم بعدك؛ في الأكلة معها "
    "{points} بنط حتى الآن.",
    "P7_ruff": "اقطع {suit} بـ{card}، أرخص حكم لا يعلو عليه خصم بعدك؛ في الأكلة معه {points} "
    "بنط حتى الآن.",
    "P8_duck": "العب {card}: الأخذ بـ{winner} يكلّف أكثر مما تجلبه الأكلة.",
    "P8_discard": "ليس معك {suit}: ارمِ {card}، أقل ورقة تحتاجها.",
    "P8_play_low": "لا ورقة عندك تأخذ هذه الأكلة بالتأكيد: العب {card}، الأرخص.",
    "P9_keep_trump": "أبقِ {card}: ورق الحكم أثمن ما يُبقى.",
    "P9_keep_baloot": "أبقِ {cards} معًا: البلوت.",
    "P9_keep_master": "أبقِ {card}: ستأخذ بها أكلة لاحقًا.",
    "P9_keep_honour": "أبقِ {card}: قد تأخذ بها أكلة لاحقًا.",
    "P9_make_void": "التخلي عن {card} يجعلك قاطعًا {suit}، فتقطعه بالحكم لاحقًا.",
    "default": "لا تنطبق هنا أي قاعدة من قواعد الآلي: يأخذ الخيار الأول.",
    "S1_best_card": "العب {card}: على توزيعات كثيرة للأوراق المخفية تتفق مع ما تعرفه، تساوي "
    "{value} نقطة لفريقك في المتوسط، بزيادة {gain} على أفضل ورقة بعدها.",
    "S1_best_call": "{action}: على توزيعات كثيرة للأوراق المخفية تتفق مع ما تعرفه، تساوي هذه "
    "الكلمة {value} نقطة لفريقك في المتوسط، بزيادة {gain} على أفضل خيار بعدها.",
}

#: The hint templates by language.
HINT_WORDS: Final[dict[str, dict[str, str]]] = {"en": EN, "ar": AR}

_CARD_PARAMS: Final = frozenset({"card", "winner"})


def hint_text(reason: HintReason, lang: str) -> str:
    """One reason of a hint in ``lang`` (``en`` or ``ar``); a key without words (from a newer
    bot) is shown as the key and its parameters."""
    template = HINT_WORDS[lang].get(reason.key)
    if template is None:
        params = ", ".join(f"{name}={value}" for name, value in reason.params.items())
        return f"{reason.key}: {params}" if params else reason.key
    s = strings(lang)
    return template.format(**{k: _param(s, k, v) for k, v in reason.params.items()})


def hint_lines(hint: Hint, lang: str) -> list[str]:
    """Every reason of ``hint`` in ``lang``, most decisive first."""
    return [hint_text(reason, lang) for reason in hint.why]


def hint_texts(why: list[dict[str, Any]], lang: str) -> list[str]:
    """The reasons of a hint in their JSON form (the ``why`` of a ``hint`` message:
    ``[{"key": ..., "params": {...}}, ...]``) worded in ``lang``. Unknown keys or languages
    and missing, extra or wrong parameters are a :class:`ValueError` with a one-line reason.

    >>> why = [{"key": "P5_lead_cheap", "params": {"card": "7c"}}]
    >>> hint_texts(why, "en"), hint_texts(why, "ar")
    (['Lead 7♣: the card cheapest to give up.'], ['ابدأ بـ7♣: أرخص ورقة تتخلى عنها.'])
    >>> hint_texts([{"key": "P7_win_cheaply", "params": {"card": "Jd", "points": 16}}], "ar")
    Traceback (most recent call last):
    ...
    ValueError: hint reason 1: P7_win_cheaply: points must be a number like 7 or 8.5, not 16
    """
    lang = language(lang)
    if not isinstance(why, list):
        raise ValueError(f"a hint's why must be a list of reasons, not {shown(why)}")
    texts = []
    for number, item in enumerate(why, 1):
        try:
            texts.append(hint_text(reason_from_json(item), lang))
        except ValueError as error:
            raise ValueError(f"hint reason {number}: {error}") from None
    return texts


def reason_from_json(data: object) -> HintReason:
    """The reason that :meth:`HintReason.to_json <baloot.bots.heuristic.HintReason.to_json>`
    wrote, checked: a key of :data:`~baloot.bots.heuristic.HINT_KEYS`, exactly its parameters,
    each a string of its kind (a seat, a suit or card text, a number...).

    >>> reason_from_json({"key": "P6_play_low", "params": {"card": "7s", "seat": "N"}})
    HintReason(key='P6_play_low', params={'card': '7s', 'seat': 'N'})
    >>> reason_from_json({"key": "P6_play_low", "params": {"card": "7s", "seat": "north"}})
    Traceback (most recent call last):
    ...
    ValueError: P6_play_low: seat must be a seat (N, W, S or E), not "north"
    """
    key = key_of(data, "a hint reason")
    if not isinstance(key, str) or key not in HINT_KEYS:
        raise ValueError(f"unknown hint key {shown(key)}")
    names = HINT_KEYS[key]
    given = keyed(data, "a hint reason", names)
    for name in names:
        what, accepts = PARAM_CHECKS.get(name, _NUMBER)
        value = given[name]
        if not isinstance(value, str) or not accepts(value):
            raise ValueError(f"{key}: {name} must be {what}, not {shown(value)}")
    return HintReason(key, {name: given[name] for name in names})


def _is_action(text: str) -> bool:
    try:
        return str(Action.parse(text)) == text
    except NotationError:
        return False


def _all(words: frozenset[str]) -> Callable[[str], bool]:
    return lambda text: bool(text) and all(word in words for word in text.split(" "))


_CARD_TEXTS: Final = frozenset(card.text for card in CARDS)
_NUMBER: Final = ("a number like 7 or 8.5", re.compile(r"-?\d+(\.\d+)?").fullmatch)
_CARD: Final = ("a card text like Qh", _CARD_TEXTS.__contains__)

#: What each hint parameter must be, in words and as a test; any other is a number.
PARAM_CHECKS: Final[dict[str, tuple[str, Callable[[str], object]]]] = {
    "seat": ("a seat (N, W, S or E)", frozenset(seat.name for seat in Seat).__contains__),
    "suit": ("a suit letter (s, h, d or c)", frozenset(suit.letter for suit in Suit).__contains__),
    "card": _CARD,
    "winner": _CARD,
    "cards": ("card texts like Qh, separated by spaces", _all(_CARD_TEXTS)),
    "projects": (
        "project words like sira, separated by spaces",
        _all(frozenset(kind.word for kind in ProjectKind)),
    ),
    "action": ("an action in record notation like S pass", _is_action),
}


def _param(s: Strings, name: str, value: str) -> str:
    """A hint parameter in the language: seats, suits and projects by name, cards as ``10♥``."""
    try:
        if name == "seat":
            return s.seat(Seat[value])
        if name == "suit":
            return s.suit_with_symbol(Suit.parse(value))
        if name in _CARD_PARAMS:
            return Card.parse(value).pretty
        if name == "cards":
            return " ".join(Card.parse(word).pretty for word in value.split())
        if name == "projects":
            return s.joiner.join(s.project(ProjectKind.parse(word)) for word in value.split())
    except (KeyError, ValueError):
        pass  # not what the key promised: shown as it is
    return value


def check_hint_words() -> None:
    """Raise AssertionError unless every language has words for exactly the hint keys, each
    with exactly the key's parameters as fields."""
    if tuple(HINT_WORDS) != LANGUAGES:
        raise AssertionError("hint words: languages differ from baloot.words.strings")
    for lang, table in HINT_WORDS.items():
        if table.keys() != HINT_KEYS.keys():
            raise AssertionError(f"{lang}: hint keys differ from baloot.bots.heuristic")
        for key, template in table.items():
            if fields(template) != frozenset(HINT_KEYS[key]):
                raise AssertionError(f"{lang}: fields of hint {key!r} differ from its parameters")
