"""What the expert bots take from the rest of the project, in one place: the world sampler
(``baloot.bots.worlds``), the double-dummy solver and the fast play state (``baloot.solver``,
``baloot.core.position``), the bot options and the decision clock (``baloot.bots``)."""

from baloot.bots.clock import current_clock
from baloot.bots.names import BotOptions, OptionBounds, UnknownBotError
from baloot.bots.worlds import InconsistentWorldError, WorldSampler
from baloot.core.position import Position
from baloot.solver import Mode, accelerated, values

__all__ = [
    "BotOptions",
    "InconsistentWorldError",
    "Mode",
    "OptionBounds",
    "Position",
    "UnknownBotError",
    "WorldSampler",
    "accelerated",
    "current_clock",
    "values",
]
