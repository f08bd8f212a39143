"""Cards the double-dummy search need not tell apart: equivalent cards of one hand and suit,
of which one is searched, and the cards of no points at the bottom of a suit, packed so that
positions that differ only in which of them are gone are one entry of the table.

Neither changes a value: equivalent cards take the same tricks and points whichever is
played, and which of the pointless bottom cards is gone decides no trick the others do not.
Kept apart from the search (:mod:`baloot.solver._search`), which only asks which cards to
try and what key a position has.

>>> from baloot.core.cards import CardSet
>>> bottom = CardSet.parse("9s 8s 7s").mask
>>> CardSet(merged(bottom, 0, -1))  # no points, touching: the 9 is searched for all three
CardSet('9s')
>>> seven = CardSet.parse("7s").mask
>>> CardSet(packed([seven, 0, 0, 0], -1)[0])  # the bottom card of spades left: as the 9
CardSet('9s')
"""

from __future__ import annotations

from functools import cache
from typing import Final

from baloot.core.cards import PLAIN_POINTS, PLAIN_STRENGTH, TRUMP_POINTS, TRUMP_STRENGTH


def _order(strength: tuple[int, ...]) -> tuple[int, ...]:
    """The ranks from the strongest to the weakest."""
    return tuple(sorted(range(8), key=lambda r: -strength[r]))


#: The ranks of a plain suit, and of trumps, from the strongest to the weakest.
PLAIN_ORDER: Final = _order(PLAIN_STRENGTH)
TRUMP_ORDER: Final = _order(TRUMP_STRENGTH)


def merged(legal: int, transparent: int, trump: int) -> int:
    """``legal`` with one card of each run of equivalent cards (the strongest), the cards of
    ``transparent`` (gone, or in the same hand) not breaking a run; ``trump`` is the trump
    suit (-1: none)."""
    kept = 0
    for suit in range(4):
        shift = suit * 8
        byte = legal >> shift & 0xFF
        if byte & (byte - 1):
            byte = _representatives(suit == trump, byte, transparent >> shift & 0xFF)
        kept |= byte << shift
    return kept


def packed(hands: list[int], trump: int) -> tuple[int, int, int, int]:
    """The hands with the cards of no points at the bottom of each suit (9 8 7, or 8 7
    of trumps) packed towards the strongest: positions that differ only in which of them
    are gone are the same problem."""
    every = hands[0] | hands[1] | hands[2] | hands[3]
    h0, h1, h2, h3 = hands
    for suit in range(4):
        trumps = suit == trump
        shift = suit * 8 + (6 if trumps else 5)
        zone = (3 if trumps else 7) << shift
        remaining = (every & zone) >> shift
        if remaining & (remaining + 1):
            pack = _packing(trumps, remaining)
            h0 = h0 & ~zone | pack[(h0 & zone) >> shift] << shift
            h1 = h1 & ~zone | pack[(h1 & zone) >> shift] << shift
            h2 = h2 & ~zone | pack[(h2 & zone) >> shift] << shift
            h3 = h3 & ~zone | pack[(h3 & zone) >> shift] << shift
    return (h0, h1, h2, h3)


@cache
def _representatives(trump: bool, legal: int, transparent: int) -> int:
    """Of the ``legal`` cards of one suit (a byte), one card of each run of equivalent cards,
    the strongest: a run's cards touch once the cards between them are ``transparent`` (gone
    or in the same hand) and have the same points, so they take the same tricks and points."""
    order = TRUMP_ORDER if trump else PLAIN_ORDER
    points = TRUMP_POINTS if trump else PLAIN_POINTS
    kept = 0
    last = -1
    chained = False
    for rank in order:
        if legal >> rank & 1:
            if not (chained and points[rank] == points[last]):
                kept |= 1 << rank
            last = rank
            chained = True
        elif not transparent >> rank & 1:
            chained = False
    return kept


@cache
def _packing(trump: bool, remaining: int) -> tuple[int, ...]:
    """For the cards of no points still out in a suit (``remaining``, bits from the
    strongest), each subset of them moved to the same places packed at the top."""
    slots = [bit for bit in range(3 if not trump else 2) if remaining >> bit & 1]
    return tuple(sum(1 << i for i, bit in enumerate(slots) if held >> bit & 1) for held in range(8))
