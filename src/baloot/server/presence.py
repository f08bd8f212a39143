"""Presence: whether the table has told that a human seat is connected, and when it may tell
the next change.

A seat's connections open and close as often as a client likes, but what the table tells of
them is a numbered ``seat`` message: stored with the table's steps and sent to every
connection. So a change is told at once only when the seat's last ``seat`` message is at least
:data:`PRESENCE_EVERY` seconds old; otherwise it is told once that interval is over, and only if
it still holds (a seat that left and came back meanwhile is no news). However fast a client
connects and closes, its seat costs one message and one stored step an interval at most.

>>> presence = Presence()
>>> presence.due(Seat.S, True, now=100.0, every=5.0)  # never told: at once
100.0
>>> presence.told(Seat.S, True, now=100.0)
>>> presence.due(Seat.S, False, now=101.0, every=5.0)  # left a second later: in 4 s
105.0
>>> presence.due(Seat.S, True, now=102.0, every=5.0) is None  # back meanwhile: no news
True
"""

from __future__ import annotations

from typing import Final

from baloot.core.seats import Seat

#: The fewest seconds between two ``seat`` messages of one seat that say it left or came back.
PRESENCE_EVERY: Final = 5.0


class Presence:
    """What the table last told of each seat (connected or not) and when."""

    def __init__(self) -> None:
        self._shown: dict[Seat, bool] = {}
        self._told: dict[Seat, float] = {}

    def shown(self, seat: Seat) -> bool:
        """Whether the table last told ``seat`` connected (never told: not connected)."""
        return self._shown.get(seat, False)

    def told(self, seat: Seat, connected: bool, now: float) -> None:
        """The table told at ``now`` that ``seat`` is ``connected`` (or not)."""
        self._shown[seat] = connected
        self._told[seat] = now

    def due(self, seat: Seat, connected: bool, now: float, every: float) -> float | None:
        """When the table may tell that ``seat`` is ``connected`` (``now`` at the earliest);
        None when that is what it last told: no news."""
        if connected == self.shown(seat):
            return None
        last = self._told.get(seat)
        return now if last is None else max(now, last + every)
