"""The lobby's live feed: every page on the lobby hears when the public tables change, on any
node, by the database's notifications (PostgreSQL's ``LISTEN``; within the process on SQLite).

A :class:`LobbyFeed` listens on one connection of its own and wakes its subscribers, each a
lobby page's socket (``/ws/lobby``), which then reads the lobby again from the database. A
wake-up says nothing but "read again": a subscriber that is slow to read misses no change,
since the next read gives them all. When the listener's connection is lost, the feed says so
in one line, wakes everyone (changes may have been missed meanwhile) and listens again.

>>> import asyncio
>>> from baloot.server.storage import open_store
>>> async def hear_one() -> str:
...     store = open_store(":memory:")
...     feed = LobbyFeed(store)
...     running = asyncio.create_task(feed.run())
...     with feed.subscribe() as woken:
...         await feed.listening.wait()
...         store.notify_lobby("t1")
...         await asyncio.wait_for(woken.get(), 10)
...     running.cancel()
...     return "woken"
>>> asyncio.run(hear_one())
'woken'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from baloot.server.storage import Store
from baloot.server.transactions import StorageError

log = logging.getLogger("baloot.server")

#: The most lobby pages one server keeps a live feed for (a page beyond it polls instead).
MAX_SUBSCRIBERS: Final = 1000
#: Seconds between two tries to listen again after the listener's connection was lost.
RETRY_SECONDS: Final = 2.0


class LobbyFeed:
    """Wakes every subscriber when the lobby of ``store`` changes (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._subscribers: set[asyncio.Queue[None]] = set()
        #: Set while the feed listens: a change made after it is heard.
        self.listening = asyncio.Event()

    @property
    def full(self) -> bool:
        """True when the feed takes no more subscribers."""
        return len(self._subscribers) >= MAX_SUBSCRIBERS

    @contextmanager
    def subscribe(self) -> Iterator[asyncio.Queue[None]]:
        """A queue that gets an item whenever the lobby changed (one at most: "read again")."""
        woken: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._subscribers.add(woken)
        try:
            yield woken
        finally:
            self._subscribers.discard(woken)

    async def run(self) -> None:
        """Listen until cancelled, listening again after a lost connection."""
        while True:
            try:
                async with await self.store.listen_lobby() as listener:
                    self.listening.set()
                    async for _ in listener:
                        self._wake()
            except StorageError as error:
                log.warning("the lobby's live feed stopped: %s; listening again", error)
            self.listening.clear()
            self._wake()
            await asyncio.sleep(RETRY_SECONDS)

    def _wake(self) -> None:
        for woken in self._subscribers:
            if woken.empty():
                woken.put_nowait(None)
