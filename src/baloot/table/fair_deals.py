"""A table's fair deals (``docs/table-protocol.md``): each hand's secret drawn and committed to
before its players speak, their entropy gathered, and its deck derived from both.

The secrets come from ``draw`` (injected: the server's is :func:`secrets.token_bytes`, and a
table brought back from storage draws the secrets it kept). A hand's :class:`Fair` is fixed
once the hand is dealt: entropy that comes later changes nothing, and a stored table whose
undo took a deal back (as undo could before it stopped at the hand-over) deals the same deck
again.

>>> from baloot.core.seats import Seat
>>> deals = FairDeals(lambda: bytes(32))
>>> deals.commit(1).commitment[:12]
'66687aadf862'
>>> deals.add_entropy(1, Seat.S, b"\\x9f")
>>> deals.deal(1) == deals.fairs[1].deck()
True
>>> deals.add_entropy(1, Seat.N, b"\\x01")  # too late: the deck is dealt
>>> sorted(seat.name for seat in deals.fairs[1].entropy)
['S']
"""

from __future__ import annotations

from collections.abc import Callable

from baloot.core.cards import Card
from baloot.core.seats import Seat
from baloot.records.fair import Fair


class FairDeals:
    """The fair table of each hand of a match, by its number (from 1)."""

    def __init__(self, draw: Callable[[], bytes]) -> None:
        self.draw = draw
        self.fairs: dict[int, Fair] = {}
        self._dealt: set[int] = set()

    def commit(self, number: int) -> Fair:
        """The fair table of hand ``number``, its secret drawn now if it has none yet."""
        if number not in self.fairs:
            self.fairs[number] = Fair.of(self.draw())
        return self.fairs[number]

    def add_entropy(self, number: int, seat: Seat, entropy: bytes) -> None:
        """``seat``'s entropy for hand ``number``, unless that hand is dealt already."""
        if number in self._dealt:
            return
        self.fairs[number] = self.commit(number).with_entropy(seat, entropy)

    def deal(self, number: int) -> tuple[Card, ...]:
        """The deck of hand ``number``, derived now; its fair table is fixed from now on."""
        self._dealt.add(number)
        return self.commit(number).deck()
