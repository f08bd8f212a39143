"""The rules of play (R9) as bit arithmetic: the legal cards, who takes a trick, Ekka leads.

The one statement of the rules of play. The hand (:meth:`~baloot.core.hand.Hand.legal_actions`),
the search position (:class:`~baloot.core.position.Position`), what the history proves about a
seat's hidden cards (:mod:`baloot.core.knowledge`), the bots and the solver all ask these
functions, and the solver's compiled search is checked against them. Cards are indices 0..31
(bit ``8 * suit + rank`` of a mask, see :class:`~baloot.core.cards.Card`), a trump suit is
0..3 or -1 in Sun.

>>> from baloot.core.cards import Card, CardSet
>>> held = CardSet.parse("Ah Kh 7s").mask
>>> seven = Card.parse("7h").index
>>> str(CardSet(play_mask(held, (seven,), True, seven, False, -1, False, True, False)))
'Ah Kh'
>>> beats(Card.parse("Kh").index, seven, trump=-1)
True
"""

from __future__ import annotations

from typing import Final

from baloot.core import _lookup as T
from baloot.core.cards import BEST_PLAIN

_TRUMP_STRENGTH: Final = T.TRUMP_RANK_STRENGTH
_PLAIN_STRENGTH: Final = T.PLAIN_RANK_STRENGTH
_SUIT_MASKS: Final = T.SUIT_MASKS
_TRUMP_ABOVE: Final = T.TRUMP_ABOVE


def play_mask(
    held: int,
    trick: tuple[int, ...],
    opponent_winning: bool,
    win_card: int,
    ekka: bool,
    trump: int,
    locked: bool,
    partner_led_must_trump: bool,
    must_undertrump: bool,
) -> int:
    """The cards of ``held`` that may be played on ``trick`` (R9.3–R9.4), as a mask.

    The one statement of the rules of play: the hand, a search position and what the history
    proves about a seat's hidden cards all ask it. ``trick`` holds the card indices played so
    far; ``opponent_winning`` whether the card winning it (``win_card``) is the other team's;
    ``ekka`` whether the lead was announced as an Ekka; ``trump`` the trump suit, or -1 in Sun;
    ``locked`` whether a locked double forbids leading trumps.

    >>> from baloot.core.cards import Card, CardSet
    >>> held = CardSet.parse("Ah 7h 9s").mask
    >>> played = Card.parse("Kh").index
    >>> str(CardSet(play_mask(held, (played,), True, played, False, -1, False, True, False)))
    'Ah 7h'
    """
    if trump < 0:
        if not trick:
            return held
        return held & _SUIT_MASKS[trick[0] >> 3] or held
    tm = _SUIT_MASKS[trump]
    if not trick:
        if locked and held & ~tm:
            return held & ~tm
        return held
    led = trick[0] >> 3
    trumps = held & tm
    if led == trump:
        if not trumps:
            return held
        if opponent_winning:
            higher = trumps & _TRUMP_ABOVE[win_card]
            if higher:
                return higher
        return trumps
    follow = held & _SUIT_MASKS[led]
    if follow:
        return follow
    if not trumps:
        return held
    if not opponent_winning:
        if len(trick) == 2 and partner_led_must_trump and trick[0] & 7 != 0 and not ekka:
            return trumps
        return held
    if win_card >> 3 == trump:
        higher = trumps & _TRUMP_ABOVE[win_card]
        if higher:
            return higher
        return trumps if must_undertrump else held
    return trumps


def beats(card: int, win_card: int, trump: int) -> bool:
    """True when ``card`` takes the trick from ``win_card``, the card winning it (R9.2): a
    higher card of its suit, or a trump on a side suit (``trump`` is -1 in Sun).

    >>> from baloot.core.cards import Card
    >>> jack, ace, seven = (Card.parse(c).index for c in ("Jh", "Ah", "7s"))
    >>> beats(jack, ace, trump=-1), beats(jack, ace, trump=1), beats(seven, ace, trump=0)
    (False, True, True)
    """
    if card >> 3 == win_card >> 3:
        table = _TRUMP_STRENGTH if card >> 3 == trump else _PLAIN_STRENGTH
        return bool(table[card] > table[win_card])
    return card >> 3 == trump


def ekka_mask(held: int, gone: int, trump: int) -> int:
    """The cards of ``held`` that are a valid Ekka lead (R9.5) once ``gone`` have fallen:
    per side suit of a Hokum in ``trump`` (-1 in Sun: none), the best card still out, if held
    and not an Ace.

    >>> from baloot.core.cards import CardSet
    >>> gone = CardSet.parse("Ac Tc").mask
    >>> str(CardSet(ekka_mask(CardSet.parse("Kc Qc Jh").mask, gone, trump=1)))
    'Kc'
    """
    if trump < 0:
        return 0
    out = ~gone
    found = 0
    for suit in range(4):
        if suit != trump:
            best = BEST_PLAIN[(out >> (suit << 3)) & 0xFF]
            if best > 0 and held >> (best + (suit << 3)) & 1:
                found |= 1 << (best + (suit << 3))
    return found
