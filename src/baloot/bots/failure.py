"""A bot's failure: what a run that must go on records when a bot breaks.

An external program fails by breaking ``baloot-bot/1`` (:mod:`baloot.bots.external`): a
:class:`BotFailure` that names the bot, its seat, how it failed and what it said, so that the
arena counts the game as lost by the bot's side and reports it in one line, and a web table's
stand-in takes over.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from baloot.table.players import BotError

__all__ = ["BotFailure", "FailureKind", "exception_line"]


class FailureKind(Enum):
    """How a bot failed."""

    CANNOT_START = "cannot_start"
    NOT_READY = "not_ready"
    MALFORMED = "malformed"
    WRONG_ID = "wrong_id"
    ILLEGAL = "illegal"
    TIMEOUT = "timeout"
    CRASHED = "crashed"


class BotFailure(BotError):
    """A bot broke its protocol or stopped answering: nothing was applied.

    ``bot`` and ``seat`` say who, ``kind`` how, ``said`` what it wrote (quoted, or None),
    ``actions`` the actions of the view it was asked about, ``legal`` that view's choices.
    """

    def __init__(
        self,
        bot: str,
        seat: str | None,
        kind: FailureKind,
        detail: str,
        said: str | None = None,
        actions: Sequence[str] = (),
        legal: Sequence[str] = (),
    ) -> None:
        at = f" at {seat}" if seat else ""
        super().__init__(
            f"bot {bot}{at} failed ({kind.value}): {detail}",
            code=f"bot_{kind.value}",
            params={"bot": bot, "seat": seat or ""},
        )
        self.bot, self.seat, self.kind, self.detail = bot, seat, kind, detail
        self.said = said
        self.actions = tuple(actions)
        self.legal = tuple(legal)

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.bot, self.seat, self.kind, self.detail, self.said, self.actions, self.legal)
        return (type(self), args)

    def to_json(self) -> dict[str, Any]:
        """The failure as a report's JSON object."""
        return {
            "bot": self.bot,
            "seat": self.seat,
            "kind": self.kind.value,
            "message": str(self),
            "said": self.said,
            "actions": list(self.actions),
            "legal": list(self.legal),
        }


def exception_line(error: BaseException) -> str:
    """What ``error`` says, as one line: its type and its message.

    >>> exception_line(ValueError("no\\n  good"))
    'ValueError: no good'
    """
    return " ".join(f"{type(error).__name__}: {error}".split())
