"""A table's connections: a client joins (the table restored from storage first if need
be), its messages are read, applied, stored and answered, and it leaves.

The event loop serves every table, so what may search (a claim whose cards the bots play) or
wait for a bot program is answered in the bots' threads, a hint in the hints' lane
(:mod:`~baloot.server.hint_lane`). What changes nothing (a ``ping``, a ``resync``, a refusal,
whatever a spectator sends) is answered without being stored, and the table's clock runs on.
Each connection is given an :class:`~baloot.server.live.Outbox`: a client too slow to read
its messages is closed instead of holding up the table.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final, Protocol

from baloot.server.bot_threads import BotThreads
from baloot.server.hint_lane import HintBusy, HintLane
from baloot.server.idle import IdleClock
from baloot.server.leases import Node
from baloot.server.live import CLOSE_ELSEWHERE, CLOSE_TRY_AGAIN, CLOSE_UNRESTORABLE, Live, Outbox
from baloot.server.messages import AskHint, Ping, Refused, RejectCode, Resync, parse, thinks
from baloot.server.outgoing import Reject
from baloot.server.restoring import Restorer
from baloot.server.seating import Connection, RoomError
from baloot.server.table_timers import Steps

#: How many connections one table takes at most, spectators included (close code 1013).
MAX_CONNECTIONS: Final = 64


class Changes(Steps, Protocol):
    """What the connections ask of the hall: its tables, what every change of one goes
    through, and a finished table nobody watches any more forgotten."""

    tables: dict[str, Live]

    def forget(self, live: Live) -> None: ...


class Connections:
    """The connections to the tables of ``hall`` (see the module): ``restorer`` brings a
    table back, ``idle`` notes a human's presence, ``bots`` and ``hints`` think."""

    def __init__(
        self,
        hall: Changes,
        restorer: Restorer,
        idle: IdleClock,
        bots: BotThreads,
        hints: HintLane,
    ) -> None:
        self.hall = hall
        self.restorer = restorer
        self.idle = idle
        self.bots = bots
        self.hints = hints

    async def connect(
        self, table_id: str, token: str | None
    ) -> tuple[Live, Connection, Outbox] | None:
        """Connect to a table (None: no such table in play). A table not in memory is
        restored from storage once this node has its lease. A wrong token, a table that
        could not be restored, one that takes no more connections or one that another node
        serves raises :class:`~baloot.server.seating.RoomError` (close code 4403, 4500, 1013,
        :data:`CLOSE_ELSEWHERE` with that node's public URL); storage that fails while a table
        is restored, a :class:`~baloot.server.storage.StorageError`."""
        unrestorable = self.restorer.unrestorable
        live = self.hall.tables.get(table_id)
        if live is None:
            if table_id in unrestorable:
                raise RoomError("the table could not be restored from storage", CLOSE_UNRESTORABLE)
            found = await self.restorer.revive(table_id)
            if isinstance(found, Node):
                raise RoomError(found.url, CLOSE_ELSEWHERE)
            if found is None:
                if table_id in unrestorable:
                    raise RoomError(
                        "the table could not be restored from storage", CLOSE_UNRESTORABLE
                    )
                return None
            live = found
        async with live.lock:
            if self.hall.tables.get(table_id) is not live:  # it failed while this one waited
                raise RoomError("the table is being reloaded; connect again", CLOSE_TRY_AGAIN)
            if len(live.outboxes) >= MAX_CONNECTIONS:
                raise RoomError(
                    "the table has as many connections as it takes; try later", CLOSE_TRY_AGAIN
                )
            if live.room.seating.seat_of(token) is not None:
                await self.idle.seen(live)
            connection, out = live.room.connect(token)
            outbox = Outbox()
            live.outboxes[connection] = outbox
            try:
                if connection.seat is None:  # a spectator changes nothing: only its snapshot
                    live.send(out)
                else:
                    await self.hall.commit(live, out)
            except BaseException:  # cancelled: a connection never handed out is undone
                live.outboxes.pop(connection, None)
                live.room.disconnect(connection)
                raise
        return live, connection, outbox

    async def receive(self, live: Live, connection: Connection, text: str) -> None:
        """One client message: read once, applied, stored, then answered (see the
        module)."""
        try:
            message = parse(text)
        except Refused as refused:  # nothing changes: no lock, nothing to store
            live.send(live.room.refuse(connection, refused))
            return
        if isinstance(message, Ping):  # a pong reads the clock alone: no lock, no table
            live.send(live.room.answer(connection, message))
            return
        if isinstance(message, AskHint) and connection.seat is not None:
            await self._hint(live, connection, message)
            return
        if isinstance(message, Resync) or connection.seat is None:
            await self._read_only(live, connection, message)
            return
        async with live.lock:
            if not self.hall.serves(live):
                return  # dropped after a fault: its connections are being closed
            try:
                if thinks(message) or live.has_programs:
                    out = await self.bots.run(live.room.answer, connection, message)
                else:
                    out = live.room.answer(connection, message)
            except Exception as error:
                self.hall.fault(live, error)
                return
            await self.hall.commit(live, out)

    async def _read_only(self, live: Live, connection: Connection, message: Any) -> None:
        """A message that changes nothing (a ``resync``, whatever a spectator sends: a
        spectator may not decide) answered from the table as it stands: nothing is stored and
        the table's clock runs on (a bot's pause is not started again)."""
        async with live.lock:  # a consistent read: no bot is moving meanwhile
            if self.hall.serves(live):
                live.send(live.room.answer(connection, message))

    async def _hint(self, live: Live, connection: Connection, message: AskHint) -> None:
        """A hint, made in the hints' lane, never where the bots decide. A hint changes
        nothing, so the table's lock is free while it is made, nothing is stored and the
        table's clock runs on; one the lane cannot take now (its seat's hint in flight is
        for another position, or the lane is full) is refused ``rate_limited``."""
        room = live.room
        async with live.lock:
            if not self.hall.serves(live):
                return
            try:
                task = room.hint_task(connection, message, self.bots.bot_seconds)
                if task is None:  # a hint bot of the room's own: made on the lane's thread
                    answered = await self.hints.here(lambda: room.answer(connection, message))
                    live.send(answered)
                    return
                made = self.hints.ask(room.id, task)
            except Refused as refused:
                live.send(room.refuse(connection, refused))
                return
            except HintBusy as busy:
                limited = Reject(message.id, RejectCode.RATE_LIMITED, str(busy)).sent()
                live.send([(connection, limited)])
                return
            except Exception as error:
                self.hall.fault(live, error)
                return
        try:
            hinted = await asyncio.shield(made)
        except asyncio.CancelledError:
            if made.cancelled():
                return  # the server stops
            raise
        except Exception as error:
            self.hall.fault(live, error)
            return
        async with live.lock:
            if self.hall.serves(live):
                live.send(room.hinted(connection, message, hinted))

    async def disconnect(self, live: Live, connection: Connection) -> None:
        """A connection closed, or its messages could not be sent (said once; a second time
        does nothing)."""
        async with live.lock:
            live.outboxes.pop(connection, None)
            if not connection.open or not self.hall.serves(live):
                return  # gone already, or dropped after a fault: storage is the truth
            out = live.room.disconnect(connection)
            if connection.seat is not None:  # a spectator's leaving changes nothing
                await self.idle.seen(live)
                await self.hall.commit(live, out)
        if live.finished and not live.outboxes:
            self.hall.forget(live)
