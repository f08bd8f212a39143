"""Players' accounts as the store keeps them: the players, their sessions, the failed sign-ins
that throttle guessing, and which account sits at which seat.

Everything is in the database (schema version 5 of :data:`~baloot.server.storage.MIGRATIONS`),
so that every node knows every player and session. A player's row is never removed: a
deleted account keeps its id (its seats and matches still name it, as "a deleted player")
with its name, key and hash emptied, and its sessions go. A session row is found by the
SHA-256 of its cookie's token (:mod:`~baloot.server.players.sessions`): the token itself is
never kept. Each method is one transaction.

>>> from baloot.server.storage import open_store
>>> store = open_store(":memory:")
>>> saad = store.register("Saad", "$argon2id$...", when=1000.0)
>>> store.player_named("SAAD") == saad, len(saad.id)
(True, 16)
>>> store.register("sаad", "$argon2id$...", when=1001.0)  # a Cyrillic "а"
Traceback (most recent call last):
...
baloot.server.players.accounts.NameTaken: that name is taken
>>> store.delete_player(saad.id, when=1002.0)
>>> store.player(saad.id), store.player_named("Saad")
(Player(id=..., name='', created=1000.0), None)
>>> store.close()
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from baloot.server.players.names import name_key
from baloot.server.transactions import Run, StorageError, Transactions

#: The SQL of schema version 5 (appended to ``MIGRATIONS`` by the store).
SCHEMA: tuple[str, ...] = (
    """CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        deleted DOUBLE PRECISION
    )""",
    """CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        player_id TEXT NOT NULL REFERENCES players (id),
        csrf TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        expires DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX sessions_player ON sessions (player_id)",
    "CREATE TABLE login_attempts (key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX login_attempts_key ON login_attempts (key, at)",
    """CREATE TABLE seat_players (
        table_id TEXT NOT NULL REFERENCES tables (id),
        seat TEXT NOT NULL,
        player_id TEXT NOT NULL REFERENCES players (id),
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE INDEX seat_players_player ON seat_players (player_id)",
)


@dataclass(frozen=True)
class Player:
    """A player with an account: its id (16 url-safe characters, never reused), its name as
    typed (NFKC; '' once deleted) and when it was made (seconds since the epoch)."""

    id: str
    name: str
    created: float


@dataclass(frozen=True)
class Session:
    """A session as kept: its player, its CSRF token and when it ends."""

    player: Player
    csrf: str
    expires: float


class NameTaken(StorageError):
    """A name whose key another player's name has: a refusal of the store's, as a table
    made twice is (so that it reaches its caller as it is, from the writer thread)."""

    def __init__(self) -> None:
        super().__init__("that name is taken")


class SeatTaken(StorageError):
    """A seat that another account holds already (a refusal of the store's)."""

    def __init__(self, table_id: str, seat: str) -> None:
        super().__init__(f"seat {seat} of table {table_id} is another player's")


class Accounts(Transactions):
    """The players, their sessions and seats, and the failed sign-ins (a part of the Store)."""

    # -- players ------------------------------------------------------------------------

    def register(self, name: str, password_hash: str, when: float) -> Player:
        """A new player named ``name`` (a checked name) with the password ``password_hash``
        hashes; a :class:`NameTaken` when a player's name has the same key."""
        player = Player(secrets.token_urlsafe(12), name, when)
        with self._transaction() as run:
            # One statement that cannot fail on the unique key: two nodes registering one
            # name at once make one player, and the other is told the name is taken.
            made = run(
                "INSERT INTO players (id, name, name_key, password, created) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (name_key) DO NOTHING RETURNING id",
                (player.id, name, name_key(name), password_hash, when),
            )
        if not made:
            raise NameTaken()
        return player

    def player(self, player_id: str) -> Player | None:
        """The player ``player_id`` (a deleted one too, named ''), or None."""
        with self._transaction() as run:
            rows = run("SELECT id, name, created FROM players WHERE id = ?", (player_id,))
        return Player(*rows[0]) if rows else None

    def player_named(self, name: str) -> Player | None:
        """The player whose name is the same name as ``name`` (by its key), or None."""
        found = self.credentials(name)
        return None if found is None else found[0]

    def credentials(self, name: str) -> tuple[Player, str] | None:
        """The player named ``name`` (by its key) and its password's hash, or None."""
        with self._transaction() as run:
            rows = run(
                "SELECT id, name, created, password FROM players"
                " WHERE name_key = ? AND deleted IS NULL",
                (name_key(name),),
            )
        if not rows:
            return None
        id_, kept_name, created, password = rows[0]
        return Player(id_, kept_name, created), str(password)

    def password_hash(self, player_id: str) -> str | None:
        """The password's hash of the player ``player_id``, None once deleted or unknown."""
        with self._transaction() as run:
            rows = run(
                "SELECT password FROM players WHERE id = ? AND deleted IS NULL", (player_id,)
            )
        return str(rows[0][0]) if rows else None

    def set_password(self, player_id: str, password_hash: str, keep_session: str) -> None:
        """Give the player a new password (its hash) and end its sessions but
        ``keep_session`` (the one that asked), in one transaction."""
        with self._transaction() as run:
            run("UPDATE players SET password = ? WHERE id = ?", (password_hash, player_id))
            run(
                "DELETE FROM sessions WHERE player_id = ? AND id <> ?",
                (player_id, keep_session),
            )

    def delete_player(self, player_id: str, when: float) -> None:
        """Delete the player's account: its name, key and hash emptied (its id stays, for the
        seats it held), its sessions ended; its friendships, requests and blocks, its
        invitations either way, its place in the quick match's queue, when it was last
        seen and its being an operator go with it (no list shows a player with no name)."""
        with self._transaction() as run:
            run("DELETE FROM sessions WHERE player_id = ?", (player_id,))
            run("DELETE FROM operators WHERE player_id = ?", (player_id,))
            for table in ("friends", "invites"):
                run(
                    f"DELETE FROM {table} WHERE player_id = ? OR friend_id = ?",
                    (player_id, player_id),
                )
            run("DELETE FROM queue WHERE player_id = ?", (player_id,))
            run("DELETE FROM player_seen WHERE player_id = ?", (player_id,))
            run(
                "UPDATE players SET name = '', name_key = 'deleted:' || id, password = '',"
                " deleted = ? WHERE id = ? AND deleted IS NULL",
                (when, player_id),
            )

    # -- sessions -----------------------------------------------------------------------

    def open_session(
        self, session_id: str, player_id: str, csrf: str, when: float, expires: float
    ) -> None:
        """Keep a new session of the player (``session_id``: the SHA-256 of its token)."""
        with self._transaction() as run:
            run(
                "INSERT INTO sessions (id, player_id, csrf, created, expires)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, player_id, csrf, when, expires),
            )

    def session(self, session_id: str, now: float) -> Session | None:
        """The session ``session_id`` if it has not expired at ``now`` and its player exists."""
        with self._transaction() as run:
            rows = run(
                "SELECT p.id, p.name, p.created, s.csrf, s.expires FROM sessions s"
                " JOIN players p ON p.id = s.player_id"
                " WHERE s.id = ? AND s.expires > ? AND p.deleted IS NULL",
                (session_id, now),
            )
        if not rows:
            return None
        id_, name, created, csrf, expires = rows[0]
        return Session(Player(id_, name, created), str(csrf), float(expires))

    def renew_session(self, session_id: str, expires: float, now: float) -> None:
        """Move the session's end to ``expires``, and drop every session ended at ``now``."""
        with self._transaction() as run:
            run("UPDATE sessions SET expires = ? WHERE id = ?", (expires, session_id))
            run("DELETE FROM sessions WHERE expires <= ?", (now,))

    def end_session(self, session_id: str) -> None:
        """End the session ``session_id`` (signing out)."""
        with self._transaction() as run:
            run("DELETE FROM sessions WHERE id = ?", (session_id,))

    # -- failed sign-ins ----------------------------------------------------------------

    def login_failures(self, keys: Iterable[str], since: float) -> dict[str, list[float]]:
        """The times of the failed sign-ins under each of ``keys`` since ``since``, oldest
        first."""
        found: dict[str, list[float]] = {}
        with self._transaction() as run:
            for key in keys:
                rows = run(
                    "SELECT at FROM login_attempts WHERE key = ? AND at >= ? ORDER BY at",
                    (key, since),
                )
                found[key] = [float(at) for (at,) in rows]
        return found

    def note_login_failure(self, keys: Iterable[str], when: float, forget_before: float) -> None:
        """Note a failed sign-in under each of ``keys``, and forget those before
        ``forget_before`` (nothing older counts)."""
        with self._transaction() as run:
            rows = ((key, when) for key in keys)
            run.many("INSERT INTO login_attempts (key, at) VALUES (?, ?)", rows)
            run("DELETE FROM login_attempts WHERE at < ?", (forget_before,))

    # -- seats --------------------------------------------------------------------------

    def bind_seat(self, table_id: str, seat: str, player_id: str) -> bool:
        """Make the seat of the table the player's from now on; True when this bound it, False
        when it was the player's already; a :class:`SeatTaken` when it is another's."""
        with self._transaction() as run:
            self._known(run, table_id)
            return self._bind(run, table_id, seat, player_id)

    @staticmethod
    def _bind(run: Run, table_id: str, seat: str, player_id: str) -> bool:
        made = run(
            "INSERT INTO seat_players (table_id, seat, player_id) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, seat) DO NOTHING RETURNING player_id",
            (table_id, seat, player_id),
        )
        if made:
            return True
        rows = run(
            "SELECT player_id FROM seat_players WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )
        if rows and rows[0][0] == player_id:
            return False
        raise SeatTaken(table_id, seat)

    def seat_players_of(self, table_id: str) -> dict[str, str]:
        """The seats of the table that accounts hold: seat letter → player id."""
        with self._transaction() as run:
            rows = run(
                "SELECT seat, player_id FROM seat_players WHERE table_id = ? ORDER BY seat",
                (table_id,),
            )
        return {str(seat): str(player_id) for seat, player_id in rows}
