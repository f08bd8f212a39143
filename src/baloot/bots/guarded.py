"""A bot whose failures are decided by a stand-in: how a web table seats an operator's program.

At a table people play on, a program that fails must not stop the game: the stand-in (the
heuristic bot) makes that decision, the failure is reported, and the program is started again
for a later decision. A program that keeps failing is given a rest that doubles with each
failure in a row (up to 31 decisions), so that a broken one does not hold up every turn.

>>> import random
>>> from baloot import Hand
>>> from baloot.bots import RandomBot
>>> from baloot.view.seat_view import SeatView
>>> class Broken:
...     name = "broken"
...     def choose(self, view, legal):
...         raise BotFailure("broken", "N", FailureKind.CRASHED, "it exited with status 1")
>>> failures = []
>>> bot = GuardedBot(Broken(), RandomBot(random.Random(1)), failures.append)
>>> hand = Hand.new(rng=random.Random(1))
>>> bot.choose(SeatView.of(hand, "N"), hand.legal_actions()) in hand.legal_actions()
True
>>> [str(f) for f in failures], bot.failing
(['bot broken at N failed (crashed): it exited with status 1'], True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from baloot.bots.base import close_bot
from baloot.bots.failure import BotFailure, FailureKind
from baloot.core.actions import Action
from baloot.table.players import Bot, Listening
from baloot.view.seat_view import SeatView

__all__ = ["BotFailure", "FailureKind", "GuardedBot"]

#: The longest rest, in decisions, of a program that keeps failing.
MAX_REST = 31


class GuardedBot:
    """``bot``, with ``stand_in`` deciding whenever it fails; ``report`` hears each failure."""

    def __init__(self, bot: Bot, stand_in: Bot, report: Callable[[BotFailure], None]) -> None:
        self.bot = bot
        self.stand_in = stand_in
        self.report = report
        self.name = bot.name
        self._in_a_row = 0
        self._rest = 0

    @property
    def failing(self) -> bool:
        """True from a failure of the bot until it decides well again: the stand-in plays."""
        return self._in_a_row > 0

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The bot's decision, or the stand-in's when the bot fails or rests."""
        if self._rest > 0:
            self._rest -= 1
            return self.stand_in.choose(view, legal)
        try:
            action = self.bot.choose(view, legal)
        except BotFailure as failure:
            self._in_a_row += 1
            self._rest = min(2 ** (self._in_a_row - 1) - 1, MAX_REST)
            self.report(failure)
            return self.stand_in.choose(view, legal)
        self._in_a_row = 0
        return action

    def hand_over(self, view: SeatView) -> None:
        """Passed on to the bot, if it listens."""
        if isinstance(self.bot, Listening):
            self.bot.hand_over(view)

    def close(self) -> None:
        """Let go of the bot's process."""
        close_bot(self.bot)
