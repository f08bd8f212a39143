"""Arabic agreement: a counted noun takes the form its number asks for.

Arabic counts differently from English: one point is "نقطة واحدة", two are "نقطتان", three to
ten take the plural ("8 نقاط"), eleven and more the singular again ("26 نقطة"). The catalogs
write a count as a number and a noun ("{points} نقطة"); :func:`agree` puts the noun right
once the number is known, so that no template has to choose.

>>> agree("مشاريع شمال-جنوب المكشوفة: سرا = 8 نقطة")
'مشاريع شمال-جنوب المكشوفة: سرا = 8 نقاط'
>>> agree("= 2 نقطة"), agree("1 أوراق"), agree("26 أبناط"), agree("103 نقطة")
('= نقطتان', 'ورقة واحدة', '26 بنط', '103 نقاط')
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple


class Noun(NamedTuple):
    """A counted noun's forms: one, two, three to ten, and eleven or more."""

    one: str
    two: str
    few: str
    many: str


NOUNS: Final = (
    Noun("نقطة واحدة", "نقطتان", "نقاط", "نقطة"),
    Noun("بنط واحد", "بنطان", "أبناط", "بنط"),
    Noun("ورقة واحدة", "ورقتان", "أوراق", "ورقة"),
    Noun("أكلة واحدة", "أكلتان", "أكلات", "أكلة"),
    Noun("ثانية واحدة", "ثانيتان", "ثوانٍ", "ثانية"),
    Noun("جولة واحدة", "جولتان", "جولات", "جولة"),
    Noun("قرار واحد", "قراران", "قرارات", "قرار"),
)
_FORM: Final = {form: noun for noun in NOUNS for form in (noun.few, noun.many)}
_COUNTED: Final = re.compile(
    r"(?<![\d.])(\d+) (" + "|".join(sorted(_FORM, key=len, reverse=True)) + r")(?!\w)"
)


def counted(number: int, noun: Noun) -> str:
    """``number`` and ``noun`` in agreement.

    >>> counted(8, NOUNS[0]), counted(11, NOUNS[0]), counted(0, NOUNS[0])
    ('8 نقاط', '11 نقطة', '0 نقطة')
    """
    if number == 1:
        return noun.one
    if number == 2:
        return noun.two
    return f"{number} {noun.few if 3 <= number % 100 <= 10 else noun.many}"


def agree(text: str) -> str:
    """``text`` with every counted noun in the form its number asks for."""
    return _COUNTED.sub(lambda m: counted(int(m.group(1)), _FORM[m.group(2)]), text)
