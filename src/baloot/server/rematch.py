"""A rematch: the same seats at a new table, for the people of a finished match.

``POST /api/tables/ID/rematch`` with a seat's token of the finished table ``ID`` makes (once)
the table of its rematch: the same players, names, rules, timer and publicity, a new match
from a new secret deal. Its human seats keep the tokens they had: the rematch holds the same
token digests, so that each person's own link, with the table's id changed, is their seat's
link there, and nobody is given anyone else's token — the friend at another browser needs only
to learn the new table's id, which ``GET /api/tables/ID`` says (``rematch``) once it exists.

Its id is derived from the finished table's (:func:`rematch_id`): every node and every press
of the button finds the same table with nothing more stored, and two presses at once make one
table (storage refuses the second). The answer holds its first hand's commitment
(:func:`first_fair`): each seat's entropy for that hand comes after it, in an ``entropy``
message, and the hand waits for it (``docs/table-protocol.md``).

>>> rematch_id("t1"), rematch_id("t1") == rematch_id("t1"), rematch_id("t2") != rematch_id("t1")
('m8Q8hWB4IFGW', True, True)
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Final

from baloot.core.errors import BalootError
from baloot.core.seats import Seat
from baloot.records.fair import commitment_of
from baloot.records.record import read_rules
from baloot.server.journal import TableConfig
from baloot.server.room import Room
from baloot.server.seating import token_digest
from baloot.table.players import Player

#: The longest seat token read from a request (a token is 32 characters).
MAX_TOKEN: Final = 200


class RematchError(BalootError):
    """A rematch that cannot be made: ``status`` is the HTTP status to answer (403 a token
    that is no seat's, 409 a match not over)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def rematch_id(table_id: str) -> str:
    """The id of the rematch of table ``table_id``: 12 characters of a table id, from its
    SHA-256 (so a rematch of a rematch has an id as short)."""
    digest = hashlib.sha256(b"rematch:" + table_id.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode("ascii")


def seat_of(config: TableConfig, token: object) -> Seat:
    """The human seat of the finished table whose token ``token`` is; a
    :class:`RematchError` (403) for anything else."""
    if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN:
        digest = token_digest(token)
        for seat, kept in config.tokens.items():
            if kept == digest:
                return Seat[seat]
    raise RematchError("token is not a seat's token of this table", 403)


def first_fair(config: TableConfig) -> dict[str, Any] | None:
    """The first hand's fair table of the table ``config`` describes, as it was published
    when the table was made: its commitment, before any entropy (None for a table dealt from
    its seed).

    >>> from dataclasses import replace
    >>> config = TableConfig("t1", {}, (), "classic", 7, None, False, {}, 0.0)
    >>> first_fair(config) is None
    True
    >>> first_fair(replace(config, fair={"secret": "00" * 32}))["commitment"][:12]
    '66687aadf862'
    """
    if config.fair is None:
        return None
    secret = bytes.fromhex(config.fair["secret"])
    return {"hand": 1, "commitment": commitment_of(secret), "entropy": {}}


def rematch_room(
    config: TableConfig, secret_bytes: Callable[[int], bytes] = secrets.token_bytes
) -> Room:
    """The room of the rematch of the table ``config`` describes: its players, rules and
    tokens' digests, a new secret deal (from ``secret_bytes``)."""
    players: Mapping[Seat, Player] = {
        Seat[seat]: Player.human(label) if seat in config.humans else Player.parse(label)
        for seat, label in config.players.items()
    }
    digests = {Seat[seat]: digest for seat, digest in config.tokens.items()}
    rules = read_rules(config.rules)[0]
    return Room.create(
        players,
        rules,
        room_id=rematch_id(config.id),
        token_digests=digests,
        secret_bytes=secret_bytes,
    )
