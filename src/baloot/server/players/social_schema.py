"""The tables of the quick-match queue and of friends: one schema version of
:data:`~baloot.server.storage.MIGRATIONS`, written once for both backends.

``friends`` holds one row per direction: ``asked`` (the player asked the friend), ``friends``
(a row each way once accepted) or ``blocked`` (the player blocks the other). ``queue`` holds a
player waiting for a quick match (``table_id`` NULL), being seated (``claim``: the pairing
step of one node that took the row) or seated (``table_id``, ``seat`` and the seat's
``token``, which the player reads once by polling). ``invites`` gives a friend a seat of a
table in play, with its token until it is accepted. ``player_seen`` is when a player last
asked anything of the friends' or the queue's endpoints: what "online" is read from.
"""

from __future__ import annotations

from typing import Final

SOCIAL_SCHEMA: Final = (
    """CREATE TABLE friends (
        player_id TEXT NOT NULL REFERENCES players (id),
        friend_id TEXT NOT NULL REFERENCES players (id),
        state TEXT NOT NULL CHECK (state IN ('asked', 'friends', 'blocked')),
        since DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (player_id, friend_id)
    )""",
    "CREATE INDEX friends_friend ON friends (friend_id)",
    """CREATE TABLE queue (
        player_id TEXT PRIMARY KEY REFERENCES players (id),
        preset TEXT NOT NULL,
        timer INTEGER,
        rating DOUBLE PRECISION NOT NULL,
        joined DOUBLE PRECISION NOT NULL,
        table_id TEXT REFERENCES tables (id),
        seat TEXT,
        token TEXT,
        bots INTEGER NOT NULL DEFAULT 0,
        seen DOUBLE PRECISION NOT NULL,
        claim TEXT,
        claimed DOUBLE PRECISION
    )""",
    "CREATE INDEX queue_waiting ON queue (preset, timer, joined)",
    """CREATE TABLE invites (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players (id),
        friend_id TEXT NOT NULL REFERENCES players (id),
        table_id TEXT NOT NULL REFERENCES tables (id),
        seat TEXT NOT NULL,
        token TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        UNIQUE (table_id, seat)
    )""",
    "CREATE INDEX invites_friend ON invites (friend_id)",
    """CREATE TABLE player_seen (
        player_id TEXT PRIMARY KEY REFERENCES players (id),
        seen DOUBLE PRECISION NOT NULL
    )""",
)
