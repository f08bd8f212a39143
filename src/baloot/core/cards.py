"""Cards, suits, ranks and sets of cards held in a 32-bit mask.

A card's index is ``suit * 8 + rank``, with ranks in project (sequence) order
``A K Q J T 9 8 7`` (R2.4), so a run of consecutive cards is a run of
consecutive bits and a four of a kind is the same bit in every suit byte.

>>> Card.parse("Th")
Card('Th')
>>> hand = CardSet.parse("As Th 9d")
>>> len(hand), Card.parse("9d") in hand
(3, True)
>>> str(hand | CardSet.parse("7c"))
'As Th 9d 7c'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from baloot.core.errors import NotationError


class Suit(IntEnum):
    """A suit; the value is its byte in a card mask.

    >>> Suit.parse("♥"), Suit.HEARTS.letter, Suit.HEARTS.symbol
    (<Suit.HEARTS: 1>, 'h', '♥')
    """

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """The canonical record letter: ``s h d c``."""
        return "shdc"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol ``♠ ♥ ♦ ♣``."""
        return "♠♥♦♣"[self]

    @property
    def mask(self) -> int:
        """The bits of the eight cards of this suit."""
        return 0xFF << (8 * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``s``/``S``/``♠`` (an optional U+FE0F after a symbol is ignored)."""
        suit = _SUIT_BY_TEXT.get(text.removesuffix("\ufe0f"))
        if suit is None:
            raise NotationError(f"unknown suit {text!r}")
        return suit


_SUIT_BY_TEXT: Final = {
    **{s.letter: s for s in Suit},
    **{s.letter.upper(): s for s in Suit},
    **{s.symbol: s for s in Suit},
}


class Rank(IntEnum):
    """A rank; the value is its place in project order (Ace first).

    >>> Rank.parse("10"), Rank.TEN.letter
    (<Rank.TEN: 4>, 'T')
    """

    ACE = 0
    KING = 1
    QUEEN = 2
    JACK = 3
    TEN = 4
    NINE = 5
    EIGHT = 6
    SEVEN = 7

    @property
    def letter(self) -> str:
        """The canonical record letter: ``A K Q J T 9 8 7``."""
        return "AKQJT987"[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read an upper-case rank letter, or ``10`` for the Ten."""
        index = "AKQJT987".find(text) if len(text) == 1 else (4 if text == "10" else -1)
        if index < 0:
            raise NotationError(f"unknown rank {text!r}")
        return cls(index)


class Card:
    """One of the 32 cards; there is exactly one object per card.

    >>> c = Card(Suit.CLUBS, Rank.ACE)
    >>> c, c.index, c is Card.parse("A♣"), str(c)
    (Card('Ac'), 24, True, 'Ac')
    """

    __slots__ = ("index", "rank", "suit", "text")
    index: int
    suit: Suit
    rank: Rank
    text: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return CARDS[suit * 8 + rank]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        card.index = index
        card.suit = Suit(index >> 3)
        card.rank = Rank(index & 7)
        card.text = card.rank.letter + card.suit.letter
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``Th``, ``10h``, ``TH`` or ``T♥``; ranks must be upper-case."""
        card = _CARD_BY_TEXT.get(text)
        if card is not None:
            return card
        if len(text) < 2:
            raise NotationError(f"unknown card {text!r}")
        body = text.removesuffix("\ufe0f")
        try:
            return CARDS[Suit.parse(body[-1]) * 8 + Rank.parse(body[:-1])]
        except NotationError:
            raise NotationError(f"unknown card {text!r}") from None

    @property
    def bit(self) -> int:
        """This card's bit in a mask."""
        return 1 << self.index

    @property
    def pretty(self) -> str:
        """The card with its suit symbol and ``10``: ``10♥``."""
        return ("10" if self.rank == Rank.TEN else self.rank.letter) + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))


CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(32))
_CARD_BY_TEXT: Final = {c.text: c for c in CARDS}
FULL_MASK: Final = (1 << 32) - 1

#: Card points of each rank as a plain card and as a trump (R2.3), by rank value.
PLAIN_POINTS: Final = (11, 4, 3, 2, 10, 0, 0, 0)
TRUMP_POINTS: Final = (11, 4, 3, 20, 10, 14, 0, 0)
#: Trick-taking strength by rank value (R2.2): higher wins.
PLAIN_STRENGTH: Final = (7, 5, 4, 3, 6, 2, 1, 0)
TRUMP_STRENGTH: Final = (5, 3, 2, 7, 4, 6, 1, 0)


def _above(strength_of: tuple[int, ...]) -> tuple[int, ...]:
    """For each card index, the mask of the cards of its suit that beat it under
    ``strength_of`` (a strength by rank value).

    >>> str(CardSet(TRUMP_ABOVE[Card.parse("Ah").index]))
    'Jh 9h'
    >>> str(CardSet(PLAIN_ABOVE[Card.parse("Kh").index]))
    'Ah Th'
    """
    table = []
    for card in range(32):
        suit, rank = card >> 3, card & 7
        mask = 0
        for other in range(8):
            if strength_of[other] > strength_of[rank]:
                mask |= 1 << (suit * 8 + other)
        table.append(mask)
    return tuple(table)


#: For each card index, the mask of the cards of its suit that beat it (R2.2): as trumps
#: (``TRUMP_ABOVE``) and as plain cards, in Sun or in a side suit (``PLAIN_ABOVE``).
TRUMP_ABOVE: Final = _above(TRUMP_STRENGTH)
PLAIN_ABOVE: Final = _above(PLAIN_STRENGTH)
#: For each byte of a suit's cards (bit = rank value), the rank of its best card in plain
#: order, -1 for none: ``BEST_PLAIN[0b10010]`` is 4 (the Ten above the King).
BEST_PLAIN: Final = tuple(
    max((r for r in range(8) if byte >> r & 1), key=PLAIN_STRENGTH.__getitem__, default=-1)
    for byte in range(256)
)


def strength(card: Card, trump: Suit | None) -> int:
    """How high ``card`` ranks in a trick (R2.2): trumps above every plain card.

    Only cards of the suit led and trumps take part in a trick; compare those.

    >>> strength(Card.parse("9h"), Suit.HEARTS) > strength(Card.parse("Ah"), Suit.HEARTS)
    True
    >>> strength(Card.parse("9h"), None) < strength(Card.parse("Ah"), None)
    True
    """
    if trump is not None and card.suit == trump:
        return 8 + TRUMP_STRENGTH[card.rank]
    return PLAIN_STRENGTH[card.rank]


def trick_winner(cards: Iterable[Card], trump: Suit | None) -> int:
    """The position (0-based, in playing order) of the card that wins a trick so far (R9.2).

    >>> trick_winner([Card.parse("Ks")], None)
    0
    >>> trick_winner([Card.parse(c) for c in ("Ks", "As", "7h", "Td")], Suit.HEARTS)
    2
    """
    best = -1
    best_card: Card | None = None
    for position, card in enumerate(cards):
        if best_card is None or (
            (card.suit == best_card.suit or (trump is not None and card.suit == trump))
            and strength(card, trump) > strength(best_card, trump)
        ):
            best, best_card = position, card
    return best


#: The points the winner of the last trick adds to its team's card points (R2.3): 152 of 162
#: in Hokum, 120 of 130 in Sun are the cards'.
LAST_TRICK_POINTS: Final = 10


def card_points(mask: int, trump: int | None) -> int:
    """Card points of the cards in ``mask`` (R2.3), ``trump`` a suit value or None (Sun).

    >>> card_points(CardSet.parse("Jh 9h Ah Js").mask, Suit.HEARTS)
    47
    """
    total = 0
    for suit in range(4):
        byte = (mask >> (8 * suit)) & 0xFF
        if byte:
            total += _BYTE_POINTS[suit == trump][byte]
    return total


def _byte_points(points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(points[r] for r in range(8) if byte >> r & 1) for byte in range(256))


_BYTE_POINTS: Final = (_byte_points(PLAIN_POINTS), _byte_points(TRUMP_POINTS))


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class CardSet:
    """An immutable set of cards over a 32-bit mask, in the spirit of python-chess's SquareSet.

    Iteration goes by suit (♠ ♥ ♦ ♣), high card first in project order.

    >>> s = CardSet.parse("Ks Qs 7h")
    >>> s
    CardSet('Ks Qs 7h')
    >>> [c.text for c in s & CardSet.suit(Suit.SPADES)]
    ['Ks', 'Qs']
    >>> CardSet.parse(str(s)) == s
    True
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: int | Iterable[Card] = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_MASK:
                raise ValueError(f"not a 32-bit card mask: {cards:#x}")
            self.mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= 1 << card.index
            self.mask = mask

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces; a repeated card is an error."""
        mask = 0
        for word in text.split():
            bit = 1 << Card.parse(word).index
            if mask & bit:
                raise NotationError(f"card {word} is repeated")
            mask |= bit
        return cls(mask)

    @classmethod
    def suit(cls, suit: Suit) -> CardSet:
        """The eight cards of ``suit``."""
        return cls(suit.mask)

    @classmethod
    def full(cls) -> CardSet:
        """All 32 cards."""
        return cls(FULL_MASK)

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __str__(self) -> str:
        return " ".join(c.text for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def points(self, trump: Suit | None = None) -> int:
        """Card points of these cards with ``trump`` (None for Sun).

        >>> CardSet.parse("Jh Ah").points(Suit.HEARTS), CardSet.parse("Jh Ah").points()
        (31, 13)
        """
        return card_points(self.mask, None if trump is None else int(trump))
