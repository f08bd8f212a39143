"""The operators' page of the collusion screen and its endpoints (``docs/players-api.md``,
section "Operators"; what the screen is, in ``docs/integrity.md``).

- ``GET /operator/screen`` the page, in English or (``?lang=ar``) Arabic;
- ``GET /api/operator/screen`` the latest kept run: its population, the pairs listed (with
  their reviews), then up to :data:`OTHERS_SHOWN` of the others;
- ``POST /api/operator/screen/reviews`` ``{run, pair, note}`` mark a listed pair reviewed.

Only an operator (:mod:`~baloot.server.players.operators`) is answered: without a session
401, a player who is no operator 403, the page included (it shows the same line). The
review needs the session's CSRF header as every change does. Nothing here runs the screen:
``baloot screen --keep`` keeps the runs this reads.
"""

from __future__ import annotations

import re
from typing import Any, Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.server.hall import Hall
from baloot.server.players.screen_runs import PairRow, Review
from baloot.server.players.sessions import AuthError, SignedIn, authorised, signed_in
from baloot.server.requests import CreateError
from baloot.server.web import error, json_body, lang, page_html

#: The pairs not listed that an answer shows at most, the farthest out first.
OTHERS_SHOWN: Final = 200
#: The longest note of a review, in characters.
NOTE: Final = 500
#: The largest pair number read.
MOST_PAIRS: Final = 10_000_000
#: What a refusal of a player who is no operator says.
NOT_OPERATOR: Final = "this page is for the server's operators"
_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class _Refused(Exception):
    """A request answered with ``status`` and one line."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status


def routes(hall: Hall) -> list[BaseRoute]:
    """The routes of the operators' page, over ``hall``."""

    async def screen_page(request: Request) -> Response:
        try:
            await _operator(hall, request)
            status = 200
        except AuthError as refused:
            status = refused.status
        return HTMLResponse(page_html("operator-screen", lang(request)), status_code=status)

    async def screen(request: Request) -> Response:
        try:
            await _operator(hall, request)
        except AuthError as refused:
            return error(refused.status, refused.line)
        return JSONResponse(await _latest(hall))

    async def review(request: Request) -> Response:
        try:
            signed = await _operator(hall, request, changing=True)
            run_id, n, note = _review_body(await json_body(request))
            found = await hall.stored(hall.store.screen_pair, run_id, n)
            if found is None:
                raise _Refused(404, f"run {run_id} has no pair {n}")
            if not found.pair.listed:
                raise _Refused(409, "only a pair the screen listed is marked reviewed")
            made = await hall.stored(
                hall.store.review_pair, run_id, n, signed.player.id, note, hall.clock()
            )
        except AuthError as refused:
            return error(refused.status, refused.line)
        except _Refused as refused:
            return error(refused.status, str(refused))
        except CreateError as bad:
            return error(400, str(bad))
        if made is None:  # its run's pairs dropped meanwhile
            return error(404, f"run {run_id} has no pair {n}")
        return JSONResponse({"run": run_id, "pair": n, "review": _review(made)}, status_code=201)

    return [
        Route("/operator/screen", screen_page),
        Route("/api/operator/screen", screen),
        Route("/api/operator/screen/reviews", review, methods=["POST"]),
    ]


async def _operator(hall: Hall, request: Request, *, changing: bool = False) -> SignedIn:
    """The signed-in operator of the request (its CSRF header checked when ``changing``),
    or an :class:`AuthError`: 401 without a session, 403 for a player who is no operator."""
    signed = await authorised(hall, request) if changing else await signed_in(hall, request)
    if signed is None:
        raise AuthError(401, "sign in first")
    if not await hall.stored(hall.store.is_operator, signed.player.id):
        raise AuthError(403, NOT_OPERATOR)
    return signed


def _review_body(body: object) -> tuple[str, int, str]:
    """The run, the pair's number and the note of a review's body, or a 400 in one line."""
    if not isinstance(body, dict):
        raise CreateError("the request must be a JSON object")
    run_id, n, note = body.get("run"), body.get("pair"), body.get("note")
    if not isinstance(run_id, str) or not _RUN_ID.fullmatch(run_id):
        raise CreateError('"run" is the id of a kept run of the screen')
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MOST_PAIRS:
        raise CreateError('"pair" is the number of a pair in the run, from 1')
    if not isinstance(note, str) or not 0 < len(note.strip()) <= NOTE:
        raise CreateError(f'"note" is text of 1 to {NOTE} characters')
    return run_id, n, note.strip()


async def _latest(hall: Hall) -> dict[str, Any]:
    """What ``GET /api/operator/screen`` answers: the latest run, its pairs and reviews."""
    kept = await hall.stored(hall.store.latest_screen)
    if kept is None:
        return {"run": None, "listed": [], "others": [], "others_total": 0}
    population = kept.body.get("population", {})
    listed = int(population.get("listed", 0))
    rows = await hall.stored(hall.store.screen_pairs, kept.id, listed + OTHERS_SHOWN)
    reviews = await hall.stored(hall.store.screen_reviews, kept.id)
    shown = [_pair(row, reviews.get(row.pair.players, [])) for row in rows]
    return {
        "run": {"id": kept.id, "started": kept.started, "finished": kept.finished, **kept.body},
        "listed": [pair for pair in shown if pair["listed"]],
        "others": [pair for pair in shown if not pair["listed"]],
        "others_total": max(0, int(population.get("pairs", 0)) - listed),
    }


def _pair(row: PairRow, reviews: list[Review]) -> dict[str, Any]:
    """One pair as the page shows it: its accounts by name (a deleted one as such, last), its
    figures, how far out it is, and its reviews, the newest first."""
    pair = row.pair
    return {
        "pair": row.n,
        "players": [
            {"name": name, "profile": f"/players/{quote(name, safe='')}"}
            if name
            else {"deleted": True}
            for name in sorted(row.names, key=lambda name: (not name, name.casefold()))
        ],
        "matches": pair.matches,
        "hands": pair.hands,
        "decisions": pair.decisions,
        "hits": pair.hits,
        "accuracy": round(pair.hits / pair.decisions, 4) if pair.decisions else 0.0,
        "others_accuracy": pair.others,
        "z": pair.z,
        "listed": pair.listed,
        "reviews": [_review(review) for review in reviews],
    }


def _review(review: Review) -> dict[str, Any]:
    """A review as the API shows it: who (None once their account is deleted), when, the
    note, and the run it was read from."""
    return {"by": review.by or None, "at": review.at, "note": review.note, "run": review.run_id}
