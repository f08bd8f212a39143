"""The web application: the pages, the JSON API and the table WebSocket (ASGI, Starlette).

Routes (``docs/table-protocol.md`` is normative for the API and the socket):

- ``GET /`` the lobby, ``GET /t/ID`` a table, ``GET /history`` the finished matches,
  ``GET /fair`` how anyone can check that a deal was fair,
  ``GET /t/ID/hands/N/analysis`` the analysis of a finished hand; each page in English or,
  with ``?lang=ar``, in Arabic from right to left. A table's pages asked of a node that does
  not serve the table are a 307 to the same page at the node that does (``docs/nodes.md``).
  Their scripts and styles are files of the package under ``/static``: no CDN, nothing
  fetched at run time;
  ``GET /game-words.js`` the words of the game they put together themselves, from
  :mod:`baloot.words.pages`, as the module their catalog imports.
- ``GET /api/options`` the presets, flags, bots and timers a table may have, and the bot
  the lobby offers first;
  ``POST /api/tables`` a new table (a body with ``entropy`` is refused: a seat's entropy
  comes after the commitment it is mixed with); ``GET /api/tables`` the public tables in play
  on every node; ``GET /api/tables/ID`` what anyone may know of one, whichever node serves it
  (in play, ``url``: where it is served now; once a finished one has it, its ``rematch``);
  ``POST /api/tables/ID/rematch`` with ``{"token": ...}``, a seat's token of the finished
  table ID: its rematch, made once (:mod:`baloot.server.rematch`), ``{"table": NEW, "fair":
  {"hand": 1, "commitment": ...}}``, 201 when made, 200 when it was;
  ``GET /api/matches`` the history;
  ``GET /api/matches/ID/record`` a finished match's ``baloot/1`` record;
  ``GET /api/tables/ID/hands/N/analysis`` the analysis of a finished hand (202 while it is
  computed, 409 for a hand in progress: :mod:`baloot.server.analyses`);
  ``POST /api/words`` a score sheet's lines and a hint's reasons worded in a language;
  the players' pages and endpoints, each module's ``routes`` (``docs/players-api.md``):
  accounts (``players.account_api``), the quick match and friends (``players.social_api``),
  profiles and leaderboards (``players.profile_api``), the daily duplicate
  (``players.daily_api``, ``daily_review``, ``daily_series_api``), the operators' screen
  (``players.operator_api``) and Swiss tournaments (``tournaments.api``).
- ``/ws/tables/ID?token=TOKEN`` a seat's socket, ``/ws/tables/ID`` a spectator's; at a node
  that does not serve the table, closed with 4307 and the public URL of the node that does.

Every response forbids framing and sniffing, sends no referrer (the links hold tokens) and
allows scripts from the server alone. Every error is JSON ``{"error": "…"}``: bad input a 4xx,
storage that fails a 503. Text that could not be stored or sent back (a lone surrogate, a NUL)
is refused where a body or a message is read; a table id that no table could have, a hand
number or an offset beyond its bound is a 404 or a 400, before anything looks it up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any, Final
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from baloot.bots.base import available_bots
from baloot.bots.levels import DEFAULT_OPPONENT
from baloot.core.rules import CHOICES, PRESETS, Rules
from baloot.core.seats import Seat, Team
from baloot.server import api_json
from baloot.server.hall import Hall
from baloot.server.live import CLOSE_TRY_AGAIN, Live, Outbox
from baloot.server.messages import MAX_MESSAGE, RejectCode, id_of
from baloot.server.outgoing import Reject, Sent
from baloot.server.players import (
    account_api,
    daily_api,
    daily_review,
    daily_series_api,
    operator_api,
    profile_api,
    social_api,
)
from baloot.server.players.ratings import LEADERBOARD_MATCHES
from baloot.server.rematch import RematchError
from baloot.server.requests import TIMERS, CreateError
from baloot.server.seating import Connection, RoomError
from baloot.server.storage import StorageError
from baloot.server.tournaments import api as tournament_api
from baloot.server.web import MAX_BODY as MAX_BODY
from baloot.server.web import STATIC
from baloot.server.web import error as _error
from baloot.server.web import json_body as _json_body
from baloot.server.web import lang as _lang
from baloot.server.web import page as _page
from baloot.server.web import page_html as page_html
from baloot.words import LANGUAGES, hint_texts, sheet_texts
from baloot.words.pages import page_words

#: Client messages a connection may send in a second, and the burst it may save up.
RATE: Final = 20.0
#: Messages refused for their rate before the socket is closed (1008).
FLOOD: Final = 100
#: Tables one client address may create a minute, and at once (beyond: 429), by default.
CREATE_RATE: Final = 10
#: The largest ``offset`` of ``GET /api/matches``, and hand number of a table.
MAX_OFFSET: Final = 10**9
MAX_HAND: Final = 10**4
#: Close codes of the protocol.
CLOSE_UNKNOWN_TABLE: Final = 4404
CLOSE_POLICY: Final = 1008
CLOSE_INTERNAL_ERROR: Final = 1011
#: What a table id may be: a new table's id is 12 of these characters.
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

log = logging.getLogger("baloot.server")

_HEADERS: Final = {
    "content-security-policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}

#: The words of the game the pages put together themselves, as the module ``i18n.js`` imports.
GAME_WORDS_MODULE: Final = (
    "// The words of the game in every language, from baloot.words.pages.\n"
    "export const GAME_WORDS = "
    + json.dumps({lang: page_words(lang) for lang in LANGUAGES}, ensure_ascii=False, indent=1)
    + ";\n"
)


def create_app(
    hall: Hall,
    *,
    rate: float = RATE,
    create_rate: int = CREATE_RATE,
    lobby_bot: str = DEFAULT_OPPONENT,
    daily_bot: str = DEFAULT_OPPONENT,
    leaderboard_matches: int = LEADERBOARD_MATCHES,
) -> Starlette:
    """The application serving ``hall``'s tables; it starts and stops the hall with itself.
    ``rate`` is the most messages a second a socket may send, ``create_rate`` the most tables
    a client address may create a minute (0: no limit), ``lobby_bot`` the bot the lobby
    offers first for a seat, ``daily_bot`` the daily duplicate's bots, ``leaderboard_matches``
    the rated matches a player needs to be on a leaderboard."""

    tournaments = tournament_api.Tournaments(hall)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await hall.start()
        try:
            async with tournaments.seating_rounds():
                yield
        finally:
            await hall.stop()

    api = _Api(hall, rate, create_rate, lobby_bot)
    routes = [
        Route("/", _page("lobby")),
        Route("/history", _page("history")),
        Route("/fair", _page("fair")),
        Route("/t/{table}", api.table_page),
        Route("/t/{table}/hands/{hand}/analysis", api.analysis_page),
        Route("/game-words.js", _game_words),
        Route("/api/options", api.options),
        Route("/api/tables", api.create, methods=["POST"]),
        Route("/api/tables", api.public),
        Route("/api/tables/{table}", api.describe),
        Route("/api/tables/{table}/rematch", api.rematch, methods=["POST"]),
        Route("/api/tables/{table}/sheet", api.sheet),
        Route("/api/tables/{table}/hands/{hand}/analysis", api.analysis),
        Route("/api/matches", api.matches),
        Route("/api/matches/{table}/record", api.record),
        Route("/api/words", api.words, methods=["POST"]),
        *account_api.routes(hall),
        *social_api.routes(hall, lobby_bot=lobby_bot),
        *profile_api.routes(hall, least=leaderboard_matches),
        *daily_series_api.routes(hall),
        *daily_review.routes(hall),
        *daily_api.routes(hall, bot=daily_bot),
        *operator_api.routes(hall),
        *tournaments.routes(),
        WebSocketRoute("/ws/tables/{table}", api.socket),
        WebSocketRoute("/ws/lobby", api.lobby),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: _http_error,
            StorageError: _storage_error,
            Exception: _unexpected_error,
        },
    )
    app.add_middleware(_SecurityHeaders)
    return app


class _SecurityHeaders:
    """Adds :data:`_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in _HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _team_of(seat: object) -> Team | None:
    """The team of the seat a page words a sheet for (``seat``: N, W, S or E), so that its
    teams read "us" and "them"; None for no seat (a spectator). Else a one-line ValueError."""
    if seat is None:
        return None
    if not isinstance(seat, str) or seat not in Seat.__members__:
        raise ValueError("seat is one of N, W, S, E")
    return Seat[seat].team


async def _game_words(_: Request) -> Response:
    return Response(GAME_WORDS_MODULE, media_type="text/javascript")


async def _http_error(_: HTTPConnection, error: Exception) -> Response:
    """No such route, or a method it does not take: said in JSON, as every error is."""
    assert isinstance(error, HTTPException)
    return _error(error.status_code, str(error.detail).lower())


async def _storage_error(connection: HTTPConnection, error: Exception) -> Response:
    """Storage that fails: 503 (the request may be tried again), and one line in the log."""
    log.error("%s %s: %s", getattr(connection, "method", "GET"), connection.url.path, error)
    return _error(503, "the server cannot reach its storage now; try again later")


async def _unexpected_error(_: HTTPConnection, __: Exception) -> Response:
    """A fault of the server's own (logged with its traceback): still JSON."""
    return _error(500, "the server failed to answer; try again later")


def _number(text: str, largest: int) -> int | None:
    """``text`` as a whole number from 0 to ``largest`` (plain digits), else None."""
    if not re.fullmatch(r"[0-9]{1,12}", text):
        return None
    number = int(text)
    return number if number <= largest else None


def _table_id(connection: HTTPConnection) -> str | None:
    """The path's table id, or None when no table could have it (never looked up)."""
    table_id = str(connection.path_params["table"])
    return table_id if _TABLE_ID.fullmatch(table_id) else None


class _Api:
    """The endpoints, over one hall."""

    def __init__(self, hall: Hall, rate: float, create_rate: int, lobby_bot: str) -> None:
        self.hall = hall
        self.rate = rate
        self.create_rate = create_rate
        self.lobby_bot = lobby_bot
        self.creators: dict[str, _Bucket] = {}

    async def table_page(self, request: Request) -> Response:
        moved = await self._elsewhere(request)
        if moved is not None:
            return moved
        known = await self._described(request)
        # An unknown table still gets the page (404), which says so in its language.
        return HTMLResponse(page_html("table", _lang(request)), status_code=200 if known else 404)

    async def options(self, _: Request) -> Response:
        flags = [
            {"name": name, "default": value, "choices": list(CHOICES.get(name, (False, True)))}
            for name, value in _flags(Rules()).items()
        ]
        return JSONResponse(
            {
                "presets": {name: _flags(rules) for name, rules in PRESETS.items()},
                "flags": flags,
                "bots": sorted(available_bots()),
                "default_bot": self.lobby_bot,
                "timers": list(TIMERS),
            }
        )

    async def create(self, request: Request) -> Response:
        if self.create_rate and not self._may_create(request):
            return _error(429, f"at most {self.create_rate} new tables a minute; try later")
        try:
            room = await self.hall.create(await _json_body(request))
        except CreateError as error:
            return _error(503 if error.full else 400, str(error))
        return JSONResponse(api_json.created(room), status_code=201)

    async def rematch(self, request: Request) -> Response:
        """The rematch of a finished table, for one of its seats (its token in the body)."""
        table_id = _table_id(request)
        if table_id is None:
            return _error(404, "no such table")
        if self.create_rate and not self._may_create(request):
            return _error(429, f"at most {self.create_rate} new tables a minute; try later")
        try:
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise CreateError('the request must be a JSON object: {"token": "..."}')
            made = await self.hall.rematch(table_id, body.get("token"))
        except CreateError as error:
            return _error(503 if error.full else 400, str(error))
        except RematchError as error:
            return _error(error.status, str(error))
        if made is None:
            return _error(404, "no such table")
        again, new, fair = made
        return JSONResponse({"table": again, "fair": fair}, status_code=201 if new else 200)

    def _may_create(self, request: Request) -> bool:
        address = request.client.host if request.client else ""
        if len(self.creators) > 10_000:  # forget the addresses that are at rest
            self.creators = {a: b for a, b in self.creators.items() if b.tokens < b.burst}
        rate = self.create_rate
        return self.creators.setdefault(address, _Bucket(rate / 60, rate)).take()

    async def public(self, _: Request) -> Response:
        return JSONResponse({"tables": await api_json.public_tables(self.hall)})

    async def describe(self, request: Request) -> Response:
        described = await self._described(request)
        if described is None:
            return _error(404, "no such table")
        return JSONResponse(described)

    async def _elsewhere(self, request: Request) -> Response | None:
        """A 307 to the same page at the node that serves the table, when another node does
        (the query, a seat's token and the language, kept; and, as ``#home=``, this node's
        public URL: the page asks it where the table went should that node die); None to
        answer here."""
        table_id = _table_id(request)
        base = None if table_id is None else await self.hall.elsewhere(table_id)
        if base is None:
            return None
        query = request.url.query
        home = f"#home={quote(self.hall.public_url, safe='')}" if self.hall.public_url else ""
        where = base + request.url.path + (f"?{query}" if query else "") + home
        return RedirectResponse(where, 307)

    async def _described(self, request: Request) -> dict[str, Any] | None:
        table_id = _table_id(request)
        if table_id is None:
            return None
        return await api_json.described(self.hall, table_id)

    async def analysis_page(self, request: Request) -> Response:
        known = _number(request.path_params["hand"], MAX_HAND) is not None
        moved = await self._elsewhere(request) if known else None
        if moved is not None:
            return moved
        page = page_html("analysis", _lang(request))
        return HTMLResponse(page, status_code=200 if known else 404)

    async def sheet(self, request: Request) -> Response:
        """The score sheet of a finished hand of a table in play, worded: what its
        ``hand-over`` said to everyone, for a page that came after it (a reload)."""
        number = _number(request.query_params.get("hand", ""), MAX_HAND)
        if number is None:
            return _error(400, "hand is the number of a finished hand")
        table_id = _table_id(request)
        lines = None if table_id is None else api_json.hand_sheet(self.hall, table_id, number)
        if lines is None:
            return _error(404, "no such finished hand at a table in play")
        try:
            us = _team_of(request.query_params.get("seat"))
        except ValueError as error:
            return _error(400, str(error))
        return JSONResponse({"lines": lines, "sheet": sheet_texts(lines, _lang(request), us)})

    async def analysis(self, request: Request) -> Response:
        """A finished hand's analysis: 200 once computed, 202 while it is (started by the
        first request), 409 for a hand in progress, 404 for no such table or hand."""
        table_id = _table_id(request)
        number = _number(request.path_params["hand"], MAX_HAND)
        if table_id is None or number is None:
            return _error(404, "no such table or hand")
        answer = await self.hall.analysis(table_id, number)
        headers = {"retry-after": "1"} if answer.status == 202 else None
        return JSONResponse(answer.body, status_code=answer.status, headers=headers)

    async def matches(self, request: Request) -> Response:
        offset = _number(request.query_params.get("offset", "0"), MAX_OFFSET)
        if offset is None:
            return _error(400, f"offset is a whole number from 0 to {MAX_OFFSET}")
        return JSONResponse({"matches": await api_json.matches(self.hall, 50, offset)})

    async def record(self, request: Request) -> Response:
        table_id = _table_id(request)
        found = None if table_id is None else await self.hall.match_record(table_id)
        if found is None:
            return _error(404, "no such match")
        record = found[1]
        if record is None:
            return _error(409, "the match is not over: its record would show hidden cards")
        return PlainTextResponse(
            record,
            media_type="application/toml",
            headers={"content-disposition": f'attachment; filename="{table_id}.baloot"'},
        )

    async def words(self, request: Request) -> Response:
        try:
            body = await _json_body(request)
            if not isinstance(body, dict):
                raise ValueError("the request must be a JSON object")
            lang = body.get("lang", "en")
            sheet = body.get("sheet", [])
            hint = body.get("hint", [])
            us = _team_of(body.get("seat"))
            worded = {"sheet": sheet_texts(sheet, lang, us), "hint": hint_texts(hint, lang)}
            return JSONResponse(worded)
        except ValueError as error:  # CreateError included
            return _error(400, str(error))

    async def lobby(self, websocket: WebSocket) -> None:
        """The lobby's live feed: ``{"type": "lobby"}`` whenever the public tables changed, on
        any node (the page then reads ``GET /api/tables`` again). Nothing is read from the
        page; a feed that is full closes with 1013, and the page polls instead."""
        await websocket.accept()
        feed = self.hall.lobby
        if feed.full:
            await websocket.close(code=CLOSE_TRY_AGAIN, reason="the lobby's feed is full")
            return
        with feed.subscribe() as woken:
            reading = asyncio.create_task(_until_closed(websocket))
            try:
                while not reading.done():
                    waiting = asyncio.create_task(woken.get())
                    await asyncio.wait({reading, waiting}, return_when=asyncio.FIRST_COMPLETED)
                    if not waiting.done():
                        waiting.cancel()
                        break
                    await websocket.send_json({"type": "lobby"})
            except (WebSocketDisconnect, RuntimeError):  # gone while being told
                pass
            finally:
                reading.cancel()

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        table_id = _table_id(websocket)
        token = websocket.query_params.get("token")
        try:
            joined = None if table_id is None else await self.hall.connect(table_id, token)
        except RoomError as error:
            await _refuse(websocket, error.close_code, str(error))
            return
        except StorageError as error:
            log.error("a connection to table %s: %s", table_id, error)
            reason = "the table cannot be read from storage now; try again"
            await _refuse(websocket, CLOSE_INTERNAL_ERROR, reason)
            return
        if joined is None:
            await _refuse(websocket, CLOSE_UNKNOWN_TABLE, "no such table in play")
            return
        live, connection, outbox = joined
        await account_api.seat_opened(self.hall, websocket, live.room.id, connection.seat)
        sender = asyncio.create_task(self._send_all(websocket, live, connection, outbox))
        try:
            await self._read_all(websocket, live, connection, outbox)
        finally:
            await self.hall.disconnect(live, connection)
            outbox.close(1000)
            with contextlib.suppress(Exception):
                await sender

    async def _send_all(
        self, websocket: WebSocket, live: Live, connection: Connection, outbox: Outbox
    ) -> None:
        """Send the outbox's messages in order until it is closed, then close the socket.

        A message that cannot be sent ends the connection at once: its socket is closed
        (1011) and its seat counts as gone, so that nobody at the table waits for a
        connection that would hear nothing more.
        """
        while True:
            message = await outbox.queue.get()
            if message is None:
                break
            try:
                text = message.text  # encoded once, for every connection that gets it
                text.encode("utf-8")  # what cannot be encoded is found here, on any transport
                await websocket.send_text(text)
            except Exception:  # unencodable, or the socket is gone
                outbox.close(CLOSE_INTERNAL_ERROR)
                await self.hall.disconnect(live, connection)
                break
        with contextlib.suppress(Exception):
            await websocket.close(code=outbox.close_code or 1000, reason=outbox.close_reason)

    async def _read_all(
        self, websocket: WebSocket, live: Live, connection: Connection, outbox: Outbox
    ) -> None:
        bucket = _Bucket(self.rate)
        refused = 0
        while outbox.close_code is None:
            try:
                frame = await websocket.receive()
            except WebSocketDisconnect:
                return
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if not bucket.take():
                refused += 1
                if refused > FLOOD:
                    outbox.close(CLOSE_POLICY)
                    return
                reason = f"at most {self.rate:.0f} messages a second"
                outbox.put(_refused_unread(text or "", RejectCode.RATE_LIMITED, reason))
                continue
            if text is None:
                binary = "a message is JSON text, not binary"
                outbox.put(Reject(None, RejectCode.BAD_MESSAGE, binary).sent())
                continue
            if len(text) > 4 * MAX_MESSAGE:
                outbox.close(CLOSE_POLICY)
                return
            await self.hall.receive(live, connection, text)


def _refused_unread(text: str, code: RejectCode, reason: str) -> Sent:
    """A ``reject`` of a message refused unread, with its ``id`` if it has a plain one."""
    id_ = None
    if len(text) <= MAX_MESSAGE:
        with contextlib.suppress(ValueError, RecursionError):
            message = json.loads(text)
            if isinstance(message, dict):
                id_ = id_of(message)
    return Reject(id_, code, reason).sent()


class _Bucket:
    """A token bucket: ``rate`` a second, in bursts of up to ``burst`` (default ``rate``)."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.burst = rate if burst is None else burst
        self.tokens = self.burst
        self.last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _flags(rules: Rules) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in rules.__dataclass_fields__}


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Close a table's socket that is refused before it joins: with ``code`` and ``reason``,
    or not at all when the page has gone already (it left, or loaded another page, while the
    table was looked up), which is no failure of the server's."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.close(code=code, reason=reason)


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and drop) what a feed's page sends, until it closes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
