"""A bot's failure: what a run that must go on records when a bot breaks, whatever the bot.

An external program fails by breaking ``baloot-bot/1`` (:mod:`baloot.bots.external`); a bot
in this process fails by raising. Both are one :class:`BotFailure`, so that the arena counts
the game as lost by the bot's side and reports it in one line, and a web table's stand-in
takes over, the same way for each. :class:`ContainedBot` is how an in-process bot's
exceptions become failures: the exception is the failure's cause, with its traceback.

>>> import random
>>> from baloot import Hand
>>> from baloot.view.seat_view import SeatView
>>> class Broken:
...     name = "broken"
...     def choose(self, view, legal):
...         return {}["missing"]
>>> hand = Hand.new(rng=random.Random(1))
>>> ContainedBot(Broken()).choose(SeatView.of(hand, "N"), hand.legal_actions())
Traceback (most recent call last):
...
baloot.bots.failure.BotFailure: bot broken at N failed (raised): KeyError: 'missing'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from baloot.core.actions import Action
from baloot.core.reasons import ReasonCode
from baloot.table.players import Bot, BotError, close_bot
from baloot.view.seat_view import SeatView

__all__ = ["BotFailure", "ContainedBot", "FailureKind", "exception_line"]


class FailureKind(Enum):
    """How a bot failed: an external program's ways, and an in-process bot's exception."""

    CANNOT_START = "cannot_start"
    NOT_READY = "not_ready"
    MALFORMED = "malformed"
    WRONG_ID = "wrong_id"
    ILLEGAL = "illegal"
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    RAISED = "raised"


class BotFailure(BotError):
    """A bot broke its protocol, stopped answering, or raised: nothing was applied.

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
            # an illegal choice breaks a rule every language words; the other ways name none
            code=ReasonCode.BOT_ILLEGAL if kind is FailureKind.ILLEGAL else None,
            params={"bot": bot, "seat": seat or ""},
        )
        self.bot, self.seat, self.kind, self.detail = bot, seat, kind, detail
        self.said = said
        self.actions = tuple(actions)
        self.legal = tuple(legal)

    @classmethod
    def raised(
        cls,
        bot: str,
        seat: str,
        error: Exception,
        view: SeatView | None = None,
        legal: Sequence[Action] = (),
    ) -> BotFailure:
        """The failure of an in-process bot at ``seat`` that raised ``error`` when asked about
        ``view`` (None: as it was made); raise it ``from error`` to keep the traceback."""
        return cls(
            bot,
            seat,
            FailureKind.RAISED,
            exception_line(error),
            actions=() if view is None else [str(action) for action in view.actions],
            legal=[str(action) for action in legal],
        )

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


class ContainedBot:
    """``bot``, in this process, whose exceptions are :class:`BotFailure` s (kind ``raised``)
    as an external program's failures are: how the arena seats a registered bot.

    Only exceptions are contained: Ctrl-C and an exit (``KeyboardInterrupt``,
    ``SystemExit``) still stop the run.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The bot's decision; a :class:`BotFailure` when it raises."""
        try:
            return self.bot.choose(view, legal)
        except BotError:
            raise
        except Exception as error:
            raise self._failure(error, view, legal) from error

    def hand_over(self, view: SeatView) -> None:
        """Passed on to the bot if it listens; a :class:`BotFailure` when it raises."""
        listen = getattr(self.bot, "hand_over", None)
        if listen is None:
            return
        try:
            listen(view)
        except BotError:
            raise
        except Exception as error:
            raise self._failure(error, view) from error

    def close(self) -> None:
        """Let go of what the bot holds."""
        close_bot(self.bot)

    def _failure(
        self, error: Exception, view: SeatView, legal: Sequence[Action] = ()
    ) -> BotFailure:
        seat = "" if view.seat is None else view.seat.name
        return BotFailure.raised(self.name, seat, error, view, legal)
