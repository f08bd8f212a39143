"""The exceptions of pybaloot: each names what went wrong in a player's words."""

from __future__ import annotations

from typing import Self

from baloot.core.reasons import ReasonCode, reason_text


class BalootError(Exception):
    """Base class of every error raised by pybaloot."""


class NotationError(BalootError, ValueError):
    """Text that is not valid notation: a card, a suit, an action or a rule value.

    >>> from baloot import Card
    >>> Card.parse("Xz")
    Traceback (most recent call last):
    ...
    baloot.NotationError: unknown card 'Xz'
    """


class RulesError(BalootError, ValueError):
    """An unknown rule flag, preset or flag value."""


class IllegalActionError(BalootError):
    """An action that the rules do not allow at this point; nothing was applied.

    ``code`` names the rule broken (a :class:`~baloot.core.reasons.ReasonCode`; None for an
    error that names no rule, such as a bot's failure) and ``params`` its parameters, as plain
    strings; ``reason`` is the rule in English words (``S must follow diamonds``); ``action``
    is the offending action's text as given.

    >>> error = IllegalActionError.of(
    ...     ReasonCode.MUST_FOLLOW, "S play Kh", seat="S", suit="diamonds"
    ... )
    >>> error.code, error.params
    (<ReasonCode.MUST_FOLLOW: 'must_follow'>, {'seat': 'S', 'suit': 'diamonds'})
    >>> error.reason
    'S must follow diamonds'
    >>> str(error)
    '"S play Kh": S must follow diamonds'
    """

    def __init__(
        self,
        reason: str,
        action: str | None = None,
        *,
        code: ReasonCode | None = None,
        params: dict[str, str] | None = None,
    ) -> None:
        super().__init__(reason if action is None else f'"{action}": {reason}')
        self.reason = reason
        self.action = action
        self.code = code
        self.params: dict[str, str] = {} if params is None else params

    @classmethod
    def of(cls, code: ReasonCode, action: str | None = None, **params: str) -> Self:
        """The error of reason ``code`` with ``params``, its English ``reason`` built from them."""
        return cls(reason_text(code, **params), action, code=code, params=params)


class RecordError(BalootError, ValueError):
    """A file or text that is not a ``baloot/1`` record (bad TOML, a missing key, a bad deck)."""


# The public errors print as ``baloot.IllegalActionError``, where users import them from.
for _error in (BalootError, NotationError, RulesError, IllegalActionError, RecordError):
    _error.__module__ = "baloot"


def first_line(error: BaseException) -> str:
    """What ``error`` says, its first line only (its type's name when it says nothing): how a
    failure is told in one line, to a log or a person.

    >>> first_line(OSError("disk full\\n  while writing")), first_line(KeyError())
    ('disk full', 'KeyError')
    """
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
