"""The exceptions of pybaloot: each names what went wrong in a player's words."""

from __future__ import annotations


class BalootError(Exception):
    """Base class of every error raised by pybaloot."""


class NotationError(BalootError, ValueError):
    """Text that is not valid notation: a card, a suit, an action or a rule value.

    >>> from baloot import Card
    >>> Card.parse("Xz")
    Traceback (most recent call last):
    ...
    baloot.errors.NotationError: unknown card 'Xz'
    """


class RulesError(BalootError, ValueError):
    """An unknown rule flag, preset or flag value."""


class IllegalActionError(BalootError):
    """An action that the rules do not allow at this point; nothing was applied.

    ``reason`` is the rule in words (``S must follow diamonds``); ``action`` is the
    offending action's text as given.
    """

    def __init__(self, reason: str, action: str | None = None) -> None:
        super().__init__(reason if action is None else f'"{action}": {reason}')
        self.reason = reason
        self.action = action


class RecordError(BalootError, ValueError):
    """A file or text that is not a ``baloot/1`` record (bad TOML, a missing key, a bad deck)."""
