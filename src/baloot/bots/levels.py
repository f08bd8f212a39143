"""Levels for players: ``easy``, ``medium`` and ``hard``, each a bot and a budget; and
:data:`ROLES`, which bot plays which part when nobody names one.

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
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Roles:
    """Which bot plays which part, each a bot name (``docs/bots.md``): the one place to look
    up, or change, who the program asks when nobody said.

    >>> ROLES.hint, ROLES.unnamed_seat
    ('hard', 'heuristic')
    """

    #: The level a player meets when they name no bot: ``baloot play``'s three bots and the
    #: lobby's preselected choice. It plays far better than the heuristic bot in about a
    #: tenth of a second a decision, which a server with many tables can afford.
    opponent: str
    #: A seat that ``POST /api/tables`` leaves out (``docs/table-protocol.md``).
    unnamed_seat: str
    #: The bot that plays for an absent human at a web table (a claim, a time-out).
    stand_in: str
    #: The bot that makes a decision an operator's bot program failed to make
    #: (``baloot serve --bot``): the quickest, so that the table never waits on it.
    program_fallback: str
    #: The bot whose choice a hint gives, in the terminal (``h``) and at a web table alike:
    #: the best bot at a budget of at most about a second a decision.
    hint: str
    #: The bot whose estimates ``baloot analyze`` shows.
    analysis: str
    #: The bot whose estimates a server's analysis pages show, unless ``baloot serve
    #: --analysis-bot`` says otherwise: the expert at its quick budget, as a server shares its
    #: cores with the tables.
    server_analysis: str


ROLES: Final = Roles(
    opponent="medium",
    unnamed_seat="heuristic",
    stand_in="heuristic",
    program_fallback="heuristic",
    hint="hard",
    analysis="expert",
    server_analysis="expert:fast",
)

#: The level a player meets when they name no bot (:attr:`Roles.opponent`).
DEFAULT_OPPONENT: Final = ROLES.opponent

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
