"""Levels for players: ``easy``, ``medium`` and ``hard``, each a bot and a budget.

A level takes no options: it *is* a budget. The names stay the same while the bots behind
them get stronger; docs/expert.md gives what
each one measured (thinking time and results in the duplicate arena). ``hard`` thinks at most
about a second a decision, so that a trick against three bots never waits long.

>>> import random
>>> [make_level(name, random.Random(1)).name for name in LEVELS]
['easy', 'medium', 'hard']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Final

from baloot.bots.expert import ExpertBot
from baloot.bots.heuristic import HeuristicBot
from baloot.table.players import Bot

#: Each level: the bot behind it and the options it is made with.
LEVELS: Final[dict[str, tuple[str, Mapping[str, str]]]] = {
    "easy": ("heuristic", {}),
    "medium": ("expert", {"fast": ""}),
    "hard": ("expert", {"hard": ""}),
}

#: The level a player meets when they name no bot: ``baloot play``'s three bots and the
#: lobby's preselected choice. It plays far better than the heuristic bot in about a tenth of
#: a second a decision, which a server with many tables can afford (docs/expert.md).
DEFAULT_OPPONENT: Final = "medium"

_MAKERS: Final[dict[str, Callable[[random.Random, Mapping[str, str]], Bot]]] = {
    "heuristic": lambda rng, options: HeuristicBot(rng),
    "expert": lambda rng, options: ExpertBot(rng, options),
}


def make_level(level: str, rng: random.Random) -> Bot:
    """A new bot of ``level`` (a key of :data:`LEVELS`), named after the level."""
    bot_name, options = LEVELS[level]
    bot = _MAKERS[bot_name](rng, options)
    bot.name = level
    return bot


def easy(rng: random.Random) -> Bot:
    """The ``easy`` level."""
    return make_level("easy", rng)


def medium(rng: random.Random) -> Bot:
    """The ``medium`` level."""
    return make_level("medium", rng)


def hard(rng: random.Random) -> Bot:
    """The ``hard`` level."""
    return make_level("hard", rng)
