"""The hints' lane: where a server makes the hints its seats ask for, apart from the bots'
decisions, and bounded.

A hint changes nothing at the table, but it searches (the best bot's, ``expert:hard``). Made
where the bots decide, one seat asking again and again (from several connections, at the
message limit) would queue searches ahead of every table's bot decisions. So hints run in a
lane of their own: on deciders of their own (``baloot serve`` gives them a worker process of
their own) or, without, on one thread of their own; never on the bots' workers or threads.
A decision that cannot be made there (its worker died) is made on the lane's thread.

A seat has at most one hint in flight: a ``hint`` it asks while one is being made for the same
position gets that one, under its own ``id`` (coalesced); asked for another position, it is
refused (:class:`HintBusy`, a ``reject`` ``rate_limited``). The lane holds at most
:data:`HINTS_IN_FLIGHT` hints at once, server-wide; beyond, a hint is refused the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from baloot.bots.best_hints import Hinted, HintTask
from baloot.bots.decisions import Deciders, DecisionFailed
from baloot.core.seats import Seat
from baloot.view.seat_view import SeatView

log = logging.getLogger("baloot.server")

#: The most hints a server makes or holds waiting at once (each seat's one in flight).
HINTS_IN_FLIGHT: Final = 16
T = TypeVar("T")


class HintBusy(Exception):
    """A hint refused because its seat, or the whole lane, has as many in flight as it may."""


class HintLane:
    """Where hints are made: on ``deciders`` of their own (None: on the lane's one thread),
    at most one a seat and ``limit`` in all at once."""

    def __init__(self, deciders: Deciders | None = None, *, limit: int = HINTS_IN_FLIGHT) -> None:
        self.deciders = deciders
        self.limit = limit
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="baloot-hint")
        self._flying: dict[tuple[str, Seat], tuple[SeatView, asyncio.Future[Hinted]]] = {}

    def ask(self, table_id: str, task: HintTask) -> asyncio.Future[Hinted]:
        """The hint of ``task``, asked by its seat at the table ``table_id``: the one in
        flight for that seat if it is for the same position, else a new one. A seat whose
        hint in flight is for another position, or a lane that holds ``limit`` hints, raises
        :class:`HintBusy`."""
        seat = task.view.seat
        assert seat is not None, "a hint is a seat's"
        key = (table_id, seat)
        flying = self._flying.get(key)
        if flying is not None:
            view, made = flying
            if view == task.view:
                return made
            raise HintBusy("a hint is being made for this seat; ask again once it is answered")
        if len(self._flying) >= self.limit:
            raise HintBusy("the server is making as many hints as it can; ask again in a moment")
        made = asyncio.ensure_future(self._make(table_id, task))
        self._flying[key] = (task.view, made)
        made.add_done_callback(lambda _: self._flying.pop(key, None))
        return made

    async def here(self, call: Callable[[], T]) -> T:
        """``call`` (a hint made by the room itself) on the lane's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def close(self) -> None:
        """Stop: the hints in flight are dropped, the lane's deciders and thread let go."""
        for _, made in list(self._flying.values()):
            made.cancel()
        if self.deciders is not None:
            self.deciders.close()
        self._thread.shutdown(wait=True)

    async def _make(self, table_id: str, task: HintTask) -> Hinted:
        if self.deciders is not None:
            try:
                return await asyncio.wrap_future(self.deciders.submit(task))
            except DecisionFailed as failure:
                log.warning("table %s: %s; the hint is made in the server", table_id, failure)
        return await self.here(task.run)
