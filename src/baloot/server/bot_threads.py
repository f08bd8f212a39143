"""Where a server's bots think: a pool of threads of their own, under a clock, or the
deciders a decision travels to (``baloot serve --bot-workers``); and the end of a table's bot
programs.

The event loop serves every table, so no bot ever thinks in it: a decision, a claim whose
cards the bots play, anything that may wait for an operator's bot program runs here. A
decision made here runs under a clock (:mod:`baloot.bots.clock`) of ``bot_seconds`` of wall
time. A bot program's processes live as long as its table is in memory; they are ended
(``bye``, then 2 s at most) in a thread, and a server that stops waits for them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from baloot.bots.clock import Clock, deciding
from baloot.bots.decisions import Deciders, Decision, DecisionTask
from baloot.bots.external import close_all
from baloot.server.live import Live

T = TypeVar("T")


class BotThreads:
    """``threads`` threads for the bots, ``bot_seconds`` a decision, and ``deciders`` where
    a travelling decision goes (None: every decision is made in these threads)."""

    def __init__(self, threads: int, bot_seconds: float, deciders: Deciders | None) -> None:
        self.bot_seconds = bot_seconds
        self.deciders = deciders
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="baloot-bot")
        self._ending: set[asyncio.Future[None]] = set()

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call`` in a bot thread, under no clock (what may search or wait for a program)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, call, *args)

    async def decide(self, step: Callable[[], T]) -> T:
        """``step`` in a bot thread, under a clock of ``bot_seconds`` for its decision."""

        def decide() -> T:
            with deciding(Clock(wall=self.bot_seconds, cpu_time=time.thread_time)):
                return step()

        return await self.run(decide)

    async def decided_away(self, task: DecisionTask) -> Decision:
        """The decision of ``task``, made by the deciders (a
        :class:`~baloot.bots.decisions.DecisionFailed` when it does not come back)."""
        assert self.deciders is not None
        return await asyncio.wrap_future(self.deciders.submit(task))

    def end_programs(self, live: Live) -> None:
        """End the processes of the table's bot programs (``bye``, then 2 s at most), in a
        thread; :meth:`stop` waits for them."""
        if not live.has_programs:
            return
        bots = list(live.room.table.bots.values())
        done = asyncio.get_running_loop().run_in_executor(None, close_all, bots)
        self._ending.add(done)
        done.add_done_callback(self._ending.discard)

    async def programs_ended(self) -> None:
        """Wait until every bot program being ended is."""
        if self._ending:
            await asyncio.gather(*self._ending, return_exceptions=True)

    def shutdown(self) -> None:
        """Wait for the decisions under way, then end the threads and the deciders."""
        self._pool.shutdown(wait=True)
        if self.deciders is not None:
            self.deciders.close()
