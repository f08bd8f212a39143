"""Precomputed masks and prebuilt actions for the engine's hot path.

Everything here is computed once at import so that legal-move generation and ``apply`` are a
few bit operations and table look-ups, with no allocation of new action objects.
"""

from __future__ import annotations

from itertools import product
from typing import Final

from baloot.core.actions import Action, Claim, Verb
from baloot.core.cards import BEST_PLAIN as BEST_PLAIN
from baloot.core.cards import CARDS, PLAIN_STRENGTH, TRUMP_STRENGTH, Rank, Suit
from baloot.core.cards import PLAIN_ABOVE as PLAIN_ABOVE
from baloot.core.cards import TRUMP_ABOVE as TRUMP_ABOVE
from baloot.core.projects import ProjectKind
from baloot.core.seats import SEATS

SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in range(4))
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")

TRUMP_RANK_STRENGTH: Final = tuple(TRUMP_STRENGTH[c & 7] for c in range(32))
PLAIN_RANK_STRENGTH: Final = tuple(PLAIN_STRENGTH[c & 7] for c in range(32))
KING_QUEEN: Final = tuple(
    (1 << (s * 8 + Rank.KING)) | (1 << (s * 8 + Rank.QUEEN)) for s in range(4)
)
ACE_RANK: Final = int(Rank.ACE)

PLAY: Final = tuple(tuple(Action(seat, Verb.PLAY, card=c) for c in CARDS) for seat in SEATS)
PLAY_EKKA: Final = tuple(
    tuple(Action(seat, Verb.PLAY, card=c, ekka=True) for c in CARDS) for seat in SEATS
)
PASS: Final = tuple(Action(seat, Verb.PASS) for seat in SEATS)
HOKUM: Final = tuple(Action(seat, Verb.HOKUM) for seat in SEATS)
SUN: Final = tuple(Action(seat, Verb.SUN) for seat in SEATS)
ASHKAL: Final = tuple(Action(seat, Verb.ASHKAL) for seat in SEATS)
KAWESH: Final = tuple(Action(seat, Verb.KAWESH) for seat in SEATS)
TRUMP: Final = tuple(tuple(Action(seat, Verb.TRUMP, suit=s) for s in Suit) for seat in SEATS)
DOUBLE_SUN: Final = tuple(Action(seat, Verb.DOUBLE) for seat in SEATS)
DOUBLE_OPEN: Final = tuple(Action(seat, Verb.DOUBLE, locked=False) for seat in SEATS)
DOUBLE_LOCKED: Final = tuple(Action(seat, Verb.DOUBLE, locked=True) for seat in SEATS)
TRIPLE: Final = tuple(Action(seat, Verb.TRIPLE) for seat in SEATS)
FOUR_OPEN: Final = tuple(Action(seat, Verb.FOUR, locked=False) for seat in SEATS)
FOUR_LOCKED: Final = tuple(Action(seat, Verb.FOUR, locked=True) for seat in SEATS)
GAHWA: Final = tuple(Action(seat, Verb.GAHWA) for seat in SEATS)
#: For each seat, its ``declare`` of one project kind or of two, by the kinds in order.
DECLARE: Final = tuple(
    {
        kinds: Action(seat, Verb.DECLARE, claims=tuple(Claim(k) for k in kinds))
        for kinds in (*((k,) for k in ProjectKind), *product(ProjectKind, repeat=2))
    }
    for seat in SEATS
)

#: For each seat, suit and byte of a suit's bits: the plays of those cards, high card first.
PLAY_BY_BYTE: Final = tuple(
    tuple(
        tuple(
            tuple(PLAY[seat][suit * 8 + r] for r in range(8) if byte >> r & 1)
            for byte in range(256)
        )
        for suit in range(4)
    )
    for seat in range(4)
)
