"""``server.store_thread``: storage's calls in one thread, in the order they were made, each
failure one ``StorageError`` in one line."""

from __future__ import annotations

import asyncio
import threading

import pytest

from baloot.server.storage import StorageAway, StorageError
from baloot.server.store_thread import StoreThread


def test_calls_run_in_one_thread_in_the_order_they_were_made() -> None:
    done: list[tuple[int, str]] = []

    def note(n: int) -> int:
        done.append((n, threading.current_thread().name))
        return n

    async def many() -> list[int]:
        run = StoreThread()
        try:
            return list(await asyncio.gather(*(run(note, n) for n in range(20))))
        finally:
            run.shutdown()

    assert asyncio.run(many()) == list(range(20))
    assert [n for n, _ in done] == list(range(20))
    assert len({name for _, name in done}) == 1
    assert done[0][1] != threading.current_thread().name


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (OSError("disk full\nat block 7"), "storage failed: disk full"),
        (StorageAway("the database is away"), "the database is away"),
    ],
)
def test_every_failure_is_one_storage_error_in_one_line(raised: Exception, said: str) -> None:
    def fail() -> None:
        raise raised

    async def once() -> None:
        run = StoreThread()
        try:
            await run(fail)
        finally:
            run.shutdown()

    with pytest.raises(StorageError) as failed:
        asyncio.run(once())
    assert str(failed.value) == said
    assert type(failed.value) is (
        type(raised) if isinstance(raised, StorageError) else StorageError
    )
