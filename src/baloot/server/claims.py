"""A claim (Sawa) made at a room's table (:func:`claim`): the table plays the hand out, and
the room tells each action with the view of the hand just after it (which the table's event
carries), and the claimant's cards face up in the ``hand-over``.

>>> from baloot.server.seating import seat_table
>>> table = seat_table({}, None, 7)
>>> claim(table, Seat.N)
Traceback (most recent call last):
baloot.IllegalActionError: N's cards are not sure to win every remaining trick
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from baloot.core.cards import CardSet
from baloot.core.errors import IllegalActionError
from baloot.core.reasons import ReasonCode
from baloot.core.seats import Seat
from baloot.table.table import Event, Table


@dataclass(frozen=True, slots=True)
class Claimed:
    """An accepted claim: the table's ``events`` (each action of the hand played out, with
    the hand just after it, then the ``hand-over``) and the claimant's cards as it claimed
    them (``cards``, by its seat)."""

    events: list[Event]
    cards: Mapping[Seat, CardSet]


def claim(table: Table, seat: Seat) -> Claimed:
    """``seat`` claims every remaining trick: the hand played out, or an
    :class:`~baloot.core.errors.IllegalActionError` when the claim does not hold."""
    if table.match.is_over:
        raise IllegalActionError.of(ReasonCode.MATCH_OVER)
    cards = table.hand.hand(seat)
    events = table.claim(seat)
    return Claimed(events, {seat: cards})
