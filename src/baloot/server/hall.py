"""The hall: every table a server holds, its clock, its bots and its storage; the tables'
life cycle (what the pages are told of them is :mod:`~baloot.server.api_json`'s).

A :class:`~baloot.server.room.Room` speaks the protocol without I/O or time; the hall gives it
both. For every change of a table it stores the room's steps (in one writer thread,
:mod:`~baloot.server.store_thread`, as a :mod:`~baloot.server.group_commit`) *before* it hands
the messages to the connections, so nothing acknowledged is ever lost. Its collaborators do
the rest, each given what it needs of the hall: the tables' timers and bots
(:mod:`~baloot.server.table_timers`, :mod:`~baloot.server.bot_threads`), the connections
(:mod:`~baloot.server.connections`), hints (:mod:`~baloot.server.hint_lane`), restores
(:mod:`~baloot.server.restoring`), the node's leases among those sharing the database
(:mod:`~baloot.server.node_duties`), the idle clock (:mod:`~baloot.server.idle`) and the
lobby's feed (:mod:`~baloot.server.lobby_feed`). On start it brings back every table in play
from storage that no other node serves.

A table that fails (its steps cannot be stored, or a step cannot be applied) is dropped from
memory and restored from storage on the next connection. Storage's failures reach the hall as
one :class:`~baloot.server.storage.StorageError` each, whatever the backend. Two are told
apart: a table whose write meets the database away
(:class:`~baloot.server.storage.StorageAway`) is dropped (1013) and read back by the first
renewal once it is back, with nobody connected; and one whose write the database refuses for
a lease this node no longer holds (:class:`~baloot.server.storage.LeaseLost`: every write
gives the table's lease, its fence) is dropped at once, nothing of it acknowledged, its
connections sent to the new holder.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import socket
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from baloot.bots.decisions import Deciders
from baloot.bots.levels import ROLES
from baloot.core.errors import RecordError
from baloot.server.analyses import QUEUE, Analyses, Answer, Source
from baloot.server.bot_threads import BotThreads
from baloot.server.connections import Connections
from baloot.server.deadlines import ABSENT_WAIT, DEAL_WAIT, NEXT_WAIT, Timing
from baloot.server.group_commit import GroupCommit
from baloot.server.hint_lane import HintLane
from baloot.server.idle import IdleClock
from baloot.server.journal import KeptTable
from baloot.server.live import (
    CLOSE_TRY_AGAIN,
    Live,
    Outbox,
    record_of,
    record_url,
    score_of,
    summary_of,
)
from baloot.server.lobby_feed import LobbyFeed
from baloot.server.node_duties import STORAGE_AWAY, NodeDuties
from baloot.server.presence import PRESENCE_EVERY
from baloot.server.publishing import Outgoing
from baloot.server.rematch import RematchError, first_fair, rematch_id, rematch_room, seat_of
from baloot.server.requests import CreateError, read_request
from baloot.server.restoring import Restorer
from baloot.server.room import Room
from baloot.server.seating import Connection
from baloot.server.storage import LeaseLost, StorageAway, StorageError, Store, TableStatus
from baloot.server.store_thread import StoreThread
from baloot.server.table_timers import TableTimers

log = logging.getLogger("baloot.server")
T = TypeVar("T")

#: How many tables in play a server holds at most (a new one is refused beyond).
MAX_TABLES: Final = 2000
#: The wall time a bot has for a decision (an external program is told it as ``clock_ms``).
BOT_SECONDS: Final = 1.0


class Hall:
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
    ``deciders`` are where the bots decide (None: the hall's ``bot_threads`` threads, under
    a clock of ``bot_seconds``), ``hint_deciders`` where hints are made, a lane of their own
    (:mod:`~baloot.server.hint_lane`; None: the lane's own thread); ``presence_every`` is the
    fewest seconds between two ``seat`` messages of one seat that say it left or came back
    (:mod:`~baloot.server.presence`).
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
        self.clock = clock
        self.tables: dict[str, Live] = {}
        # Rematches are made one at a time, so that two presses here make one table.
        self._rematching = asyncio.Lock()
        self._store = StoreThread()
        self.commits = GroupCommit(store, self._store)
        self.bots = BotThreads(bot_threads, bot_seconds, deciders)
        self.hints = HintLane(hint_deciders)
        self.timers = TableTimers(self, self.bots)
        self.restorer = Restorer(
            store, self._store, self, node=self.node, clock=clock, secret_bytes=secret_bytes
        )
        self.nodes = NodeDuties(
            store,
            self._store,
            self.tables,
            self.restorer,
            self.drop,
            node=self.node,
            public_url=public_url,
            clock=clock,
        )
        self.idle = IdleClock(
            store,
            self._store,
            self.tables,
            idle=idle,
            clock=clock,
            drop=self.drop,
            give_up=self.nodes.give_up,
        )
        self.connections = Connections(self, self.restorer, self.idle, self.bots, self.hints)
        #: Wakes the lobby pages when the public tables change, on any node.
        self.lobby = LobbyFeed(store)
        self._housekeeping: asyncio.Task[None] | None = None
        self._feeding: asyncio.Task[None] | None = None
        self.analyses = Analyses(
            store,
            self._store,
            bot=analysis_bot,
            queue=analysis_queue,
            deciders=deciders,
            clock=clock,
        )

    @property
    def unrestorable(self) -> dict[str, str]:
        """The tables in play that could not be restored, and why (for the log, never a
        client: a replay's error may speak of cards)."""
        return self.restorer.unrestorable

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Register the node, take the tables in play that nobody holds (every one for a node
        alone) and bring them back from storage, then keep the leases and the house. A table
        that cannot be restored is left out (and logged in one line); the others are served."""
        for table_id in await self.nodes.start():
            await self.restorer.revive(table_id)
        self._housekeeping = asyncio.create_task(self.idle.run())
        self.nodes.keep_leases()
        self._feeding = asyncio.create_task(self.lobby.run())

    async def stop(self) -> None:
        """Close every connection and stop the clocks; what was acknowledged is stored."""
        self.timers.stopping = True
        await self.analyses.stop()
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        background = [*self.nodes.background(), *self.restorer.restoring.values()]
        if self._feeding is not None:
            background.append(self._feeding)
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        for live in list(self.tables.values()):
            self.timers.stop_clocks(live)
            for outbox in live.outboxes.values():
                outbox.close(1001)
        for live in list(self.tables.values()):  # a bot may be thinking: let it finish
            async with live.lock:
                pass
        await self.nodes.forget_node()
        for live in list(self.tables.values()):
            self.bots.end_programs(live)
        await self.bots.programs_ended()
        self.hints.close()
        self.bots.shutdown()
        self._store.shutdown()
        self.store.close()

    # ------------------------------------------------------------------ tables

    async def create(self, request: Mapping[str, Any]) -> Room:
        """A new table as ``POST /api/tables`` asks (``docs/table-protocol.md``), stored and in
        play: its room (whose ``tokens`` are for whoever asked).

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
        target = self.nodes.where_new()
        if target is None and self.nodes.load() >= MAX_TABLES:
            raise CreateError("the server holds as many tables as it can; try later", full=True)
        room.record_url = record_url(room.id)
        room.timing, room.clock, room.created = self.timing(timer), self.clock, self.clock()
        config = room.config(timer=timer, public=public, created=room.created)
        await self._store(self.store.create, config)
        lease = await self.nodes.place(room.id, target)
        if lease.holder.name == self.node:
            live = Live(room, config, lease.fence, lease_until=lease.expires, scored=score_of(room))
            self.tables[room.id] = live
            async with live.lock:
                self.schedule(live)
        if config.public:
            await self.nodes.tell_lobby(room.id)
        return room

    async def finished(self, limit: int, offset: int) -> list[dict[str, Any]]:
        """Finished and closed matches, newest first, as storage keeps them
        (:meth:`~baloot.server.storage.Store.history`)."""
        return await self._store(self.store.history, limit, offset)

    async def stored(self, call: Callable[..., T], *args: Any) -> T:
        """``call`` of the store with ``args``, in its writer thread: how the players' API
        (:mod:`baloot.server.players`) reads and writes what the hall does not keep."""
        return await self._store(call, *args)

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

    async def elsewhere(self, table_id: str) -> str | None:
        """The public URL of the node that serves the table, when another node does
        (:meth:`NodeDuties.elsewhere <baloot.server.node_duties.NodeDuties.elsewhere>`)."""
        return await self.nodes.elsewhere(table_id)

    async def served_at(self, table_id: str) -> str | None:
        """The public URL of the node that serves the table in play now
        (:meth:`NodeDuties.served_at <baloot.server.node_duties.NodeDuties.served_at>`)."""
        return await self.nodes.served_at(table_id)

    async def public_tables(self) -> list[dict[str, Any]]:
        """The public tables in play on every node, as storage knows them."""
        return await self.nodes.public_tables()

    async def table_config(self, table_id: str) -> tuple[TableStatus, str] | None:
        """A table's status and kept config, wherever it is served, or None if unknown."""
        return await self.nodes.table_config(table_id)

    # ------------------------------------------------------------------ connections

    async def connect(
        self, table_id: str, token: str | None
    ) -> tuple[Live, Connection, Outbox] | None:
        """Connect to a table (:meth:`Connections.connect
        <baloot.server.connections.Connections.connect>`)."""
        return await self.connections.connect(table_id, token)

    async def receive(self, live: Live, connection: Connection, text: str) -> None:
        """One client message (:meth:`Connections.receive
        <baloot.server.connections.Connections.receive>`)."""
        await self.connections.receive(live, connection, text)

    async def disconnect(self, live: Live, connection: Connection) -> None:
        """A connection closed (:meth:`Connections.disconnect
        <baloot.server.connections.Connections.disconnect>`)."""
        await self.connections.disconnect(live, connection)

    # ------------------------------------------------------------------ a table's changes

    def serves(self, live: Live) -> bool:
        """True while ``live`` is the table's copy in memory (not dropped, not replaced)."""
        return self.tables.get(live.room.id) is live

    async def commit(self, live: Live, out: list[Outgoing]) -> None:
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
                record, summary = record_of(live), summary_of(live)
                when = self.clock()
                await self._store(self.store.finish, table_id, record, summary, when, live.fence)
                live.finished = finishing = True
                self.bots.end_programs(live)
        except LeaseLost as error:  # another node took the table: nothing is acknowledged
            await self.nodes.fenced_off(live, error)
            return
        except Exception as error:  # storage's failures, and a record that cannot be made
            self.fault(live, error)
            return
        if finishing:
            await self.nodes.give_up(live)
        else:
            await self.nodes.keepscore_of(live)
        live.send(out)
        if live.finished and not live.outboxes:  # nobody watches: nothing more to keep
            self.forget(live)
        self.schedule(live)

    def fault(self, live: Live, error: Exception) -> None:
        """Something failed inside the table: what storage holds is the truth. The table is
        dropped from memory (its connections closed with 1011) and brought back from storage
        when someone connects again."""
        table_id = live.room.id
        if isinstance(error, StorageAway):  # every table is read again once it is back
            log.warning("table %s is let go until its storage is back: %s", table_id, error)
            self.drop(live, CLOSE_TRY_AGAIN, STORAGE_AWAY)
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
        if self.serves(live):
            self.restorer.faulted.add(table_id)
        self.drop(live, 1011)

    def drop(self, live: Live, code: int, reason: str = "") -> None:
        """Take the table out of memory: its timers stopped, its connections closed with
        ``code`` and ``reason``, its bot programs ended."""
        self.timers.stop_clocks(live)
        for outbox in live.outboxes.values():
            outbox.close(code, reason)
        self.forget(live)
        self.bots.end_programs(live)

    def forget(self, live: Live) -> None:
        """Take ``live`` out of memory, unless another copy has taken its place."""
        if self.serves(live):
            del self.tables[live.room.id]

    def schedule(self, live: Live) -> None:
        """Set the table's timer for what it waits for now (the caller holds its lock)."""
        self.timers.schedule(live)

    def timing(self, timer: float | None) -> Timing:
        """The waits of a table whose turn timer is ``timer``."""
        return Timing(
            turn=timer,
            absent=self.absent_wait,
            next=self.next_wait,
            presence=self.presence_every,
            deal=self.deal_wait,
        )

    async def release_lease(self, table_id: str) -> None:
        """Give up the lease of a table no longer in play (logged if not)."""
        await self.nodes.release_lease(table_id)
