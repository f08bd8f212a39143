"""How bad a decision was: the loss in game points, marked as chess analysis marks a move.

A loss is measured in the unit of the values: the written score of the whole hand, the
deciding team's minus the other's. Handing one game point to the other team is a loss of 2;
handing over a trick with an Ace and a Ten in Sun, about 10; losing a contract that could be
made, the whole hand. The thresholds below mark one game point given away as an inaccuracy,
three as a mistake and six as a blunder (a Hokum hand is worth 16, a Sun hand 26). In a Gahwa
hand the values are the match itself, +1 or -1: any loss there throws the match away, a
blunder.

>>> mark_of(0), mark_of(2), mark_of(7), mark_of(12)
(None, <Mark.INACCURACY: 'inaccuracy'>, <Mark.MISTAKE: 'mistake'>, <Mark.BLUNDER: 'blunder'>)
>>> mark_of(2, Unit.MATCH).symbol
'??'
"""

from __future__ import annotations

from enum import Enum
from typing import Final


class Unit(Enum):
    """What the values of a hand count: game points, or the match itself (a Gahwa hand)."""

    GAME_POINTS = "game-points"
    MATCH = "match"


class Mark(Enum):
    """How bad a decision was, from its loss (``?!``, ``?``, ``??``)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """The chess sign: ``?!``, ``?`` or ``??``."""
        return _SYMBOLS[self]

    @property
    def threshold(self) -> int:
        """The smallest loss in game points (team minus other) that earns this mark."""
        return THRESHOLDS[self]


#: The smallest loss (score difference, game points) for each mark: 1, 3 and 6 game points
#: handed to the other team.
INACCURACY: Final = 2
MISTAKE: Final = 6
BLUNDER: Final = 12
THRESHOLDS: Final = {Mark.INACCURACY: INACCURACY, Mark.MISTAKE: MISTAKE, Mark.BLUNDER: BLUNDER}
_SYMBOLS: Final = {Mark.INACCURACY: "?!", Mark.MISTAKE: "?", Mark.BLUNDER: "??"}


def mark_of(loss: float, unit: Unit = Unit.GAME_POINTS) -> Mark | None:
    """The mark of a decision that lost ``loss`` (None: no mark). Sampled estimates are marked
    by the same thresholds; a tiny loss of an estimate is noise, and stays unmarked.

    >>> mark_of(1.99), mark_of(5.5).value
    (None, 'inaccuracy')
    """
    if unit is Unit.MATCH:
        return Mark.BLUNDER if loss > 0 else None
    for mark in (Mark.BLUNDER, Mark.MISTAKE, Mark.INACCURACY):
        if loss >= mark.threshold:
            return mark
    return None
