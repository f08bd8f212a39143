"""The daily series' rules as pure functions: each player's level, from the average of their
latest deal results, moved up or down at the end of every period (``docs/daily.md``).

Everyone starts at the lowest level. At the end of each period of :data:`PERIOD_DAYS` days
(the first began on :data:`FIRST_DAY`), a player who finished a deal in that period is
reviewed: the average of their latest :data:`WINDOW` deal results up to the period's end (at
least :data:`LEAST` of them) of :data:`PROMOTE` or more moves them up one level, below
:data:`RELEGATE` down one; the highest and lowest levels stay where they are. Nothing is
stored: the levels are folded from the finished plays, period after period, so that every
node gives the same answer, and asking again changes nothing.

>>> moved(1, 64.2, 40), moved(3, 38.5, 12), moved(2, 90.0, 5)
(2, 2, 2)
>>> period_of(FIRST_DAY), period_bounds(1)
(0, (datetime.date(2026, 1, 19), datetime.date(2026, 2, 1)))
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

#: The levels, lowest first, each named in English and in Arabic.
LEVELS: Final = (
    ("Bronze", "برونزي"),
    ("Silver", "فضي"),
    ("Gold", "ذهبي"),
    ("Platinum", "بلاتيني"),
    ("Diamond", "ماسي"),
)
#: How many of a player's latest deal results their average is made of (five days of deals).
WINDOW: Final = 40
#: The fewest results in the window for a player to move at the end of a period.
LEAST: Final = 8
#: The average of the window (matchpoints) at or above which a player moves up.
PROMOTE: Final = 60.0
#: The average below which a player moves down.
RELEGATE: Final = 40.0
#: The days of a period: two weeks, Monday to Sunday.
PERIOD_DAYS: Final = 14
#: The first day of the first period (a Monday).
FIRST_DAY: Final = dt.date(2026, 1, 5)


@dataclass(frozen=True, slots=True)
class Result:
    """One finished deal: who, on which day and deal, and its matchpoints."""

    player: str
    day: dt.date
    deal: int
    points: float


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's level now, the average of their latest results (how many), and whether
    they finished a deal in the current period (else the period's end will not move them)."""

    level: int
    average: float
    results: int
    active: bool


def period_of(day: dt.date) -> int:
    """The number of the period ``day`` falls in (0 the first; before it, negative)."""
    return (day - FIRST_DAY).days // PERIOD_DAYS


def period_bounds(period: int) -> tuple[dt.date, dt.date]:
    """The first and last day of ``period``."""
    start = FIRST_DAY + dt.timedelta(days=PERIOD_DAYS * period)
    return start, start + dt.timedelta(days=PERIOD_DAYS - 1)


def average(points: Sequence[float]) -> float:
    """The average of ``points``, to two decimals (0 for none).

    >>> average([62.5, 40.0])
    51.25
    """
    return round(sum(points) / len(points), 2) if points else 0.0


def outlook(standing: Standing) -> int:
    """The level a player would have were the current period over now.

    >>> outlook(Standing(2, 61.0, 24, True)), outlook(Standing(2, 61.0, 24, False))
    (3, 2)
    """
    if not standing.active:
        return standing.level
    return moved(standing.level, standing.average, standing.results)


def moved(level: int, window_average: float, results: int) -> int:
    """The level, from 1 to ``len(LEVELS)``, of a player at ``level`` reviewed at the end of a
    period with ``results`` results in their window averaging ``window_average``."""
    if results < LEAST:
        return level
    if window_average >= PROMOTE:
        return min(len(LEVELS), level + 1)
    if window_average < RELEGATE:
        return max(1, level - 1)
    return level


def standings(results: Iterable[Result], today: dt.date) -> dict[str, Standing]:
    """Each player's standing on ``today``: their level after every period that ended before
    it, and the average of their latest results. ``results`` are of finished days only, in
    any order.

    >>> day = FIRST_DAY
    >>> good = [Result("amal", day + dt.timedelta(days=d), n, 75.0) for d in range(2)
    ...         for n in range(1, 9)]
    >>> standings(good, period_bounds(1)[0])
    {'amal': Standing(level=2, average=75.0, results=16, active=False)}
    >>> standings(good, period_bounds(0)[1])["amal"].level
    1
    """
    mine: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        mine[result.player].append(result)
    now = period_of(today)
    answer = {}
    for player, own in mine.items():
        own.sort(key=lambda r: (r.day, r.deal))
        days = [r.day for r in own]
        level = 1
        for period in sorted({period_of(day) for day in days}):
            if period >= now:
                break
            upto = bisect.bisect_right(days, period_bounds(period)[1])
            window = [r.points for r in own[max(0, upto - WINDOW) : upto]]
            level = moved(level, average(window), len(window))
        latest = [r.points for r in own[-WINDOW:]]
        answer[player] = Standing(level, average(latest), len(latest), period_of(days[-1]) >= now)
    return answer
