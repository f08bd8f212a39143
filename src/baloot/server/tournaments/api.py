"""The tournaments' endpoints and pages (``docs/players-api.md``, section "Tournaments"; how
a tournament runs in ``docs/tournaments.md``).

- ``GET /api/tournaments`` the tournaments, the newest first;
- ``POST /api/tournaments`` organise one (``{"name", "preset", "rounds", "format", "timer"}``);
- ``GET /api/tournaments/{id}`` one whole: its pairs, standings and current round's tables;
- ``POST /api/tournaments/{id}/pairs`` register a pair with a partner (``{"partner"}``);
- ``POST /api/tournaments/{id}/pairs/{pair}/accept`` the partner accepts;
- ``DELETE /api/tournaments/{id}/pairs/{pair}`` withdraw, or decline;
- ``POST /api/tournaments/{id}/start`` the organiser starts it;
- ``GET /tournaments`` (the list, and a form to organise one) and ``GET /tournaments/{id}``
  (standings, the round's tables to watch or sit at, pairs), English or ``?lang=ar``.

Reading needs no session (spectators welcome; a signed-in player also reads their own seat's
link); every change needs the session and its CSRF header. Bad input is one line
``{"error": ...}`` with its 4xx. The tables of a round are made by whichever node comes to
them first: the one asked about the tournament, or the one whose rounds' duty
(:meth:`Tournaments.seating_rounds`) finds them, so that a round begins when the last one
ends, whoever reads the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.core.rules import PRESETS
from baloot.server.hall import Hall
from baloot.server.players.sessions import AuthError, authorised, signed_in
from baloot.server.requests import TIMERS, CreateError
from baloot.server.storage import StorageError
from baloot.server.tournaments.director import SEATS, settings_of
from baloot.server.tournaments.store import Kept, Listed, Pair, TournamentError
from baloot.server.web import error, json_body, page
from baloot.tournaments.swiss import standings

log = logging.getLogger("baloot.server")

#: The longest name of a tournament, in characters.
MAX_NAME: Final = 60
#: The most rounds a tournament has.
MAX_ROUNDS: Final = 15
#: How many tournaments the list shows.
LISTED: Final = 50
#: How often, in seconds, a node looks for rounds whose tables are not made yet.
SEAT_EVERY: Final = 5.0
#: What a tournament's and a pair's id may be.
_ID = re.compile(r"[0-9a-f]{1,32}")


class Tournaments:
    """The tournaments' endpoints over one hall, and the duty that seats their rounds."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.store = hall.store
        # One seating step at a time on this node (another node's runs beside it, safely).
        self._seating = asyncio.Lock()

    def routes(self) -> list[BaseRoute]:
        """The tournaments' pages and endpoints."""
        return [
            Route("/tournaments", page("tournaments")),
            Route("/tournaments/{id}", page("tournament")),
            Route("/api/tournaments", self.listed),
            Route("/api/tournaments", self.create, methods=["POST"]),
            Route("/api/tournaments/{id}", self.one),
            Route("/api/tournaments/{id}/pairs", self.register, methods=["POST"]),
            Route("/api/tournaments/{id}/pairs/{pair}/accept", self.accept, methods=["POST"]),
            Route("/api/tournaments/{id}/pairs/{pair}", self.withdraw, methods=["DELETE"]),
            Route("/api/tournaments/{id}/start", self.start, methods=["POST"]),
        ]

    @contextlib.asynccontextmanager
    async def seating_rounds(self) -> AsyncIterator[None]:
        """While the server runs, every :data:`SEAT_EVERY` seconds, make the tables of the
        rounds that have none yet: a round paired when the last table of the one before
        ended begins though nobody reads the tournament."""
        duty = asyncio.create_task(self._seat_rounds())
        try:
            yield
        finally:
            duty.cancel()
            await asyncio.gather(duty, return_exceptions=True)

    async def _seat_rounds(self) -> None:
        while True:
            try:
                waiting = await self.hall.stored(self.store.tournaments_to_seat, self.hall.clock())
                for tournament in waiting:
                    await self.seat_round(tournament)
            except StorageError as failure:
                log.warning("the tournaments' rounds were not seated now: %s", failure)
            await asyncio.sleep(SEAT_EVERY)

    async def listed(self, request: Request) -> Response:
        found = await self.hall.stored(self.store.tournaments, LISTED)
        return JSONResponse({"tournaments": [_listed_json(t) for t in found]})

    async def create(self, request: Request) -> Response:
        """Organise a tournament, open to registration at once."""
        try:
            me = (await authorised(self.hall, request)).player.id
            name, preset, rounds, format_name, timer = read_tournament(await json_body(request))
            id_ = await self.hall.stored(
                self.store.create_tournament,
                me,
                name,
                preset,
                timer,
                rounds,
                format_name,
                self.hall.clock(),
            )
        except AuthError as refused:
            return error(refused.status, refused.line)
        except (TournamentError, CreateError) as refused:
            return error(getattr(refused, "status", 400), str(refused))
        return await self._answer(id_, me, 201)

    async def one(self, request: Request) -> Response:
        """The tournament whole, its current round's tables made first if they are not."""
        id_ = str(request.path_params["id"])
        if not _ID.fullmatch(id_):
            return error(404, "no such tournament")
        session = await signed_in(self.hall, request)
        await self.seat_round(id_)
        return await self._answer(id_, None if session is None else session.player.id)

    async def register(self, request: Request) -> Response:
        return await self._change(request, "register")

    async def accept(self, request: Request) -> Response:
        return await self._change(request, "accept")

    async def withdraw(self, request: Request) -> Response:
        return await self._change(request, "withdraw")

    async def start(self, request: Request) -> Response:
        return await self._change(request, "start")

    async def _change(self, request: Request, change: str) -> Response:
        """A change of the tournament the path names: the tournament whole after it."""
        try:
            me = (await authorised(self.hall, request)).player.id
            id_ = str(request.path_params["id"])
            pair = str(request.path_params.get("pair", ""))
            if not _ID.fullmatch(id_):
                raise TournamentError("no such tournament", 404)
            if change in ("accept", "withdraw") and not _ID.fullmatch(pair):
                raise TournamentError("no such pair of yours", 404)
            status = 200
            if change == "register":
                body = await json_body(request)
                partner = body.get("partner") if isinstance(body, dict) else None
                if not isinstance(partner, str) or not 0 < len(partner) <= 64:
                    raise TournamentError('the request names your partner: {"partner": NAME}')
                await self.hall.stored(
                    self.store.register_pair, me, id_, partner, self.hall.clock()
                )
                status = 201
            elif change == "accept":
                await self.hall.stored(self.store.accept_pair, me, id_, pair)
            elif change == "withdraw":
                await self.hall.stored(self.store.withdraw_pair, me, id_, pair)
            else:
                await self.hall.stored(self.store.start_tournament, me, id_)
                await self.seat_round(id_)
        except AuthError as refused:
            return error(refused.status, refused.line)
        except (TournamentError, CreateError) as refused:
            return error(getattr(refused, "status", 400), str(refused))
        return await self._answer(id_, me, status)

    async def _answer(self, id_: str, me: str | None, status: int = 200) -> Response:
        kept = await self.hall.stored(self.store.tournament, id_)
        if kept is None:
            return error(404, "no such tournament")
        return JSONResponse(tournament_json(kept, me), status_code=status)

    async def seat_round(self, tournament: str) -> list[str]:
        """Make the tables of the tournament's current round that are not made yet (their
        seats bound to the pairs' accounts): their ids. A table that cannot be made is
        logged, and its claim lapses so that a later request tries again."""
        made = []
        async with self._seating:
            now = self.hall.clock()
            for seating in await self.hall.stored(
                self.store.claim_tournament_tables, tournament, now
            ):
                request = {
                    "seats": dict.fromkeys(SEATS, "human"),
                    "names": {seat: name for seat, (_, name) in seating.seats.items()},
                    "rules": seating.preset,
                    "timer": seating.timer,
                    "public": True,
                }
                try:
                    room = await self.hall.create(request)
                    tokens = {seat.name: token for seat, token in room.tokens.items()}
                    if await self.hall.stored(
                        self.store.seat_tournament_table, seating, room.id, tokens
                    ):
                        made.append(room.id)
                except Exception as failure:  # storage, or a table refused: tried again later
                    log.warning("a tournament's table could not be made: %s", failure)
        return made


def read_tournament(body: Any) -> tuple[str, str, int, str, int | None]:
    """A tournament as ``POST /api/tournaments`` asks for it, checked: its name (spaces
    folded), preset, rounds, format and timer; a :class:`TournamentError` (400) for anything
    else.

    >>> read_tournament({"name": " Friday  cup ", "rounds": 3})
    ('Friday cup', 'classic', 3, 'match', None)
    """
    if not isinstance(body, dict):
        raise TournamentError(
            'the request must be a JSON object: {"name", "preset", "rounds", "format"}'
        )
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise TournamentError("a tournament's name is text")
    name = " ".join(name.split())
    if len(name) > MAX_NAME or not name.isprintable():
        raise TournamentError(f"a tournament's name is printable, at most {MAX_NAME} characters")
    preset = body.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise TournamentError(f"preset is one of {', '.join(sorted(PRESETS))}")
    rounds = body.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(f"rounds is a whole number from 1 to {MAX_ROUNDS}")
    format_name = body.get("format", "match")
    if format_name == "duplicate":
        raise TournamentError("duplicate rounds are not served yet")
    if format_name != "match":
        raise TournamentError("format is match or duplicate")
    timer = body.get("timer")
    if timer not in TIMERS or isinstance(timer, bool):
        raise TournamentError("timer is null, 10, 15, 30 or 60 (seconds)")
    return name, preset, rounds, format_name, timer


def tournament_json(kept: Kept, me: str | None) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/{id}`` answers it, read by ``me`` (None: a
    spectator), who finds their own seat's link at the current round's table."""
    listed = kept.listed
    pairs = {pair.id: pair for pair in kept.pairs}
    entered = [pair for pair in kept.pairs if pair.state == "entered"]
    rows = []
    if listed.state != "open":
        scored = [g.game() for g in kept.games if g.ns_points is not None]
        settings = settings_of(listed.format)
        ranked = standings([pair.entrant() for pair in entered], scored, settings)
        rows = [
            {
                "rank": rank,
                "pair": row.id,
                "players": list(pairs[row.id].names),
                "score": row.score,
                "buchholz": row.buchholz,
                "sonneborn_berger": row.sonneborn_berger,
                "seed": row.seed,
                "withdrawn": pairs[row.id].withdrawn,
            }
            for rank, row in enumerate(ranked, 1)
        ]
    tables, bye = [], None
    for game in kept.games:
        if game.round != listed.round:
            continue
        if game.ew is None:
            bye = _side(pairs[game.ns])
            continue
        seats = kept.seats.get(game.table_id or "", {})
        mine = [(seat, token) for seat, (player, token) in seats.items() if player == me]
        tables.append(
            {
                "table_no": game.table_no,
                "table": game.table_id,
                "ns": _side(pairs[game.ns]),
                "ew": _side(pairs[game.ew]),
                "ns_points": game.ns_points,
                "ew_points": game.ew_points,
                "watch": None if game.table_id is None else f"/t/{game.table_id}",
                "seat": mine[0][0] if mine else None,
                "url": f"/t/{game.table_id}?token={mine[0][1]}" if mine else None,
            }
        )
    return {
        "tournament": {**_listed_json(listed), "organiser_is_me": kept.organiser_id == me},
        "pairs": [_pair_json(pair, me) for pair in kept.pairs],
        "standings": rows,
        "current": {"round": listed.round, "tables": tables, "bye": bye},
    }


def _side(pair: Pair) -> dict[str, Any]:
    return {"pair": pair.id, "players": list(pair.names)}


def _pair_json(pair: Pair, me: str | None) -> dict[str, Any]:
    return {
        "id": pair.id,
        "players": list(pair.names),
        "state": pair.state,
        "seed": pair.seed,
        "joined": pair.joined,
        "withdrawn": pair.withdrawn,
        "mine": me in pair.players,
        "asks_me": pair.state == "asked" and me == pair.players[1],
    }


def _listed_json(listed: Listed) -> dict[str, Any]:
    return {
        "id": listed.id,
        "name": listed.name,
        "organiser": listed.organiser,
        "preset": listed.preset,
        "timer": listed.timer,
        "rounds": listed.rounds,
        "format": listed.format,
        "state": listed.state,
        "round": listed.round,
        "created": listed.created,
        "pairs": listed.pairs,
        "url": f"/tournaments/{listed.id}",
    }
