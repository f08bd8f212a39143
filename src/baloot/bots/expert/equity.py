"""Match equity: the chance that a team wins the match from given totals (R13), so that a
call is judged by what it does to the match, not only to the hand.

Each hand adds a pair of scores drawn from the distribution of :data:`OUTCOMES` (written
scores of whole hands between sound players, in steps of 4 game points, symmetric); a team
wins when one total reaches 152 and the totals differ. The table is worked out once, by
dynamic programming over totals in steps of 4, and read with bilinear interpolation.

>>> round(equity(0, 0), 2), round(equity(100, 60), 2), equity(152, 100)
(0.5, 0.82, 1.0)
>>> equity(120, 140) < 0.5 < equity(140, 120)
True
"""

from __future__ import annotations

from functools import cache
from typing import Final

from baloot.core.match import TARGET

STEP: Final = 4
#: Written scores of a hand, (this team, the other) in steps of 4 game points, with their
#: frequency per mille over 6,000 hands of four heuristic bots (classic rules); (0, 0) is
#: an annulled hand.
OUTCOMES: Final = (
    (0, 0, 58), (0, 4, 76), (0, 5, 23), (0, 6, 37), (0, 7, 10), (0, 8, 16), (0, 9, 4),
    (0, 10, 2), (0, 11, 7), (0, 12, 4), (0, 14, 1), (0, 21, 1), (1, 3, 56), (1, 4, 46),
    (1, 5, 6), (1, 6, 7), (1, 7, 1), (1, 8, 1), (2, 2, 95), (2, 3, 52), (2, 4, 25), (2, 5, 11),
    (2, 6, 7), (2, 8, 1), (2, 14, 1), (3, 1, 56), (3, 2, 52), (3, 3, 5), (3, 4, 12), (3, 5, 1),
    (3, 6, 1), (4, 0, 76), (4, 1, 46), (4, 2, 25), (4, 3, 12), (4, 4, 11), (4, 5, 1), (4, 6, 1),
    (5, 0, 23), (5, 1, 6), (5, 2, 11), (5, 3, 1), (5, 4, 1), (6, 0, 37), (6, 1, 7), (6, 2, 7),
    (6, 3, 1), (6, 4, 1), (7, 0, 10), (7, 1, 1), (8, 0, 16), (8, 1, 1), (8, 2, 1), (9, 0, 4),
    (10, 0, 2), (11, 0, 7), (12, 0, 4), (14, 0, 1), (14, 2, 1), (21, 0, 1),
)  # fmt: skip
_END: Final = -(-TARGET // STEP)  # totals of 152 and more, in steps


@cache
def _table() -> tuple[tuple[float, ...], ...]:
    """Equity of each pair of totals below the target, in steps (row: this team)."""
    moves = [(x, y, n) for x, y, n in OUTCOMES if x or y]
    total = sum(n for _, _, n in moves)
    size = _END
    table = [[0.0] * size for _ in range(size)]

    def at(i: int, j: int) -> float:
        if i >= _END or j >= _END:
            return 1.0 if i > j else 0.0 if i < j else 0.5
        return table[i][j]

    for level in range(2 * size - 2, -1, -1):
        for i in range(max(0, level - size + 1), min(size, level + 1)):
            j = level - i
            table[i][j] = sum(n * at(i + x, j + y) for x, y, n in moves) / total
    return tuple(tuple(row) for row in table)


def equity(ours: int, theirs: int) -> float:
    """The chance that a team with ``ours`` against ``theirs`` wins the match, before a hand
    (1 or 0 once the match is decided, 0.5 for a tie at or above the target)."""
    if ours >= TARGET or theirs >= TARGET:
        return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5
    table = _table()
    fi, fj = ours / STEP, theirs / STEP
    i, j = int(fi), int(fj)
    di, dj = fi - i, fj - j

    def at(a: int, b: int) -> float:
        if a >= _END or b >= _END:
            return equity(a * STEP, b * STEP) if a != b else 0.5
        return table[a][b]

    return (
        at(i, j) * (1 - di) * (1 - dj)
        + at(i + 1, j) * di * (1 - dj)
        + at(i, j + 1) * (1 - di) * dj
        + at(i + 1, j + 1) * di * dj
    )
