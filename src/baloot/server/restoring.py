"""A table brought back from storage into memory: after a fault, from a node that died, or
placed here by another node; once at a time, and only under this node's lease.

A table id has at most one live copy in a server, ever: every restore is single-flight, so
every connection that arrives meanwhile waits for the same one, and a table is read from
storage only once no other node may write it. A table whose kept rows cannot be read or
replayed stays in storage as it is, is served to nobody and is reported as ``unrestorable``;
the other tables are served all the same.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from baloot.core.errors import first_line
from baloot.server.deadlines import Timing
from baloot.server.journal import KeptTable
from baloot.server.leases import LEASE_SECONDS, Lease, Node
from baloot.server.live import Live, record_url
from baloot.server.room import Room
from baloot.server.storage import Store, TableStatus
from baloot.server.store_thread import Storing

log = logging.getLogger("baloot.server")


class Reviving(Protocol):
    """What a restore asks of the hall: its tables, their waits and timers, and a lease
    given up."""

    tables: dict[str, Live]

    def timing(self, timer: float | None) -> Timing: ...

    def schedule(self, live: Live) -> None: ...

    async def release_lease(self, table_id: str) -> None: ...


class Restorer:
    """Brings the tables of ``store`` back into the hall (see the module), as the node
    ``node``: the store's calls go through ``run``."""

    def __init__(
        self,
        store: Store,
        run: Storing,
        hall: Reviving,
        *,
        node: str,
        clock: Callable[[], float],
        secret_bytes: Callable[[int], bytes],
    ) -> None:
        self.store = store
        self.run = run
        self.hall = hall
        self.node = node
        self.clock = clock
        self.secret_bytes = secret_bytes
        self.restoring: dict[str, asyncio.Future[Live | Node | None]] = {}
        """The restores under way, by table: the one each connection waits for."""
        self.faulted: set[str] = set()
        """The tables dropped after a fault, restored on the next connection."""
        self.unrestorable: dict[str, str] = {}
        """The tables in play that could not be restored, and why (for the log, never a
        client: a replay's error may speak of cards)."""

    async def revive(self, table_id: str) -> Live | Node | None:
        """The table ``table_id`` restored from storage, once: every connection that asks
        while it is restored waits for the same restore (a second copy would play and write
        on its own). The node that holds it instead, if another does; None if it is not in
        play."""
        restoring = self.restoring.get(table_id)
        if restoring is None:
            restoring = asyncio.ensure_future(self._reload(table_id))
            self.restoring[table_id] = restoring
            restoring.add_done_callback(lambda _: self.restoring.pop(table_id, None))
        # A connection that gives up waiting does not stop the restore for the others.
        return await asyncio.shield(restoring)

    async def _reload(self, table_id: str) -> Live | Node | None:
        """Take the table's lease (it is in play), then read it: a table is read from storage
        only once no other node may write it."""
        tables = self.hall.tables
        if table_id in tables:
            return tables[table_id]
        found = await self.run(self.store.table_config, table_id)
        kept, lease = None, None
        if found is not None and found[0] is TableStatus.PLAYING:
            now = self.clock()
            lease = await self.run(self.store.take_lease, table_id, self.node, now, LEASE_SECONDS)
            if not lease.taken:
                self.faulted.discard(table_id)
                return lease.holder
            kept = await self.run(self.store.kept, table_id)
        self.faulted.discard(table_id)
        if table_id in tables:
            return tables[table_id]
        if kept is None or lease is None:
            if found is not None:  # over or closed: nobody serves it, nobody needs its lease
                await self.hall.release_lease(table_id)
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
                timing=self.hall.timing(config.timer),
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
        self.hall.tables[kept.id] = live
        self.hall.schedule(live)  # nobody else can hold the lock of a table not yet served
        return live
