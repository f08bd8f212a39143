"""Operators: the accounts that may read the collusion screen's results and mark a pair
reviewed (``docs/integrity.md``).

An account is an operator while its row in ``operators`` exists: ``baloot operators add``
makes the row, ``remove`` drops it (:mod:`~baloot.server.players.operators_command`), and so
does deleting the account. The row is in the database, read at every request, so every node
agrees at once and nothing is cached in a session: removing an operator takes effect on
their next request. Nobody becomes an operator over HTTP.

>>> from baloot.server.storage import open_store
>>> store = open_store(":memory:")
>>> saad = store.register("Saad", "$argon2id$...", when=1000.0)
>>> store.add_operator(saad.id, when=1001.0), store.is_operator(saad.id)
(True, True)
>>> store.add_operator(saad.id, when=1002.0)  # an operator already: nothing changes
False
>>> [(player.name, added) for player, added in store.operators()]
[('Saad', 1001.0)]
>>> store.remove_operator(saad.id), store.is_operator(saad.id)
(True, False)
>>> store.close()
"""

from __future__ import annotations

from typing import Final

from baloot.server.players.accounts import Player
from baloot.server.transactions import Transactions

#: The schema version of the operators (the ninth of ``storage.MIGRATIONS``).
OPERATORS_SCHEMA: Final = (
    """CREATE TABLE operators (
        player_id TEXT PRIMARY KEY REFERENCES players (id),
        added DOUBLE PRECISION NOT NULL
    )""",
)


class Operators(Transactions):
    """The accounts that are operators (a part of the Store)."""

    def add_operator(self, player_id: str, when: float) -> bool:
        """Make the account ``player_id`` (one not deleted) an operator from ``when``;
        whether this made it one (False: it was one already, or is deleted)."""
        with self._transaction() as run:
            made = run(
                "INSERT INTO operators (player_id, added)"
                " SELECT id, ? FROM players WHERE id = ? AND deleted IS NULL"
                " ON CONFLICT (player_id) DO NOTHING RETURNING player_id",
                (when, player_id),
            )
        return bool(made)

    def remove_operator(self, player_id: str) -> bool:
        """The account ``player_id`` is no operator from now; whether it was one."""
        with self._transaction() as run:
            gone = run(
                "DELETE FROM operators WHERE player_id = ? RETURNING player_id", (player_id,)
            )
        return bool(gone)

    def is_operator(self, player_id: str) -> bool:
        """Whether the account ``player_id`` is an operator now."""
        with self._transaction() as run:
            rows = run(
                "SELECT 1 FROM operators o JOIN players p ON p.id = o.player_id"
                " WHERE o.player_id = ? AND p.deleted IS NULL",
                (player_id,),
            )
        return bool(rows)

    def operators(self) -> list[tuple[Player, float]]:
        """Every operator and when it became one, by name."""
        with self._transaction() as run:
            rows = run(
                "SELECT p.id, p.name, p.created, o.added FROM operators o"
                " JOIN players p ON p.id = o.player_id WHERE p.deleted IS NULL"
                " ORDER BY p.name_key"
            )
        return [(Player(id_, name, created), float(added)) for id_, name, created, added in rows]
