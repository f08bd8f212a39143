"""Claiming the rest (Sawa): when a seat's own cards are sure to win every remaining trick.

A claim is offered only when it reveals nothing: the seat's cards must win every trick for
every deal of the cards it has not seen, whatever the others play under R9. This module
decides that from what the seat may know (its cards, the cards still out, the contract), so
that interfaces and servers ask the rules instead of deciding for themselves.

The test is sound (it never accepts a claim that could fail) and simple: the claimant is on
lead, each of its cards beats every card still out in its suit, and in Hokum it can draw all
the trumps still out before it leads a side suit (in a locked game, when it holds side cards,
no trump may be out at all, since it may not lead trumps first). It does not use what the
history proves about the others' hands (a void shown earlier), so a few sure claims of that
kind are not offered.

>>> sure_of_every_trick(CardSet.parse("As Ts"), CardSet.parse("Ks 9h"), trump=None)
True
>>> sure_of_every_trick(CardSet.parse("As 9s"), CardSet.parse("Ks 9h"), trump=None)
False
>>> sure_of_every_trick(CardSet.parse("Jh As"), CardSet.parse("Ks 7h"), trump=Suit.HEARTS)
True
>>> sure_of_every_trick(CardSet.parse("Jh As"), CardSet.parse("Ks 7h 8h"), trump=Suit.HEARTS)
False
"""

from __future__ import annotations

from baloot.core.cards import Card, CardSet, Suit, strength


def sure_of_every_trick(
    cards: CardSet, outstanding: CardSet, trump: Suit | None, locked: bool = False
) -> bool:
    """True when ``cards``, led one by one from :func:`claim_order`, win every remaining trick
    against every placement of ``outstanding`` (the cards neither held nor played) among the
    other seats, under R9 (``locked``: trumps may not be led while side cards are held)."""
    if not cards:
        return False
    for suit in Suit:
        mine = [c for c in cards if c.suit == suit]
        theirs = [c for c in outstanding if c.suit == suit]
        if (
            mine
            and theirs
            and min(strength(c, trump) for c in mine) < max(strength(c, trump) for c in theirs)
        ):
            return False
    if trump is None:
        return True
    my_trumps = sum(1 for c in cards if c.suit == trump)
    out_trumps = sum(1 for c in outstanding if c.suit == trump)
    if out_trumps == 0:
        return True
    if locked and my_trumps < len(cards):
        return False
    return my_trumps >= out_trumps


def claim_order(cards: CardSet, trump: Suit | None) -> list[Card]:
    """The order a claimant leads its cards: trumps first, then each suit from the top.

    >>> [c.text for c in claim_order(CardSet.parse("Ts As Jh 9h"), Suit.HEARTS)]
    ['Jh', '9h', 'As', 'Ts']
    """
    return sorted(cards, key=lambda c: (c.suit != trump, c.suit, -strength(c, trump)))
