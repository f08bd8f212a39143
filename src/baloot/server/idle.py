"""The idle clock: a table whose humans stayed away longer than the hall's ``idle`` is closed,
its record kept, so that tables nobody comes back to do not stay in play for ever.

A human's presence is noted in storage (at most once every :data:`SEEN_EVERY` seconds: the
idle clock counts days, and a client that connects in a loop writes no more); every hour the
tables not seen for longer are closed, on every node, and those this node serves are dropped
from memory and their leases given up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from baloot.server.live import Live, record_of, summary_of
from baloot.server.storage import StorageError, Store
from baloot.server.store_thread import Storing

log = logging.getLogger("baloot.server")

#: The fewest seconds between two notes of a table's humans' presence for the idle clock
#: (a write to storage each): a client that connects in a loop writes no more.
SEEN_EVERY: Final = 60.0
#: The seconds between two rounds of closing idle tables.
ROUND_SECONDS: Final = 3600.0


class IdleClock:
    """Closes the tables of ``store`` whose humans stayed away longer than ``idle``
    seconds (see the module); ``tables`` are the hall's, ``drop`` takes one out of memory
    (closing its connections with a code) and ``give_up`` gives up its lease."""

    def __init__(
        self,
        store: Store,
        run: Storing,
        tables: dict[str, Live],
        *,
        idle: float,
        clock: Callable[[], float],
        drop: Callable[[Live, int], None],
        give_up: Callable[[Live], Awaitable[None]],
    ) -> None:
        self.store = store
        self._store = run
        self.tables = tables
        self.idle = idle
        self.clock = clock
        self._drop = drop
        self._give_up = give_up

    async def seen(self, live: Live) -> None:
        """Note that a human of the table is here (once every :data:`SEEN_EVERY` seconds at
        most). A failure is logged, not fatal: the idle clock is not the table's truth, and
        the next step stored says whether storage works."""
        now = self.clock()
        if now - live.seen_at < SEEN_EVERY:
            return
        live.seen_at = now
        table_id = live.room.id
        try:
            await self._store(self.store.seen, table_id, now)
        except StorageError as error:
            log.warning("table %s: a player's presence was not noted: %s", table_id, error)

    async def run(self) -> None:
        """Every hour: tables whose humans stayed away longer than ``idle`` are closed."""
        while True:
            try:
                await self.close_idle()
            except StorageError as error:
                log.warning("idle tables were not closed this hour: %s", error)
            await asyncio.sleep(ROUND_SECONDS)

    async def close_idle(self) -> None:
        """Note the humans connected now, then close the tables idle for longer than
        ``idle``: those served here are dropped (1001) and their leases given up; a table
        never dealt is closed without a record."""
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
                # A table still waiting for its first deal has no hand to record.
                dealt = bool(idle.room.table.match.hands)
                record = record_of(idle) if dealt else None
                await self._store(
                    self.store.close_table, table_id, now, summary_of(idle), record, idle.fence
                )
                self._drop(idle, 1001)
                await self._give_up(idle)
