"""Sessions: who a request comes from, by its cookie, and whether it may change anything.

Signing in gives the browser the cookie :data:`COOKIE`: an opaque random token,
``HttpOnly; SameSite=Lax; Path=/`` (and ``Secure`` over https). The server keeps the
session's row under the SHA-256 of the token (:mod:`~baloot.server.players.accounts`), so
every node knows it and a copy of the database holds no cookie that works. A session lasts
:data:`LIFETIME` from its last use: a request that finds it with less than
``LIFETIME - RENEW_EVERY`` left moves its end (at most one write a session a day).

Every state-changing request is checked by :func:`authorised`: a cross-site ``Origin`` (or
``Sec-Fetch-Site: cross-site``) is refused, and so is a request whose ``X-CSRF-Token``
header is not the session's CSRF token (compared in constant time), which a page learns from
``GET /api/account`` and no other site can read. SameSite=Lax already keeps the cookie off
another site's POST; the token and the origin check hold where a browser does not.

>>> token = new_token()
>>> len(token), session_id(token) == session_id(token), session_id("forged") is None
(43, True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import Response

from baloot.core.errors import BalootError
from baloot.server.players.accounts import Player
from baloot.server.storage import StorageError

if TYPE_CHECKING:
    from baloot.server.hall import Hall

log = logging.getLogger("baloot.server")

#: The session cookie's name.
COOKIE: Final = "baloot_session"
#: How long a session lasts from its last use, in seconds: 30 days.
LIFETIME: Final = 30 * 24 * 3600
#: How often a session in use has its end moved, at most, in seconds: a day.
RENEW_EVERY: Final = 24 * 3600
#: The header that carries the session's CSRF token on every state-changing request.
CSRF_HEADER: Final = "x-csrf-token"
#: What a cookie's token is: 32 random bytes, url-safe base64 without padding.
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{43}")


@dataclass(frozen=True)
class SignedIn:
    """The signed-in player of a request, and its session's CSRF token."""

    player: Player
    csrf: str


class AuthError(BalootError):
    """A request that may not do what it asks: ``status`` (401, 403) and one line to say."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status
        self.line = line


def new_token() -> str:
    """A new random token (a cookie's, a CSRF token): 32 bytes, 43 url-safe characters."""
    return secrets.token_urlsafe(32)


def session_id(token: str) -> str | None:
    """The id of the session a cookie's ``token`` opens (its SHA-256), None for a token no
    session could have (never looked up)."""
    if not _TOKEN.fullmatch(token):
        return None
    return hashlib.sha256(token.encode("ascii")).hexdigest()


async def signed_in(hall: Hall, connection: HTTPConnection) -> SignedIn | None:
    """The session of the request's cookie, None for a guest or a cookie that is unknown,
    expired or malformed; a session in use has its end moved (see the module). Storage that
    fails raises :class:`~baloot.server.storage.StorageError` (503), as everywhere."""
    found = _session_of(connection)
    if found is None:
        return None
    now = hall.clock()
    session = await hall.stored(hall.store.session, found, now)
    if session is None:
        return None
    if session.expires < now + LIFETIME - RENEW_EVERY:
        await hall.stored(hall.store.renew_session, found, now + LIFETIME, now)
    return SignedIn(session.player, session.csrf)


def _session_of(connection: HTTPConnection) -> str | None:
    token = connection.cookies.get(COOKIE)
    return None if token is None else session_id(token)


async def authorised(hall: Hall, connection: HTTPConnection) -> SignedIn:
    """The signed-in player of a state-changing request, or an :class:`AuthError`: 403 from
    another site, 401 "sign in first" without a session, 403 when ``X-CSRF-Token`` is not
    the session's token."""
    same_site(hall, connection)
    signed = await signed_in(hall, connection)
    if signed is None:
        raise AuthError(401, "sign in first")
    given = connection.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), signed.csrf.encode("ascii")):
        raise AuthError(403, "the form is out of date: reload the page")
    return signed


def same_site(hall: Hall, connection: HTTPConnection) -> None:
    """Raise an :class:`AuthError` (403) for a request another site's page made: its
    ``Origin`` is neither this server's host nor the hall's public URL, or the browser says
    ``Sec-Fetch-Site: cross-site``. A request without either (a program's) passes."""
    refused = AuthError(403, "a request from another site is refused")
    if connection.headers.get("sec-fetch-site") == "cross-site":
        raise refused
    origin = connection.headers.get("origin")
    if origin is None:
        return
    ours = {connection.headers.get("host", ""), urlsplit(hall.public_url).netloc} - {""}
    try:
        theirs = urlsplit(origin).netloc
    except ValueError:  # no URL at all ("http://[::1"): no page of ours sent it
        raise refused from None
    if theirs not in ours:
        raise refused


async def start_session(hall: Hall, player: Player) -> tuple[str, str]:
    """A new session of ``player``: its cookie's token and its CSRF token (the token is for
    :func:`set_cookie` alone, never an answer's body)."""
    token, csrf = new_token(), new_token()
    now = hall.clock()
    kept = session_id(token)
    assert kept is not None
    await hall.stored(hall.store.open_session, kept, player.id, csrf, now, now + LIFETIME)
    return token, csrf


async def end_session(hall: Hall, connection: HTTPConnection) -> None:
    """End the request's session, if it has one (signing out)."""
    found = _session_of(connection)
    if found is not None:
        await hall.stored(hall.store.end_session, found)


def current_session(connection: HTTPConnection) -> str:
    """The id of the request's session ('' without a cookie that could be one)."""
    return _session_of(connection) or ""


def set_cookie(response: Response, connection: HTTPConnection, token: str) -> None:
    """Give the browser the session cookie ``token`` for :data:`LIFETIME`."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=LIFETIME,
        path="/",
        secure=_https(connection),
        httponly=True,
        samesite="lax",
    )


def clear_cookie(response: Response, connection: HTTPConnection) -> None:
    """Tell the browser to forget the session cookie."""
    response.delete_cookie(
        COOKIE, path="/", secure=_https(connection), httponly=True, samesite="lax"
    )


def renew_cookie(response: Response, connection: HTTPConnection) -> None:
    """Send the request's session cookie again, for another :data:`LIFETIME` in the browser
    (the server moves its end as it is used)."""
    token = connection.cookies.get(COOKIE)
    if token is not None and session_id(token) is not None:
        set_cookie(response, connection, token)


def _https(connection: HTTPConnection) -> bool:
    return connection.url.scheme in ("https", "wss")


async def quietly_signed_in(hall: Hall, connection: HTTPConnection) -> SignedIn | None:
    """:func:`signed_in`, None when storage fails (logged): for what may go on as a guest."""
    try:
        return await signed_in(hall, connection)
    except StorageError as error:
        log.error("a session could not be read: %s", error)
        return None
