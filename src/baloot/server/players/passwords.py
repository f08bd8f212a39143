"""Players' passwords: the rules a password keeps, and its argon2id hash.

Hashing takes tens of milliseconds of CPU and memory on purpose, so :func:`hashed` and
:func:`verified` run in a thread of their own (``asyncio.to_thread``): never on the event
loop, which serves every table, nor in the store's writer thread, whose calls wait in line.
A sign-in for a name nobody has still verifies, against :data:`DUMMY` (:func:`verified` with
None), so that its answer takes as long as a wrong password's and says nothing of the name.

>>> import asyncio
>>> kept = asyncio.run(hashed(check_password("correct horse")))
>>> kept.startswith("$argon2id$")
True
>>> asyncio.run(verified(kept, "correct horse")), asyncio.run(verified(kept, "wrong horse"))
(True, False)
>>> asyncio.run(verified(None, "correct horse"))
False
>>> check_password("short")
Traceback (most recent call last):
...
baloot.server.players.passwords.BadPassword: a password has at least 8 characters
"""

from __future__ import annotations

import asyncio
import functools
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error, InvalidHashError

from baloot.core.errors import BalootError
from baloot.server.messages import storable

#: The shortest and the longest password, in characters.
SHORTEST: Final = 8
LONGEST: Final = 128

#: argon2id with the library's defaults (RFC 9106's second recommendation: 64 MiB, 3 passes).
_HASHER: Final = PasswordHasher()


class BadPassword(BalootError):
    """A password that breaks a rule; the message says which."""


def check_password(password: object, what: str = "a password") -> str:
    """``password`` when it keeps the rules (text that can be stored, 8 to 128 characters),
    else a :class:`BadPassword` that says which rule it breaks (``what`` names it)."""
    if not isinstance(password, str):
        raise BadPassword(f"{what} is text")
    if not storable(password):
        raise BadPassword(f"{what} holds a character that cannot be kept (a NUL, a lone half)")
    if len(password) < SHORTEST:
        raise BadPassword(f"{what} has at least {SHORTEST} characters")
    if len(password) > LONGEST:
        raise BadPassword(f"{what} has at most {LONGEST} characters")
    return password


async def hashed(password: str) -> str:
    """The argon2id hash of ``password`` (a checked one), computed off the event loop."""
    return await asyncio.to_thread(_HASHER.hash, password)


async def verified(kept: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``kept`` is the hash of, computed off the event loop;
    with no hash (an unknown name, a deleted player), the same work against :data:`DUMMY`,
    and False."""
    return await asyncio.to_thread(_verify, kept, password)


def _verify(kept: str | None, password: str) -> bool:
    try:
        right = _HASHER.verify(kept or _dummy(), password)
    except (Argon2Error, InvalidHashError):  # a mismatch, or a hash that cannot be read
        return False
    return right and kept is not None


@functools.cache
def _dummy() -> str:
    """The hash a sign-in for no account verifies against: made once, of a password nobody
    can send (longer than the longest)."""
    return _HASHER.hash("-" * (LONGEST + 1))
