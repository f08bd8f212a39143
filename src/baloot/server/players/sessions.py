"""The signed-in player of a request: the session of its cookie, and the CSRF check of every
state-changing request (``docs/players-api.md``).

The cookie ``baloot_session`` holds an opaque token; the session's row is found by its SHA-256
digest (the token is never kept) and holds the player and the session's CSRF token, which a
page sends back as the ``X-CSRF-Token`` header of every POST, PUT and DELETE.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from dataclasses import dataclass
from typing import Final

from starlette.requests import Request

from baloot.server.hall import Hall

#: The session cookie's name.
COOKIE: Final = "baloot_session"
#: The header a state-changing request carries the session's CSRF token in.
CSRF_HEADER: Final = "x-csrf-token"


@dataclass(frozen=True)
class Player:
    """An account as the others see it."""

    id: str
    name: str
    created: float


@dataclass(frozen=True)
class SignedIn:
    """The player of a request's session, and the session's CSRF token."""

    player: Player
    csrf: str


class AuthError(Exception):
    """A request refused for its session: ``status`` (401 or 403) and one line."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status
        self.line = line


async def signed_in(hall: Hall, request: Request) -> SignedIn | None:
    """The session of the request's cookie; None for a guest, or a cookie that is unknown,
    expired or malformed."""
    token = request.cookies.get(COOKIE, "")
    if not token or len(token) > 200 or not token.isascii():
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    return await asyncio.to_thread(_session, hall, digest, hall.clock())


async def authorised(hall: Hall, request: Request) -> SignedIn:
    """The session of a state-changing request: an :class:`AuthError` without one (401) or
    without the session's CSRF token in its header (403)."""
    session = await signed_in(hall, request)
    if session is None:
        raise AuthError(401, "sign in first")
    header = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(header.encode(), session.csrf.encode()):
        raise AuthError(403, "the form is out of date: reload the page")
    return session


def _session(hall: Hall, digest: str, now: float) -> SignedIn | None:
    with hall.store._transaction() as run:
        rows = run(
            "SELECT p.id, p.name, p.created, s.csrf FROM sessions s"
            " JOIN players p ON p.id = s.player_id"
            " WHERE s.id = ? AND s.expires > ? AND p.deleted IS NULL",
            (digest, now),
        )
    if not rows:
        return None
    id_, name, created, csrf = rows[0]
    return SignedIn(Player(str(id_), str(name), float(created)), str(csrf))
