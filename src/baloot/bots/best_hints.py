"""Hints from the strongest bot: what the terminal and a web table answer to ``hint``.

The action is the expert bot's, at the level of :attr:`~baloot.bots.levels.Roles.hint`; its
reasons are the heuristic bot's when the rules pick the same action, else what the search found.
A bot, not words: the interfaces word its reasons (:mod:`baloot.words.hints`). A server sends
a hint away as a :class:`HintTask`, to the workers that make its bots' decisions.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from baloot.bots.clock import Clock, deciding
from baloot.bots.decisions import RandomState
from baloot.bots.expert import ExpertBot
from baloot.bots.heuristic import HeuristicBot, Hint, HintReason
from baloot.bots.heuristic.hints import num
from baloot.bots.levels import ROLES, make_level
from baloot.core.actions import Action, Verb
from baloot.view.seat_view import SeatView


class BestHints:
    """Hints from the strongest bot (:class:`~baloot.bots.expert.ExpertBot`, ``options`` its
    budget; unless given, the level of :attr:`~baloot.bots.levels.Roles.hint`, ``hard``, at
    most about a second): its action, with the heuristic bot's reasons when the rules pick the
    same, else with what the search found (``S1_best_card``, ``S1_best_call``: the action's
    expected value and its gain over the next best, in game points of the hand).

    >>> from baloot.core.hand import Hand
    >>> from baloot.view.seat_view import SeatView
    >>> hand = Hand.new(rng=random.Random(1))
    >>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
    >>> BestHints(random.Random(0), {"fast": ""}).explain(view, legal).action in legal
    True
    """

    def __init__(
        self, rng: random.Random | None = None, options: Mapping[str, str] | None = None
    ) -> None:
        rng = rng if rng is not None else random.Random(0)
        if options is None:
            expert = make_level(ROLES.hint, rng)
            assert isinstance(expert, ExpertBot), "the hint's level is the expert's"
            self.expert = expert
        else:
            self.expert = ExpertBot(rng, options)
        self.rules = HeuristicBot()

    @property
    def rng(self) -> random.Random:
        """The generator of the search: the one state a hint leaves behind."""
        return self.expert.rng

    def explain(self, view: SeatView, legal: Sequence[Action]) -> Hint:
        """The action the strongest bot picks among ``legal`` in ``view``, and why."""
        action, values = self.expert.decide(view, legal)
        usual = self.rules.explain(view, legal)
        if usual.action == action:
            return usual
        if action.verb is Verb.DECLARE:
            projects = " ".join(claim.kind.word for claim in action.claims)
            return Hint(action, (HintReason("P1_declare", {"projects": projects}),))
        value = values.get(action, 0.0)
        others = [v for a, v in values.items() if a.card != action.card or a.verb != action.verb]
        gain = value - max(others, default=value)
        params = {"value": num(round(value, 1)), "gain": num(round(gain, 1))}
        if action.card is not None:
            reason = HintReason("S1_best_card", {"card": action.card.text, **params})
        else:
            reason = HintReason("S1_best_call", {"action": str(action), **params})
        return Hint(action, (reason,))


@dataclass(frozen=True)
class HintTask:
    """A hint to make elsewhere (a :class:`~baloot.bots.decisions.Task`): what the seat sees,
    its legal actions, and the state of the generator of the :class:`BestHints` that asks, so
    that the hint is the one it would have given itself.

    >>> from baloot.core.hand import Hand
    >>> hand = Hand.new(rng=random.Random(1))
    >>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
    >>> hints, twin = BestHints(random.Random(4)), BestHints(random.Random(4))
    >>> hinted = HintTask.of(hints, view, legal, seconds=60).run()
    >>> hinted.restore(hints)
    >>> hinted.hint == twin.explain(view, legal), hints.rng.getstate() == twin.rng.getstate()
    (True, True)
    """

    view: SeatView
    legal: tuple[Action, ...]
    rng_state: RandomState = field(repr=False)
    seconds: float
    bot: str = ROLES.hint

    @classmethod
    def of(
        cls, hints: BestHints, view: SeatView, legal: Sequence[Action], seconds: float
    ) -> HintTask:
        """The task of the hint that ``hints`` (of the hint's level) would give now."""
        return cls(view, tuple(legal), hints.rng.getstate(), seconds)

    def run(self) -> Hinted:
        """The hint, made here under the task's clock by this thread's :class:`BestHints`."""
        hints: BestHints | None = getattr(_hints, "best", None)
        if hints is None:
            hints = _hints.best = BestHints()
        hints.rng.setstate(self.rng_state)
        with deciding(Clock(wall=self.seconds, cpu_time=time.thread_time)):
            hint = hints.explain(self.view, self.legal)
        return Hinted(hint, hints.rng.getstate())


@dataclass(frozen=True)
class Hinted:
    """The answer to a :class:`HintTask`: the hint, and the generator's state after it."""

    hint: Hint
    rng_state: RandomState = field(repr=False)

    def restore(self, hints: BestHints) -> None:
        """Leave ``hints`` as if it had given this hint itself."""
        hints.rng.setstate(self.rng_state)


_hints = threading.local()
"""This thread's :class:`BestHints`: its generator is set anew for every hint."""
