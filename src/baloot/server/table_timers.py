"""What a table does on its own, on a timer: the next bot decision (after a short pause, so
that people can follow), the room's deadline (a turn timer, the wait for a disconnected
human, the wait for the next hand or a deal), and a seat's coming or leaving told.

A table keeps one timer for what it waits for, read from the clock the hall gives its rooms,
set again only when what the table waits for changes: what changes nothing (a ``ping``, a
``resync``, anything a spectator sends) leaves it running. A seat's comings and leavings are
told on a timer of their own (:mod:`~baloot.server.presence`), so that telling one restarts
no wait. A bot decides in the bot threads, or away at the deciders with the table's lock free
while it thinks (:mod:`~baloot.server.bot_threads`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from baloot.bots.decisions import Decision, DecisionFailed, DecisionTask
from baloot.core.seats import Seat
from baloot.server.bot_threads import BotThreads
from baloot.server.deadlines import DeadlineKind
from baloot.server.live import Live
from baloot.server.publishing import Outgoing
from baloot.table.table import WaitKind

log = logging.getLogger("baloot.server")


class Steps(Protocol):
    """What the timers ask of the hall: its clock and bots' pause (read when a timer is
    set), whether a table is still the one it serves, and what every change of a table
    goes through."""

    clock: Callable[[], float]
    bot_pause: float

    def serves(self, live: Live) -> bool: ...

    async def commit(self, live: Live, out: list[Outgoing]) -> None: ...

    def fault(self, live: Live, error: Exception) -> None: ...


class TableTimers:
    """The timers of the tables of ``hall`` (see the module), whose decisions ``bots``
    make."""

    def __init__(self, hall: Steps, bots: BotThreads) -> None:
        self.hall = hall
        self.bots = bots
        self.stopping = False
        """Set when the server stops: no timer is set any more."""

    def schedule(self, live: Live) -> None:
        """Set the table's one timer for what it waits for now (the caller holds its lock),
        unless it is set for that already: a change that leaves the wait as it was (a seat's
        coming or leaving, a line of talk) does not start a bot's pause or a wait again."""
        self._schedule_presence(live)
        room = live.room
        deadline = room.deadline()
        waits_for = (room.turn(), deadline)
        if live.timer is not None and live.waits_for == waits_for and not self.stopping:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if self.stopping:
            return
        live.waits_for = waits_for
        if room.waiting_for_bot():
            if live.deciding is not None:
                return  # the bot's decision is on its way
            # At a table of bots, spectators get a moment to read each hand's score sheet.
            next_hand = room.table.waiting().kind is WaitKind.NEXT
            pause = self.hall.bot_pause * (5 if next_hand else 1)
            self._later(live, pause, lambda: self._bot_step(live))
        elif deadline is not None:
            delay = deadline.at - self.hall.clock()
            seat = deadline.seat
            if deadline.kind in (DeadlineKind.NEXT, DeadlineKind.DEAL):
                self._later(live, delay, lambda: self._deal(live))
            elif seat is not None:
                self._later(live, delay, lambda: self._time_out(live, seat))

    @staticmethod
    def stop_clocks(live: Live) -> None:
        """Cancel the table's timers and the decision it waits for: nothing more happens."""
        for task in (live.timer, live.deciding, live.presence):
            if task is not None:
                task.cancel()
        live.timer = live.presence = None

    def _later(
        self, live: Live, delay: float, step: Callable[[], Awaitable[list[Outgoing]]]
    ) -> None:
        """Run ``step`` on the table in ``delay`` seconds, unless the table changes first."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            async with live.lock:
                if live.timer is not task:
                    return
                live.timer = None  # from here on, nothing cancels this step
                try:
                    out = await step()
                except Exception as error:
                    self.hall.fault(live, error)
                    return
                await self.hall.commit(live, out)

        task = asyncio.create_task(fire())
        live.timer = task

    def _schedule_presence(self, live: Live) -> None:
        """Set the table's presence timer for the first seat's coming or leaving it may tell
        (:meth:`Room.presence_due <baloot.server.room.Room.presence_due>`)."""
        due = None if self.stopping else live.room.presence_due()
        if live.presence is not None and live.presence_at == due:
            return
        if live.presence is not None:
            live.presence.cancel()
            live.presence = None
        if due is None:
            return

        async def tell() -> None:
            await asyncio.sleep(max(0.01, due - self.hall.clock()))  # never a loop of empty turns
            async with live.lock:
                if live.presence is not task:
                    return
                live.presence = None
                if not self.hall.serves(live):
                    return
                try:
                    out = live.room.tell_presence()
                except Exception as error:
                    self.hall.fault(live, error)
                    return
                await self.hall.commit(live, out)

        task = asyncio.create_task(tell())
        live.presence, live.presence_at = task, due

    async def _bot_step(self, live: Live) -> list[Outgoing]:
        """The bot to act decides: sent to the deciders when there are some and the bot
        travels (the table's lock is free while it thinks), else in a bot thread."""
        room = live.room
        task = None if self.bots.deciders is None else room.bot_task(self.bots.bot_seconds)
        if task is None:
            return await self.bots.decide(room.step_bot)
        live.deciding = asyncio.create_task(self._decided_away(live, task))
        return []

    async def _decided_away(self, live: Live, task: DecisionTask) -> None:
        """Play the decision of ``task`` once it is back, unless the table moved on meanwhile
        (an undo, a claim); when it does not come back, the seat's stand-in decides instead
        (and the log says why, in one line)."""
        room = live.room
        decision: Decision | None = None
        failure: DecisionFailed | None = None
        try:
            decision = await self.bots.decided_away(task)
        except DecisionFailed as error:
            failure = error
        async with live.lock:
            live.deciding = None
            if not self.hall.serves(live):
                return  # dropped meanwhile
            if not room.still_asks(task):
                self.schedule(live)  # what was decided is for a turn gone by
                return
            try:
                if decision is not None:
                    out = room.play_decided(task, decision)
                else:
                    seat = task.view.seat
                    assert seat is not None
                    log.warning("table %s: %s; the stand-in decided for %s", room.id, failure, seat)
                    out = await self.bots.decide(functools.partial(room.stand_in_decides, seat))
            except Exception as error:
                self.hall.fault(live, error)
                return
            await self.hall.commit(live, out)

    async def _time_out(self, live: Live, seat: Seat) -> list[Outgoing]:
        return await self.bots.decide(functools.partial(live.room.time_out, seat))

    async def _deal(self, live: Live) -> list[Outgoing]:
        return live.room.deal()
