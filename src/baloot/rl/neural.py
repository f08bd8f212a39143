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
(``pip install -e '.[rl]'``); without it, making the bot is an error that says so, while
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
import zipfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from baloot.bots.expert import ExpertBot
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.names import BotOptions, OptionBounds, UnknownBotError
from baloot.core.actions import Action, Verb
from baloot.core.vocabulary import Phase
from baloot.rl.endgame import MOST_DRAWS, MOST_TRICKS, card_values
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

if TYPE_CHECKING:
    from baloot.rl.network import Floats, Network

#: What ``calls=`` takes: the bot that calls.
CALLERS: Final = ("heuristic", "expert", "network")
#: What ``prior=`` takes: whose card stands unless the network overrules it.
PRIORS: Final = ("heuristic", "none")
#: The expert's budget when it calls for the network.
EXPERT_CALLS: Final = {"fast": ""}
#: The tricks left from which the last tricks are searched (``endgame=``), and the draws of
#: worlds (``draws=``): the defaults keep a decision within its millisecond on average.
ENDGAME: Final = 3
DRAWS: Final = 16
#: Searched values closer than this (game points) are a tie, which the network breaks.
TIE: Final = 1e-6
#: The namings of the suits the network's values are averaged over (``average=``).
AVERAGE: Final = 6
NEEDS: Final = "the neural bot needs NumPy: pip install -e '.[rl]'"


def load(path: str) -> Network:
    """The network saved at ``path`` (weights of one's own, or a training checkpoint), or an
    error of one line that says why it cannot be read."""
    try:
        from baloot.rl.network import load_file
    except ImportError:
        raise ImportError(NEEDS) from None
    try:
        return load_file(path)
    except FileNotFoundError:
        raise UnknownBotError(f"bot 'neural': no weights file {path!r}") from None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        why = error if isinstance(error, ValueError) and "layout" in str(error) else None
        raise UnknownBotError(
            f"bot 'neural': {path!r} is not a network's weights"
            + (f" ({why})" if why else " (an .npz of scripts/train_neural.py)")
        ) from None


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

    #: What a web table's client may ask: who calls, the prior, and the search within its
    #: bounds; never ``weights``, a file of the server's machine.
    CLIENT_OPTIONS: Final = OptionBounds(
        free=("calls", "prior"), most={"endgame": MOST_TRICKS, "draws": MOST_DRAWS, "average": 24}
    )

    __slots__ = (
        "_average",
        "_caller",
        "_declarer",
        "_draws",
        "_endgame",
        "_margin",
        "name",
        "network",
        "rng",
    )

    def __init__(self, rng: random.Random | None = None, options: BotOptions | None = None) -> None:
        options = options if options is not None else BotOptions(bot="neural")
        options.check("calls", "prior", "weights", "endgame", "draws", "average")
        self.name = "neural"
        self.rng = rng if rng is not None else random.Random()
        weights = options.get("weights")
        self.network = shipped() if weights is None else load(weights)
        learned = "network" if self.network.meta.get("calls") == "network" else "heuristic"
        caller = options.get("calls", learned)
        if caller not in CALLERS:
            raise UnknownBotError(f"bot 'neural': calls is {' or '.join(CALLERS)}, not {caller!r}")
        prior = options.get("prior", "heuristic")
        if prior not in PRIORS:
            raise UnknownBotError(f"bot 'neural': prior is {' or '.join(PRIORS)}, not {prior!r}")
        trained = self.network.meta.get("prior") or {}
        #: How much more the network must value a card to play it over the heuristic's.
        self._margin: float | None = trained.get("margin") if prior == "heuristic" else None
        #: The tricks left from which the endgame is searched, and its draws of worlds.
        self._endgame = options.integer("endgame", ENDGAME, 0, MOST_TRICKS)
        self._draws = options.integer("draws", DRAWS, 1, MOST_DRAWS)
        #: How many namings of the suits the network's values are averaged over.
        self._average = options.integer("average", AVERAGE, 1, 24)
        if self._average > 1:
            from baloot.rl.suits import renamings

            renamings()  # built once a process, here rather than in a decision's time
        self._declarer = HeuristicBot(self.rng)
        #: Who calls: None when the network does.
        self._caller: Bot | None = (
            None
            if caller == "network"
            else self._declarer
            if caller == "heuristic"
            else ExpertBot(self.rng, EXPERT_CALLS)
        )

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A call as the caller makes it (the network itself when it called in training);
        in the play, the network's best action, or with a margin, the heuristic bot's
        declaration or card unless the network values another card more by the margin."""
        if view.phase is not Phase.PLAYING:
            if self._caller is not None:
                return self._caller.choose(view, legal)
            return self._best(view, legal)
        if len(legal) == 1:
            return legal[0]
        if 8 - view.trick_number <= self._endgame:
            searched = card_values(view, legal, self.rng, self._draws)
            if searched is not None:
                return self._best(view, legal, searched)
        if self._margin is None:
            return self._best(view, legal)
        heuristic = self._declarer.choose(view, legal)
        plays = [action for action in legal if action.verb is Verb.PLAY]
        if heuristic.verb is not Verb.PLAY or len(plays) == 1:
            return heuristic
        from baloot.rl.action_space import index_of

        values = self.values(view)
        best = max(plays, key=lambda action: float(values[index_of(action)]))
        gain = float(values[index_of(best)] - values[index_of(heuristic)])
        return best if gain > self._margin else heuristic

    def _best(
        self, view: SeatView, legal: Sequence[Action], searched: dict[Action, float] | None = None
    ) -> Action:
        """The legal action the network values most; with ``searched``, the one of highest
        searched value, the network's value breaking a tie."""
        from baloot.rl.action_space import index_of

        if searched is not None:
            top = max(searched.values())
            legal = [action for action in legal if searched[action] >= top - TIE]
            if len(legal) == 1:
                return legal[0]
        values = self.values(view)
        return max(legal, key=lambda action: float(values[index_of(action)]))

    def values(self, view: SeatView) -> Floats:
        """The network's value of each action of the action space in ``view``."""
        from baloot.rl.observation import encode

        if self._average == 1:
            return self.network(encode(view))
        from baloot.rl.suits import averaged

        return averaged(self.network, encode(view), self._average)
