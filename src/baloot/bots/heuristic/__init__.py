"""The heuristic bot: bids, doubles, declares and plays like a sound club player, and says
why.

It reads only its seat's :class:`~baloot.view.SeatView` and picks one of the legal actions
by the rules listed in :class:`HeuristicBot`; :meth:`HeuristicBot.explain` gives the rules
that decided a choice as a :class:`Hint`. Trick winners come from
:func:`baloot.core.cards.trick_winner`, card strength from :func:`baloot.core.cards.strength`
and :data:`~baloot.core.cards.TRUMP_ABOVE` / :data:`~baloot.core.cards.PLAIN_ABOVE`, card
points from :data:`baloot.core.cards.PLAIN_POINTS` and :data:`~baloot.core.cards.TRUMP_POINTS`,
and what is allowed only from the legal actions it is given.

Modules: ``values`` (card points and hand values), ``inference`` (what the seat can infer
about the others' cards), ``bidding`` (B1–B8), ``doubling`` (D1–D3), ``play`` (P1–P9),
``hints`` (:class:`Hint`, :class:`HintReason` and the hint keys), ``tuning`` (the
:class:`Thresholds` of its calls), ``bot`` (the bot).

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(1))
>>> bot = HeuristicBot(random.Random(2))
>>> bot.choose(SeatView.of(hand, hand.to_act), hand.legal_actions()) in hand.legal_actions()
True
"""

from baloot.bots.heuristic.bot import HeuristicBot
from baloot.bots.heuristic.hints import HINT_KEYS, Hint, HintReason
from baloot.bots.heuristic.play import LATER_CARD, LEAD_BONUS
from baloot.bots.heuristic.tuning import Thresholds
from baloot.bots.heuristic.values import defence_value, hokum_value, points, sun_value

__all__ = [
    "HINT_KEYS",
    "LATER_CARD",
    "LEAD_BONUS",
    "HeuristicBot",
    "Hint",
    "HintReason",
    "Thresholds",
    "defence_value",
    "hokum_value",
    "points",
    "sun_value",
]
