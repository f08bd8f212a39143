"""The engine's reasons for an illegal action, in Arabic (English is the engine's own text).

:data:`AR_REASONS` has a template for every code of :data:`baloot.core.reasons.REASONS`, with
the same ``{fields}`` (:func:`baloot.words.strings.check_tables` checks it); seats, suits,
projects and verbs in the parameters are worded in Arabic by
:class:`baloot.words.strings.Strings`.
"""

from __future__ import annotations

import string
from typing import Final, Protocol

from baloot.core.cards import Card, Suit
from baloot.core.errors import NotationError
from baloot.core.projects import ProjectKind
from baloot.core.reasons import REASONS, ReasonCode
from baloot.core.seats import Seat


class Naming(Protocol):
    """What words a reason's parameters: a language's names of seats, suits and projects
    (:class:`baloot.words.strings.Strings`)."""

    lang: str

    def seat(self, seat: Seat) -> str: ...

    def suit_with_symbol(self, suit: Suit) -> str: ...

    def project(self, kind: ProjectKind) -> str: ...


#: The engine's reasons (:data:`baloot.core.reasons.REASONS`) in Arabic, by code, with the same
#: ``{fields}``; seats, suits, projects and verbs in the parameters are worded in Arabic too.
AR_REASONS: Final[dict[str, str]] = {
    "bad_notation": "كتابة غير مفهومة: {message}",
    "hand_over": "انتهت الجولة",
    "not_your_turn": "الدور على {seat}",
    "name_action": "{seat}: اذكر الحركة",
    "nothing_to_undo": "لا شيء للتراجع عنه",
    "no_hand_yet": "لم تُوزّع أي جولة بعد",
    "match_over": "انتهت المباراة",
    "hand_not_over": "الجولة الجارية لم تنته",
    "wrong_dealer": "{dealer} يوزّع هذه الجولة، لا {seat}",
    "no_generator": "لا مولّد لخلط الورق في هذه المباراة",
    "bot_illegal": "الآلي {bot} في {seat} اختار حركة غير مسموحة",
    "not_your_seat": "{seat} لا يلعب عن {other}",
    "not_hand_over": "الجولة لم تنتهِ بعد",
    "not_allowed": "التراجع والتلميح فقط على طاولة فيها لاعب واحد",
    "claim_not_proven": "أوراق {seat} ليست متأكدة من أخذ كل الأكلات الباقية",
    "ashkal_seat": "{seat}: لا يجوز الأشكل إلا للموزّع ولمن على يساره",
    "ashkal_round2": "{seat}: لا يجوز الأشكل في الدور الثاني",
    "ashkal_on_ace": "{seat}: لا يجوز الأشكل والمكشوفة إكّة",
    "ashkal_after_passes": "{seat}: الأشكل فقط إذا قال كل من قبله بس",
    "ashkal_over_hokum": "{seat}: الأشكل فقط على حكم الخصم",
    "ashkal_passes_or_hokum": "{seat}: الأشكل فقط بعد بس ممن قبله أو على حكم الخصم",
    "ashkal_now": "{seat}: لا يجوز الأشكل الآن",
    "kawesh_disabled": "{seat}: لا كوّش في هذه القوانين",
    "kawesh_round1": "{seat}: الكوّش في الدور الأول فقط",
    "kawesh_cards": "{seat}: الكوّش فقط بخمس أوراق من 7 و8 و9",
    "kawesh_now": "{seat}: لا يجوز الكوّش الآن",
    "hokum_called": "{seat}: لا يجوز الحكم، فقد قيل حكم",
    "sun_on_ace_hokum": "{seat}: لا يجوز الصن على حكم والمكشوفة إكّة",
    "sun_or_pass": "{seat}: إما صن أو بس الآن",
    "not_in_bidding": "{seat}: لا يجوز {verb} أثناء الشراء",
    "trump_exposed_suit": "{seat}: لا يُسمّى نوع المكشوفة حكمًا في الدور الثاني",
    "name_trump": "{seat}: سمِّ نوع الحكم الآن",
    "double_open_or_locked": "{seat}: اختر مفتوح أو مقفول",
    "double_sun_plain": "{seat}: دبل الصن بلا مفتوح أو مقفول",
    "answer_only": "{seat}: الخيارات الآن {offered} فقط",
    "play_before_play": "{seat}: لا تُلعب ورقة قبل بدء اللعب",
    "declare_before_play": "{seat}: لا يُعلن مشروع قبل بدء اللعب",
    "play_now": "{seat}: العب ورقة الآن",
    "name_card": "{seat}: اذكر الورقة",
    "not_held": "{seat}: لا يملك {card}",
    "lead_trump_locked": "{seat}: لا يبدأ بالحكم واللعب مقفول",
    "trump_higher": "{seat}: يجب لعب حكم أعلى من {card}",
    "must_follow": "{seat}: يجب أن يتبع النوع الملعوب {suit}",
    "over_trump": "{seat}: يجب القطع بحكم أعلى من {card}",
    "trump_partner_led": "{seat}: يجب القطع بالحكم، فالشريك بدأ بـ{card} وليست إكّة ولا معلنة إكّة",
    "must_trump": "{seat}: يجب لعب ورقة حكم، فالملعوب {suit} وليس عنده منه",
    "ekka_sun": "{seat}: لا تُعلن الإكّة في الصن",
    "ekka_not_leading": "{seat}: تُعلن الإكّة عند البدء فقط",
    "ekka_trump": "{seat}: لا تُعلن الإكّة على ورقة حكم",
    "ekka_ace": "{seat}: الإكّة لا تحتاج إلى إعلان",
    "ekka_higher_out": "{seat}: لا تُعلن الإكّة بـ{card}، فلم يُلعب بعد {higher}",
    "baloot_not_due": "{seat}: يُعلن البلوت فقط مع ثانية الشايب والبنت من الحكم",
    "declare_first_trick": "{seat}: الإعلان في الأكلة الأولى فقط، قبل أن يلعب",
    "declared_already": "{seat}: سبق له الإعلان",
    "declare_too_many": "{seat}: لا تُعلن أكثر من مشروعين",
    "project_not_held": "{seat}: لا يملك {project}",
    "declare_lower": "{seat}: لا يجوز إعلان {project} أقل من مشروع معلن",
}

#: The engine's reasons said to the seat they are about (its ``seat`` parameter), by code:
#: a player reads "you must follow ♦ diamonds", not "S must follow diamonds". Codes not
#: here are worded as to anyone, with the seat's name.
EN_YOU: Final[dict[str, str]] = {
    "claim_not_proven": "your cards are not sure to win every remaining trick",
    "not_held": "you do not hold {card}",
    "lead_trump_locked": "you may not lead a trump in a locked game",
    "trump_higher": "you must play a trump higher than {card}",
    "must_follow": "you must follow {suit}",
    "over_trump": "you must over-trump {card}",
    "trump_partner_led": "you must trump: your partner led {card}, neither an Ace nor an Ekka",
    "must_trump": "you must trump: {suit} was led and you have none",
    "ekka_sun": "you may not announce Ekka in Sun",
    "ekka_not_leading": "you may announce Ekka only when leading",
    "ekka_trump": "you may not announce Ekka on a trump",
    "ekka_ace": "an Ace needs no Ekka",
    "ekka_higher_out": "you may not announce Ekka with {card}: {higher} not yet played",
    "baloot_not_due": "you may announce Baloot only with the second of the King and Queen of "
    "trumps",
    "declare_first_trick": "you may declare only in the first trick, before your card",
    "declared_already": "you have already declared",
    "declare_too_many": "you cannot hold more than two projects",
    "project_not_held": "you do not hold a {project}",
    "declare_lower": "you may not declare a {project} lower than a project already declared",
}

AR_YOU: Final[dict[str, str]] = {
    "claim_not_proven": "أوراقك ليست متأكدة من أخذ كل الأكلات الباقية",
    "not_held": "لا تملك {card}",
    "lead_trump_locked": "لا تبدأ بالحكم واللعب مقفول",
    "trump_higher": "يجب أن تلعب حكمًا أعلى من {card}",
    "must_follow": "يجب أن تتبع النوع الملعوب {suit}",
    "over_trump": "يجب أن تقطع بحكم أعلى من {card}",
    "trump_partner_led": "يجب أن تقطع بالحكم، فشريكك بدأ بـ{card} وليست إكّة ولا معلنة إكّة",
    "must_trump": "يجب أن تقطع بالحكم: الملعوب {suit} وليس عندك منه",
    "ekka_sun": "لا تُعلن الإكّة في الصن",
    "ekka_not_leading": "تُعلن الإكّة عند البدء فقط",
    "ekka_trump": "لا تُعلن الإكّة على ورقة حكم",
    "ekka_ace": "الإكّة لا تحتاج إلى إعلان",
    "ekka_higher_out": "لا تُعلن الإكّة بـ{card}، فلم يُلعب بعد {higher}",
    "baloot_not_due": "تُعلن البلوت فقط مع ثانية الشايب والبنت من الحكم",
    "declare_first_trick": "الإعلان في الأكلة الأولى فقط، قبل ورقتك",
    "declared_already": "سبق لك الإعلان",
    "declare_too_many": "لا تُعلن أكثر من مشروعين",
    "project_not_held": "لا تملك {project}",
    "declare_lower": "لا يجوز لك إعلان {project} أقل من مشروع معلن",
}

#: The reasons said to their seat, by language.
YOU_TABLES: Final[dict[str, dict[str, str]]] = {"en": EN_YOU, "ar": AR_YOU}

#: The reason tables by language; English uses the engine's own ``reason``.
REASON_TABLES: Final[dict[str, dict[str, str]]] = {"ar": AR_REASONS}

#: The notation words of the verbs (reason parameters ``verb`` and ``offered``) in Arabic.
AR_VERBS: Final[dict[str, str]] = {
    "pass": "بس",
    "hokum": "حكم",
    "sun": "صن",
    "ashkal": "أشكل",
    "kawesh": "كوّش",
    "trump": "تسمية الحكم",
    "double": "دبل",
    "triple": "ثري",
    "four": "فور",
    "gahwa": "قهوة",
    "play": "لعب ورقة",
    "declare": "إعلان مشروع",
}


def pretty_card(text: str) -> str:
    """A card of a reason as the game shows it (``10♥`` for ``Th``); other text unchanged.

    >>> pretty_card("Th"), pretty_card("nothing")
    ('10♥', 'nothing')
    """
    try:
        return Card.parse(text).pretty
    except NotationError:
        return text


def check_said_to_you() -> None:
    """Raise AssertionError unless the reasons said to their seat have the same codes in
    every language, each a code of the engine's, with no field the engine's lacks."""

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for lang, said_to_you in YOU_TABLES.items():
        codes = said_to_you.keys()
        if codes != EN_YOU.keys() or not codes <= set(REASONS):
            raise AssertionError(f"{lang}: the reasons said to their seat differ")
        for code, template in said_to_you.items():
            if not fields(template) <= fields(REASONS[ReasonCode(code)]) - {"seat"}:
                raise AssertionError(f"{lang}: fields of reason {code!r} to its seat")


_SEAT_PARAMS: Final = frozenset({"seat", "dealer", "other"})
#: The English suit names of the engine's reasons (``must follow diamonds``).
_SUIT_BY_NAME: Final = {suit.name.lower(): suit for suit in Suit}
_PROJECT_BY_WORD: Final = {kind.word: kind for kind in ProjectKind}


def reason_param(s: Naming, key: str, value: str) -> str:
    """A reason parameter in the language of ``s``: seats, cards, suits, projects, verbs."""
    if key in _SEAT_PARAMS and value in Seat.__members__:
        return s.seat(Seat[value])
    if key in ("card", "higher"):
        return ", ".join(pretty_card(text) for text in value.split(", "))
    if key == "suit" and value in _SUIT_BY_NAME:
        return s.suit_with_symbol(_SUIT_BY_NAME[value])
    if key == "project":
        word, colon, cards = value.partition(":")
        if word in _PROJECT_BY_WORD:
            name = s.project(_PROJECT_BY_WORD[word])
            return f"{name} {cards}" if colon else name
    if s.lang == "ar" and key == "verb":
        return AR_VERBS.get(value, value)
    if s.lang == "ar" and key == "offered":
        return " أو ".join(AR_VERBS.get(word, word) for word in value.split(" or "))
    return value
