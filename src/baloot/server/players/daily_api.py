"""The daily duplicate's endpoints and page (``docs/players-api.md``, section "Daily
duplicate"; the rules in ``docs/daily.md``).

- ``GET /api/daily`` today's date, commitment and deals (with my status and score when signed
  in), and yesterday's revealed secret;
- ``POST /api/daily/{deal}`` start my play of deal n, or resume it (never a second play);
- ``POST /api/daily/{deal}/act`` South's next action (``{"action": "S pass"}``), checked then
  applied, and the bots' turns after it;
- ``GET /api/daily/{date}/leaderboard`` a day's players, by their average matchpoints (and,
  once the day is over, the pages of its deals);
- ``GET /api/daily/month/{YYYY-MM}`` a month's players, by the average of their days;
- ``GET /api/daily/{date}/{deal}`` once the day is over: the decks, the secret, the field;
- ``GET /daily`` the page, in English or (``?lang=ar``) Arabic.

Every change needs the session and its CSRF header; bad input is one line and a 4xx.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.bots.levels import DEFAULT_OPPONENT
from baloot.core.errors import BalootError
from baloot.core.seats import Seat
from baloot.records.fair import SECRET_BYTES
from baloot.server.hall import Hall
from baloot.server.players import daily_hand
from baloot.server.players.daily import (
    DEALERS,
    DEALS,
    INSTANCES,
    MONTH_DAYS,
    deal_deck,
    histogram,
    instance_of,
    instance_suits,
    matchpoints,
    today,
)
from baloot.server.players.daily_store import Play, Played
from baloot.server.players.sessions import AuthError, authorised, signed_in
from baloot.server.requests import CreateError
from baloot.server.web import error, json_body, page

#: The longest action text read.
MAX_ACTION: Final = 40
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONTH = re.compile(r"[0-9]{4}-[0-9]{2}")

Endpoint = Callable[[Request], Awaitable[Response]]


class Refused(Exception):
    """A request answered with ``status`` and one line."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status


def routes(hall: Hall, *, bot: str = DEFAULT_OPPONENT) -> list[BaseRoute]:
    """The routes of the daily duplicate over ``hall``; the bots are ``bot`` (``--daily-bot``)."""
    api = _DailyApi(hall, bot)
    post = ["POST"]
    return [
        Route("/daily", page("daily")),
        Route("/api/daily", answering(api.today)),
        Route("/api/daily/month/{month}", answering(api.month)),
        Route("/api/daily/{deal}", answering(api.start), methods=post),
        Route("/api/daily/{deal}/act", answering(api.act), methods=post),
        Route("/api/daily/{date}/leaderboard", answering(api.leaderboard)),
        Route("/api/daily/{date}/{deal}", answering(api.deal)),
    ]


def answering(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` with every refusal said as the JSON error of its status, in one line."""

    async def answer(request: Request) -> Response:
        try:
            return await endpoint(request)
        except Refused as refused:
            return error(refused.status, str(refused))
        except AuthError as refused:
            return error(refused.status, str(refused))
        except CreateError as bad:
            return error(400, str(bad))

    return answer


class _DailyApi:
    """The endpoints, over one hall."""

    def __init__(self, hall: Hall, bot: str) -> None:
        self.hall = hall
        self.store = hall.store
        self.bot = bot

    async def today(self, request: Request) -> Response:
        day, _, commitment = await today_of(self.hall)
        signed = await signed_in(self.hall, request)
        mine: dict[int, Play] = {}
        if signed is not None:
            plays = await self.hall.stored(self.store.daily_plays_of, day, signed.player.id)
            mine = {play.deal: play for play in plays}
        results = day_results(await self.hall.stored(self.store.daily_field, day))
        me = None if signed is None else signed.player.id
        mine_points = {deal: mp for (player, _, deal), mp in results.items() if player == me}
        yesterday = (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()
        revealed = await self.hall.stored(self.store.daily_known, yesterday)
        return JSONResponse(
            {
                "date": day,
                "commitment": commitment,
                "bot": self.bot,
                "deals": [
                    _deal_status(n, mine.get(n), mine_points.get(n)) for n in range(1, DEALS + 1)
                ],
                "yesterday": None
                if revealed is None
                else {
                    "date": yesterday,
                    "secret": revealed[0].hex(),
                    "commitment": revealed[1],
                    "leaderboard": f"/api/daily/{yesterday}/leaderboard",
                },
            }
        )

    async def start(self, request: Request) -> Response:
        signed = await authorised(self.hall, request)
        deal = deal_of(request)
        day, secret, _ = await today_of(self.hall)
        me = signed.player.id
        instance = instance_of(secret, deal, me)
        play = await self.hall.stored(
            self.store.daily_start, day, deal, me, instance, self.hall.clock()
        )
        return JSONResponse(await self._advance(play, secret, None))

    async def act(self, request: Request) -> Response:
        signed = await authorised(self.hall, request)
        deal = deal_of(request)
        body = await json_body(request)
        action = body.get("action") if isinstance(body, dict) else None
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION:
            raise Refused(400, f'the request needs "action": an action\'s text, {MAX_ACTION} chars')
        day, secret, _ = await today_of(self.hall)
        play = await self.hall.stored(self.store.daily_play, day, deal, signed.player.id)
        if play is None:
            raise Refused(409, f"start deal {deal} first")
        if play.score is not None:
            raise Refused(409, f"deal {deal} is over")
        return JSONResponse(await self._advance(play, secret, action))

    async def _advance(self, play: Play, secret: bytes, action: str | None) -> dict[str, Any]:
        """The play with South's ``action`` (if any) and the bots' turns after it, stored."""

        def step() -> tuple[list[str], Any]:
            hand = daily_hand.rebuilt(secret, play.deal, play.instance, play.moves)
            moves = list(play.moves)
            if action is not None:
                moves.append(daily_hand.south_acts(hand, action))
            moves += daily_hand.bots_turns(hand, secret, play.deal, self.bot)
            return moves, hand

        try:
            moves, hand = await asyncio.to_thread(step)
        except (BalootError, ValueError) as refused:
            raise Refused(400, str(refused).splitlines()[0]) from None
        score, contract = daily_hand.outcome(hand) if hand.is_over else (None, None)
        if len(moves) > len(play.moves) and not await self.hall.stored(
            self.store.daily_advance, play, moves, score, contract, self.hall.clock()
        ):
            raise Refused(409, "the deal moved on meanwhile: reload it")
        return {
            "date": play.day,
            "deal": play.deal,
            "instance": play.instance,
            "over": hand.is_over,
            "score": score if hand.is_over else play.score,
            "contract": contract,
            "view": daily_hand.view_json(hand),
            "choices": [] if hand.is_over else sorted(str(a) for a in hand.legal_actions()),
            "act": f"/api/daily/{play.deal}/act",
        }

    async def leaderboard(self, request: Request) -> Response:
        day = await past_day(self.hall, request, ended=False)
        results = day_results(await self.hall.stored(self.store.daily_field, day))
        over = day < (await today_of(self.hall))[0]
        pages = [f"/daily/{day}/{n}" for n in range(1, DEALS + 1)] if over else []
        return JSONResponse({"date": day, "players": _ranked(results), "pages": pages})

    async def month(self, request: Request) -> Response:
        month = str(request.path_params["month"])
        if not _MONTH.fullmatch(month) or not 1 <= int(month[5:]) <= 12:
            raise Refused(400, "a month is YYYY-MM")
        plays = await self.hall.stored(self.store.daily_month, month)
        by_day: dict[str, list[Played]] = defaultdict(list)
        for played in plays:
            by_day[played.day].append(played)
        days: dict[str, list[float]] = defaultdict(list)
        names: dict[str, str] = {}
        for day_plays in by_day.values():
            for (player, name), (points, _) in _averages(day_results(day_plays)).items():
                days[player].append(points)
                names[player] = name
        rows = sorted(
            (
                (-round(sum(p) / len(p), 2), names[player], len(p))
                for player, p in days.items()
                if len(p) >= MONTH_DAYS
            ),
        )
        return JSONResponse(
            {
                "month": month,
                "least": MONTH_DAYS,
                "players": [
                    {"rank": n, "name": name, "average": -negative, "days": count}
                    for n, (negative, name, count) in enumerate(rows, 1)
                ],
            }
        )

    async def deal(self, request: Request) -> Response:
        day = await past_day(self.hall, request, ended=True)
        deal = deal_of(request)
        known = await self.hall.stored(self.store.daily_known, day)
        assert known is not None
        secret, commitment = known
        field = await self.hall.stored(self.store.daily_field, day, deal)
        points = matchpoints([played.score for played in field])
        signed = await signed_in(self.hall, request)
        mine = None
        if signed is not None:
            mine = await self.hall.stored(self.store.daily_play, day, deal, signed.player.id)
        hands = await asyncio.to_thread(_hands, secret, deal, mine, field)
        return JSONResponse(
            {
                "date": day,
                "deal": deal,
                "mine": None
                if mine is None
                else {"instance": mine.instance, "moves": list(mine.moves), "score": mine.score},
                "secret": secret.hex(),
                "commitment": commitment,
                "dealer": DEALERS[(deal - 1) % len(DEALERS)].name,
                "instances": [
                    {
                        "instance": k,
                        "suits": "".join(s.letter for s in instance_suits(secret, deal, k)),
                        "deck": " ".join(c.text for c in deal_deck(secret, deal, k)),
                    }
                    for k in range(INSTANCES)
                ],
                "field": [
                    {
                        "name": played.name,
                        "instance": played.instance,
                        "contract": played.contract,
                        "score": played.score,
                        "matchpoints": mp,
                        "me": signed is not None and played.player_id == signed.player.id,
                    }
                    for played, mp in zip(field, points, strict=True)
                ],
                "histogram": histogram(points),
                "hands": hands,
            }
        )


async def today_of(hall: Hall) -> tuple[str, bytes, str]:
    """Today's date, secret and commitment (the day made on its first request)."""
    now = hall.clock()
    day = today(now).isoformat()
    fresh = hall.secret_bytes(SECRET_BYTES)
    secret, commitment = await hall.stored(hall.store.daily_day, day, fresh, now)
    return day, secret, commitment


async def past_day(hall: Hall, request: Request, *, ended: bool) -> str:
    """The path's date, checked: a day that was asked for, and over when ``ended``."""
    text = str(request.path_params["date"])
    try:
        if not _DATE.fullmatch(text):
            raise ValueError
        dt.date.fromisoformat(text)
    except ValueError:
        raise Refused(400, "a date is YYYY-MM-DD") from None
    day, _, _ = await today_of(hall)
    if text > day or await hall.stored(hall.store.daily_known, text) is None:
        raise Refused(404, f"no daily duplicate on {text}")
    if ended and text == day:
        raise Refused(403, "a deal is shown once its day is over")
    return text


def deal_of(request: Request) -> int:
    """The deal the path names, 1 to :data:`DEALS` (a 400 otherwise)."""
    text = str(request.path_params["deal"])
    if not text.isascii() or not text.isdigit() or not 1 <= int(text[:3]) <= DEALS:
        raise Refused(400, f"a deal is a number from 1 to {DEALS}")
    return int(text)


def _deal_status(deal: int, play: Play | None, points: float | None) -> dict[str, Any]:
    """One of today's deals as ``GET /api/daily`` lists it, for me."""
    state = "new" if play is None else "playing" if play.score is None else "done"
    return {
        "deal": deal,
        "state": state,
        "score": None if play is None else play.score,
        "matchpoints": points,
        "play": f"/api/daily/{deal}",
    }


def _hands(secret: bytes, deal: int, mine: Play | None, field: Sequence[Played]) -> dict[str, Any]:
    """The four hands of the deal as the page draws them: in the instance of my play, as my
    play completed the deal; without a play of mine, instance 0 completed for the seat that
    took the exposed card most often in the field."""
    instance, moves = (0, ()) if mine is None else (mine.instance, mine.moves)
    hand = daily_hand.rebuilt(secret, deal, instance, moves)
    takers = Counter(p.contract["declarer"] for p in field if p.contract is not None)
    most = max(Seat, key=lambda seat: (takers[seat.name], -seat.value)) if takers else None
    taker = most if hand.taker is None else hand.taker
    contract = hand.contract
    return {
        "instance": instance,
        "trump": None if contract is None or contract.trump is None else contract.trump.letter,
        "exposed": hand.exposed.text,
        "taker": None if taker is None else taker.name,
        "seats": daily_hand.seat_hands(hand, most),
    }


#: A player's matchpoints on one deal, keyed by their id, their name and the deal.
Results = dict[tuple[str, str, int], float]


def day_results(plays: Sequence[Played]) -> Results:
    """Each finished play's matchpoints in its deal's field (every instance of the deal)."""
    by_deal: dict[int, list[Played]] = defaultdict(list)
    for played in plays:
        by_deal[played.deal].append(played)
    results: Results = {}
    for deal, field in by_deal.items():
        for played, mp in zip(field, matchpoints([p.score for p in field]), strict=True):
            results[(played.player_id, played.name, deal)] = mp
    return results


def _averages(results: Results) -> dict[tuple[str, str], tuple[float, int]]:
    """Each player's average matchpoints over the deals they finished, and how many."""
    per: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (player, name, _), mp in results.items():
        per[(player, name)].append(mp)
    return {key: (round(sum(v) / len(v), 2), len(v)) for key, v in per.items()}


def _ranked(results: Results) -> list[dict[str, Any]]:
    """A day's leaderboard: the highest average first, then by name."""
    rows = sorted((-mp, name, count) for (_, name), (mp, count) in _averages(results).items())
    return [
        {"rank": n, "name": name, "average": -negative, "deals": count}
        for n, (negative, name, count) in enumerate(rows, 1)
    ]
