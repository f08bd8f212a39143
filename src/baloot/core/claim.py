"""Claiming the rest (Sawa): when a seat's own cards are sure to win every remaining trick.

A claim is offered only when it reveals nothing: the seat's cards must win every trick for
every deal of the cards it has not seen, whatever the others play under R9. This module
decides that from what the seat may know (its cards, the cards still out, how many each
other seat holds, and what the history proves about their hands: voids, trumps they cannot
hold, cards they surely hold), so that interfaces and servers ask the rules instead of
deciding for themselves.

The test is sound (it never accepts a claim that could fail) and simple. The claimant leads
from :func:`claim_order`: trumps first, then each suit from the top. A seat that holds cards
of the suit led must follow, so it keeps its best card of a suit only as long as it has
others to give: the claimant's i-th card of a suit can only be beaten by a seat able to hold
a stronger card of that suit together with i − 1 more of it. In Hokum no seat may keep a
trump once the claimant's trumps are led, or it could trump a side card (in a locked game,
when the claimant holds side cards, no trump may be out at all, since it may not lead trumps
first). Each other seat is weighed alone, so a few sure claims that only the seats' joint
constraints prove are not offered.

>>> def anyone(outstanding):
...     return [Unseen(CardSet.parse(outstanding), 8, CardSet())] * 3
>>> sure_of_every_trick(CardSet.parse("As Ts"), anyone("Ks 9h"), trump=None)
True
>>> sure_of_every_trick(CardSet.parse("As 9s"), anyone("Ks 7s 9h"), trump=None)
False
>>> sure_of_every_trick(CardSet.parse("As 9s"), anyone("Ks 9h"), trump=None)  # Ks falls on As
True
>>> sure_of_every_trick(CardSet.parse("Jh As"), anyone("Ks 7h"), trump=Suit.HEARTS)
True
>>> sure_of_every_trick(CardSet.parse("Jh As"), anyone("Ks 7h 8h"), trump=Suit.HEARTS)
False

What the history proves counts. South leads As 9s, each other seat holds two cards, and Ks
7s are among the six out: one seat holding both would keep Ks for 9s. But East has shown it
holds no spade, and North and West each surely hold one other card (North took the exposed
Ah, West showed Kd in a project): no seat can hold two spades, so Ks falls on As.

>>> out = CardSet.parse("Ks 7s Ah Kh Ad Kd")
>>> north = Unseen(out, 2, CardSet.parse("Ah"))
>>> west = Unseen(out - CardSet.parse("Ah"), 2, CardSet.parse("Kd"))
>>> east = Unseen(CardSet.parse("Kh Ad"), 2, CardSet())
>>> sure_of_every_trick(CardSet.parse("As 9s"), [north, west, east], trump=None)
True
>>> sure_of_every_trick(CardSet.parse("As 9s"), [Unseen(out, 2, CardSet())] * 3, trump=None)
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from baloot.core.cards import Card, CardSet, Suit, strength


@dataclass(frozen=True, slots=True)
class Unseen:
    """One other seat as the claimant sees it: the unseen cards it may hold (the cards still
    out that the history does not exclude for it), how many cards it holds, and the cards it
    surely holds (a subset of ``possible``)."""

    possible: CardSet
    count: int
    holds: CardSet

    def most_of(self, suit: Suit) -> int:
        """The most cards of ``suit`` this seat can hold: the cards it surely holds of other
        suits take their places in its hand."""
        in_suit = sum(1 for c in self.possible if c.suit == suit)
        elsewhere = sum(1 for c in self.holds if c.suit != suit)
        return max(0, min(in_suit, self.count - elsewhere))


def sure_of_every_trick(
    cards: CardSet, others: Sequence[Unseen], trump: Suit | None, locked: bool = False
) -> bool:
    """True when ``cards``, led one by one from :func:`claim_order`, win every remaining trick
    against every deal of the unseen cards among ``others`` and every play of theirs under R9
    (``locked``: trumps may not be led while side cards are held)."""
    if not cards:
        return False
    for suit in Suit:
        mine = sorted((strength(c, trump) for c in cards if c.suit == suit), reverse=True)
        if not mine:
            continue
        for seat in others:
            most = seat.most_of(suit)
            for card in seat.possible:
                if card.suit != suit:
                    continue
                above = strength(card, trump)
                # Led from the top, the i-th card is the first ``card`` beats; the seat keeps
                # ``card`` for it only if it holds i cards of the suit.
                first_beaten = sum(1 for m in mine if m > above) + 1
                if first_beaten <= len(mine) and most >= first_beaten:
                    return False
    if trump is None:
        return True
    my_trumps = sum(1 for c in cards if c.suit == trump)
    if my_trumps == len(cards):
        return True
    most_trumps = max((seat.most_of(trump) for seat in others), default=0)
    if locked:
        return most_trumps == 0
    return most_trumps <= my_trumps


def claim_order(cards: CardSet, trump: Suit | None) -> list[Card]:
    """The order a claimant leads its cards: trumps first, then each suit from the top.

    >>> [c.text for c in claim_order(CardSet.parse("Ts As Jh 9h"), Suit.HEARTS)]
    ['Jh', '9h', 'As', 'Ts']
    """
    return sorted(cards, key=lambda c: (c.suit != trump, c.suit, -strength(c, trump)))
