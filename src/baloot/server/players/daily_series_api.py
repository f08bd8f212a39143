"""The daily series' endpoint (``docs/players-api.md``, section "Daily duplicate"; the rules
in ``docs/daily.md`` and :mod:`baloot.server.players.daily_series`).

- ``GET /api/daily/series`` the current period, the rules' numbers, each level's players by
  the average of their latest results, and mine when signed in.

The levels are folded from the finished plays of the days before today on every request (in
a thread: a linear pass over every kept play): nothing is stored, so every node answers the
same.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import defaultdict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.server.hall import Hall
from baloot.server.players import daily_series as series
from baloot.server.players.daily_api import answering, day_results, today_of
from baloot.server.players.daily_store import Played
from baloot.server.players.sessions import signed_in


def routes(hall: Hall) -> list[BaseRoute]:
    """The route of the series over ``hall``."""

    async def standings(request: Request) -> Response:
        day, _, _ = await today_of(hall)
        plays = await hall.stored(hall.store.daily_before, day)
        signed = await signed_in(hall, request)
        me = None if signed is None else signed.player.id
        answer = await asyncio.to_thread(series_json, plays, dt.date.fromisoformat(day), me)
        return JSONResponse(answer)

    return [Route("/api/daily/series", answering(standings))]


def series_json(plays: list[Played], today: dt.date, me: str | None) -> dict[str, Any]:
    """The answer of ``GET /api/daily/series`` on ``today`` over the finished ``plays`` of the
    days before it (``me``: the signed-in player's id, or None)."""
    by_day: dict[str, list[Played]] = defaultdict(list)
    for played in plays:
        by_day[played.day].append(played)
    names: dict[str, str] = {}
    results = []
    for day, field in by_day.items():
        for (player, name, deal), points in day_results(field).items():
            names[player] = name
            results.append(series.Result(player, dt.date.fromisoformat(day), deal, points))
    standings = series.standings(results, today)
    period = series.period_of(today)
    start, end = series.period_bounds(period)
    levels: dict[int, list[tuple[float, str, int]]] = defaultdict(list)
    for player, standing in standings.items():
        levels[standing.level].append((-standing.average, names[player], standing.results))
    mine = None if me is None else standings.get(me)
    return {
        "period": {"number": period, "start": start.isoformat(), "end": end.isoformat()},
        "period_days": series.PERIOD_DAYS,
        "window": series.WINDOW,
        "least": series.LEAST,
        "promote": series.PROMOTE,
        "relegate": series.RELEGATE,
        "levels": [
            {
                "level": level,
                "names": {"en": en, "ar": ar},
                "players": [
                    {"rank": n, "name": name, "average": -negative, "results": count}
                    for n, (negative, name, count) in enumerate(sorted(levels[level]), 1)
                ],
            }
            for level, (en, ar) in enumerate(series.LEVELS, 1)
        ],
        "me": None
        if mine is None
        else {
            "level": mine.level,
            "average": mine.average,
            "results": mine.results,
            "outlook": _outlook(mine),
        },
    }


def _outlook(standing: series.Standing) -> str:
    """Where the player would move were the period over now: ``up``, ``down`` or ``stay``."""
    after = series.outlook(standing)
    return "up" if after > standing.level else "down" if after < standing.level else "stay"
