"""The numbered messages a room keeps to answer ``resync`` (:class:`History`).

Every numbered message (``event``, ``hand-over``, ``deal``, ``seat``, ``said``, and the
``snapshot`` that follows an undo) takes the ``v`` of the table's event it tells; a client
that missed some asks for those after the last ``v`` it holds. A room keeps only the last
few, each in the versions of the audiences connected when it was sent, and only since the
hand's deal or the last undo: what a room holds stays small however many tables a server
has, and no message sent again shows a card of another hand or one taken back. Whatever the
history cannot answer whole is answered by a snapshot (as lila-ws's ``History`` of
``Versioned`` messages answers "since v" or nothing).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Final, Generic, TypeVar

from baloot.core.seats import Seat

#: How many numbered messages a room keeps to answer ``resync``.
HISTORY: Final = 256

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Versioned(Generic[M]):
    """The message numbered ``v`` in the version of each audience (a seat, or None for the
    spectators) that had a connection when it was sent."""

    v: int
    by_audience: Mapping[Seat | None, M]


class History(Generic[M]):
    """The last ``size`` numbered messages, oldest first, since the last :meth:`restart`.

    >>> history: History[str] = History(size=3)
    >>> for v in (4, 5, 6, 7):
    ...     history.add(v, {Seat.S: f"m{v}", None: f"w{v}"})
    >>> history.since(5, latest=7, audience=Seat.S)
    ['m6', 'm7']
    >>> history.since(4, latest=7, audience=None), history.since(3, latest=7, audience=None)
    (['w5', 'w6', 'w7'], None)
    >>> history.since(7, latest=7, audience=Seat.N), history.since(6, latest=7, audience=Seat.N)
    ([], None)
    """

    def __init__(self, size: int = HISTORY) -> None:
        self._kept: deque[Versioned[M]] = deque(maxlen=size)

    def add(self, v: int, by_audience: Mapping[Seat | None, M]) -> None:
        """Keep the message numbered ``v`` (the one after the last kept) in its versions."""
        self._kept.append(Versioned(v, by_audience))

    def restart(self) -> None:
        """Forget every message but the last (a ``deal``, or an undo's snapshot): those before
        it speak of cards of another hand, or of cards taken back into a hand, which a seat
        may not know now.

        >>> history: History[str] = History()
        >>> history.add(1, {None: "event"})
        >>> history.add(2, {None: "deal"})
        >>> history.restart()
        >>> history.since(0, latest=2, audience=None), history.since(1, latest=2, audience=None)
        (None, ['deal'])
        """
        last = self._kept[-1]
        self._kept.clear()
        self._kept.append(last)

    def since(self, v: int, *, latest: int, audience: Seat | None) -> list[M] | None:
        """The messages after ``v`` up to ``latest`` (the table's last number) in the version
        of ``audience``; None when the history cannot tell them all (from before what it
        keeps, or sent while ``audience`` had no connection): a snapshot is needed."""
        if v == latest:
            return []
        first = self._kept[0].v if self._kept else latest + 1
        if not (0 <= v < latest and first <= v + 1):
            return None
        kept = [m.by_audience.get(audience) for m in islice(self._kept, v + 1 - first, None)]
        if any(message is None for message in kept):
            return None
        return [message for message in kept if message is not None]
