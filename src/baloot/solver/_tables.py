"""What a played-out hand is worth, as a table: the engine's scoring of every possible ending.

The written score of a hand is not a sum of trick values: it rounds, compares the teams,
doubles, and an Al-kaboot writes its own figure. But once the contract, the doubling and the
projects are known, it depends only on NS's card points (the last trick's 10 included) and on
whether one team took every trick. :func:`utility` asks
:func:`baloot.core.scoring.score_hand` for each such ending, so the search never scores by
itself. Tables are cached: the sampled worlds of a bot repeat them again and again.

A Hokum of EW: an 81-81 split is made (8 each, the tie goes to the takers), NS with all 162
points but a trick of no points lost writes the whole hand, 16, and with every trick the
Al-kaboot, 25:

>>> from baloot.core.rules import Rules
>>> from baloot.core.seats import Team
>>> table = utility(Rules(), sun=False, declarers=Team.EW, level=1, project_team=None,
...                 project_points=0, project_raw=0, baloot=(0, 0))
>>> table[81 * 3 + NEITHER], table[162 * 3 + NEITHER], table[162 * 3 + NS_ALL]
(0, 16, 25)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from baloot.core.rules import Rules
from baloot.core.scoring import score_hand
from baloot.core.seats import Team
from baloot.core.vocabulary import Level

#: Card points of a whole hand, the last trick's 10 included: Sun, Hokum.
SUN_TOTAL: Final = 130
HOKUM_TOTAL: Final = 162
#: The trick states of an ending, the second index of a table.
NEITHER: Final = 0
NS_ALL: Final = 1
EW_ALL: Final = 2
#: Tricks handed to the scoring for an ending where neither team took every trick: the
#: scoring reads the tricks only to find an Al-kaboot (``8 in tricks``).
_SHARED_TRICKS: Final = (4, 4)


@lru_cache(maxsize=1024)
def utility(
    rules: Rules,
    *,
    sun: bool,
    declarers: Team,
    level: int,
    project_team: Team | None,
    project_points: int,
    project_raw: int,
    baloot: tuple[int, int],
) -> tuple[int, ...]:
    """NS's value of every ending: entry ``ns * 3 + state`` for NS's card points ``ns`` and a
    trick state (:data:`NEITHER`, :data:`NS_ALL`, :data:`EW_ALL`); NS's written score minus
    EW's, or for a Gahwa +1 when NS wins the match and -1 when EW does. Endings that cannot
    happen (a team taking every trick without every point) are 0."""
    total = SUN_TOTAL if sun else HOKUM_TOTAL

    def value(ns: int, tricks: tuple[int, int]) -> int:
        sheet = score_hand(
            rules,
            sun=sun,
            declarers=declarers,
            level=level,
            card_points=(ns, total - ns),
            tricks=tricks,
            project_team=project_team,
            project_points=project_points,
            project_raw=project_raw,
            baloot=baloot,
        )
        if level == Level.GAHWA:
            return 1 if sheet.winner == Team.NS else -1
        return sheet.score[0] - sheet.score[1]

    table = [0] * ((total + 1) * 3)
    for ns in range(total + 1):
        table[ns * 3 + NEITHER] = value(ns, _SHARED_TRICKS)
    table[total * 3 + NS_ALL] = value(total, (8, 0))
    table[0 * 3 + EW_ALL] = value(0, (0, 8))
    return tuple(table)
