"""Baloot for learning: a PettingZoo environment, an OpenSpiel game, one action space, self-play
data and a learned bot.

It stands just above the bots (it deals worlds with their sampler) and drives every hand
through the engine's one door: the legal actions are the engine's, the observation is built
from the seat's view alone. It needs the ``rl`` extra (NumPy, PettingZoo, OpenSpiel):
``pip install -e '.[rl]'``; ``import baloot`` never loads it. ``docs/rl.md`` describes the
observation's layout, the action space and both games. The names below are loaded when first
used, so that the ``neural`` bot (:mod:`baloot.rl.neural`) is found without PettingZoo.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baloot.rl.action_space import NUM_ACTIONS, action_at, index_of
    from baloot.rl.aec import AGENTS, BalootEnv, aec_env
    from baloot.rl.observation import LAYOUT, OFFSETS, SIZE, VERSION, encode
    from baloot.rl.options import Reward
    from baloot.rl.vector import VectorEnv, random_actions

#: Where each name of the package is defined.
_HOMES = {
    "NUM_ACTIONS": "action_space",
    "action_at": "action_space",
    "index_of": "action_space",
    "AGENTS": "aec",
    "BalootEnv": "aec",
    "aec_env": "aec",
    "LAYOUT": "observation",
    "OFFSETS": "observation",
    "SIZE": "observation",
    "VERSION": "observation",
    "encode": "observation",
    "Reward": "options",
    "VectorEnv": "vector",
    "random_actions": "vector",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'baloot.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(f"baloot.rl.{home}"), name)


def register_openspiel() -> None:
    """Register ``python_baloot`` with OpenSpiel (:mod:`baloot.rl.openspiel`)."""
    from baloot.rl.openspiel import register_openspiel as register

    register()


__all__ = [
    "AGENTS",
    "LAYOUT",
    "NUM_ACTIONS",
    "OFFSETS",
    "SIZE",
    "VERSION",
    "BalootEnv",
    "Reward",
    "VectorEnv",
    "action_at",
    "aec_env",
    "encode",
    "index_of",
    "random_actions",
    "register_openspiel",
]
