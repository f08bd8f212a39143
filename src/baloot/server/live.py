"""A table in memory (:class:`Live`) and a connection's queue of messages (:class:`Outbox`),
as the hall keeps them, the close codes the hall gives, and what a table tells of itself:
its record, its summary, its score for the lobby."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Final

from baloot.records.summary import teams_json
from baloot.records.writer import dumps
from baloot.server.journal import TableConfig
from baloot.server.leases import Fence
from baloot.server.outgoing import Sent
from baloot.server.publishing import Outgoing
from baloot.server.room import Room
from baloot.server.seating import Connection

#: The most messages waiting for one connection before it is closed as too slow.
OUTBOX: Final = 2048
#: The close code for a table kept in storage that could not be restored from it.
CLOSE_UNRESTORABLE: Final = 4500
#: The close code that asks a client to come back later (too many connections, a reload, the
#: database away).
CLOSE_TRY_AGAIN: Final = 1013
#: The close code of a connection to a table that another node serves (as ``GET /t/ID``'s
#: 307 redirect): its reason is that node's public URL, where the client connects instead.
CLOSE_ELSEWHERE: Final = 4307


class Outbox:
    """The messages waiting for one connection, and whether it must be closed."""

    def __init__(self, limit: int = OUTBOX) -> None:
        self.queue: asyncio.Queue[Sent | None] = asyncio.Queue()
        self.limit = limit
        self.close_code: int | None = None
        self.close_reason = ""

    def put(self, message: Sent) -> None:
        """Queue ``message``; a connection that lets too many pile up is closed (1008)."""
        if self.close_code is not None:
            return
        if self.queue.qsize() >= self.limit:
            self.close(1008)
            return
        self.queue.put_nowait(message)

    def close(self, code: int, reason: str = "") -> None:
        """Ask the transport to close the connection with ``code`` and ``reason``."""
        if self.close_code is None:
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Live:
    """A table in memory: its room, how it was made, its lock, outboxes and timer."""

    room: Room
    config: TableConfig
    fence: Fence
    """This node's lease on the table, which every write of its journal gives the database."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    outboxes: dict[Connection, Outbox] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    waits_for: object = None
    """What the table waited for when its timer was set (:meth:`Room.turn
    <baloot.server.room.Room.turn>` and its deadline): while that stays, the timer runs on."""
    presence: asyncio.Task[None] | None = None
    """The timer that tells a seat's coming or leaving once it may be told, at
    ``presence_at``: a timer of its own, so that telling it restarts no wait of the table."""
    presence_at: float | None = None
    seen_at: float = float("-inf")
    """When a human's presence was last noted for the idle clock (by the node's clock)."""
    #: A bot's decision sent to the deciders, not yet back: the table's lock is free meanwhile.
    deciding: asyncio.Task[None] | None = None
    finished: bool = False
    lease_until: float = 0.0
    """When the node's lease on the table runs out, as far as the node knows (its clock)."""
    scored: tuple[int, tuple[int, int]] | None = None
    """The hand and the totals last noted for the lobby (None: not noted by this copy)."""

    @property
    def has_programs(self) -> bool:
        """True when a bot of the table runs a process (an operator's bot program)."""
        return any(hasattr(bot, "close") for bot in self.room.table.bots.values())

    def send(self, out: list[Outgoing]) -> None:
        """Hand ``out`` to the connections, with nothing to store first."""
        for connection, message in out:
            outbox = self.outboxes.get(connection)
            if outbox is not None:
                outbox.put(message)


def score_of(room: Room) -> tuple[int, tuple[int, int]]:
    """The table's hand in play and its match totals, as the lobby lists them."""
    return room.table.hand_number, room.table.match.totals


def record_url(table_id: str) -> str:
    """The address of the match record of the table ``table_id``."""
    return f"/api/matches/{table_id}/record"


def record_of(live: Live) -> str:
    """The match so far as a ``baloot/1`` record, dated the day the table was made."""
    date = time.strftime("%Y-%m-%d", time.gmtime(live.config.created))
    return dumps(live.room.table.record(date=date))


def summary_of(live: Live) -> dict[str, Any]:
    """The match's players, totals and winner, as the history of matches lists them."""
    match = live.room.table.match
    winner = match.winner
    return {
        "players": dict(live.config.players),
        "totals": teams_json(match.totals),
        "winner": None if winner is None else winner.name,
    }
