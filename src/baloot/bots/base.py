"""The bot interface and the registry that finds bots by name.

A bot sees only its seat's :class:`~baloot.view.SeatView` and the legal actions, and
returns one of them. Bots come from this package (``random``, ``heuristic``) or from any installed
package that declares an entry point in the group ``pybaloot.bots``: the entry point names a
callable that takes a ``random.Random`` and returns a bot.

>>> import random
>>> bot = make_bot("random", random.Random(1))
>>> bot.name
'random'
>>> {"heuristic", "random", "expert", "hard"} <= set(available_bots())
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

from baloot.core.errors import BalootError
from baloot.table.players import Bot

ENTRY_POINT_GROUP = "pybaloot.bots"


BotFactory = Callable[[random.Random], Bot]


class UnknownBotError(BalootError, LookupError):
    """No bot of that name is built in or installed."""


def _builtin() -> dict[str, BotFactory]:
    from baloot.bots.expert import ExpertBot
    from baloot.bots.heuristic import HeuristicBot
    from baloot.bots.ismcts import IsmctsBot
    from baloot.bots.levels import easy, hard, medium
    from baloot.bots.random_bot import RandomBot

    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "expert": ExpertBot,
        "ismcts": IsmctsBot,
        "easy": easy,
        "medium": medium,
        "hard": hard,
    }


def available_bots() -> dict[str, BotFactory]:
    """Every bot by name: the built-in ones and those of installed packages."""
    return {**_installed(), **_builtin()}


@cache
def _installed() -> dict[str, BotFactory]:
    """Bots of installed packages, looked up once: the package metadata does not change."""
    return {entry.name: entry.load() for entry in entry_points(group=ENTRY_POINT_GROUP)}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot by name, with its own random generator."""
    bots = available_bots()
    try:
        factory = bots[name]
    except KeyError:
        raise UnknownBotError(
            f"unknown bot {name!r} (available: {', '.join(sorted(bots))})"
        ) from None
    return factory(rng)
