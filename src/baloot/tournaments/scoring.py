"""A round's points: a match to 152 won, drawn or lost, or duplicate deals as victory points.

Both formats give each table's two pairs points that sum to the same total (2 for a match,
20 for duplicate), so that the Swiss standings of docs/tournaments.md add like with like.

>>> victory_points(10, 8)
(13.78, 6.22)
>>> match_points(152, 120)
(2, 0)
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class Format(Enum):
    """How a round is played: a whole match to 152, or the same deals at every table."""

    MATCH = "match"
    DUPLICATE = "duplicate"

    @property
    def total(self) -> int:
        """What the two pairs of a table share: 2 match points, or 20 victory points.

        >>> Format.MATCH.total, Format.DUPLICATE.total
        (2, 20)
        """
        return 2 if self is Format.MATCH else VP_TOTAL


#: A match won, drawn, lost (a draw: both teams stop level, as a match ended by time may).
MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2, 1, 0
#: The victory points a table's two pairs share, and the draw's half of them.
VP_TOTAL, VP_DRAW = 20, 10
#: The golden ratio's inverse, the curvature of the WBF continuous scale.
TAU = (math.sqrt(5) - 1) / 2
#: The least difference of game points on one deal worth 1, 2, … IMPs; 14 IMPs at most.
IMP_STEPS = (2, 5, 8, 12, 16, 21, 26, 32, 40, 50, 64, 80, 100, 130)


def match_points(ours: int, theirs: int) -> tuple[int, int]:
    """The match points of a match's two teams from their final totals: 2, 1 or 0 each.

    >>> match_points(140, 160), match_points(152, 152)
    ((0, 2), (1, 1))
    """
    if ours == theirs:
        return MATCH_DRAW, MATCH_DRAW
    return (MATCH_WIN, MATCH_LOSS) if ours > theirs else (MATCH_LOSS, MATCH_WIN)


def imps(difference: float) -> int:
    """A deal's difference of game points as IMPs, signed: big swings count less per point.

    >>> imps(1), imps(2), imps(-9), imps(26), imps(500)
    (0, 1, -3, 7, 14)
    """
    size = bisect.bisect_right(IMP_STEPS, abs(difference))
    return size if difference >= 0 else -size


def blitz(deals: int) -> float:
    """The IMP margin that wins 20–0 over so many deals: 15·√deals, as the WBF's scale.

    >>> round(blitz(8), 2)
    42.43
    """
    if deals < 1:
        raise ValueError(f"a duplicate round has at least one deal, not {deals}")
    return 15 * math.sqrt(deals)


def victory_points(margin: float, deals: int) -> tuple[float, float]:
    """The victory points of the pair that made ``margin`` IMPs and of its opponents.

    VP = 10 + 10·(1 − τ^(3·|m|/B)) / (1 − τ³), capped at 20, to two decimals; the
    loser has 20 minus the winner's: the WBF's continuous scale, whose every IMP counts.

    >>> victory_points(0, 8), victory_points(-10, 8), victory_points(60, 8)
    ((10.0, 10.0), (6.22, 13.78), (20.0, 0.0))
    """
    x = 3 * abs(margin) / blitz(deals)
    won = min(float(VP_TOTAL), VP_DRAW + VP_DRAW * (1 - TAU**x) / (1 - TAU**3))
    hundredths = round(won * 100)
    winner, loser = hundredths / 100, (VP_TOTAL * 100 - hundredths) / 100
    return (winner, loser) if margin >= 0 else (loser, winner)


@dataclass(frozen=True)
class DealResult:
    """One deal at one table: the game points the NS and the EW pair scored on it."""

    ns: int
    ew: int


def duplicate_margins(tables: Sequence[Sequence[DealResult]]) -> list[int]:
    """Each table's NS margin in IMPs: every deal compared with its mean over the tables.

    The datum of a deal is the mean of NS − EW over every table that played it (Butler);
    a table alone in its round is compared with a datum of 0. The EW pair's margin is the
    negative of its NS pair's.

    >>> a = [DealResult(26, 0), DealResult(0, 16)]
    >>> b = [DealResult(10, 16), DealResult(0, 16)]
    >>> duplicate_margins([a, b])
    [5, -5]
    """
    if not tables:
        return []
    deals = len(tables[0])
    if any(len(table) != deals for table in tables):
        raise ValueError("every table of a duplicate round plays the same deals")
    data = [
        sum(t[k].ns - t[k].ew for t in tables) / len(tables) if len(tables) > 1 else 0.0
        for k in range(deals)
    ]
    return [sum(imps(t[k].ns - t[k].ew - data[k]) for k in range(deals)) for t in tables]


def duplicate_points(tables: Sequence[Sequence[DealResult]]) -> list[tuple[float, float]]:
    """Each table's victory points, NS then EW, from its deals and every other table's.

    >>> a = [DealResult(26, 0), DealResult(0, 16)]
    >>> b = [DealResult(10, 16), DealResult(0, 16)]
    >>> duplicate_points([a, b])
    [(13.78, 6.22), (6.22, 13.78)]
    """
    deals = len(tables[0]) if tables else 1
    return [victory_points(m, deals) for m in duplicate_margins(tables)]
