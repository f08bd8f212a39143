"""The hall: every table a server holds, its clock, its bots and its storage; the tables'
life cycle (what the pages are told of them is :mod:`~baloot.server.api_json`'s).

A :class:`~baloot.server.room.Room` speaks the protocol without I/O or time; the hall gives it
both. For every change of a table it stores the room's steps (in one writer thread, as a
:mod:`~baloot.server.group_commit`) *before* it hands the messages to the connections, so
nothing acknowledged is ever lost; it lets bots think in a pool of threads, outside the event
loop, one table at a time under the table's lock; and it keeps each table's one timer: the
next bot decision (after a short pause, so that people can follow), or the room's deadline (a
human's turn timer, the wait for a disconnected human, the 30 s after a ``hand-over`` at a
table of two or more humans, the at most 15 s a new table's first hand waits for its players'
entropy), read from the clock it gives its rooms. The timer is set again
only when what the table waits for changes: what changes nothing (a ``ping``, a ``resync``,
anything a spectator sends) is answered without being stored and leaves it running. A seat's
comings and leavings are told on a timer of their own (:mod:`~baloot.server.presence`), hints
are made in a lane of their own (:mod:`~baloot.server.hint_lane`). On start it brings back every
table in play from storage that no other node serves.

The hall is one **node** of those that share a database (``docs/nodes.md``): a table lives in
the one node that holds its lease (:mod:`~baloot.server.leases`). The hall registers its node
when it starts and forgets it when it stops; every :data:`RENEW_SECONDS` it renews its
leases, beats its heartbeat with its load, and takes the tables nobody holds when it is the
least loaded (:mod:`~baloot.server.placement`). It takes a table's lease before it creates or
restores the table; a connection to a table another node holds is closed with
:data:`CLOSE_ELSEWHERE`, the holder's public URL as its reason. A table whose lease a renewal
no longer lists (another node took it) is dropped from memory at once; when renewals fail
(the database is away), so is each table whose lease runs out before the next one.

A table id has at most one live copy in a server, ever. A table that fails (its steps cannot
be stored, or a step cannot be applied) is dropped from memory and restored from storage on
the next connection; that restore, as every restore, is single-flight: every connection that
arrives meanwhile waits for the same one. A table whose kept rows cannot be read or replayed
stays in storage as it is, is served to nobody (close code 4500) and is reported as
``unrestorable``; the other tables are served all the same. Storage's failures reach the hall as one
:class:`~baloot.server.storage.StorageError` each, whatever the backend. Two are told apart: a
table whose write meets the database away (:class:`~baloot.server.storage.StorageAway`) is
dropped (1013) and read back by the first renewal once it is back, with nobody connected; and
one whose write the database refuses for a lease this node no longer holds
(:class:`~baloot.server.storage.LeaseLost`: every write gives the table's lease, its fence) is
dropped at once, nothing of it acknowledged, its connections sent to the new holder.

A bot decides under a clock (:mod:`baloot.bots.clock`) of ``bot_seconds`` of wall time. A
table may seat an operator's bot program (``baloot serve --bot``): its processes live as long
as the table is in memory, and are ended when the match is over, when the table is closed or
dropped, and when the server stops. Whatever such a table does that may ask a bot (a claim
makes the bots play on) runs in the bots' threads, never in the event loop.

Connections are given an :class:`Outbox`: a bounded queue that the transport drains; a client
too slow to read its messages is closed instead of holding up the table.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, Final, TypeVar

from baloot.bots.clock import Clock, deciding
from baloot.bots.decisions import Deciders, Decision, DecisionFailed, DecisionTask
from baloot.bots.external import close_all
from baloot.bots.levels import ROLES
from baloot.core.errors import RecordError, first_line
from baloot.core.seats import Seat
from baloot.records.summary import teams_json
from baloot.records.writer import dumps
from baloot.server.analyses import QUEUE, Analyses, Answer, Source
from baloot.server.deadlines import ABSENT_WAIT, DEAL_WAIT, NEXT_WAIT, DeadlineKind, Timing
from baloot.server.group_commit import GroupCommit
from baloot.server.hint_lane import HintBusy, HintLane
from baloot.server.journal import KeptTable
from baloot.server.leases import LEASE_SECONDS, Lease, Node
from baloot.server.live import (
    CLOSE_ELSEWHERE,
    CLOSE_TRY_AGAIN,
    CLOSE_UNRESTORABLE,
    Live,
    Outbox,
    score_of,
)
from baloot.server.lobby_feed import LobbyFeed
from baloot.server.messages import (
    AskHint,
    Ping,
    Refused,
    RejectCode,
    Resync,
    parse,
    thinks,
)
from baloot.server.node_duties import STORAGE_AWAY, NodeDuties
from baloot.server.outgoing import Reject
from baloot.server.placement import placement
from baloot.server.presence import PRESENCE_EVERY
from baloot.server.publishing import Outgoing
from baloot.server.rematch import RematchError, first_fair, rematch_id, rematch_room, seat_of
from baloot.server.requests import CreateError, read_request
from baloot.server.room import Room
from baloot.server.seating import Connection, RoomError
from baloot.server.storage import LeaseLost, StorageAway, StorageError, Store, TableStatus
from baloot.table.table import WaitKind

log = logging.getLogger("baloot.server")

#: How many tables in play a server holds at most (a new one is refused beyond).
MAX_TABLES: Final = 2000
#: How many connections one table takes at most, spectators included (close code 1013).
MAX_CONNECTIONS: Final = 64
#: The wall time a bot has for a decision (an external program is told it as ``clock_ms``).
BOT_SECONDS: Final = 1.0
#: The fewest seconds between two notes of a table's humans' presence for the idle clock
#: (a write to storage each): a client that connects in a loop writes no more.
SEEN_EVERY: Final = 60.0
T = TypeVar("T")


class Hall(NodeDuties):
    """Every table of one server.

    ``store`` keeps them; ``node`` is this node's name among those sharing the database
    (default: the host's name) and ``public_url`` the address browsers reach it at;
    ``bot_pause`` is the pause before a bot's decision (seconds), ``absent_wait``,
    ``next_wait`` and ``deal_wait`` the waits of the protocol
    (:class:`~baloot.server.deadlines.Timing`),
    ``clock`` the time in seconds since the epoch (the deadlines' and the idle clock's),
    ``idle`` how long (seconds) a table whose humans never come back is kept in play before
    it is closed. ``secret_bytes`` gives the secrets of the tables' deals (the system's
    :func:`secrets.token_bytes`; a test's seeded source makes its tables reproducible).
    ``deciders`` are where the bots decide (None: the hall's bot threads), ``hint_deciders``
    where hints are made, a lane of their own (:mod:`~baloot.server.hint_lane`; None: the
    lane's own thread); ``presence_every`` is the fewest seconds between two ``seat`` messages
    of one seat that say it left or came back (:mod:`~baloot.server.presence`).
    """

    def __init__(
        self,
        store: Store,
        *,
        node: str | None = None,
        public_url: str = "",
        bot_pause: float = 0.6,
        absent_wait: float = ABSENT_WAIT,
        next_wait: float = NEXT_WAIT,
        deal_wait: float = DEAL_WAIT,
        idle: float = 7 * 24 * 3600.0,
        bot_threads: int = 2,
        bot_seconds: float = BOT_SECONDS,
        deciders: Deciders | None = None,
        hint_deciders: Deciders | None = None,
        presence_every: float = PRESENCE_EVERY,
        analysis_bot: str | None = ROLES.server_analysis,
        analysis_queue: int = QUEUE,
        clock: Callable[[], float] = time.time,
        secret_bytes: Callable[[int], bytes] = secrets.token_bytes,
    ) -> None:
        self.store = store
        self.secret_bytes = secret_bytes
        self.node = node or socket.gethostname()
        self.public_url = public_url
        self.bot_pause = bot_pause
        self.absent_wait = absent_wait
        self.next_wait = next_wait
        self.deal_wait = deal_wait
        self.presence_every = presence_every
        self.idle = idle
        self.bot_seconds = bot_seconds
        self.clock = clock
        self.tables: dict[str, Live] = {}
        # Rematches are made one at a time, so that two presses here make one table.
        self._rematching = asyncio.Lock()
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="baloot-store")
        self._bots = ThreadPoolExecutor(bot_threads, thread_name_prefix="baloot-bot")
        self._deciders = deciders
        self.hints = HintLane(hint_deciders)
        self._housekeeping: asyncio.Task[None] | None = None
        self._leasing: asyncio.Task[None] | None = None
        #: Wakes the lobby pages when the public tables change, on any node.
        self.lobby = LobbyFeed(store)
        self._feeding: asyncio.Task[None] | None = None
        self._nodes: list[Node] = []
        """The live nodes as the last heartbeat read them, with the tables placed since."""
        self._adopting: set[asyncio.Future[Live | Node | None]] = set()
        self._stopping = False
        self._faulted: set[str] = set()
        self._restoring: dict[str, asyncio.Future[Live | Node | None]] = {}
        self.unrestorable: dict[str, str] = {}
        """The tables in play that could not be restored, and why (for the log, never a
        client: a replay's error may speak of cards)."""
        self.commits = GroupCommit(store, self._store)
        self._releasing: set[asyncio.Future[None]] = set()
        self.analyses = Analyses(
            store,
            self._store,
            bot=analysis_bot,
            queue=analysis_queue,
            deciders=deciders,
            clock=clock,
        )

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Register the node, take the tables in play that nobody holds (every one for a node
        alone) and bring them back from storage, then keep the leases and the house. A table
        that cannot be restored is left out (and logged in one line); the others are served."""
        now = self.clock()
        await self._store(self.store.register_node, self.node, self.public_url, now)
        await self._see_nodes(now)
        for table_id in await self._adopt(now):
            await self._revive(table_id)
        self._housekeeping = asyncio.create_task(self._keep_house())
        self._leasing = asyncio.create_task(self._keep_leases())
        self._feeding = asyncio.create_task(self.lobby.run())

    async def stop(self) -> None:
        """Close every connection and stop the clocks; what was acknowledged is stored."""
        self._stopping = True
        await self.analyses.stop()
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        background = [
            task
            for task in (self._leasing, self._feeding, *self._adopting, *self._restoring.values())
            if task is not None
        ]
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        for live in list(self.tables.values()):
            self._stop_clocks(live)
            for outbox in live.outboxes.values():
                outbox.close(1001)
        for live in list(self.tables.values()):  # a bot may be thinking: let it finish
            async with live.lock:
                pass
        try:  # the node's tables may be taken at once, not when their leases run out
            await self._store(self.store.forget_node, self.node)
        except StorageError as error:
            log.warning(
                "node %s was not forgotten: its tables wait for their leases: %s", self.node, error
            )
        for live in list(self.tables.values()):
            self._release(live)
        if self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)
        self.hints.close()
        self._bots.shutdown(wait=True)
        if self._deciders is not None:
            self._deciders.close()
        self._writer.shutdown(wait=True)
        self.store.close()

    # ------------------------------------------------------------------ tables

    async def create(self, request: Mapping[str, Any]) -> Room:
        """A new table as ``POST /api/tables`` asks (``seat-view.md`` §4), stored and in play:
        its room (whose ``tokens`` are for whoever asked).

        The table goes to the least loaded live node: this one unless another is less loaded
        (:func:`~baloot.server.placement.placement`). For another node the lease is taken in
        its name: its next renewal lists the table, and it restores it from storage (with
        no step yet, as made); meanwhile a connection here is sent there."""
        asked = read_request(request)
        room = Room.create(asked.players, rules=asked.rules, secret_bytes=self.secret_bytes)
        return await self._open(room, asked.timer, asked.public)

    async def rematch(
        self, table_id: str, token: object
    ) -> tuple[str, bool, dict[str, Any] | None] | None:
        """The rematch of the finished table ``table_id`` (:mod:`~baloot.server.rematch`),
        asked with one of its seats' ``token``: its id, whether this call made it, and its
        first hand's commitment (:func:`~baloot.server.rematch.first_fair`), which a seat's
        entropy must come after; None for no such table. A token that is no seat's, a match
        not over: a :class:`~baloot.server.rematch.RematchError`."""
        live = self.tables.get(table_id)
        if live is not None:
            config, over = live.config, live.finished
        else:
            found = await self.table_config(table_id)
            if found is None:
                return None
            status, text = found
            config, _ = KeptTable(table_id, text, ()).read()
            over = status == TableStatus.OVER
        seat_of(config, token)
        if not over:
            raise RematchError("the match is not over", 409)
        again = rematch_id(table_id)
        async with self._rematching:
            made = await self.rematch_of(table_id) is None
            if made:
                room = rematch_room(config, self.secret_bytes)
                try:
                    await self._open(room, config.timer, config.public)
                except StorageError:
                    if await self.rematch_of(table_id) is None:  # not made elsewhere meanwhile
                        raise
                    made = False
        found = await self.table_config(again)
        fair = None if found is None else first_fair(KeptTable(again, found[1], ()).read()[0])
        return again, made, fair

    async def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of ``table_id`` once it is made, else None."""
        again = rematch_id(table_id)
        if again in self.tables or await self.table_config(again) is not None:
            return again
        return None

    async def _open(self, room: Room, timer: float | None, public: bool) -> Room:
        """Keep the new ``room`` and put it in play at the least loaded node."""
        target = placement(self._nodes, self.node, self._load())
        if target is None and self._load() >= MAX_TABLES:
            raise CreateError("the server holds as many tables as it can; try later", full=True)
        room.record_url = record_url(room.id)
        room.timing, room.clock, room.created = self._timing(timer), self.clock, self.clock()
        config = room.config(timer=timer, public=public, created=room.created)
        await self._store(self.store.create, config)
        lease = await self._place(room.id, target)
        if lease.holder.name == self.node:
            live = Live(room, config, lease.fence, lease_until=lease.expires, scored=score_of(room))
            self.tables[room.id] = live
            async with live.lock:
                self._schedule(live)
        if config.public:
            await self._tell_lobby(room.id)
        return room

    async def _place(self, table_id: str, target: Node | None) -> Lease:
        """The lease on the new table ``table_id``, taken for ``target`` (None: this node).
        A target that was forgotten meanwhile (it stopped) leaves the table here."""
        now = self.clock()
        if target is not None:
            try:
                lease = await self._store(
                    self.store.take_lease, table_id, target.name, now, LEASE_SECONDS
                )
            except StorageError as error:
                log.warning("table %s stays here, not at node %s: %s", table_id, target.name, error)
            else:
                self._nodes = [
                    replace(node, load=node.load + 1) if node.name == target.name else node
                    for node in self._nodes
                ]  # until the next heartbeats, so that many new tables do not all go there
                return lease
        return await self._store(self.store.take_lease, table_id, self.node, now, LEASE_SECONDS)

    async def finished(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Finished and closed matches, newest first, as storage keeps them
        (:meth:`~baloot.server.storage.Store.history`)."""
        return await self._store(self.store.history, limit, offset)

    async def match_record(self, table_id: str) -> tuple[TableStatus, str | None] | None:
        """A match's status and record (None while it is in play), or None if unknown."""
        return await self._store(self.store.match_record, table_id)

    async def analysis(self, table_id: str, number: int) -> Answer:
        """The analysis of hand ``number`` of a table, in play or over (``analyses``)."""
        live = self.tables.get(table_id)
        source: Source | None = None
        if live is not None:
            async with live.lock:  # a consistent copy: no bot is moving meanwhile
                players = dict(live.config.players)
                source = Source.of_match(live.room.table.match, players)
        else:
            found = await self._store(self.store.match_record, table_id)
            if found is not None and found[1] is None:
                return Answer(409, {"error": "the table is not available now; try later"})
            if found is not None and found[1] is not None:
                try:
                    source = Source.of_record(found[1])
                except RecordError:  # kept before every hand held its fair proof: unreadable
                    return Answer(409, {"error": "the record of this table cannot be read"})
        return await self.analyses.answer(table_id, number, source)

    # ------------------------------------------------------------------ connections

    async def connect(
        self, table_id: str, token: str | None
    ) -> tuple[Live, Connection, Outbox] | None:
        """Connect to a table (None: no such table in play). A table not in memory is
        restored from storage once this node has its lease. A wrong token, a table that
        could not be restored, one that takes no more connections or one that another node
        serves raises :class:`~baloot.server.seating.RoomError` (close code 4403, 4500, 1013,
        :data:`CLOSE_ELSEWHERE` with that node's public URL); storage that fails while a table
        is restored, a :class:`StorageError`."""
        live = self.tables.get(table_id)
        if live is None:
            if table_id in self.unrestorable:
                raise RoomError("the table could not be restored from storage", CLOSE_UNRESTORABLE)
            found = await self._revive(table_id)
            if isinstance(found, Node):
                raise RoomError(found.url, CLOSE_ELSEWHERE)
            if found is None:
                if table_id in self.unrestorable:
                    raise RoomError(
                        "the table could not be restored from storage", CLOSE_UNRESTORABLE
                    )
                return None
            live = found
        async with live.lock:
            if self.tables.get(table_id) is not live:  # it failed while this one waited
                raise RoomError("the table is being reloaded; connect again", CLOSE_TRY_AGAIN)
            if len(live.outboxes) >= MAX_CONNECTIONS:
                raise RoomError(
                    "the table has as many connections as it takes; try later", CLOSE_TRY_AGAIN
                )
            if live.room.seating.seat_of(token) is not None:
                await self._seen(live)
            connection, out = live.room.connect(token)
            outbox = Outbox()
            live.outboxes[connection] = outbox
            try:
                if connection.seat is None:  # a spectator changes nothing: only its snapshot
                    self._send(live, out)
                else:
                    await self._commit(live, out)
            except BaseException:  # cancelled: a connection never handed out is undone
                live.outboxes.pop(connection, None)
                live.room.disconnect(connection)
                raise
        return live, connection, outbox

    async def receive(self, live: Live, connection: Connection, text: str) -> None:
        """One client message: read once, applied, stored, then answered. What may search (a
        claim whose cards the bots play) or wait for a bot program is answered in the bots'
        threads, a hint in the hints' lane: the event loop, which serves every table, never
        thinks. What changes nothing (a ``ping``, a ``resync``, a refusal, whatever a
        spectator sends) is answered without being stored, and the table's clock runs on."""
        try:
            message = parse(text)
        except Refused as refused:  # nothing changes: no lock, nothing to store
            self._send(live, live.room.refuse(connection, refused))
            return
        if isinstance(message, Ping):  # a pong reads the clock alone: no lock, no table
            self._send(live, live.room.answer(connection, message))
            return
        if isinstance(message, AskHint) and connection.seat is not None:
            await self._hint(live, connection, message)
            return
        if isinstance(message, Resync) or connection.seat is None:
            await self._read_only(live, connection, message)
            return
        async with live.lock:
            if self.tables.get(live.room.id) is not live:
                return  # dropped after a fault: its connections are being closed
            try:
                if thinks(message) or live.has_programs:
                    loop = asyncio.get_running_loop()
                    out = await loop.run_in_executor(
                        self._bots, live.room.answer, connection, message
                    )
                else:
                    out = live.room.answer(connection, message)
            except Exception as error:
                self._fault(live, error)
                return
            await self._commit(live, out)

    async def _read_only(self, live: Live, connection: Connection, message: Any) -> None:
        """A message that changes nothing (a ``resync``, whatever a spectator sends: a
        spectator may not decide) answered from the table as it stands: nothing is stored and
        the table's clock runs on (a bot's pause is not started again)."""
        async with live.lock:  # a consistent read: no bot is moving meanwhile
            if self.tables.get(live.room.id) is live:
                self._send(live, live.room.answer(connection, message))

    async def _hint(self, live: Live, connection: Connection, message: AskHint) -> None:
        """A hint, made in the hints' lane (:mod:`~baloot.server.hint_lane`), never where the
        bots decide. A hint changes nothing, so the table's lock is free while it is made,
        nothing is stored and the table's clock runs on; one the lane cannot take now (its
        seat's hint in flight is for another position, or the lane is full) is refused
        ``rate_limited``."""
        room = live.room
        async with live.lock:
            if self.tables.get(room.id) is not live:
                return
            try:
                task = room.hint_task(connection, message, self.bot_seconds)
                if task is None:  # a hint bot of the room's own: made on the lane's thread
                    answered = await self.hints.here(lambda: room.answer(connection, message))
                    self._send(live, answered)
                    return
                made = self.hints.ask(room.id, task)
            except Refused as refused:
                self._send(live, room.refuse(connection, refused))
                return
            except HintBusy as busy:
                limited = Reject(message.id, RejectCode.RATE_LIMITED, str(busy)).sent()
                self._send(live, [(connection, limited)])
                return
            except Exception as error:
                self._fault(live, error)
                return
        try:
            hinted = await asyncio.shield(made)
        except asyncio.CancelledError:
            if made.cancelled():
                return  # the server stops
            raise
        except Exception as error:
            self._fault(live, error)
            return
        async with live.lock:
            if self.tables.get(room.id) is live:
                self._send(live, room.hinted(connection, message, hinted))

    def _send(self, live: Live, out: list[Outgoing]) -> None:
        """Hand ``out`` to the connections, with nothing to store first."""
        for connection, message in out:
            outbox = live.outboxes.get(connection)
            if outbox is not None:
                outbox.put(message)

    async def disconnect(self, live: Live, connection: Connection) -> None:
        """A connection closed, or its messages could not be sent (said once; a second time
        does nothing)."""
        async with live.lock:
            live.outboxes.pop(connection, None)
            if not connection.open or self.tables.get(live.room.id) is not live:
                return  # gone already, or dropped after a fault: storage is the truth
            out = live.room.disconnect(connection)
            if connection.seat is not None:  # a spectator's leaving changes nothing
                await self._seen(live)
                await self._commit(live, out)
        if live.finished and not live.outboxes:
            self._forget(live)

    # ------------------------------------------------------------------ inside

    async def _commit(self, live: Live, out: list[Outgoing]) -> None:
        """Store the room's new steps (and the record, once the match is over), then send
        ``out``, then set the table's clock.

        A table whose steps cannot be stored is dropped from memory (its connections closed
        with 1011): what storage holds is then the truth, brought back on the next connection.
        """
        table_id = live.room.id
        first, steps = live.room.take_steps()
        finishing = False
        try:
            if steps:
                await self.commits.append(table_id, first, steps, live.fence)
            if live.room.table.match.is_over and not live.finished:
                record, summary = _record(live), _summary(live)
                when = self.clock()
                await self._store(self.store.finish, table_id, record, summary, when, live.fence)
                live.finished = finishing = True
                self._release(live)
        except LeaseLost as error:  # another node took the table: nothing is acknowledged
            await self._fenced_off(live, error)
            return
        except Exception as error:  # storage's failures, and a record that cannot be made
            self._fault(live, error)
            return
        if finishing:
            await self._give_up(live)
        else:
            await self._keepscore_of(live)
        self._send(live, out)
        if live.finished and not live.outboxes:  # nobody watches: nothing more to keep
            self._forget(live)
        self._schedule(live)

    def _fault(self, live: Live, error: Exception) -> None:
        """Something failed inside the table: what storage holds is the truth. The table is
        dropped from memory (its connections closed with 1011) and brought back from storage
        when someone connects again."""
        table_id = live.room.id
        if isinstance(error, StorageAway):  # every table is read again once it is back
            log.warning("table %s is let go until its storage is back: %s", table_id, error)
            self._drop(live, CLOSE_TRY_AGAIN, STORAGE_AWAY)
            return
        if isinstance(error, StorageError):
            log.error(
                "table %s failed: %s; it is reloaded from storage on the next connection",
                table_id,
                error,
            )
        else:
            log.error(
                "table %s failed; it is reloaded from storage on the next connection",
                table_id,
                exc_info=error,
            )
        if self.tables.get(table_id) is live:
            self._faulted.add(table_id)
        self._drop(live, 1011)

    async def _revive(self, table_id: str) -> Live | Node | None:
        """The table ``table_id`` restored from storage (after a fault, from a node that died,
        or placed here), once: every connection that asks while it is restored waits for the
        same restore (a second copy would play and write on its own). The node that holds it
        instead, if another does; None if it is not in play."""
        restoring = self._restoring.get(table_id)
        if restoring is None:
            restoring = asyncio.ensure_future(self._reload(table_id))
            self._restoring[table_id] = restoring
            restoring.add_done_callback(lambda _: self._restoring.pop(table_id, None))
        # A connection that gives up waiting does not stop the restore for the others.
        return await asyncio.shield(restoring)

    async def _reload(self, table_id: str) -> Live | Node | None:
        """Take the table's lease (it is in play), then read it: a table is read from storage
        only once no other node may write it."""
        if table_id in self.tables:
            return self.tables[table_id]
        found = await self._store(self.store.table_config, table_id)
        kept, lease = None, None
        if found is not None and found[0] is TableStatus.PLAYING:
            now = self.clock()
            lease = await self._store(
                self.store.take_lease, table_id, self.node, now, LEASE_SECONDS
            )
            if not lease.taken:
                self._faulted.discard(table_id)
                return lease.holder
            kept = await self._store(self.store.kept, table_id)
        self._faulted.discard(table_id)
        if table_id in self.tables:
            return self.tables[table_id]
        if kept is None or lease is None:
            if found is not None:  # over or closed: nobody serves it, nobody needs its lease
                await self._release_lease(table_id)
            return None
        return self._restore(kept, lease)

    def _restore(self, kept: KeptTable, lease: Lease) -> Live | None:
        """The table ``kept`` back in memory with its clock set; None when its rows cannot be
        read or replayed (logged in one line, noted in :attr:`unrestorable`; storage keeps
        them as they are)."""
        try:
            config, steps = kept.read()
            room = Room.from_config(
                config,
                steps,
                record_url=record_url(kept.id),
                timing=self._timing(config.timer),
                clock=self.clock,
                secret_bytes=self.secret_bytes,
            )
        except Exception as error:
            reason = first_line(error)
            log.error("table %s could not be restored; it stays in storage: %s", kept.id, reason)
            self.unrestorable[kept.id] = reason
            return None
        self.unrestorable.pop(kept.id, None)
        live = Live(room, config, lease.fence, lease_until=lease.expires)
        self.tables[kept.id] = live
        self._schedule(live)  # nobody else can hold the lock of a table not yet served
        return live

    def _timing(self, timer: float | None) -> Timing:
        """The waits of a table whose turn timer is ``timer``."""
        return Timing(
            turn=timer,
            absent=self.absent_wait,
            next=self.next_wait,
            presence=self.presence_every,
            deal=self.deal_wait,
        )

    def _drop(self, live: Live, code: int, reason: str = "") -> None:
        self._stop_clocks(live)
        for outbox in live.outboxes.values():
            outbox.close(code, reason)
        self._forget(live)
        self._release(live)

    def _forget(self, live: Live) -> None:
        """Take ``live`` out of memory, unless another copy has taken its place."""
        if self.tables.get(live.room.id) is live:
            del self.tables[live.room.id]

    def _release(self, live: Live) -> None:
        """End the processes of the table's bot programs (``bye``, then 2 s at most), in a
        thread; :meth:`stop` waits for them."""
        if not live.has_programs:
            return
        bots = list(live.room.table.bots.values())
        done = asyncio.get_running_loop().run_in_executor(None, close_all, bots)
        self._releasing.add(done)
        done.add_done_callback(self._releasing.discard)

    @staticmethod
    def _stop_clocks(live: Live) -> None:
        """Cancel the table's timers and the decision it waits for: nothing more happens."""
        for task in (live.timer, live.deciding, live.presence):
            if task is not None:
                task.cancel()
        live.timer = live.presence = None

    def _schedule(self, live: Live) -> None:
        """Set the table's one timer for what it waits for now (the caller holds its lock),
        unless it is set for that already: a change that leaves the wait as it was (a seat's
        coming or leaving, a line of talk) does not start a bot's pause or a wait again."""
        self._schedule_presence(live)
        room = live.room
        deadline = room.deadline()
        waits_for = (room.turn(), deadline)
        if live.timer is not None and live.waits_for == waits_for and not self._stopping:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self._stopping:
            return
        live.waits_for = waits_for
        if room.waiting_for_bot():
            if live.deciding is not None:
                return  # the bot's decision is on its way
            # At a table of bots, spectators get a moment to read each hand's score sheet.
            next_hand = room.table.waiting().kind is WaitKind.NEXT
            pause = self.bot_pause * (5 if next_hand else 1)
            self._later(live, pause, lambda: self._bot_step(live))
        elif deadline is not None:
            delay = deadline.at - self.clock()
            seat = deadline.seat
            if deadline.kind in (DeadlineKind.NEXT, DeadlineKind.DEAL):
                self._later(live, delay, lambda: self._deal(live))
            elif seat is not None:
                self._later(live, delay, lambda: self._time_out(live, seat))

    def _later(
        self, live: Live, delay: float, step: Callable[[], Awaitable[list[Outgoing]]]
    ) -> None:
        """Run ``step`` on the table in ``delay`` seconds, unless the table changes first."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            async with live.lock:
                if live.timer is not task:
                    return
                live.timer = None  # from here on, nothing cancels this step
                try:
                    out = await step()
                except Exception as error:
                    self._fault(live, error)
                    return
                await self._commit(live, out)

        task = asyncio.create_task(fire())
        live.timer = task

    def _schedule_presence(self, live: Live) -> None:
        """Set the table's presence timer for the first seat's coming or leaving it may tell
        (:meth:`Room.presence_due <baloot.server.room.Room.presence_due>`)."""
        due = None if self._stopping else live.room.presence_due()
        if live.presence is not None and live.presence_at == due:
            return
        if live.presence is not None:
            live.presence.cancel()
            live.presence = None
        if due is None:
            return

        async def tell() -> None:
            await asyncio.sleep(max(0.01, due - self.clock()))  # never a loop of empty turns
            async with live.lock:
                if live.presence is not task:
                    return
                live.presence = None
                if self.tables.get(live.room.id) is not live:
                    return
                try:
                    out = live.room.tell_presence()
                except Exception as error:
                    self._fault(live, error)
                    return
                await self._commit(live, out)

        task = asyncio.create_task(tell())
        live.presence, live.presence_at = task, due

    async def _bot_step(self, live: Live) -> list[Outgoing]:
        """The bot to act decides: sent to the deciders when there are some and the bot
        travels (the table's lock is free while it thinks), else in a bot thread."""
        room = live.room
        task = None if self._deciders is None else room.bot_task(self.bot_seconds)
        if task is None:
            return await self._deciding(room.step_bot)
        live.deciding = asyncio.create_task(self._decided_away(live, task))
        return []

    async def _decided_away(self, live: Live, task: DecisionTask) -> None:
        """Play the decision of ``task`` once it is back, unless the table moved on meanwhile
        (an undo, a claim); when it does not come back, the seat's stand-in decides instead
        (and the log says why, in one line)."""
        assert self._deciders is not None
        room = live.room
        decision: Decision | None = None
        failure: DecisionFailed | None = None
        try:
            decision = await asyncio.wrap_future(self._deciders.submit(task))
        except DecisionFailed as error:
            failure = error
        async with live.lock:
            live.deciding = None
            if self.tables.get(room.id) is not live:
                return  # dropped meanwhile
            if not room.still_asks(task):
                self._schedule(live)  # what was decided is for a turn gone by
                return
            try:
                if decision is not None:
                    out = room.play_decided(task, decision)
                else:
                    seat = task.view.seat
                    assert seat is not None
                    log.warning("table %s: %s; the stand-in decided for %s", room.id, failure, seat)
                    out = await self._deciding(functools.partial(room.stand_in_decides, seat))
            except Exception as error:
                self._fault(live, error)
                return
            await self._commit(live, out)

    async def _time_out(self, live: Live, seat: Seat) -> list[Outgoing]:
        return await self._deciding(functools.partial(live.room.time_out, seat))

    async def _deciding(self, step: Callable[[], list[Outgoing]]) -> list[Outgoing]:
        """``step`` in a bot thread, under a clock of ``bot_seconds`` for its decision."""

        def decide() -> list[Outgoing]:
            with deciding(Clock(wall=self.bot_seconds, cpu_time=time.thread_time)):
                return step()

        return await asyncio.get_running_loop().run_in_executor(self._bots, decide)

    async def _deal(self, live: Live) -> list[Outgoing]:
        return live.room.deal()

    async def _store(self, call: Callable[..., T], *args: Any) -> T:
        """``call`` in the writer thread; whatever it raises is a :class:`StorageError`."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._writer, call, *args)
        except StorageError:
            raise
        except Exception as error:
            raise StorageError(f"storage failed: {first_line(error)}") from error

    async def _seen(self, live: Live) -> None:
        """Note that a human of the table is here, for the idle clock (once every
        :data:`SEEN_EVERY` seconds at most: the idle clock counts days). A failure is logged,
        not fatal: the idle clock is not the table's truth, and the next step stored says
        whether storage works."""
        now = self.clock()
        if now - live.seen_at < SEEN_EVERY:
            return
        live.seen_at = now
        table_id = live.room.id
        try:
            await self._store(self.store.seen, table_id, now)
        except StorageError as error:
            log.warning("table %s: a player's presence was not noted: %s", table_id, error)

    async def _keep_house(self) -> None:
        """Every hour: tables whose humans stayed away longer than ``idle`` are closed."""
        while True:
            try:
                await self._close_idle()
            except StorageError as error:
                log.warning("idle tables were not closed this hour: %s", error)
            await asyncio.sleep(3600)

    async def _close_idle(self) -> None:
        now = self.clock()
        for table_id, live in list(self.tables.items()):
            if any(c.seat is not None for c in live.outboxes):
                await self._store(self.store.seen, table_id, now)
        closed = await self._store(self.store.close_idle, now - self.idle, now)
        for table_id in closed:
            idle = self.tables.get(table_id)
            if idle is None:
                continue
            async with idle.lock:
                await self._store(
                    self.store.close_table, table_id, now, _summary(idle), _record(idle), idle.fence
                )
                self._drop(idle, 1001)
                await self._give_up(idle)


def record_url(table_id: str) -> str:
    """The address of the match record of the table ``table_id``."""
    return f"/api/matches/{table_id}/record"


def _record(live: Live) -> str:
    """The match so far as a ``baloot/1`` record, dated the day the table was made."""
    date = time.strftime("%Y-%m-%d", time.gmtime(live.config.created))
    return dumps(live.room.table.record(date=date))


def _summary(live: Live) -> dict[str, Any]:
    match = live.room.table.match
    winner = match.winner
    return {
        "players": dict(live.config.players),
        "totals": teams_json(match.totals),
        "winner": None if winner is None else winner.name,
    }
