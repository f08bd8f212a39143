"""The expert bot: bids and doubles by simulation, plays by sampled double-dummy solving.

>>> import random
>>> from baloot.core.hand import Hand
>>> hand = Hand.new(rng=random.Random(1))
>>> bot = ExpertBot(random.Random(2), {"fast": ""})
>>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
>>> bot.choose(view, legal) in legal
True
>>> set(bot.evaluate(view, legal)) == set(legal)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from baloot.bots.expert.bidding import decide_call
from baloot.bots.expert.budget import CLIENT_BOUNDS, SearchBudget
from baloot.bots.expert.play import declaration, play_values
from baloot.core.actions import Action, Verb
from baloot.core.vocabulary import Phase
from baloot.view.seat_view import SeatView

#: Values closer than this are a tie.
TIE: Final = 1e-9


class ExpertBot:
    """A searching player. Its budget (:class:`SearchBudget`) comes from ``options``: ``fast``,
    ``samples=N`` (worlds per card), ``deals=N`` (deals per call), ``pool=N``, ``mode=``
    ``points``/``score``/``auto``, ``score_from=N``. Everything it decides comes from its
    generator ``rng``: the same seed and the same views give the same actions.

    - Bidding, trump naming and doubling: :func:`~baloot.bots.expert.bidding.decide_call`,
      the usual call unless the simulation is sure another is worth more to the match.
    - Trick 1: declare the most project value it may
      (:func:`~baloot.bots.expert.play.declaration`).
    - Play: :func:`~baloot.bots.expert.play.play_values`, the card of most expected value,
      the first in the engine's order on a tie, with the Ekka word whenever it is offered
      for that card.
    """

    name = "expert"
    #: What a client of a web table may ask of it: a named budget, at most the default one.
    CLIENT_OPTIONS: Final = CLIENT_BOUNDS

    def __init__(
        self, rng: random.Random | None = None, options: Mapping[str, str] | None = None
    ) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.budget = SearchBudget.of(options or {})

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """The action of most expected value among ``legal`` in ``view``."""
        return self.decide(view, legal)[0]

    def decide(
        self, view: SeatView, legal: Sequence[Action], every: bool = False
    ) -> tuple[Action, dict[Action, float]]:
        """The action it chooses and the expected values it weighed (game points of the hand
        for the seat's team, as :meth:`evaluate`; empty when nothing was to weigh: one legal
        action, or a declaration, which it always makes). With ``every``, the values of every
        legal action from that one search, the calls too weak to try included (an analysis
        shows them all); the choice is the same."""
        if len(legal) == 1 and not every:
            return legal[0], {}
        if view.phase is Phase.PLAYING:
            declare = declaration(legal)
            if declare is not None and not every:
                return declare, {}
            values = play_values(view, legal, self.rng, self.budget)
            return declare or best_play(values, legal), values
        action, calls = decide_call(view, legal, self.rng, self.budget, every)
        return action, {call: value.points for call, value in calls.items()}

    def evaluate(self, view: SeatView, legal: Sequence[Action]) -> dict[Action, float]:
        """The expected value of every action of ``legal`` in game points of the hand for the
        seat's team (its score less the other's): sampled deals played out for a call,
        sampled worlds solved for a card or a declaration."""
        return self.decide(view, legal, every=True)[1]


def best_play(values: Mapping[Action, float], legal: Sequence[Action]) -> Action:
    """The play of most value: the first in the engine's order on a tie, with the Ekka word
    when it is offered for that card and as good; how the expert chooses a card from
    :meth:`ExpertBot.evaluate`.

    >>> plain, ekka = Action.parse("S play As"), Action.parse("S play As ekka")
    >>> best_play({plain: 3.0, ekka: 3.0, Action.parse("S play 7s"): 1.0}, [plain, ekka])
    Action('S play As ekka')
    """
    plays = [a for a in legal if a.verb is Verb.PLAY]
    best = max(values[a] for a in plays)
    chosen = next(a for a in plays if values[a] >= best - TIE)
    for action in plays:
        if action.ekka and action.card == chosen.card and values[action] >= best - TIE:
            return action
    return chosen
