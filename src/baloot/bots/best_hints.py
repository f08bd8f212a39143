"""Hints from the strongest bot: what the terminal and a web table answer to ``hint``.

The action is the expert bot's, at the level of :attr:`~baloot.bots.levels.Roles.hint`; its
reasons are the heuristic bot's when the rules pick the same action, else what the search found.
A bot, not words: the interfaces word its reasons (:mod:`baloot.words.hints`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

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
