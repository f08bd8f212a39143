"""One bot decision as plain data: a task that any process can decide, and its answer.

A decision is one kind of :class:`Task`, the work of a bot that travels to a worker process or
a cluster: hints (:mod:`baloot.bots.best_hints`) and the judging of a position of a finished
hand (:mod:`baloot.analysis.tasks`) are others, sent to the same workers.

A task holds what the seat may know (its :class:`~baloot.view.SeatView`, never the hidden
hands: the view is the wire), the legal actions, the bot's name and the state of the bot's
random generator; the answer is the action and the generator's new state. The built-in bots
keep nothing between decisions but their generator, so a decision made elsewhere and given
back to the bot (:meth:`Decision.restore`) leaves it as if it had decided itself: the same
seed gives the same game wherever the decisions are made (``docs/workers.md``).

>>> from baloot.core.hand import Hand
>>> from baloot.bots.base import make_bot
>>> hand = Hand.new(rng=random.Random(1))
>>> bot, twin = make_bot("medium", random.Random(5)), make_bot("medium", random.Random(5))
>>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
>>> decision = decide(DecisionTask.of(bot, view, legal, seconds=60))
>>> decision.restore(bot)
>>> decision.action == twin.choose(view, legal), bot.rng.getstate() == twin.rng.getstate()
(True, True)
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

from baloot.bots.base import Closing, make_bot, parse_bot_name
from baloot.bots.clock import Clock, deciding
from baloot.bots.names import Registered
from baloot.core.actions import Action
from baloot.core.errors import BalootError
from baloot.core.reasons import ReasonCode
from baloot.table.players import Bot, BotError
from baloot.view.seat_view import SeatView

__all__ = [
    "GRACE",
    "Deciders",
    "Decision",
    "DecisionFailed",
    "DecisionTask",
    "RandomState",
    "Task",
    "decide",
    "fail",
    "give",
    "run_task",
    "warm",
]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

#: What ``random.Random.getstate`` gives and ``setstate`` takes.
RandomState = tuple[Any, ...]
#: Seconds a decision sent away may take beyond its clock before it is given up (its worker
#: ended): a bot answers by its clock, so only a worker that hangs or starves goes past it.
GRACE: Final = 5.0


class DecisionFailed(BalootError):
    """A decision (any :class:`Task`) sent away did not come back (its worker died or took too
    long, the bot raised, the workers are gone): one line saying why, so that the caller lets
    its stand-in decide instead, or does the task itself."""


class Task(Protocol[R_co]):
    """Work for a bot, as plain data that any process can do (pickled for a worker or a
    cluster): the work carries all it needs, so any worker may take it."""

    @property
    def bot(self) -> str:
        """The name of the bot that does it, for the line that says it failed."""
        ...

    @property
    def seconds(self) -> float:
        """Its clock: the wall time it may take before it is given up (a grace added)."""
        ...

    def run(self) -> R_co:
        """Do it, here."""
        ...


@dataclass(frozen=True)
class DecisionTask:
    """One decision to make: bot ``bot`` (a name as :func:`~baloot.bots.base.make_bot` takes
    it) in ``view`` among ``legal``, its generator in ``rng_state``, within ``seconds`` of
    wall time (the decision's clock)."""

    bot: str
    view: SeatView
    legal: tuple[Action, ...]
    rng_state: RandomState = field(repr=False)
    seconds: float

    @classmethod
    def of(
        cls,
        bot: Bot,
        view: SeatView,
        legal: Sequence[Action],
        seconds: float,
        name: str | None = None,
    ) -> DecisionTask:
        """The task of ``bot``'s next decision. ``name`` is the name the bot was made by
        (its own ``name`` by default, which is all of it for the levels and the bots made
        without options: ``expert:fast`` makes a bot called ``expert``).

        A ``ValueError`` when the bot cannot be sent: it holds a process of its own (a
        program), has no generator, or is not what its name makes, but for its generator.
        """
        name = bot.name if name is None else name
        if isinstance(bot, Closing):
            raise ValueError(f"bot {name!r} holds a process of its own: it decides where it is")
        if not isinstance(parse_bot_name(name), Registered):
            raise ValueError(f"bot {name!r} is a program: it decides where it is")
        rng = _generator(bot)
        if not _same_but_generator(bot, _bot(name)):
            raise ValueError(
                f"bot {bot.name!r} is not what the name {name!r} makes: give the name it was "
                "made by"
            )
        return cls(name, view, tuple(legal), rng.getstate(), seconds)

    def run(self) -> Decision:
        """The decision, made here (:func:`decide`)."""
        return decide(self)


@dataclass(frozen=True)
class Decision:
    """The answer to a :class:`DecisionTask`: the bot's ``action`` and its generator's state
    after deciding it."""

    action: Action
    rng_state: RandomState = field(repr=False)

    def restore(self, bot: Bot) -> None:
        """Leave ``bot`` as if it had made this decision itself: its generator moves on."""
        _generator(bot).setstate(self.rng_state)


class Deciders(Protocol):
    """Somewhere that bots' tasks are sent to: worker processes, a Ray cluster."""

    def submit(self, task: Task[R]) -> Future[R]:
        """What ``task`` gives, to come; it fails only with :class:`DecisionFailed`."""
        ...

    def close(self) -> None:
        """Let the workers go; the tasks still to come fail. Closing twice is once."""
        ...


def run_task(task: Task[R]) -> R:
    """Do ``task`` here: what a worker runs."""
    return task.run()


def decide(task: DecisionTask) -> Decision:
    """Make the decision of ``task`` here, under its clock (as a web table's bot threads do):
    the bot's action, checked legal (a :class:`~baloot.table.players.BotError` otherwise), and
    its generator's new state. One bot per name and thread is kept for it."""
    bot = _bot(task.bot)
    rng = _generator(bot)
    rng.setstate(task.rng_state)
    with deciding(Clock(wall=task.seconds, cpu_time=time.thread_time)):
        action = bot.choose(task.view, task.legal)
    if action not in task.legal:
        seat = "" if task.view.seat is None else task.view.seat.name
        raise BotError.of(ReasonCode.BOT_ILLEGAL, str(action), bot=task.bot, seat=seat)
    return Decision(action, rng.getstate())


def fail(decision: Future[Any], why: str | DecisionFailed) -> None:
    """Fail ``decision`` with ``why`` (a :class:`DecisionFailed`), unless it is settled
    already: closing, a time-out and the answer may race, and the first one stands."""
    with contextlib.suppress(InvalidStateError):
        decision.set_exception(why if isinstance(why, DecisionFailed) else DecisionFailed(why))


def give(decision: Future[R], answer: R) -> None:
    """Give ``decision`` its ``answer``, unless it is settled already (as :func:`fail`)."""
    with contextlib.suppress(InvalidStateError):
        decision.set_result(answer)


def warm(names: Sequence[str]) -> None:
    """Make the bots of ``names`` now, in this thread, so that their first decision is not
    the one to pay for it."""
    for name in names:
        _bot(name)


_bots = threading.local()
"""This thread's bots by name: a bot's generator is set anew for every decision, so two
threads must not share one."""


def _bot(name: str) -> Bot:
    """This thread's bot of ``name``, made once."""
    made: dict[str, Bot] | None = getattr(_bots, "by_name", None)
    if made is None:
        made = _bots.by_name = {}
    bot = made.get(name)
    if bot is None:
        bot = made[name] = make_bot(name, random.Random())
    return bot


def _generator(bot: Bot) -> random.Random:
    rng = getattr(bot, "rng", None)
    if not isinstance(rng, random.Random):
        raise ValueError(f"bot {bot.name!r} has no random generator to send with its decisions")
    return rng


def _same_but_generator(bot: Bot, other: Bot) -> bool:
    """Whether ``bot`` and ``other`` are the same bot but for their generators' states."""
    settings = {k: v for k, v in getattr(bot, "__dict__", {}).items() if k != "rng"}
    others = {k: v for k, v in getattr(other, "__dict__", {}).items() if k != "rng"}
    return type(bot) is type(other) and settings == others
