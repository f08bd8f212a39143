"""What the expert bots take from the rest of the project, in one place: the world sampler
(``baloot.view.worlds``), the double-dummy solver and the fast play state (``baloot.solver``,
``baloot.core.position``), the bot options and the decision clock (``baloot.bots``)."""

from baloot.bots.expert._interim import (
    BotOptions,
    InconsistentWorldError,
    Mode,
    Position,
    WorldSampler,
    accelerated,
    current_clock,
    values,
)

__all__ = [
    "BotOptions",
    "InconsistentWorldError",
    "Mode",
    "Position",
    "WorldSampler",
    "accelerated",
    "current_clock",
    "values",
]
