"""A past daily deal looked back on, and the rules' page (``docs/players-api.md``, section
"Daily duplicate"; the rules in ``docs/daily.md``).

- ``GET /daily/{date}/{deal}`` the page of a deal once its day is over: the four hands, the
  field, the histogram of matchpoints and my decisions as the solver judges them;
- ``GET /api/daily/{date}/{deal}/analysis`` my play of the deal judged by the exact solver:
  each of South's decisions with its loss against the best option;
- ``GET /daily/rules`` the rules of the daily duplicate, in English or (``?lang=ar``) Arabic.

The analysis is the one of :func:`baloot.analysis.analyze_record` with no bot (exact values
only: the cards and declarations, not the bids), a fraction of a second for one hand, so it is
computed on each request, one at a time, in a thread.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.analysis import SolverAndBot, analyze_record
from baloot.records.record import Record
from baloot.server.hall import Hall
from baloot.server.players import daily_hand
from baloot.server.players.daily_api import Refused, answering, deal_of, past_day
from baloot.server.players.sessions import signed_in
from baloot.server.web import page


def routes(hall: Hall) -> list[BaseRoute]:
    """The routes of the past deals' pages and analyses, and of the rules' page."""
    review = _Review(hall)
    return [
        Route("/daily/rules", page("daily-rules")),
        Route("/daily/{date}/{deal}", page("daily-deal")),
        Route("/api/daily/{date}/{deal}/analysis", answering(review.analysis)),
    ]


class _Review:
    """The analyses of past plays, one at a time."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.one_at_a_time = asyncio.Lock()

    async def analysis(self, request: Request) -> Response:
        day = await past_day(self.hall, request, ended=True)
        deal = deal_of(request)
        signed = await signed_in(self.hall, request)
        if signed is None:
            raise Refused(401, "sign in first")
        store = self.hall.store
        play = await self.hall.stored(store.daily_play, day, deal, signed.player.id)
        if play is None:
            raise Refused(404, f"you did not play deal {deal} on {day}")
        known = await self.hall.stored(store.daily_known, day)
        assert known is not None
        async with self.one_at_a_time:
            judged = await asyncio.to_thread(judged_play, known[0], deal, play.instance, play.moves)
        return JSONResponse(
            {"date": day, "deal": deal, "instance": play.instance, "score": play.score, **judged}
        )


def judged_play(secret: bytes, deal: int, instance: int, moves: tuple[str, ...]) -> dict[str, Any]:
    """South's decisions in the play ``moves`` of ``instance`` of ``deal``, as the exact
    solver judges them: each one's action, the best option, their values and the loss.

    >>> judged = judged_play(bytes(32), 1, 0, ())
    >>> judged["decisions"], judged["contract"]
    ([], None)
    """
    hand = daily_hand.rebuilt(secret, deal, instance, moves)
    analysis = analyze_record(Record.of(hand), SolverAndBot(None), hand=1).to_json()
    judged = analysis["hands"][0]
    return {
        "contract": judged["contract"],
        "unit": judged["unit"],
        "decisions": [
            {key: decision[key] for key in _KEPT}
            for decision in judged["decisions"]
            if decision["seat"] == daily_hand.PLAYER.name
        ],
    }


#: What the page shows of each decision.
_KEPT = ("position", "phase", "action", "value", "best", "best_value", "loss", "mark", "symbol")
