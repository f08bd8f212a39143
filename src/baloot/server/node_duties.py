"""The hall's duties as one node of those that share a database (``docs/nodes.md``): its
heartbeat and leases, renewed every :data:`~baloot.server.leases.RENEW_SECONDS`; the tables
placed here or that nobody holds, taken; the tables another node took, let go; a new table
placed at the least loaded node; a table handed over now and then to a node that serves
clearly fewer; the lobby told of what changed; and where a table another node serves is.

A table lives in the one node that holds its lease (:mod:`~baloot.server.leases`): a node
takes a table's lease before it creates or restores it. A table whose lease a renewal no
longer lists (another node took it) is dropped from memory at once, its connections sent to
the new holder (:data:`~baloot.server.live.CLOSE_ELSEWHERE`, its public URL as the reason);
when renewals fail (the database is away), so is each table whose lease runs out before the
next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from baloot.server.leases import LEASE_SECONDS, RENEW_SECONDS, Lease, Node
from baloot.server.live import CLOSE_ELSEWHERE, CLOSE_TRY_AGAIN, Live, score_of
from baloot.server.placement import adoption_quota, handover, placement
from baloot.server.restoring import Restorer
from baloot.server.storage import LeaseLost, StorageError, Store, TableStatus
from baloot.server.store_thread import Storing

log = logging.getLogger("baloot.server")

#: The reason of the close (1013) of a table's connections when its storage is away: the
#: table is read again from storage once it is back.
STORAGE_AWAY: Final = "the server cannot reach its storage; connect again"


class NodeDuties:
    """What a hall does as the node ``node`` of those sharing ``store`` (see the module),
    reached at ``public_url``: its store's calls go through ``run``, its tables are
    ``tables``, brought back by ``restorer`` and dropped from memory by ``drop``."""

    def __init__(
        self,
        store: Store,
        run: Storing,
        tables: dict[str, Live],
        restorer: Restorer,
        drop: Callable[[Live, int, str], None],
        *,
        node: str,
        public_url: str,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self._store = run
        self.tables = tables
        self.restorer = restorer
        self._drop = drop
        self.node = node
        self.public_url = public_url
        self.clock = clock
        self._nodes: list[Node] = []
        """The live nodes as the last heartbeat read them, with the tables placed since."""
        self._adopting: set[asyncio.Future[Live | Node | None]] = set()
        self.leasing: asyncio.Task[None] | None = None
        """The renewals, every :data:`RENEW_SECONDS` once the node has started."""

    async def start(self) -> list[str]:
        """Register the node and take the tables in play that nobody holds (every one for a
        node alone): their ids, to be restored."""
        now = self.clock()
        await self._store(self.store.register_node, self.node, self.public_url, now)
        await self._see_nodes(now)
        return await self._adopt(now)

    def keep_leases(self) -> None:
        """Start the renewals (see :meth:`_keep_leases`)."""
        self.leasing = asyncio.create_task(self._keep_leases())

    def background(self) -> list[asyncio.Future[Any]]:
        """The renewals and the adoptions under way, for a server that stops to cancel."""
        return [task for task in (self.leasing, *self._adopting) if task is not None]

    async def forget_node(self) -> None:
        """Take the node out of the live ones, so that its tables may be taken at once, not
        when their leases run out; logged if not."""
        try:
            await self._store(self.store.forget_node, self.node)
        except StorageError as error:
            log.warning(
                "node %s was not forgotten: its tables wait for their leases: %s", self.node, error
            )

    def where_new(self) -> Node | None:
        """The node a new table made here goes to (None: this one), by
        :func:`~baloot.server.placement.placement`."""
        return placement(self._nodes, self.node, self.load())

    async def place(self, table_id: str, target: Node | None) -> Lease:
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
                self._placed_at(target)  # so that many new tables do not all go there
                return lease
        return await self._store(self.store.take_lease, table_id, self.node, now, LEASE_SECONDS)

    def _placed_at(self, target: Node) -> None:
        """Count a table more at ``target`` until the next heartbeats."""
        self._nodes = [
            replace(node, load=node.load + 1) if node.name == target.name else node
            for node in self._nodes
        ]

    def load(self) -> int:
        """How many tables in play this node serves or is restoring (what its heartbeat
        says): a table adopted counts from its lease on, not once it is read back."""
        serving = {table_id for table_id, live in self.tables.items() if not live.finished}
        return len(serving | self.restorer.restoring.keys())

    async def _see_nodes(self, now: float) -> None:
        """Read the live nodes and their loads, for where the next tables go."""
        self._nodes = await self._store(self.store.live_nodes, now, LEASE_SECONDS)

    async def _adopt(self, now: float) -> list[str]:
        """Take the leases of tables nobody holds one at a time while this node is the least
        loaded (:func:`~baloot.server.placement.adoption_quota`), telling its load and reading
        the others' after each: a load told before its adoption (or counting only the tables
        read back) kept one node the least loaded, and it took a dead node's every table."""
        adopted: list[str] = []
        while quota := adoption_quota(self._nodes, self.node, self.load() + len(adopted)):
            taken = await self._store(self.store.adopt, self.node, now, LEASE_SECONDS, quota)
            if not taken:
                break
            adopted += taken
            await self._store(self.store.heartbeat, self.node, self.load() + len(adopted), now)
            await self._see_nodes(now)
        return adopted

    def _adopt_later(self, table_id: str) -> None:
        """Restore the table whose lease this node holds, without waiting for a connection:
        its bots and its timers go on. A failure is logged; a connection tries again."""

        def adopted(task: asyncio.Future[Live | Node | None]) -> None:
            self._adopting.discard(task)
            if not task.cancelled() and isinstance(task.exception(), StorageError):
                log.warning("table %s was not restored here: %s", table_id, task.exception())

        task = asyncio.ensure_future(self.restorer.revive(table_id))
        self._adopting.add(task)
        task.add_done_callback(adopted)

    async def _keep_leases(self) -> None:
        """Every :data:`RENEW_SECONDS`: renew the leases, beat the heartbeat, take the tables
        placed here or that nobody holds, and let go of the tables this node lost."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew()
            except Exception:  # a fault of the hall's own: the next renewal still comes
                log.exception("node %s: a renewal of its leases failed", self.node)

    async def renew(self) -> None:
        """One round of :meth:`_keep_leases`."""
        now = self.clock()
        # The tables in memory now took their leases before this renewal is written (one
        # writer thread, in order): a table missing from its answer was taken by another node.
        serving = {table_id: live for table_id, live in self.tables.items() if not live.finished}
        try:
            held = await self._store(self.store.renew_leases, self.node, now, LEASE_SECONDS)
        except StorageError as error:
            log.warning("node %s did not renew its leases: %s", self.node, error)
            running_out = [
                live for live in serving.values() if live.lease_until <= now + RENEW_SECONDS
            ]
            await asyncio.gather(
                *(self._let_go(live, CLOSE_TRY_AGAIN, STORAGE_AWAY) for live in running_out)
            )
            return
        for table_id, live in serving.items():
            if table_id in held:
                live.lease_until = now + LEASE_SECONDS
        lost = [live for table_id, live in serving.items() if table_id not in held]
        await asyncio.gather(*(self._lose(live, now) for live in lost))
        try:
            await self._store(self.store.heartbeat, self.node, self.load(), now)
            await self._see_nodes(now)
            placed = sorted(
                held
                - self.tables.keys()
                - self.restorer.faulted
                - self.restorer.unrestorable.keys()
            )
            for table_id in [*placed, *await self._adopt(now)]:
                if table_id not in self.restorer.restoring:
                    self._adopt_later(table_id)
            await self._hand_over(now)
        except StorageError as error:
            log.warning("node %s did not beat its heartbeat: %s", self.node, error)

    async def _hand_over(self, now: float) -> None:
        """Hand one table over to the least loaded node when this one serves at least two
        more (:func:`~baloot.server.placement.handover`: a node joined), so that the next
        node to die takes fewer down: a table no bot is deciding for, the fewest watching,
        once no write of it is under way; its lease is given up, taken for that node, and
        its connections sent there (4307)."""
        target = handover(self._nodes, self.node, self.load())
        quiet = [live for live in self.tables.values() if not (live.finished or live.deciding)]
        if target is None or not quiet:
            return
        live = min(quiet, key=lambda live: (len(live.outboxes), live.room.id))
        async with live.lock:
            if self.tables.get(live.room.id) is not live or live.finished or live.deciding:
                return
            await self._store(self.store.release_lease, live.room.id, self.node)
            try:
                await self._store(
                    self.store.take_lease, live.room.id, target.name, now, LEASE_SECONDS
                )
            except StorageError as error:  # the table is left for whoever adopts it
                log.warning("table %s was not handed to %s: %s", live.room.id, target.name, error)
            log.info("table %s is handed over to node %s", live.room.id, target.name)
            self._drop(live, *await self._gone_to(live.room.id, now))
        self._placed_at(target)

    async def _lose(self, live: Live, now: float) -> None:
        """Let go of a table whose lease another node took: its connections are sent there."""
        log.warning("table %s is served by another node now", live.room.id)
        await self._let_go(live, *await self._gone_to(live.room.id, now))

    async def fenced_off(self, live: Live, error: LeaseLost) -> None:
        """Let go at once of a table whose write the database refused, its lease gone (the
        caller holds the table's lock): nothing of that write is acknowledged, and its
        connections are sent to the node that holds the table now."""
        log.warning("table %s is let go: %s", live.room.id, error)
        code, reason = await self._gone_to(live.room.id, self.clock())
        if self.tables.get(live.room.id) is live:
            self._drop(live, code, reason)

    async def _gone_to(self, table_id: str, now: float) -> tuple[int, str]:
        """The close code and reason that send a lost table's connections on: to its holder
        (:data:`CLOSE_ELSEWHERE`, its public URL), or to try again when none is known."""
        try:
            holder = await self._store(self.store.holder, table_id, now)
        except StorageError:
            holder = None
        if holder is None or holder.name == self.node:
            return CLOSE_TRY_AGAIN, "the table moves; connect again"
        return CLOSE_ELSEWHERE, holder.url

    async def _let_go(self, live: Live, code: int, reason: str) -> None:
        """Drop the table from memory (its connections closed with ``code`` and ``reason``)
        once whatever it is doing is done, the lease kept as it is."""
        async with live.lock:
            if self.tables.get(live.room.id) is live:
                self._drop(live, code, reason)

    async def give_up(self, live: Live) -> None:
        """Give up the lease of a table that is over or closed, and tell the lobby. A
        failure is logged: nobody restores a table no longer in play."""
        await self.release_lease(live.room.id)
        if live.config.public:
            await self.tell_lobby(live.room.id)

    async def release_lease(self, table_id: str) -> None:
        """Give up the lease of a table no longer in play; logged if not."""
        try:
            await self._store(self.store.release_lease, table_id, self.node)
        except StorageError as error:
            log.warning("table %s: its lease was not given up: %s", table_id, error)

    async def keepscore_of(self, live: Live) -> None:
        """Note the table's hand and totals for the lobby of every node, when they changed
        (a hand's end, a deal). A failure is logged: the lobby is not the table's truth."""
        score = score_of(live.room)
        if score == live.scored:
            return
        try:
            await self._store(self.store.keep_score, live.room.id, *score)
        except StorageError as error:
            log.warning("table %s: its score was not noted for the lobby: %s", live.room.id, error)
            return
        live.scored = score
        if live.config.public:
            await self.tell_lobby(live.room.id)

    async def tell_lobby(self, table_id: str) -> None:
        """Tell every node that the lobby changed (``table_id`` changed); logged if not."""
        try:
            await self._store(self.store.notify_lobby, table_id)
        except StorageError as error:
            log.warning("table %s: the lobby was not told of it: %s", table_id, error)

    async def elsewhere(self, table_id: str) -> str | None:
        """The public URL of the node that serves the table, when another node does (a page
        asked of this one is sent there); None when this one does, or none does."""
        if table_id in self.tables:
            return None
        holder = await self._store(self.store.holder, table_id, self.clock())
        return None if holder is None or holder.name == self.node else holder.url

    async def served_at(self, table_id: str) -> str | None:
        """The public URL of the node that serves the table in play now, for a client that
        lost its node (``GET /api/tables/ID``'s ``url``): the lease holder's, else this
        node's (a connection here takes the lease); None when this node has no public URL
        and the table is not another node's."""
        holder = None
        if table_id not in self.tables:
            holder = await self._store(self.store.holder, table_id, self.clock())
        if holder is not None and holder.name != self.node:
            return holder.url
        return self.public_url or None

    async def public_tables(self) -> list[dict[str, Any]]:
        """The public tables in play on every node, as storage knows them
        (:meth:`~baloot.server.lobby.Lobby.public_playing`)."""
        return await self._store(self.store.public_playing)

    async def table_config(self, table_id: str) -> tuple[TableStatus, str] | None:
        """A table's status and kept config, wherever it is served, or None if unknown."""
        return await self._store(self.store.table_config, table_id)
