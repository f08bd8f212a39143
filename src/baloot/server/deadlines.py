"""What a table waits for and until when: the ``deadline`` of the table protocol
(``docs/table-protocol.md``, "Timers, table talk and fair deals").

A table waits for a human's turn (``turn``: its turn timer), for an absent human before their
seat's bot plays for them (``stand-in``), for the humans' word before the next hand is dealt
(``next``), or for their entropy before the first hand is dealt (``deal``). The deadline is
worked out from the table as it stands, when what it waits for began (:class:`TurnClock`, read
from the clock the server gives) and the table's :class:`Timing`; the server sets its one timer
for it, and every message tells it, so that a page counts down the time the server really keeps.

>>> timing = Timing(turn=None, absent=30.0, next=30.0)
>>> Deadline(DeadlineKind.NEXT, None, 1764600000.1234).to_json()
{'kind': 'next', 'seat': None, 'at': 1764600000123}
>>> clock = TurnClock(lambda: 100.0)
>>> clock.started((1, 4, "S")), TurnClock(lambda: 5.0).started((1, 4, "S"))
(100.0, 5.0)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from baloot.core.seats import Seat
from baloot.server.presence import PRESENCE_EVERY
from baloot.server.seating import Seating
from baloot.table.table import Table, WaitKind

#: How long a disconnected human's first turn waits before the bot plays it, and how long a
#: table of two or more humans waits for ``next`` after a ``hand-over``, in seconds.
ABSENT_WAIT: Final = 30.0
NEXT_WAIT: Final = 30.0
#: How long after a table with human seats was made its first hand waits for their entropy.
DEAL_WAIT: Final = 15.0


class DeadlineKind(StrEnum):
    """What the table waits for until its deadline."""

    TURN = "turn"
    """A human's turn, under the table's turn timer: the bot decides for them after it."""
    STAND_IN = "stand-in"
    """A disconnected human's turn: the bot plays for them after it."""
    NEXT = "next"
    """The humans' word for the next hand: it is dealt after it."""
    DEAL = "deal"
    """The human seats' entropy for the first hand: it is dealt after it."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """What the table waits for (``kind``, the ``seat`` it waits for, None for ``next``) and
    when it stops waiting, ``at`` seconds since the Unix epoch by the server's clock."""

    kind: DeadlineKind
    seat: Seat | None
    at: float

    def to_json(self) -> dict[str, Any]:
        """As the protocol sends it: ``at`` in whole milliseconds since the epoch."""
        seat = None if self.seat is None else self.seat.name
        return {"kind": self.kind.value, "seat": seat, "at": millis(self.at)}


@dataclass(frozen=True, slots=True)
class Timing:
    """A table's waits, in seconds: its turn timer (None: no timer), the first wait for a
    disconnected human, the wait for ``next`` at a table of two or more humans, the
    fewest seconds between two ``seat`` messages of one seat that say it left or came back
    (:mod:`~baloot.server.presence`), and the longest wait for the first hand's entropy after
    the table was made."""

    turn: float | None = None
    absent: float = ABSENT_WAIT
    next: float = NEXT_WAIT
    presence: float = PRESENCE_EVERY
    deal: float = DEAL_WAIT


class Waits:
    """What a table waits for and until when, by the clock and the :class:`Timing` a server
    may set after the table is made (``clock`` gives seconds since the epoch; ``created`` is
    when the table was made, which its first hand's wait for entropy counts from).

    >>> from baloot.server.seating import seat_table
    >>> from baloot.table.players import Player
    >>> table = seat_table({Seat.S: Player.human("Saad")}, None, 7)
    >>> waits = Waits(table, Seating(table), Timing(turn=15.0), lambda: 100.0, created=90.0)
    >>> while table.waiting().kind is WaitKind.BOT:
    ...     _ = table.play_bot(None)
    >>> waits.turn()[2:], waits.deadline_json()
    ((<WaitKind.HUMAN: 'human'>, <Seat.S: 2>), {'kind': 'turn', 'seat': 'S', 'at': 115000})
    """

    def __init__(
        self,
        table: Table,
        seating: Seating,
        timing: Timing,
        clock: Callable[[], float],
        created: float,
    ) -> None:
        self.table = table
        self.seating = seating
        self.timing = timing
        self.clock = clock
        self.created = created
        self._turns = TurnClock(lambda: self.clock())  # the clock a server may set later

    def deadline(self) -> Deadline | None:
        """What the table waits for and until when (``docs/table-protocol.md``), by its clock; None
        when it waits for a bot or without end (:func:`deadline_of`). A ``hand-over`` that
        none of the table's humans is connected to pauses the table (no deadline); the wait
        for ``next`` starts afresh when one of them comes back."""
        turn = self.turn()
        paused = turn[2] is WaitKind.NEXT and self.seating.humans_away()
        started = self._turns.started((turn, paused))
        return deadline_of(self.table, self.seating, self.timing, started, self.created)

    def deadline_json(self) -> dict[str, Any] | None:
        """The deadline as every message tells it."""
        deadline = self.deadline()
        return None if deadline is None else deadline.to_json()

    def turn(self) -> tuple[int, int, WaitKind, Seat | None]:
        """What the table waits for, as a value that changes whenever that does: the hand,
        how many actions it holds, and the kind and seat of the wait. A server keeps its timer
        running while it stays the same (a ``seat`` or ``said`` message changes nothing)."""
        table = self.table
        waiting = table.waiting()
        actions = len(table.hand.actions) if table.match.hands else 0
        return table.hand_number, actions, waiting.kind, waiting.seat


class TurnClock:
    """When what the table waits for began: the time of the first question about a new turn.

    ``clock`` gives seconds since the epoch (the server's, or a test's fake one).
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._turn: Hashable = None
        self._started = 0.0

    def started(self, turn: Hashable) -> float:
        """When ``turn`` (any value that changes when what the table waits for does) began."""
        if turn != self._turn:
            self._turn, self._started = turn, self.clock()
        return self._started


def deadline_of(
    table: Table, seating: Seating, timing: Timing, started: float, created: float
) -> Deadline | None:
    """The table's deadline now, what it waits for having begun at ``started`` (the table having
    been made at ``created``: its first hand waits for the players' entropy until
    :attr:`Timing.deal` after it); None when it waits for nobody in particular or without end: a
    bot (it plays at its pace), a connected human with no turn timer, the one human of a table
    at a ``hand-over`` (the table waits for them), a table at a ``hand-over`` with none of its
    humans connected (it is paused: no hand is dealt for nobody, and the wait starts afresh when
    one comes back), a table of bots alone, a match over.

    A disconnected human's first turn waits for the turn timer, or else :attr:`Timing.absent`;
    once their seat's bot has played for them (:meth:`Seating.stood_in`), every later turn is
    played at once until they come back (``at`` is when the turn began).
    """
    waiting = table.waiting()
    if waiting.kind is WaitKind.HUMAN:
        seat = waiting.seat
        assert seat is not None
        if not seating.connected(seat):
            if seating.stood_in(seat):
                return Deadline(DeadlineKind.STAND_IN, seat, started)
            if timing.turn is None:
                return Deadline(DeadlineKind.STAND_IN, seat, started + timing.absent)
        if timing.turn is not None:
            return Deadline(DeadlineKind.TURN, seat, started + timing.turn)
        return None
    if waiting.kind is WaitKind.NEXT and len(table.humans) >= 2 and not seating.humans_away():
        return Deadline(DeadlineKind.NEXT, None, started + timing.next)
    if waiting.kind is WaitKind.DEAL:
        return Deadline(DeadlineKind.DEAL, None, created + timing.deal)
    return None


def millis(seconds: float) -> int:
    """Seconds since the epoch as the protocol's whole milliseconds.

    >>> millis(1764600000.0125)
    1764600000012
    """
    return int(seconds * 1000)
