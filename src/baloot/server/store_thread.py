"""Storage's calls run in one writer thread of their own, off the event loop, each failure
one :class:`~baloot.server.storage.StorageError` whatever the backend.

One thread writes in the order the calls were made (a renewal written after a table's lease
was taken sees that lease), and the event loop, which serves every table, never waits on
a disk or a database.

>>> import asyncio
>>> def broken() -> None:
...     raise OSError("disk full\\nand more")
>>> async def twice() -> list[str]:
...     run = StoreThread()
...     try:
...         said = [await run(str.upper, "kept")]
...         try:
...             await run(broken)
...         except StorageError as error:
...             said.append(str(error))
...         return said
...     finally:
...         run.shutdown()
>>> asyncio.run(twice())
['KEPT', 'storage failed: disk full']
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from baloot.core.errors import first_line
from baloot.server.transactions import StorageError

T = TypeVar("T")


class Storing(Protocol):
    """How a server's parts call storage: ``call`` with ``args``, in the writer thread."""

    async def __call__(self, call: Callable[..., T], *args: Any) -> T: ...


class StoreThread:
    """Runs storage's calls in one thread, in order (see the module)."""

    def __init__(self) -> None:
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="baloot-store")

    async def __call__(self, call: Callable[..., T], *args: Any) -> T:
        """``call`` in the writer thread; whatever it raises is a :class:`StorageError`."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._writer, call, *args)
        except StorageError:
            raise
        except Exception as error:
            raise StorageError(f"storage failed: {first_line(error)}") from error

    def shutdown(self) -> None:
        """Wait for the calls under way, then end the thread."""
        self._writer.shutdown(wait=True)
