"""The ``neural`` bot: a small network, trained on self-play data, plays the cards.

From the seat's observation alone (:mod:`baloot.rl.observation`) the network predicts, for
each action of the action space, the double-dummy value the action has in the true deal
(``docs/rl.md``): averaged over the deals consistent with what the seat has seen, that is what
a sampling search estimates, learned once instead of searched at every card. The bot plays
the legal card of highest predicted value. It calls (bids, the trump, doubling) and declares
as the heuristic bot does, or, with ``calls=expert``, calls as ``expert:fast`` does.

Inference is NumPy only (a few matrix products): no learning library at play time. The
weights ship in the package (``weights/neural.npz``) beside the card of the data they were
trained on (``weights/neural-card.json``); ``scripts/train_neural.py`` makes them. The
network does not read the match score (the self-play hands are single hands): that slice of
the observation is set to zero before it is read.

The bot keeps nothing but its generator (the weights are the module's, loaded once), so its
decisions can be sent to the bot workers (:mod:`baloot.bots.decisions`). It needs NumPy
(``pip install 'pybaloot[rl]'``); without it, making the bot is an ImportError that says so.

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

import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from baloot.bots.expert import ExpertBot
from baloot.bots.heuristic import HeuristicBot
from baloot.bots.names import BotOptions, UnknownBotError
from baloot.core.actions import Action, Verb
from baloot.core.vocabulary import Phase
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The package folder of the shipped weights, and their files.
WEIGHTS: Final = "weights"
WEIGHTS_FILE: Final = "neural.npz"
CARD_FILE: Final = "neural-card.json"
#: What ``calls=`` takes: the bot that calls.
CALLERS: Final = ("heuristic", "expert")
#: The expert's budget when it calls for the network: ``fast``.
EXPERT_CALLS: Final = {"fast": ""}
NEEDS: Final = "the neural bot needs NumPy: pip install 'pybaloot[rl]'"


class Network:
    """A multilayer perceptron: ReLU between its layers, one output per action.

    ``layers`` are (weights, biases) pairs, the weights of shape (inputs, outputs).
    """

    __slots__ = ("layers", "meta", "zeroed")

    def __init__(
        self,
        layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        meta: Mapping[str, Any],
        zeroed: slice,
    ) -> None:
        self.layers = tuple(layers)
        self.meta = dict(meta)
        self.zeroed = zeroed

    def __call__(self, inputs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The outputs for ``inputs`` (one observation, or a batch in rows)."""
        import numpy as np

        x = inputs
        x[..., self.zeroed] = 0.0
        last = len(self.layers) - 1
        for i, (weights, biases) in enumerate(self.layers):
            x = x @ weights + biases
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    @classmethod
    def load(cls, path: Any) -> Network:
        """The network saved by ``scripts/train_neural.py`` at ``path`` (a file or a package
        resource); a ValueError when it was made for another observation layout."""
        import numpy as np

        from baloot.rl.observation import OFFSETS, VERSION

        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
            count = int(meta["layers"])
            layers = [
                (
                    np.ascontiguousarray(saved[f"w{i}"], np.float32),
                    np.ascontiguousarray(saved[f"b{i}"], np.float32),
                )
                for i in range(count)
            ]
        if meta.get("layout_version") != VERSION:
            raise ValueError(
                f"the network was trained on observation layout {meta.get('layout_version')}, "
                f"not {VERSION}"
            )
        score = OFFSETS["score"]
        return cls(layers, meta, slice(score, score + 2))


@cache
def shipped() -> Network:
    """The network that ships with the package, loaded once a process."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise ImportError(NEEDS) from None
    with resources.as_file(resources.files(__package__) / WEIGHTS / WEIGHTS_FILE) as path:
        return Network.load(path)


def shipped_card() -> dict[str, Any]:
    """The card of the shipped weights: their data set and their training."""
    card: dict[str, Any] = json.loads(
        (resources.files(__package__) / WEIGHTS / CARD_FILE).read_text(encoding="utf-8")
    )
    return card


class NeuralBot:
    """The learned player (see the module): the network plays the cards; ``calls`` (an
    option, ``heuristic`` or ``expert``) calls, and the heuristic bot declares."""

    __slots__ = ("_caller", "_declarer", "name", "network", "rng")

    def __init__(self, rng: random.Random | None = None, options: BotOptions | None = None) -> None:
        options = options if options is not None else BotOptions(bot="neural")
        options.check("calls")
        caller = options.get("calls", "heuristic")
        if caller not in CALLERS:
            raise UnknownBotError(f"bot 'neural': calls is {' or '.join(CALLERS)}, not {caller!r}")
        self.name = "neural"
        self.rng = rng if rng is not None else random.Random()
        self.network = shipped()
        self._declarer = HeuristicBot(self.rng)
        self._caller: Bot = (
            self._declarer if caller == "heuristic" else ExpertBot(self.rng, EXPERT_CALLS)
        )

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """A call or a declaration as the caller or the heuristic bot makes it; else the legal
        card of highest predicted value."""
        if view.phase is not Phase.PLAYING:
            return self._caller.choose(view, legal)
        plays = [action for action in legal if action.verb is Verb.PLAY]
        if len(plays) < len(legal):  # a declaration is offered
            chosen = self._declarer.choose(view, legal)
            if chosen.verb is not Verb.PLAY:
                return chosen
        if len(plays) == 1:
            return plays[0]
        values = self.values(view)
        return max(plays, key=lambda action: values[_index(action)])

    def values(self, view: SeatView) -> npt.NDArray[np.float32]:
        """The network's value of each action of the action space in ``view``."""
        from baloot.rl.observation import encode

        return self.network(encode(view))


def _index(action: Action) -> int:
    from baloot.rl.action_space import index_of

    return index_of(action)
