"""The endpoints of accounts and sessions, and the ``/account`` page (``docs/players-api.md``,
section "Accounts and sessions").

- ``GET /account`` the page: sign in, register, change the password, sign out, delete the
  account; in English or, with ``?lang=ar``, in Arabic.
- ``GET /api/account`` the signed-in player and the session's CSRF token, or nulls; this
  and a sign-in say ``operator: true`` too for an operator.
- ``POST /api/account/register`` ``{name, password, tokens?}`` (201) and
  ``POST /api/account/login`` ``{name, password, tokens?}``: a new session, its cookie set,
  ``{player, csrf, seats}``; ``tokens``, the seats this browser holds, are bound to the account.
- ``POST /api/account/logout``, ``POST /api/account/password`` ``{old, new}`` (the other
  sessions end), ``POST /api/account/delete`` ``{password}``, ``POST /api/account/seats``
  ``{tokens}``: each needs the session and its ``X-CSRF-Token``.

Sign-ins are throttled across nodes by the failures the store keeps (:data:`NAME_FAILURES` a
name and :data:`ADDRESS_FAILURES` an address in :data:`WINDOW`): beyond, 429 with when to try
again. A sign-in for a name nobody has takes as long as a wrong password (it verifies a dummy
hash) and is answered the same, "wrong name or password". No answer holds a hash, a session's
id or its cookie's token (the cookie alone carries that).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.core.errors import BalootError
from baloot.core.seats import Seat
from baloot.server.journal import KeptTable
from baloot.server.players.accounts import NameTaken, Player, SeatTaken
from baloot.server.players.names import BadName, check_name, name_key
from baloot.server.players.passwords import BadPassword, check_password, hashed, verified
from baloot.server.players.sessions import (
    AuthError,
    SignedIn,
    authorised,
    clear_cookie,
    current_session,
    end_session,
    quietly_signed_in,
    renew_cookie,
    same_site,
    set_cookie,
    signed_in,
    start_session,
)
from baloot.server.rematch import MAX_TOKEN, RematchError, seat_of
from baloot.server.requests import CreateError
from baloot.server.storage import StorageError
from baloot.server.web import error, json_body, page_html
from baloot.words import LANGUAGES

if TYPE_CHECKING:
    from baloot.server.hall import Hall

log = logging.getLogger("baloot.server")

#: The window, in seconds, over which failed sign-ins count: 15 minutes.
WINDOW: Final = 15 * 60
#: The failed sign-ins a name, and a client address, may have in :data:`WINDOW`.
NAME_FAILURES: Final = 10
ADDRESS_FAILURES: Final = 30
#: The most seats one request binds (a browser keeps 20).
MOST_SEATS: Final = 50
WRONG: Final = "wrong name or password"
_TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")

Endpoint = Callable[[Request], Awaitable[Response]]


class _Refused(BalootError):
    """A request refused with ``status`` and one line."""

    def __init__(self, status: int, line: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(line)
        self.status = status
        self.headers = headers


def routes(hall: Hall) -> list[BaseRoute]:
    """The routes of accounts and sessions, over ``hall``."""
    api = _AccountApi(hall)
    post = ["POST"]
    return [
        Route("/account", _account_page),
        Route("/api/account", _answering(api.account)),
        Route("/api/account/register", _answering(api.register), methods=post),
        Route("/api/account/login", _answering(api.login), methods=post),
        Route("/api/account/logout", _answering(api.logout), methods=post),
        Route("/api/account/password", _answering(api.password), methods=post),
        Route("/api/account/delete", _answering(api.delete), methods=post),
        Route("/api/account/seats", _answering(api.seats), methods=post),
    ]


async def _account_page(request: Request) -> Response:
    lang = request.query_params.get("lang", "en")
    return HTMLResponse(page_html("account", lang if lang in LANGUAGES else "en"))


def _answering(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` with every refusal said as the JSON error of its status, in one line."""

    async def answer(request: Request) -> Response:
        try:
            return await endpoint(request)
        except _Refused as refused:
            response = error(refused.status, str(refused))
            response.headers.update(refused.headers or {})
            return response
        except AuthError as refused:
            return error(refused.status, str(refused))
        except (CreateError, BadName, BadPassword) as bad:
            return error(400, str(bad))

    return answer


async def _body(request: Request, *fields: str) -> dict[str, Any]:
    """The request's JSON object (a 400 for anything else), ``fields`` required in it."""
    body = await json_body(request)
    if not isinstance(body, dict):
        raise CreateError("the request must be a JSON object")
    for field in fields:
        if field not in body:
            raise CreateError(f"the request needs {field}")
    return body


def _player_json(player: Player) -> dict[str, str]:
    return {"id": player.id, "name": player.name}


def _address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else ""


class _AccountApi:
    """The endpoints, over one hall."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def _store(self, call: Callable[..., Any], *args: Any) -> Any:
        return await self.hall.stored(call, *args)

    async def account(self, request: Request) -> Response:
        signed = await signed_in(self.hall, request)
        if signed is None:
            return JSONResponse({"player": None, "csrf": None})
        answer = await self._operator({"player": _player_json(signed.player), "csrf": signed.csrf})
        response = JSONResponse(answer)
        renew_cookie(response, request)
        return response

    async def _operator(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` with ``operator: true`` when its player is an operator: the account
        page then links the operators' page (no other player's answer changes)."""
        if await self._store(self.hall.store.is_operator, answer["player"]["id"]):
            answer["operator"] = True
        return answer

    async def register(self, request: Request) -> Response:
        same_site(self.hall, request)
        body = await _body(request, "name", "password")
        name = check_name(body["name"])
        password = check_password(body["password"])
        tokens = _tokens(body.get("tokens", []))
        try:
            player = await self._store(
                self.hall.store.register, name, await hashed(password), self.hall.clock()
            )
        except NameTaken as taken:
            raise _Refused(409, str(taken)) from None
        return await self._signed_in(request, player, tokens, 201)

    async def login(self, request: Request) -> Response:
        same_site(self.hall, request)
        body = await _body(request, "name", "password")
        name, password = body["name"], body["password"]
        if not isinstance(name, str) or not isinstance(password, str):
            raise CreateError("name and password are text")
        tokens = _tokens(body.get("tokens", []))
        keys = ["name:" + name_key(name[:200]), "address:" + _address(request)]
        now = self.hall.clock()
        await self._throttled(keys, now)
        found = await self._store(self.hall.store.credentials, name) if name else None
        player, kept = found if found is not None else (None, None)
        if not await verified(kept, password) or player is None:
            await self._store(self.hall.store.note_login_failure, keys, now, now - WINDOW)
            raise _Refused(401, WRONG)
        return await self._signed_in(request, player, tokens, 200)

    async def _throttled(self, keys: list[str], now: float) -> None:
        """A 429 when the name or the address failed too often in :data:`WINDOW`, saying
        when to try again."""
        failures = await self._store(self.hall.store.login_failures, keys, now - WINDOW)
        wait = 0.0
        for key, most in zip(keys, (NAME_FAILURES, ADDRESS_FAILURES), strict=True):
            times = failures[key]
            if len(times) >= most:
                wait = max(wait, times[-most] + WINDOW - now)
        if wait > 0:
            minutes = max(1, math.ceil(wait / 60))
            line = f"too many failed sign-ins: try again in {minutes} minute" + "s" * (minutes > 1)
            raise _Refused(429, line, {"retry-after": str(math.ceil(wait))})

    async def _signed_in(
        self, request: Request, player: Player, tokens: list[tuple[str, str]], status: int
    ) -> Response:
        """A new session of ``player``: the cookie set, ``{player, csrf, seats}`` answered."""
        token, csrf = await start_session(self.hall, player)
        seats = await self._bind(player, tokens)
        answer = {"player": _player_json(player), "csrf": csrf, "seats": seats}
        response = JSONResponse(await self._operator(answer), status_code=status)
        set_cookie(response, request, token)
        return response

    async def logout(self, request: Request) -> Response:
        await authorised(self.hall, request)
        await end_session(self.hall, request)
        response = JSONResponse({"player": None, "csrf": None})
        clear_cookie(response, request)
        return response

    async def password(self, request: Request) -> Response:
        signed = await authorised(self.hall, request)
        body = await _body(request, "old", "new")
        old = body["old"]
        new = check_password(body["new"], "the new password")
        await self._check_password(request, signed, old)
        kept = await hashed(new)
        session = current_session(request)
        await self._store(self.hall.store.set_password, signed.player.id, kept, session)
        return JSONResponse({"player": _player_json(signed.player), "csrf": signed.csrf})

    async def delete(self, request: Request) -> Response:
        signed = await authorised(self.hall, request)
        body = await _body(request, "password")
        await self._check_password(request, signed, body["password"])
        await self._store(self.hall.store.delete_player, signed.player.id, self.hall.clock())
        response = JSONResponse({"player": None, "csrf": None})
        clear_cookie(response, request)
        return response

    async def _check_password(self, request: Request, signed: SignedIn, password: object) -> None:
        """A 401 unless ``password`` is the signed-in player's; throttled as a sign-in is."""
        if not isinstance(password, str):
            raise CreateError("the password is text")
        keys = ["name:" + name_key(signed.player.name), "address:" + _address(request)]
        now = self.hall.clock()
        await self._throttled(keys, now)
        kept = await self._store(self.hall.store.password_hash, signed.player.id)
        if not await verified(kept, password):
            await self._store(self.hall.store.note_login_failure, keys, now, now - WINDOW)
            raise _Refused(401, "wrong password")

    async def seats(self, request: Request) -> Response:
        signed = await authorised(self.hall, request)
        body = await _body(request, "tokens")
        seats = await self._bind(signed.player, _tokens(body["tokens"]))
        return JSONResponse({"seats": seats})

    async def _bind(self, player: Player, tokens: list[tuple[str, str]]) -> list[dict[str, str]]:
        """Bind to ``player`` each seat a ``(table, token)`` is the token of: the seats that
        are the player's now; a token that is no seat's, a seat another account holds, are
        left out."""
        bound: list[dict[str, str]] = []
        for table_id, token in tokens:
            found = await self.hall.table_config(table_id)
            if found is None:
                continue
            try:
                config, _ = KeptTable(table_id, found[1], ()).read()
                seat = seat_of(config, token).name
                await self._store(self.hall.store.bind_seat, table_id, seat, player.id)
            except (RematchError, SeatTaken):
                continue
            except BalootError as unreadable:  # a kept config that cannot be read
                log.warning("table %s: its seats cannot be bound: %s", table_id, unreadable)
                continue
            bound.append({"table": table_id, "seat": seat})
        return bound


def _tokens(value: object) -> list[tuple[str, str]]:
    """``tokens`` of a body: at most :data:`MOST_SEATS` ``{table, token}``; a 400 else."""
    rule = f"tokens is a list of at most {MOST_SEATS} {{table, token}}"
    if not isinstance(value, list) or len(value) > MOST_SEATS:
        raise CreateError(rule)
    found: list[tuple[str, str]] = []
    for item in value:
        if not isinstance(item, dict):
            raise CreateError(rule)
        table, token = item.get("table"), item.get("token")
        if not isinstance(table, str) or not isinstance(token, str):
            raise CreateError(rule)
        if _TABLE_ID.fullmatch(table) and 0 < len(token) <= MAX_TOKEN:
            found.append((table, token))
    return found


async def seat_opened(
    hall: Hall, connection: HTTPConnection, table_id: str, seat: Seat | None
) -> None:
    """A seat's socket opened with its valid token: the seat becomes the signed-in player's
    when no account holds it (nothing for a guest, a spectator, a seat another holds; storage
    that fails is logged, and the socket goes on)."""
    if seat is None:
        return
    signed = await quietly_signed_in(hall, connection)
    if signed is None:
        return
    try:
        await hall.stored(hall.store.bind_seat, table_id, seat.name, signed.player.id)
    except SeatTaken:
        pass
    except StorageError as failed:
        log.error("table %s: seat %s could not be bound: %s", table_id, seat.name, failed)
