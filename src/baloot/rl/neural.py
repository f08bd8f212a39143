"""The ``neural`` bot: a small network, trained on self-play data, plays the cards.

From the seat's observation alone (:mod:`baloot.rl.observation`) the network predicts, for
each action of the action space, the double-dummy value the action has in the true deal
(``docs/rl.md``): averaged over the deals consistent with what the seat has seen, that is what
a sampling search estimates, learned once instead of searched at every card. The bot plays
the card the heuristic bot would play, unless the network values another legal card more by
the margin its training chose (``prior`` in the weights' card: on held-out hands that loses
fewer points than either alone); with ``prior=none``, the card of highest predicted value. It
calls (bids, the trump, doubling) and declares as the heuristic bot does, or, with
``calls=expert``, calls as ``expert:fast`` does.

Inference is NumPy only (:mod:`baloot.rl.network`): no learning library at play time. The
bot keeps nothing but its generator (the weights are loaded once a process), so its
decisions can be sent to the bot workers (:mod:`baloot.bots.decisions`). It needs NumPy
(``pip install 'pybaloot[rl]'``); without it, making the bot is an error that says so, while
the registry still lists it.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(1))
>>> bot = NeuralBot(random.Random(2))
>>> while hand.phase is not Phase.PLAYING:
...     _ = hand.apply(bot.choose(SeatView.of(hand, hand.to_act), hand.legal_actions()))
>>> bot.choose(SeatView.of(hand, hand.to_act), hand.legal_actions()) in hand.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from baloot.bots.expert import ExpertBot
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.names import BotOptions, UnknownBotError
from baloot.core.actions import Action, Verb
from baloot.core.vocabulary import Phase
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

if TYPE_CHECKING:
    from baloot.rl.network import Floats, Network

#: What ``calls=`` takes: the bot that calls.
CALLERS: Final = ("heuristic", "expert")
#: What ``prior=`` takes: whose card stands unless the network overrules it.
PRIORS: Final = ("heuristic", "none")
#: The expert's budget when it calls for the network.
EXPERT_CALLS: Final = {"fast": ""}
NEEDS: Final = "the neural bot needs NumPy: pip install 'pybaloot[rl]'"


def shipped() -> Network:
    """The shipped network (:func:`baloot.rl.network.shipped`), or an ImportError that names
    the extra NumPy comes with."""
    try:
        from baloot.rl.network import shipped as load
    except ImportError:
        raise ImportError(NEEDS) from None
    return load()


class NeuralBot:
    """The learned player (see the module): the network plays the cards; ``calls`` (an
    option, ``heuristic`` or ``expert``) calls, and the heuristic bot declares."""

    __slots__ = ("_caller", "_declarer", "_margin", "name", "network", "rng")

    def __init__(self, rng: random.Random | None = None, options: BotOptions | None = None) -> None:
        options = options if options is not None else BotOptions(bot="neural")
        options.check("calls", "prior")
        caller = options.get("calls", "heuristic")
        if caller not in CALLERS:
            raise UnknownBotError(f"bot 'neural': calls is {' or '.join(CALLERS)}, not {caller!r}")
        prior = options.get("prior", "heuristic")
        if prior not in PRIORS:
            raise UnknownBotError(f"bot 'neural': prior is {' or '.join(PRIORS)}, not {prior!r}")
        self.name = "neural"
        self.rng = rng if rng is not None else random.Random()
        self.network = shipped()
        trained = self.network.meta.get("prior") or {}
        #: How much more the network must value a card to play it over the heuristic's.
        self._margin: float | None = trained.get("margin") if prior == "heuristic" else None
        self._declarer = HeuristicBot(self.rng)
        self._caller: Bot = (
            self._declarer if caller == "heuristic" else ExpertBot(self.rng, EXPERT_CALLS)
        )

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A call or a declaration as the caller or the heuristic bot makes it; else the
        heuristic bot's card, unless the network values another more by its margin."""
        if view.phase is not Phase.PLAYING:
            return self._caller.choose(view, legal)
        plays = [action for action in legal if action.verb is Verb.PLAY]
        heuristic: Action | None = None
        if len(plays) < len(legal) or self._margin is not None:
            heuristic = self._declarer.choose(view, legal)
            if heuristic.verb is not Verb.PLAY:  # a declaration
                return heuristic
        if len(plays) == 1:
            return plays[0]
        from baloot.rl.action_space import index_of

        values = self.values(view)
        best = max(plays, key=lambda action: float(values[index_of(action)]))
        if heuristic is None or self._margin is None:
            return best
        gain = float(values[index_of(best)] - values[index_of(heuristic)])
        return best if gain > self._margin else heuristic

    def values(self, view: SeatView) -> Floats:
        """The network's value of each action of the action space in ``view``."""
        from baloot.rl.observation import encode

        return self.network(encode(view))
