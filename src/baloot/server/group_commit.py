"""The group commit: every table's steps waiting at one moment, stored in one transaction.

A server stores a table's steps before it acknowledges them (``docs/table-protocol.md``). One disk
sync a step would queue a busy server's acks behind each other's; here the steps of every
table that waits while a transaction is written go into the next one together, so a
hundred tables acting at once cost one sync. Each table's steps carry the node's
:class:`~baloot.server.leases.Fence` on it, checked in that transaction. When a batch fails,
each table's steps are written alone, so that one table at fault (a step that does not follow
its journal, a lease another node took) fails alone and the others are stored.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from baloot.server.journal import Step
from baloot.server.leases import Fence
from baloot.server.storage import StorageError, Store

#: How the writer runs a store's call: in its one writer thread, its failures a StorageError.
Runner = Callable[..., Awaitable[Any]]


class GroupCommit:
    """The steps of many tables, written together through ``run`` into ``store``."""

    def __init__(self, store: Store, run: Runner) -> None:
        self.store = store
        self.run = run
        self._unwritten: list[tuple[str, int, list[Step], Fence, asyncio.Future[None]]] = []
        self.writing: asyncio.Task[None] | None = None
        """The task writing the batches now, if any."""

    async def append(self, table_id: str, first: int, steps: list[Step], fence: Fence) -> None:
        """Store a table's steps, numbered from ``first``, while its lease is ``fence``'s:
        returns once they are on disk (a :class:`StorageError` if they could not be stored,
        a :class:`~baloot.server.leases.LeaseLost` if the lease is gone)."""
        done = asyncio.get_running_loop().create_future()
        self._unwritten.append((table_id, first, steps, fence, done))
        if self.writing is None or self.writing.done():
            self.writing = asyncio.create_task(self._write())
        await done

    async def _write(self) -> None:
        while self._unwritten:
            batch, self._unwritten = self._unwritten, []
            try:
                await self.run(self.store.append_batch, [entry[:4] for entry in batch])
            except StorageError:  # one table's steps may be at fault: write each alone
                for table_id, first, steps, fence, done in batch:
                    try:
                        append = functools.partial(self.store.append, first=first, fence=fence)
                        await self.run(append, table_id, steps)
                    except StorageError as error:
                        _tell(done, error)
                    else:
                        _tell(done)
            else:
                for *_, done in batch:
                    _tell(done)


def _tell(done: asyncio.Future[None], error: Exception | None = None) -> None:
    """Tell a waiter how its steps fared, unless it was cancelled meanwhile.

    A waiter whose connection closed has nothing to hear; the others of its batch must hear
    all the same (settling a cancelled future raises, and would leave them waiting).
    """
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
