"""What cards and hands are worth to the heuristic bot: card points and the hand values its
bidding and doubling rules compare with thresholds.

>>> cards = [Card.parse(c) for c in "Jh 9h 7h As 8d".split()]
>>> hokum_value(cards, Suit.HEARTS), sun_value(cards)
(10.0, 3.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from baloot.core.cards import PLAIN_POINTS, TRUMP_POINTS, Card, Rank, Suit

ACE: Final = Rank.ACE
TEN: Final = Rank.TEN
KING: Final = Rank.KING
QUEEN: Final = Rank.QUEEN
JACK: Final = Rank.JACK
NINE: Final = Rank.NINE


def points(card: Card, trump: Suit | None) -> int:
    """Card points of one card (R2.3).

    >>> points(Card.parse("Jh"), Suit.HEARTS), points(Card.parse("Jh"), None)
    (20, 2)
    """
    table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
    return table[card.rank]


def hokum_value(cards: Iterable[Card], trump: Suit) -> float:
    """How good a hand is to declare Hokum with ``trump`` (bidding rules B2–B5).

    Trumps: J 4, 9 3 (2 without the J and with fewer than three trumps), A 2, T 1.5, any other
    trump 1. Side suits: Ace 2, Ten 1 beside its Ace (0.5 with another guard), King 0.5 beside
    the Ace or Ten.

    >>> hokum_value([Card.parse(c) for c in "Jh 9h 7h As 8d".split()], Suit.HEARTS)
    10.0
    """
    held = list(cards)
    trumps = [c for c in held if c.suit == trump]
    ranks = {c.rank for c in trumps}
    value = 0.0
    for card in trumps:
        if card.rank == JACK:
            value += 4
        elif card.rank == NINE:
            value += 3 if JACK in ranks or len(trumps) >= 3 else 2
        elif card.rank == ACE:
            value += 2
        elif card.rank == TEN:
            value += 1.5
        else:
            value += 1
    value += _side_value(c for c in held if c.suit != trump)
    return value


def _side_value(cards: Iterable[Card]) -> float:
    """Side-suit value shared by :func:`hokum_value` and :func:`defence_value`."""
    by_suit: dict[Suit, set[Rank]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    value = 0.0
    for ranks in by_suit.values():
        if ACE in ranks:
            value += 2
        if TEN in ranks:
            value += 1 if ACE in ranks else 0.5 if len(ranks) >= 2 else 0
        if KING in ranks and (ACE in ranks or TEN in ranks):
            value += 0.5
    return value


def sun_value(cards: Iterable[Card]) -> float:
    """How good a hand is to declare Sun (bidding rules B2–B6).

    Ace 3; Ten 2 beside its Ace, 1 with another guard, 0.5 alone; King 1 beside the Ace or
    Ten, 0.5 with another guard; every card beyond the third of a suit headed by its Ace 0.5.

    >>> sun_value([Card.parse(c) for c in "As Ts Ah 7d 8c".split()])
    8.0
    """
    by_suit: dict[Suit, set[Rank]] = {}
    for card in cards:
        by_suit.setdefault(card.suit, set()).add(card.rank)
    value = 0.0
    for ranks in by_suit.values():
        ace = ACE in ranks
        guards = len(ranks) >= 2
        if ace:
            value += 3
            value += 0.5 * max(0, len(ranks) - 3)
        if TEN in ranks:
            value += 2 if ace else 1 if guards else 0.5
        if KING in ranks:
            value += 1 if ace or TEN in ranks else 0.5 if guards else 0
    return value


def defence_value(cards: Iterable[Card], trump: Suit) -> float:
    """How well a complete hand defends against a Hokum in ``trump`` (doubling rules D1–D3).

    Trumps: J 4, 9 3, A 2, T 1.5, any other trump 1, and 1 more for every trump beyond the
    third; side suits as in :func:`hokum_value`.

    >>> defence_value([Card.parse(c) for c in "Jh 9h 7h As Ad Td 8c 7c".split()], Suit.HEARTS)
    13.0
    """
    held = list(cards)
    trumps = [c for c in held if c.suit == trump]
    value = 0.0
    for card in trumps:
        value += {JACK: 4.0, NINE: 3.0, ACE: 2.0, TEN: 1.5}.get(card.rank, 1.0)
    value += max(0, len(trumps) - 3)
    value += _side_value(c for c in held if c.suit != trump)
    return value


def aces(cards: Iterable[Card], trump: Suit | None) -> int:
    """How many Aces of suits other than ``trump`` the cards hold."""
    return sum(1 for c in cards if c.rank == ACE and c.suit != trump)
