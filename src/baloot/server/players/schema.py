"""The players' schema versions, in order: the part of ``storage.MIGRATIONS`` after the
tables' own four.

Each feature of the players keeps its SQL beside the code that reads it; this list is where
a new version is appended, so that the order of versions is written in one place.

>>> from baloot.server.storage import MIGRATIONS
>>> MIGRATIONS[-len(PLAYERS_MIGRATIONS):] == PLAYERS_MIGRATIONS
True
"""

from __future__ import annotations

from typing import Final

from baloot.server.players.accounts import SCHEMA as ACCOUNTS_SCHEMA
from baloot.server.players.daily_store import DAILY_SCHEMA
from baloot.server.players.operators import OPERATORS_SCHEMA
from baloot.server.players.rating_store import RATINGS_SCHEMA
from baloot.server.players.screen_runs import SCREEN_SCHEMA
from baloot.server.players.social_schema import SOCIAL_SCHEMA
from baloot.server.tournaments.store import TOURNAMENTS_SCHEMA

PLAYERS_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    # 5: accounts, their sessions and seats, and failed sign-ins (``accounts``).
    ACCOUNTS_SCHEMA,
    # 6: friends, blocks, invitations and the quick match's queue (``social_schema``).
    SOCIAL_SCHEMA,
    # 7: the players' ratings and each rated match's changes (``rating_store``).
    RATINGS_SCHEMA,
    # 8: the daily duplicate's days and plays (``daily_store``).
    DAILY_SCHEMA,
    # 9: the accounts that are operators (``operators``).
    OPERATORS_SCHEMA,
    # 10: the collusion screen's runs and reviews (``screen_runs``).
    SCREEN_SCHEMA,
    # 11: Swiss tournaments for pairs, their pairs, games and seats (``tournaments.store``).
    TOURNAMENTS_SCHEMA,
)
