"""The daily duplicate's rules as pure functions: the day's decks, their instances, the bots'
seeds and the matchpoints (``docs/daily.md``).

Every UTC day has one 32-byte secret, committed to (its SHA-256) when the day is first asked
for and revealed once it is over. Deal ``n`` (1 to :data:`DEALS`) is dealt from the deck
``derived_deck(SHA-256(secret ‖ "deal" ‖ n), {})`` of :mod:`baloot.records.fair`; instance
``k`` (0 to :data:`INSTANCES` - 1) is that deck with its suits renamed by
:func:`instance_suits` (instance 0 keeps them). Suits are alike in a Sun and the plain suits
alike in a Hokum, so a renamed deal is the same deal: it is worth the same, and every instance
of a deal is one field for the matchpoints; only its cards' names differ, so that the cards a
player saw cannot be passed on as they are.

>>> secret = bytes(32)
>>> " ".join(c.text for c in deal_deck(secret, 1, 0)[:4])
'8c 9d Qs Kd'
>>> " ".join(c.text for c in deal_deck(secret, 1, 1)[:4])
'8h 9d Qs Kd'
>>> matchpoints([10, 0, 0, -20])
[100.0, 50.0, 50.0, 0.0]
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import random
from collections.abc import Sequence
from typing import Final

from baloot.core.cards import Card, Suit
from baloot.core.seats import Seat
from baloot.records.fair import derived_deck

#: The deals of a day.
DEALS: Final = 8
#: The instances of each deal (the same deal under other suit names).
INSTANCES: Final = 4
#: The days a player must have played in a month to be on the month's leaderboard.
MONTH_DAYS: Final = 5
#: The dealer of deal ``n`` is ``DEALERS[(n - 1) % 4]``: South bids first, second, third, last.
DEALERS: Final = (Seat.W, Seat.N, Seat.E, Seat.S)
#: The 24 renamings of the suits, in a fixed order: suit ``s`` becomes ``RENAMINGS[k][s]``.
RENAMINGS: Final = tuple(itertools.permutations(tuple(Suit)))


def today(now: float) -> dt.date:
    """The UTC day of the instant ``now`` (seconds since the epoch)."""
    return dt.datetime.fromtimestamp(now, dt.UTC).date()


def deal_secret(secret: bytes, deal: int) -> bytes:
    """The secret deal ``deal`` of the day of ``secret`` is derived from."""
    return hashlib.sha256(secret + b"deal" + deal.to_bytes(1, "big")).digest()


def instance_suits(secret: bytes, deal: int, instance: int) -> tuple[Suit, ...]:
    """The renaming of the suits of ``instance`` of ``deal``: none for instance 0; the others
    drawn, all different, from the day's secret."""
    if instance == 0:
        return tuple(Suit)
    others = list(RENAMINGS[1:])
    random.Random(deal_secret(secret, deal) + b"instances").shuffle(others)
    return others[instance - 1]


def deal_deck(secret: bytes, deal: int, instance: int) -> tuple[Card, ...]:
    """The deck, top first, of ``instance`` of ``deal`` on the day of ``secret``."""
    renaming = instance_suits(secret, deal, instance)
    return tuple(
        Card(renaming[card.suit], card.rank) for card in derived_deck(deal_secret(secret, deal), {})
    )


def instance_of(secret: bytes, deal: int, player_id: str) -> int:
    """The instance of ``deal`` a player is dealt: drawn from the day's secret and their id."""
    digest = hashlib.sha256(deal_secret(secret, deal) + player_id.encode("utf-8")).digest()
    return digest[0] % INSTANCES


def bot_seed(secret: bytes, deal: int, seat: Seat, moves: int) -> int:
    """The seed of the bot at ``seat`` deciding after ``moves`` actions of ``deal``: the same
    for every player, so that the field meets the same bots."""
    digest = hashlib.sha256(deal_secret(secret, deal) + seat.name.encode() + moves.to_bytes(2))
    return int.from_bytes(digest.digest()[:8], "big")


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Each score's matchpoints in the field of ``scores``: the percentage of the others it
    beats, a tie counting half; alone in the field, 50."""
    others = len(scores) - 1
    if others <= 0:
        return [50.0 for _ in scores]
    return [
        round(
            100.0 * sum(1.0 if o < s else 0.5 if o == s else 0.0 for o in scores) / others
            - 50.0 / others,
            2,
        )
        for s in scores
    ]


def histogram(points: Sequence[float]) -> list[int]:
    """How many matchpoints fall in each tenth: 0–9.99, 10–19.99, …, 90–100."""
    counts = [0] * 10
    for value in points:
        counts[min(9, int(value // 10))] += 1
    return counts
