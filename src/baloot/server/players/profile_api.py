"""Profiles and leaderboards over HTTP (``docs/players-api.md``, ``docs/ratings.md``).

- ``GET /api/players/NAME`` a player's ratings per preset, their history, their last
  matches (with links to each record and analysis) and what they did in their rated matches;
  an unknown name, or a deleted account's, is a 404;
- ``GET /api/leaderboard?preset=classic&period=all|month&offset=N`` the players rated in a
  preset with enough rated matches, the highest first, :data:`PAGE` at a time;
- ``GET /players/NAME`` and ``GET /leaderboard`` their pages, in English or (``?lang=ar``)
  Arabic.

Every bad input is one line ``{"error": ...}`` and a 4xx.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.core.rules import PRESETS
from baloot.server.hall import Hall
from baloot.server.live import record_url
from baloot.server.messages import storable
from baloot.server.players.match_stats import statistics
from baloot.server.players.names import BadName, check_name
from baloot.server.players.rating_store import Change
from baloot.server.players.ratings import LEADERBOARD_MATCHES, Skill
from baloot.server.web import error, lang, page, page_html

#: The players a leaderboard answer lists at most; ``offset`` pages on.
PAGE: Final = 50
#: The largest ``offset`` of a leaderboard.
MAX_OFFSET: Final = 100_000
#: The periods of a leaderboard: every rated match, or those of the last 30 days.
PERIODS: Final = {"all": None, "month": 30 * 24 * 3600.0}
#: The matches a profile lists, the newest first.
MATCHES_SHOWN: Final = 20
#: The rated matches a profile's statistics are read from, the newest first.
STATS_MATCHES: Final = 100
#: The longest name looked up (longer ones are no account's).
NAME_LENGTH: Final = 64
_OFFSET = re.compile(r"[0-9]{1,6}")


def routes(hall: Hall, *, least: int = LEADERBOARD_MATCHES) -> list[BaseRoute]:
    """The routes of profiles and leaderboards, over ``hall``'s store; a leaderboard lists
    the players with at least ``least`` rated matches (``--leaderboard-matches``)."""

    async def profile(request: Request) -> Response:
        found = await _account(hall, request)
        if found is None:
            return error(404, f"no player is named {_shown(request)}")
        return JSONResponse(await _profile(hall, *found))

    async def profile_page(request: Request) -> Response:
        known = await _account(hall, request) is not None
        return HTMLResponse(page_html("profile", lang(request)), status_code=200 if known else 404)

    async def leaderboard(request: Request) -> Response:
        query = request.query_params
        preset = query.get("preset", "classic")
        if preset not in PRESETS:
            return error(400, f"unknown preset (known: {', '.join(PRESETS)})")
        period = query.get("period", "all")
        if period not in PERIODS:
            return error(400, f"unknown period (known: {', '.join(PERIODS)})")
        offset_text = query.get("offset", "0")
        if not _OFFSET.fullmatch(offset_text) or int(offset_text) > MAX_OFFSET:
            return error(400, f"offset is a whole number from 0 to {MAX_OFFSET}")
        offset = int(offset_text)
        span = PERIODS[period]
        since = None if span is None else hall.clock() - span
        rows = await hall.stored(hall.store.leaderboard, preset, least, since, PAGE + 1, offset)
        return JSONResponse(
            {
                "preset": preset,
                "period": period,
                "offset": offset,
                "least": least,
                "players": [
                    {"rank": offset + n, "name": name, **_rating(skill), "profile": _link(name)}
                    for n, (name, skill) in enumerate(rows[:PAGE], 1)
                ],
                "next": offset + PAGE if len(rows) > PAGE else None,
            }
        )

    return [
        Route("/players/{name}", profile_page),
        Route("/leaderboard", page("leaderboard")),
        Route("/api/players/{name}", profile),
        Route("/api/leaderboard", leaderboard),
    ]


async def _account(hall: Hall, request: Request) -> tuple[str, str] | None:
    """The id and name of the account the path names (the same name whatever its case or
    confusable letters), or None (never looked up when no account could have the name)."""
    try:
        name = check_name(str(request.path_params["name"]))
    except BadName:
        return None
    found = await hall.stored(hall.store.player_named, name)
    return None if found is None else (found.id, found.name)


async def _profile(hall: Hall, player_id: str, name: str) -> dict[str, Any]:
    """What ``GET /api/players/NAME`` answers for the account ``player_id``."""
    store = hall.store
    ratings = await hall.stored(store.ratings_of, player_id)
    changes = await hall.stored(store.rating_changes, player_id)
    matches = await hall.stored(store.matches_of, player_id, MATCHES_SHOWN)
    games = await hall.stored(store.rated_games, player_id, STATS_MATCHES)
    by_table = {change.table_id: change for change in changes}
    return {
        "name": name,
        "ratings": {preset: _rating(skill) for preset, skill in ratings.items()},
        "history": [_point(change) for change in changes],
        "matches": [_match(match, by_table.get(match["id"])) for match in matches],
        "statistics": await asyncio.to_thread(statistics, games),
    }


def _rating(skill: Skill) -> dict[str, Any]:
    """A rating as the API shows it: its ordinal (one decimal) and whether it is
    provisional, with ``mu``, ``sigma`` and the rated matches behind it."""
    return {
        "rating": round(skill.ordinal, 1),
        "provisional": skill.provisional,
        "matches": skill.matches,
        "mu": round(skill.mu, 3),
        "sigma": round(skill.sigma, 3),
    }


def _point(change: Change) -> dict[str, Any]:
    """One point of a rating's history: the rating after a rated match."""
    return {
        "table": change.table_id,
        "preset": change.preset,
        "at": change.at,
        "rating": round(change.after.ordinal, 1),
        "change": round(change.after.ordinal - change.before.ordinal, 1),
    }


def _match(match: dict[str, Any], change: Change | None) -> dict[str, Any]:
    """One of a profile's matches: who sat where (an account by name, a deleted one as
    ``{"deleted": true}``, a bot, a guest), the result, the rating it changed, its links."""
    summary = match["summary"] or {}
    seats: dict[str, dict[str, Any]] = {}
    for seat, label in match["players"].items():
        if seat in match["accounts"]:
            account = match["accounts"][seat]
            seats[seat] = {"deleted": True} if account is None else {"name": account}
        elif str(label).startswith("bot:"):
            seats[seat] = {"bot": str(label).removeprefix("bot:")}
        else:
            seats[seat] = {"guest": str(label)}
    winner = summary.get("winner")
    team = "NS" if match["seat"] in ("N", "S") else "EW"
    return {
        "id": match["id"],
        "status": match["status"],
        "finished": match["finished"],
        "seat": match["seat"],
        "players": seats,
        "totals": summary.get("totals"),
        "winner": winner,
        "won": None if winner is None else winner == team,
        "rated": None if change is None else _point(change),
        "record": None if match["record"] is None else record_url(match["id"]),
        "analysis": None if match["record"] is None else f"/t/{match['id']}/hands/1/analysis",
    }


def _link(name: str) -> str:
    """The address of a player's profile page."""
    return f"/players/{quote(name, safe='')}"


def _shown(request: Request) -> str:
    """The path's name, quoted and cut short, for an error line."""
    name = str(request.path_params["name"])
    return repr(name[:NAME_LENGTH] if storable(name) else "?")
