"""The quick match's and the friends' endpoints, and their page (``docs/players-api.md``,
section "Quick match and friends"; the rules in ``docs/quick-match.md``).

Every endpoint acts as the signed-in player (:mod:`~baloot.server.players.sessions`): a
player's id is never read from a request, only names of others. Reading needs the session;
every change needs it and its CSRF header too (401 without a session, 403 without the
header). Bad input is one line ``{"error": ...}`` with its 4xx.

The pairing step (:func:`~baloot.server.players.quick_match.seat_waiting`) runs whenever a
waiting player asks (joining, polling ``GET /api/queue``, asking for bots), on whichever node
answers: a waiting page polls every two seconds, so the queue moves without a clock of its
own, and the tables of a match are made by the node that made it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from baloot.bots.levels import DEFAULT_OPPONENT
from baloot.core.rules import PRESETS
from baloot.server.hall import Hall
from baloot.server.players.friends import Friend, Invite, SocialError
from baloot.server.players.quick_match import BOTS_AFTER, Entry, seat_waiting
from baloot.server.players.sessions import AuthError, SignedIn, authorised, signed_in
from baloot.server.requests import TIMERS, CreateError
from baloot.server.seating import token_digest
from baloot.server.storage import TableStatus
from baloot.server.web import error, json_body, page

log = logging.getLogger("baloot.server")

#: The longest name a path may hold (longer is a 400, never looked up).
MAX_NAME: Final = 64
#: What a table id, a seat token and an invitation id may be.
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def routes(
    hall: Hall, *, lobby_bot: str = DEFAULT_OPPONENT, rng: random.Random | None = None
) -> list[BaseRoute]:
    """The routes of the quick match and the friends over ``hall``: empty seats get the bot
    ``lobby_bot``; ``rng`` draws the seats (a seeded one in tests)."""
    api = _Social(hall, lobby_bot, rng or random.Random())
    return [
        Route("/play", page("play")),
        Route("/api/friends", api.friends),
        Route("/api/friends/{name}", api.ask, methods=["POST"]),
        Route("/api/friends/{name}", api.remove, methods=["DELETE"]),
        Route("/api/blocks/{name}", api.block, methods=["POST"]),
        Route("/api/blocks/{name}", api.unblock, methods=["DELETE"]),
        Route("/api/invites", api.invites),
        Route("/api/invites", api.invite, methods=["POST"]),
        Route("/api/invites/{invite}/accept", api.accept, methods=["POST"]),
        Route("/api/invites/{invite}", api.drop_invite, methods=["DELETE"]),
        Route("/api/queue", api.queue),
        Route("/api/queue", api.join, methods=["POST"]),
        Route("/api/queue", api.leave, methods=["DELETE"]),
        Route("/api/queue/bots", api.bots, methods=["POST"]),
    ]


class _Social:
    """The endpoints, over one hall."""

    def __init__(self, hall: Hall, lobby_bot: str, rng: random.Random) -> None:
        self.hall = hall
        self.store = hall.store
        self.lobby_bot = lobby_bot
        self.rng = rng
        # One pairing step at a time on this node (another node's runs beside it, safely).
        self._pairing = asyncio.Lock()

    async def _reader(self, request: Request) -> SignedIn:
        """The session of a request that only reads (an :class:`AuthError` 401 without),
        noting that its player is online."""
        session = await signed_in(self.hall, request)
        if session is None:
            raise AuthError(401, "sign in first")
        await self.hall.stored(self.store.seen_now, session.player.id, self.hall.clock())
        return session

    async def _writer(self, request: Request) -> SignedIn:
        """The session of a request that changes something, CSRF checked."""
        session = await authorised(self.hall, request)
        await self.hall.stored(self.store.seen_now, session.player.id, self.hall.clock())
        return session

    # -- friends ------------------------------------------------------------------------

    async def friends(self, request: Request) -> Response:
        try:
            me = (await self._reader(request)).player.id
        except AuthError as refused:
            return error(refused.status, refused.line)
        found = await self.hall.stored(self.store.friends_of, me, self.hall.clock())
        return JSONResponse({"friends": [_friend_json(friend) for friend in found]})

    async def ask(self, request: Request) -> Response:
        return await self._about(request, "ask")

    async def remove(self, request: Request) -> Response:
        return await self._about(request, "remove")

    async def block(self, request: Request) -> Response:
        return await self._about(request, "block")

    async def unblock(self, request: Request) -> Response:
        return await self._about(request, "unblock")

    async def _about(self, request: Request, change: str) -> Response:
        """A change of my state with the player the path names: the state now."""
        try:
            me = (await self._writer(request)).player.id
            name = _name(request.path_params["name"])
            now = self.hall.clock()
            state: str | None = None
            if change == "ask":
                state = await self.hall.stored(self.store.ask_friend, me, name, now)
            elif change == "remove":
                await self.hall.stored(self.store.remove_friend, me, name)
            elif change == "block":
                await self.hall.stored(self.store.block, me, name, now)
                state = "blocked"
            else:
                await self.hall.stored(self.store.unblock, me, name)
        except AuthError as refused:
            return error(refused.status, refused.line)
        except SocialError as refused:
            return error(refused.status, str(refused))
        return JSONResponse({"name": name, "state": state})

    # -- invitations --------------------------------------------------------------------

    async def invites(self, request: Request) -> Response:
        try:
            me = (await self._reader(request)).player
        except AuthError as refused:
            return error(refused.status, refused.line)
        found = await self.hall.stored(self.store.invites_of, me.id, self.hall.clock())
        return JSONResponse(
            {
                "received": [_invite_json(i) for i in found if i.sender != me.name],
                "sent": [_invite_json(i) for i in found if i.sender == me.name],
            }
        )

    async def invite(self, request: Request) -> Response:
        """Invite a friend to a seat of a table in play, with that seat's token."""
        try:
            me = (await self._writer(request)).player.id
            body = await json_body(request)
            if not isinstance(body, dict):
                raise SocialError(
                    'the request must be a JSON object: {"table", "seat", "friend", "token"}'
                )
            table_id, token = _text(body, "table"), _text(body, "token")
            friend = _name(body.get("friend"))
            seat = body.get("seat")
            if seat is not None and seat not in ("N", "E", "S", "W"):
                raise SocialError("seat is one of N, E, S, W (or left out: the token's seat)")
            seat = await self._seat_of(table_id, seat, token)
            id_ = await self.hall.stored(
                self.store.invite, me, friend, table_id, seat, token, self.hall.clock()
            )
        except AuthError as refused:
            return error(refused.status, refused.line)
        except (SocialError, CreateError) as refused:
            return error(getattr(refused, "status", 400), str(refused))
        answer = {"id": id_, "friend": friend, "table": table_id, "seat": seat}
        return JSONResponse({"invite": answer}, status_code=201)

    async def _seat_of(self, table_id: str, seat: str | None, token: str) -> str:
        """The seat ``token`` opens at the table in play (which must be ``seat`` when one is
        named): whoever holds a human seat's token may give that seat, nobody else."""
        if not _ID.fullmatch(table_id):
            raise SocialError("no such table in play", 404)
        found = await self.hall.table_config(table_id)
        if found is None or found[0] != TableStatus.PLAYING:
            raise SocialError("no such table in play", 404)
        try:
            config = json.loads(found[1])
            digests = {s: config["tokens"][s] for s in config["humans"]}
        except (ValueError, KeyError, TypeError):
            digests = {}
        if seat is not None and seat not in digests:
            raise SocialError("that seat is a bot's: only a human seat is given", 409)
        digest = token_digest(token) if _ID.fullmatch(token) else ""
        opened = [str(s) for s, kept in digests.items() if kept == digest]
        if not opened or opened[0] != (seat or opened[0]):
            raise SocialError("only whoever holds the seat's link may give it", 403)
        return opened[0]

    async def accept(self, request: Request) -> Response:
        """Accept an invitation: the seat's link."""
        try:
            me = (await self._writer(request)).player.id
            invite_id = str(request.path_params["invite"])
            if not _ID.fullmatch(invite_id):
                raise SocialError("no such invitation", 404)
            table_id, seat, token = await self.hall.stored(
                self.store.accept_invite, me, invite_id, self.hall.clock()
            )
        except AuthError as refused:
            return error(refused.status, refused.line)
        except SocialError as refused:
            return error(refused.status, str(refused))
        return JSONResponse({"table": table_id, "seat": seat, "url": _link(table_id, token)})

    async def drop_invite(self, request: Request) -> Response:
        try:
            me = (await self._writer(request)).player.id
        except AuthError as refused:
            return error(refused.status, refused.line)
        invite_id = str(request.path_params["invite"])
        if _ID.fullmatch(invite_id):
            await self.hall.stored(self.store.drop_invite, me, invite_id)
        return JSONResponse({})

    # -- the queue ----------------------------------------------------------------------

    async def queue(self, request: Request) -> Response:
        try:
            me = (await self._reader(request)).player.id
        except AuthError as refused:
            return error(refused.status, refused.line)
        return await self._state(me)

    async def join(self, request: Request) -> Response:
        """Wait for a table of a preset and a timer (``{"preset", "timer"}``)."""
        try:
            me = (await self._writer(request)).player.id
            body = await json_body(request)
            if not isinstance(body, dict):
                raise SocialError('the request must be a JSON object: {"preset", "timer"}')
            preset = body.get("preset", "classic")
            if not isinstance(preset, str) or preset not in PRESETS:
                raise SocialError(f"preset is one of {', '.join(sorted(PRESETS))}")
            timer = body.get("timer")
            if timer not in TIMERS or isinstance(timer, bool):
                raise SocialError("timer is null, 10, 15, 30 or 60 (seconds)")
            await self.hall.stored(self.store.join_queue, me, preset, timer, self.hall.clock())
        except AuthError as refused:
            return error(refused.status, refused.line)
        except (SocialError, CreateError) as refused:
            return error(getattr(refused, "status", 400), str(refused))
        return await self._state(me)

    async def leave(self, request: Request) -> Response:
        try:
            me = (await self._writer(request)).player.id
        except AuthError as refused:
            return error(refused.status, refused.line)
        await self.hall.stored(self.store.leave_queue, me)
        return JSONResponse({"state": None})

    async def bots(self, request: Request) -> Response:
        """Fill my empty seats with bots now."""
        try:
            me = (await self._writer(request)).player.id
        except AuthError as refused:
            return error(refused.status, refused.line)
        if not await self.hall.stored(self.store.want_bots, me):
            return error(409, "you are not waiting in the queue")
        return await self._state(me)

    async def _state(self, me: str) -> Response:
        """Note my poll, run a pairing step, then answer my place in the queue."""
        await self.hall.stored(self.store.queue_entry, me, self.hall.clock())
        await self.pairing_step()
        entry = await self.hall.stored(self.store.queue_entry, me, self.hall.clock())
        return JSONResponse(_entry_json(entry))

    async def pairing_step(self) -> list[str]:
        """One pairing step of this node (tables whose making failed are logged: their
        players wait again and the next step tries anew)."""
        async with self._pairing:
            try:
                return await seat_waiting(
                    self.store,
                    self.hall.stored,
                    self._create,
                    now=self.hall.clock(),
                    rng=self.rng,
                    bot=self.lobby_bot,
                )
            except Exception as failure:
                log.warning("a quick match's table could not be made: %s", failure)
                return []

    async def _create(self, request: dict[str, Any]) -> tuple[str, dict[str, str]]:
        room = await self.hall.create(request)
        return room.id, {seat.name: token for seat, token in room.tokens.items()}


def _name(value: object) -> str:
    """A player's name as a request gives it, checked (not looked up)."""
    if not isinstance(value, str) or not value.strip():
        raise SocialError("a player's name is text")
    if len(value) > MAX_NAME or not value.isprintable():
        raise SocialError(f"a player's name is printable, at most {MAX_NAME} characters")
    return value


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise SocialError(f'"{key}" is text of 1 to {MAX_NAME} characters')
    return value


def _link(table_id: str, token: str) -> str:
    """A seat's link, as ``POST /api/tables`` gives it."""
    return f"/t/{table_id}?token={token}"


def _friend_json(friend: Friend) -> dict[str, Any]:
    return {
        "name": friend.name,
        "state": friend.state,
        "since": friend.since,
        "online": friend.online,
    }


def _invite_json(invite: Invite) -> dict[str, Any]:
    return {
        "id": invite.id,
        "from": invite.sender,
        "to": invite.friend,
        "table": invite.table,
        "seat": invite.seat,
        "created": invite.created,
    }


def _entry_json(entry: Entry | None) -> dict[str, Any]:
    if entry is None:
        return {"state": None}
    return {
        "state": entry.state,
        "since": entry.since,
        "preset": entry.preset,
        "timer": entry.timer,
        "bots_after": BOTS_AFTER,
        "table": entry.table,
        "seat": entry.seat,
        "url": None if entry.table is None else _link(entry.table, entry.token or ""),
    }
