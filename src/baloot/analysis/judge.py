"""Where the values of an analysis come from: the exact solver in hindsight, and a bot's
estimates without it. The one module of the analysis that calls them.

:class:`Judge` is what the analysis asks: the exact value of every option of a play-phase
position with all four hands known (``baloot.solver.values`` in SCORE mode), and what a
searching bot (``expert`` by default) expects of each option from its seat's view alone
(``evaluate``), with a generator seeded from the position, so that a report is the same on
every run and one position analysed alone gives what the whole hand's analysis gave.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar, runtime_checkable

from baloot.bots.base import check_bot_name, close_bot, make_bot
from baloot.bots.levels import ROLES
from baloot.bots.names import BotSpec
from baloot.core.actions import Action
from baloot.core.errors import BalootError
from baloot.core.hand import Hand
from baloot.solver import Mode, values
from baloot.view.seat_view import SeatView

#: The bot whose estimates an analysis shows, unless told otherwise (:attr:`Roles.analysis
#: <baloot.bots.levels.Roles.analysis>`).
DEFAULT_BOT: Final = ROLES.analysis
T = TypeVar("T")


class JudgeError(BalootError):
    """A bot that cannot judge: unknown, or without ``evaluate``."""


@runtime_checkable
class Evaluating(Protocol):
    """A bot that can say what it expects of each legal action (``ExpertBot`` does)."""

    def decide(
        self, view: SeatView, legal: Sequence[Action], every: bool = False
    ) -> tuple[Action, Mapping[Action, float]]:
        """What it would choose, and (``every``) the value it expects of every legal action."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A bot's view of a position: what it expects of each legal action, and its choice."""

    values: Mapping[Action, float]
    choice: Action


class Judge(Protocol):
    """The values an analysis is made of."""

    @property
    def bot(self) -> str | None:
        """The name of the bot that estimates, or None when nothing estimates."""

    @property
    def seed(self) -> int:
        """The seed the bot's generators are drawn from, with each position's key."""

    def exact(self, hand: Hand) -> Mapping[Action, int]:
        """The exact value of each legal action of a play-phase ``hand`` for the team to act:
        the hand's written score, that team's minus the other's (a Gahwa hand: +1 or -1)."""

    def estimate(self, hand: Hand, key: str) -> Estimate | None:
        """What the bot expects of each legal action from the seat's view alone and what it
        would choose, its generator seeded by ``key``; None when no bot estimates."""


class SolverAndBot:
    """The judge of ``baloot analyze``: the solver, and the bot ``bot`` (None: none), seeded
    from ``seed`` and each position's key."""

    def __init__(self, bot: str | None = DEFAULT_BOT, seed: int = 0) -> None:
        self._bot = bot
        self._seed = seed
        self._spec: BotSpec | None = None
        if bot is not None:  # an unknown bot, a program, or one that cannot judge: at once
            try:
                self._spec = check_bot_name(bot, programs=False)
            except (BalootError, ValueError) as error:
                raise JudgeError(str(error)) from None
            close_bot(self._make(random.Random(0)))

    @property
    def bot(self) -> str | None:
        """The name of the bot that estimates, or None."""
        return self._bot

    @property
    def seed(self) -> int:
        """The seed of the bot's generators."""
        return self._seed

    def exact(self, hand: Hand) -> Mapping[Action, int]:
        """``baloot.solver.values`` in SCORE mode (the hand is not changed)."""
        return values(hand, Mode.SCORE)

    def estimate(self, hand: Hand, key: str) -> Estimate | None:
        """The bot's values of every option from the view of the seat to act and its choice
        there, from one search (``decide(view, legal, every=True)``): the choice is made on
        the values shown (for a call, on match equity, the usual call standing unless
        another is surely better)."""
        if self._bot is None:
            return None
        seat = hand.to_act
        assert seat is not None, "a position to judge has a seat to act"
        view, legal = SeatView.of(hand, seat), hand.legal_actions()
        choice, estimates = self._ask(key, lambda bot: bot.decide(view, legal, every=True))
        return Estimate(estimates, choice)

    def _ask(self, key: str, question: Callable[[Evaluating], T]) -> T:
        """``question`` put to a new bot, its generator seeded by ``key``."""
        bot = self._make(random.Random(f"{self._seed}:{key}"))
        try:
            return question(bot)
        finally:
            close_bot(bot)

    def _make(self, rng: random.Random) -> Evaluating:
        assert self._spec is not None
        try:
            bot = make_bot(self._spec, rng)
        except (BalootError, ValueError) as error:  # a bad option
            raise JudgeError(str(error)) from None
        if not isinstance(bot, Evaluating):
            close_bot(bot)
            raise JudgeError(
                f"bot {self._bot!r} cannot estimate the value of each option "
                f"(the analysis needs one with evaluate, such as {DEFAULT_BOT})"
            )
        return bot
