"""The ``neural`` bot's network: a multilayer perceptron read with NumPy, and the weights that
ship in the package (``weights/neural.npz``, beside their card ``weights/neural-card.json``).

:mod:`baloot.rl.neural` loads this module only when a bot is made, so that the registry finds
the bot without NumPy; ``scripts/train_neural.py`` writes the weights.

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.view.seat_view import SeatView
>>> from baloot.rl.observation import encode
>>> hand = Hand.new(rng=random.Random(1))
>>> shipped()(encode(SeatView.of(hand, hand.to_act))).shape
(100,)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from baloot.rl.observation import OFFSETS, VERSION

#: The package folder of the shipped weights, and their files.
WEIGHTS: Final = "weights"
WEIGHTS_FILE: Final = "neural.npz"
CARD_FILE: Final = "neural-card.json"

Floats = npt.NDArray[np.float32]


class Network:
    """A multilayer perceptron: ReLU between its layers, one output per action. ``layers``
    are (weights, biases) pairs, the weights of shape (inputs, outputs); ``meta`` is what the
    training wrote of itself. The match score (``zeroed``) is never read: the data are single
    hands."""

    __slots__ = ("layers", "meta", "zeroed")

    def __init__(
        self, layers: Sequence[tuple[Floats, Floats]], meta: Mapping[str, Any], zeroed: slice
    ) -> None:
        self.layers = tuple(layers)
        self.meta = dict(meta)
        self.zeroed = zeroed

    def __call__(self, inputs: Floats) -> Floats:
        """The outputs for ``inputs`` (one observation, or a batch in rows; the match score
        in them is set to zero)."""
        x = inputs
        x[..., self.zeroed] = 0.0
        last = len(self.layers) - 1
        for i, (weights, biases) in enumerate(self.layers):
            x = x @ weights + biases
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """The network saved by ``scripts/train_neural.py`` at ``path``; a ValueError when it
        was made for another observation layout."""
        with np.load(path, allow_pickle=False) as saved:
            meta = json.loads(str(saved["meta"]))
            layers = [
                (
                    np.ascontiguousarray(saved[f"w{i}"], np.float32),
                    np.ascontiguousarray(saved[f"b{i}"], np.float32),
                )
                for i in range(int(meta["layers"]))
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
    with resources.as_file(resources.files(__package__) / WEIGHTS / WEIGHTS_FILE) as path:
        return Network.load(path)


def load_file(path: str | Path) -> Network:
    """The network saved at ``path``, loaded once a process while the file is unchanged."""
    resolved = Path(path).resolve()
    return _load_once(resolved, resolved.stat().st_mtime_ns)


@cache
def _load_once(path: Path, mtime_ns: int) -> Network:
    return Network.load(path)


def shipped_card() -> dict[str, Any]:
    """The card of the shipped weights: their data's cards, the recipe and its figures."""
    text = (resources.files(__package__) / WEIGHTS / CARD_FILE).read_text(encoding="utf-8")
    card: dict[str, Any] = json.loads(text)
    return card
