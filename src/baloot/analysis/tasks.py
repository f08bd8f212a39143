"""The judging of one position as a bot's task, so that a server's workers judge its analyses.

A :class:`JudgeTask` is a :class:`~baloot.bots.decisions.Task`: one :class:`Point` of a
finished hand (the hand before the action, with every card: it never leaves the server's
processes and workers) and the judge's bot and seed. Each position is judged on its own, its
bot's generator seeded from where it is, so a task judged on a worker gives what the same
position judged here gives, and a whole analysis put together from tasks is the analysis of
:func:`~baloot.analysis.analyze_record`.

>>> from baloot.records.record import loads
>>> from baloot.core.cards import CARDS
>>> record = loads('format = "baloot/1"\\ndealer = "E"\\ndeck = "%s"\\nactions = ["N sun"]'
...                % " ".join(c.text for c in CARDS))
>>> point = point_at(record, 1, 1)
>>> task = JudgeTask(point, "expert:fast", 0, seconds=60)
>>> task.run() == point.judged(SolverAndBot("expert:fast", 0))
True
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final

from .analyze import Point, point_at
from .judge import SolverAndBot
from .model import Decision

__all__ = ["JUDGE_SECONDS", "JudgeTask", "point_at"]

#: The most a worker may take to judge one position before it is given up (the judging
#: itself counts samples, not seconds: this is a ceiling for a worker that hangs).
JUDGE_SECONDS: Final = 120.0


@dataclass(frozen=True)
class JudgeTask:
    """The judging of ``point`` by the solver and the bot ``estimator`` (None: the solver
    alone) seeded from ``seed``, given up after ``seconds``."""

    point: Point
    estimator: str | None
    seed: int
    seconds: float = JUDGE_SECONDS

    @property
    def bot(self) -> str:
        """Who judges, for the line that says it failed."""
        return self.estimator or "solver"

    def run(self) -> Decision:
        """The decision at the point, judged here by this thread's judge."""
        return self.point.judged(_judge(self.estimator, self.seed))


_judges = threading.local()
"""This thread's judges by bot and seed: a judge makes a new bot for every position."""


def _judge(bot: str | None, seed: int) -> SolverAndBot:
    made: dict[tuple[str | None, int], SolverAndBot] | None = getattr(_judges, "made", None)
    if made is None:
        made = _judges.made = {}
    judge = made.get((bot, seed))
    if judge is None:
        judge = made[(bot, seed)] = SolverAndBot(bot, seed)
    return judge
