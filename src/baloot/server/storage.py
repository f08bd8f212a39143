"""Where tables and finished matches are kept: SQLite on a file, or a PostgreSQL database.

A :class:`Store` keeps each table's :class:`~baloot.server.journal.TableConfig` and its
:class:`~baloot.server.journal.Step` values (to resume the tables in play after a restart),
each finished match's record and summary (for the history and
``GET /api/matches/ID/record``), and the analyses of finished hands once computed; and, for
several nodes over one database, the nodes' leases on tables (:mod:`~baloot.server.leases`)
and the lobby across nodes (:mod:`~baloot.server.lobby`), on the connection and transactions
of :mod:`~baloot.server.transactions`.
:func:`open_store` picks the backend from its text: a ``postgresql://`` or ``postgres://``
URL, otherwise a SQLite file path (``:memory:`` too).

Every method is one transaction, committed before it returns: the server persists a step
before it acknowledges it. Steps are numbered from 0 in a table's life, and whoever appends
them says which number comes first: a step that is not the next one is refused, so that a
second copy of a table writing to the same journal fails loudly instead of mixing its steps
in; and a node's writes give its lease on the table, checked in the same transaction (a
:class:`LeaseLost` once another node took it: :mod:`~baloot.server.leases`, the fence). The
database's own failures (a full disk, a lost connection) are raised as :class:`StorageError`,
one line each; a lost PostgreSQL connection as :class:`StorageAway`, and it is opened again
(:mod:`~baloot.server.transactions`). Methods are synchronous and meant for one writer
thread (but ``listen_lobby``, which opens an asynchronous listener); a store may be used from a
thread other than the one that opened it (a lock guards the connection).

SQLite runs in WAL mode with ``synchronous=FULL``: a commit is on disk when ``append``
returns, so neither a crash nor a power cut loses an acknowledged step. Measured on the
development machine (ext4 on a virtual disk, 1000 appends of one step), an append takes
0.25 ms at the median, 0.4 ms at the 90th percentile and 1.1 ms at the 99th, within the 1 ms
budget, so ``NORMAL`` (which may lose the last commits in a power cut) was not needed. A
local PostgreSQL 15 (``fsync`` and ``synchronous_commit`` on) takes 0.75 ms at the median.

PostgreSQL keeps its tables in the connection's ``search_path`` (``public`` by default);
``open_store(url, schema=...)`` makes and uses a schema of its own, as the tests do (a URL's
``?options=-csearch_path%3DNAME`` works too, for a schema that exists).

The schema is versioned: ``schema_version`` holds the version, and :data:`MIGRATIONS` lists
the SQL of each version in order; opening a store applies the missing versions, one
transaction each. A database newer than this code is refused with a :class:`StorageError`, and
so is one with tables but no version (its ``schema_version`` was emptied or dropped).

>>> from baloot.core.seats import Seat
>>> from baloot.server.journal import Step, StepKind, TableConfig
>>> store = open_store(":memory:")
>>> config = TableConfig("t1", {"N": "bot:heuristic", "E": "bot:heuristic", "S": "Saad",
...     "W": "bot:heuristic"}, ("S",), "classic", 7, None, True, {"S": "ab12"}, 1700000000.0)
>>> store.create(config)
>>> store.append("t1", [Step(StepKind.ACT, v=2, id="c1", actions=("S pass",))], first=0)
>>> [(table.id, [step.v for step in steps]) for table, steps in
...     (kept.read() for kept in store.playing())]
[('t1', [2])]
>>> store.append("t1", [Step(StepKind.SEAT, v=3, seat=Seat.S)], first=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.server.transactions.StorageError: table t1 goes on at step 1, not 0: another copy ...
>>> store.match_record("t1")
(<TableStatus.PLAYING: 'playing'>, None)
>>> store.finish("t1", "format = 'baloot/1'\\n", {"winner": "NS"}, when=1700000900.0)
>>> [(entry["id"], entry["status"], entry["summary"]) for entry in store.history()]
[('t1', <TableStatus.OVER: 'over'>, {'winner': 'NS'})]
>>> store.match_record("t1")
(<TableStatus.OVER: 'over'>, "format = 'baloot/1'\\n")
>>> store.keep_analysis("t1", 1, "d1", {"format": "baloot-analysis/1"}, when=1700000950.0)
>>> store.analysis("t1", 1, "d1"), store.analysis("t1", 1, "d2")
({'format': 'baloot-analysis/1'}, None)
>>> store.close()
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Final

import psycopg
from psycopg import sql

from baloot.server.journal import KeptTable, Step, TableConfig
from baloot.server.leases import Fence, Leases
from baloot.server.leases import LeaseLost as LeaseLost
from baloot.server.lobby import Lobby
from baloot.server.players.accounts import Accounts
from baloot.server.players.daily_store import Daily
from baloot.server.players.friends import Friends
from baloot.server.players.operators import Operators
from baloot.server.players.quick_match import QuickMatch
from baloot.server.players.rating_store import Ratings
from baloot.server.players.schema import PLAYERS_MIGRATIONS
from baloot.server.players.screen_runs import ScreenRuns
from baloot.server.tournaments.store import Tournaments
from baloot.server.transactions import Reopen, Run, dumps, read_json
from baloot.server.transactions import StorageAway as StorageAway
from baloot.server.transactions import StorageError as StorageError


class TableStatus(StrEnum):
    """A table's status: in play, over (its record is kept), or closed unfinished; or, known
    only to the hall and never stored, kept in storage but not restorable."""

    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"
    UNRESTORABLE = "unrestorable"


#: The SQL of each schema version, in order: ``MIGRATIONS[0]`` makes version 1. A later
#: version appends its list of steps; written once for both backends (``?`` placeholders,
#: types both understand).
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            config TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'closed')),
            public INTEGER NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            last_seen DOUBLE PRECISION NOT NULL,
            finished DOUBLE PRECISION,
            summary TEXT,
            record TEXT
        )""",
        """CREATE TABLE steps (
            table_id TEXT NOT NULL REFERENCES tables (id),
            n INTEGER NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (table_id, n)
        )""",
        "CREATE INDEX tables_status_finished ON tables (status, finished)",
    ),
    (
        # The analysis of a finished hand, computed once (``baloot.server.analyses``);
        # ``digest`` names the hand it was made of (an undo may replay a hand differently).
        """CREATE TABLE analyses (
            table_id TEXT NOT NULL REFERENCES tables (id),
            hand INTEGER NOT NULL,
            digest TEXT NOT NULL,
            body TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, hand)
        )""",
    ),
    (
        # Several nodes over one database (``baloot.server.leases``): each node, and the
        # lease of the one node that serves a table.
        """CREATE TABLE nodes (
            name TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            load INTEGER NOT NULL,
            heartbeat DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE leases (
            table_id TEXT PRIMARY KEY REFERENCES tables (id),
            node TEXT NOT NULL REFERENCES nodes (name),
            expires DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX leases_node ON leases (node)",
        # The hand and the totals of a table in play, for the lobby of every node
        # (``baloot.server.lobby``).
        "ALTER TABLE tables ADD COLUMN hand INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE tables ADD COLUMN score_ns INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE tables ADD COLUMN score_ew INTEGER NOT NULL DEFAULT 0",
    ),
    (
        # The fencing of leases (``baloot.server.leases``): how many times a node took the
        # table (kept with the table: a lease row is dropped when given up), and the number
        # of the take that a lease is, which every write of the table's journal must match.
        "ALTER TABLE tables ADD COLUMN lease_epoch INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE leases ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0",
    ),
    # Then the players' versions, from 5 (``baloot.server.players.schema``).
    *PLAYERS_MIGRATIONS,
)

#: A lock key for PostgreSQL's ``pg_advisory_xact_lock``: migrations run one at a time.
_MIGRATION_LOCK: Final = 0x62616C6F6F74
#: How long opening a store waits for PostgreSQL to answer, in seconds.
OPEN_TIMEOUT: Final = 10
#: How long opening a lost connection again waits, in seconds: the store's one writer
#: waits meanwhile, so less than the leases' renewals (a refused connection fails at once).
REOPEN_TIMEOUT: Final = 2
#: How long, in seconds, PostgreSQL lets a store's session sit in a transaction without a
#: statement (the store's transactions take milliseconds) before it ends the session.
IDLE_IN_TRANSACTION: Final = 2
#: The longest wait of a statement for a lock, in seconds (a lock held that long is a fault).
LOCK_WAIT: Final = 4


def open_store(target: str, *, schema: str | None = None) -> Store:
    """The store at ``target`` (a PostgreSQL URL or a SQLite path), migrated to the current
    schema; ``schema`` (PostgreSQL only) is made if missing and used instead of ``public``,
    which is how tests get a database of their own."""
    if target.startswith(("postgresql://", "postgres://")):
        try:
            connection = _postgres_connection(target, schema, OPEN_TIMEOUT)
        except psycopg.Error as error:
            raise StorageError(f"cannot connect to PostgreSQL: {error}") from error
        info = connection.info
        where = f"PostgreSQL database {info.dbname} at {info.host}:{info.port}"
        reopen = functools.partial(_postgres_connection, target, schema, REOPEN_TIMEOUT)
        return Store(connection, where, target, reopen)
    if schema is not None:
        raise StorageError("a schema applies to PostgreSQL only")
    try:
        lite = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
        lite.execute("PRAGMA journal_mode = WAL")
        lite.execute("PRAGMA synchronous = FULL")
        lite.execute("PRAGMA foreign_keys = ON")
        lite.execute("PRAGMA busy_timeout = 5000")
    except sqlite3.Error as error:
        raise StorageError(f"cannot open the SQLite database {target}: {error}") from error
    return Store(lite, f"SQLite database {target}", target)


def _postgres_connection(target: str, schema: str | None, timeout: int) -> psycopg.Connection[Any]:
    """A new connection to the PostgreSQL database at ``target``, its tables in ``schema``
    (made if missing) when one is given: the store's first connection, and each one that
    replaces a connection lost.

    A node frozen in the middle of a transaction (a paused process) would hold its rows
    locked, the lease row a write locks among them, and the node taking its tables over
    would wait for ever: PostgreSQL ends a session idle in a transaction after
    :data:`IDLE_IN_TRANSACTION` (its transaction rolled back, nothing of it acknowledged),
    and no statement waits for a lock longer than :data:`LOCK_WAIT`."""
    connection = psycopg.connect(target, autocommit=False, connect_timeout=timeout)
    connection.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION}s'")
    connection.execute(f"SET lock_timeout = '{LOCK_WAIT}s'")
    if schema is not None:
        name = sql.Identifier(schema)
        connection.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(name))
        connection.execute(sql.SQL("SET search_path TO {}").format(name))
    connection.commit()
    return connection


class Store(
    Leases, Lobby, Accounts, Friends, QuickMatch, Ratings, Daily, Operators, ScreenRuns, Tournaments
):
    """Tables and finished matches, in SQLite or PostgreSQL: one transaction per call; with
    the nodes' leases on tables (:class:`~baloot.server.leases.Leases`), the lobby across
    nodes (:class:`~baloot.server.lobby.Lobby`), the players' accounts
    (:class:`~baloot.server.players.accounts.Accounts`), friends and the quick match's queue
    (:class:`~baloot.server.players.friends.Friends`,
    :class:`~baloot.server.players.quick_match.QuickMatch`) and the ratings
    (:class:`~baloot.server.players.rating_store.Ratings`), the daily duplicate
    (:class:`~baloot.server.players.daily_store.Daily`), the operators and the collusion
    screen's runs (:mod:`~baloot.server.players.operators`, ``screen_runs``), the tournaments
    (:class:`~baloot.server.tournaments.store.Tournaments`)."""

    def __init__(
        self,
        connection: sqlite3.Connection | psycopg.Connection[Any],
        where: str,
        target: str,
        reopen: Reopen | None = None,
    ) -> None:
        """Wrap an open connection (use :func:`open_store`), opened from ``target`` (and
        again with ``reopen`` once lost), and migrate its schema."""
        super().__init__(connection, where, target, reopen)
        self.migrated: list[int] = []
        """The schema versions this opening applied (empty when the database was current)."""
        self.check()  # before anything is read: a damaged file's rows are garbage
        self.migrate()
        self._lobby_channel = self._find_lobby_channel()

    # -- the schema ---------------------------------------------------------------------

    def version(self) -> int:
        """The database's schema version (0: none yet)."""
        with self._transaction() as run:
            return self._version(run)

    def migrate(self) -> None:
        """Apply the versions of :data:`MIGRATIONS` the database lacks, one transaction each,
        so that an interrupted upgrade resumes at the version it stopped at."""
        while True:
            with self._transaction() as run:
                if self._postgres:
                    run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
                version = self._version(run)
                if version > len(MIGRATIONS):
                    raise StorageError(
                        f"the {self.where} has schema version {version}, newer than this "
                        f"pybaloot knows ({len(MIGRATIONS)}): upgrade pybaloot to open it"
                    )
                if version == len(MIGRATIONS):
                    return
                for statement in MIGRATIONS[version]:
                    run(statement)
                run("UPDATE schema_version SET version = ?", (version + 1,))
            self.migrated.append(version + 1)

    def _version(self, run: Run) -> int:
        """The schema version, making the ``schema_version`` table (at 0) when it is missing.

        A database without a version is new only if it has no ``tables`` table (which version
        1 makes): one that has it is refused, rather than migrated again from version 0 (whose
        first ``CREATE TABLE`` would fail with a message that names no cause)."""
        run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        rows = run("SELECT version FROM schema_version")
        if rows:
            return int(rows[0][0])
        if self._has_table(run, "tables"):
            raise StorageError(
                f"the {self.where} has tables but no schema version: it was not made by "
                "pybaloot, or its schema_version table was emptied; restore it from a backup"
            )
        run("INSERT INTO schema_version (version) VALUES (0)")
        return 0

    def _has_table(self, run: Run, name: str) -> bool:
        """Whether the table ``name`` exists where the store makes its tables (PostgreSQL: the
        connection's current schema)."""
        if self._postgres:
            query = (
                "SELECT 1 FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_name = ?"
            )
        else:
            query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        return bool(run(query, (name,)))

    # -- tables in play -----------------------------------------------------------------

    def create(self, config: TableConfig) -> None:
        """Keep a new table in play; it was last seen when it was created."""
        with self._transaction() as run:
            if run("SELECT 1 FROM tables WHERE id = ?", (config.id,)):
                raise StorageError(f"table {config.id} exists already")
            run(
                "INSERT INTO tables (id, config, status, public, created, last_seen)"
                " VALUES (?, ?, 'playing', ?, ?, ?)",
                (
                    config.id,
                    dumps(config.to_json()),
                    int(config.public),
                    config.created,
                    config.created,
                ),
            )

    def append(
        self,
        table_id: str,
        steps: Sequence[Step],
        *,
        first: int,
        seen: float | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Keep a table's next steps, numbered from ``first``, all or none, on disk when this
        returns; refused (a :class:`StorageError`) unless ``first`` is the number after the
        steps kept, and (a :class:`LeaseLost`) unless the table's lease is still ``fence``'s
        (a node's writes always give one; None: no lease is asked for). ``seen`` also does
        what :meth:`seen` does, in the same transaction (one commit, not two, for a human's
        action)."""
        with self._transaction() as run:
            self._append(run, table_id, first, steps, fence)
            if seen is not None:
                self._seen(run, table_id, seen)

    def append_batch(self, batch: Sequence[tuple[str, int, Sequence[Step], Fence | None]]) -> None:
        """Keep the next steps of several tables (``(table_id, first, steps, fence)`` each,
        as :meth:`append` takes them) in one transaction, all or none: one commit (one disk
        sync) for what many tables did at once."""
        with self._transaction() as run:
            for table_id, first, steps, fence in batch:
                self._append(run, table_id, first, steps, fence)

    def _append(
        self, run: Run, table_id: str, first: int, steps: Sequence[Step], fence: Fence | None
    ) -> None:
        rows = run(
            "SELECT (SELECT MAX(n) FROM steps WHERE table_id = t.id) FROM tables t WHERE t.id = ?",
            (table_id,),
        )
        if not rows:
            raise StorageError(f"unknown table {table_id}")
        self._fenced(run, table_id, fence)
        following = 0 if rows[0][0] is None else int(rows[0][0]) + 1
        if steps and first != following:
            raise StorageError(
                f"table {table_id} goes on at step {following}, not {first}: another copy of "
                "the table is writing"
            )
        run.many(
            "INSERT INTO steps (table_id, n, body) VALUES (?, ?, ?)",
            ((table_id, n, dumps(step.to_json())) for n, step in enumerate(steps, first)),
        )

    def playing(self) -> list[KeptTable]:
        """Every table in play with its steps in order, oldest table first, as stored: what a
        restarted server resumes (each read on its own, :meth:`KeptTable.read`)."""
        return self._kept("")

    def kept(self, table_id: str) -> KeptTable | None:
        """The table ``table_id`` if it is in play, as stored; else None."""
        found = self._kept(" AND t.id = ?", table_id)
        return found[0] if found else None

    def _kept(self, where: str, *parameters: str) -> list[KeptTable]:
        with self._transaction() as run:
            tables = run(
                f"SELECT id, config FROM tables t WHERE status = 'playing'{where}"
                " ORDER BY created, id",
                parameters,
            )
            bodies = run(
                "SELECT s.table_id, s.body FROM steps s JOIN tables t ON t.id = s.table_id"
                f" WHERE t.status = 'playing'{where} ORDER BY s.table_id, s.n",
                parameters,
            )
        steps: dict[str, list[str]] = {str(table_id): [] for table_id, _ in tables}
        for table_id, body in bodies:
            steps[table_id].append(body)
        return [KeptTable(id_, config, tuple(steps[id_])) for id_, config in tables]

    def seen(self, table_id: str, when: float) -> None:
        """Note that a human of the table was connected or acted at ``when`` (never going
        back in time), so that :meth:`close_idle` spares it."""
        with self._transaction() as run:
            self._known(run, table_id)
            self._seen(run, table_id, when)

    @staticmethod
    def _seen(run: Run, table_id: str, when: float) -> None:
        """Move the table's ``last_seen`` forward to ``when``."""
        run(
            "UPDATE tables SET last_seen = ? WHERE id = ? AND last_seen < ?",
            (when, table_id, when),
        )

    def close_idle(self, before: float, when: float) -> list[str]:
        """Close the tables in play with a human seat that no human was seen at since
        ``before`` (bot-only tables are never idle); their ids, oldest first."""
        with self._transaction() as run:
            rows = run(  # locked on PostgreSQL, as a finish locks its row: rated once
                "SELECT id, config FROM tables WHERE status = 'playing' AND last_seen < ?"
                f" ORDER BY created, id{' FOR UPDATE' if self._postgres else ''}",
                (before,),
            )
            idle = [str(id_) for id_, config in rows if _has_humans(config)]
            run.many(
                "UPDATE tables SET status = 'closed', finished = ? WHERE id = ?",
                ((when, id_) for id_ in idle),
            )
            self._rate_idle(run, idle, when)
            for table_id in idle:
                self._tournament_ending(run, table_id, None)
        return idle

    # -- finished matches ---------------------------------------------------------------

    def finish(
        self,
        table_id: str,
        record: str,
        summary: dict[str, Any],
        when: float,
        fence: Fence | None = None,
    ) -> None:
        """Mark the table's match over at ``when``, keeping its ``baloot/1`` record (TOML) and
        its summary (players, totals, winner) for the history; refused as :meth:`append` is
        unless the lease is still ``fence``'s."""
        self._end(table_id, TableStatus.OVER, summary, record, when, fence)

    def close_table(
        self,
        table_id: str,
        when: float,
        summary: dict[str, Any] | None = None,
        record: str | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Close the table unfinished at ``when`` (it stays in the history), with what is
        known of it; refused as :meth:`append` is unless the lease is still ``fence``'s."""
        self._end(table_id, TableStatus.CLOSED, summary, record, when, fence)

    def _end(
        self,
        table_id: str,
        status: TableStatus,
        summary: dict[str, Any] | None,
        record: str | None,
        when: float,
        fence: Fence | None,
    ) -> None:
        """Set a table's final status, summary, record and time; rate it if it was in play."""
        text = None if summary is None else dumps(summary)
        with self._transaction() as run:
            self._known(run, table_id)
            self._fenced(run, table_id, fence)
            self._rate_ending(run, table_id, status is TableStatus.CLOSED, summary, when)
            self._tournament_ending(run, table_id, summary)
            run(
                "UPDATE tables SET status = ?, summary = ?, record = ?, finished = ? WHERE id = ?",
                (status.value, text, record, when, table_id),
            )

    def history(
        self, limit: int = 50, offset: int = 0, *, public_only: bool = False
    ) -> list[dict[str, Any]]:
        """The tables over or closed, the newest first: each one's ``id``, ``status``,
        ``players`` (seat letter to label), ``public``, ``created``, ``finished`` and
        ``summary`` (None when unknown)."""
        where = "status IN ('over', 'closed')" + (" AND public = 1" if public_only else "")
        with self._transaction() as run:
            rows = run(
                "SELECT id, status, config, public, created, finished, summary FROM tables"
                f" WHERE {where} ORDER BY finished DESC, id LIMIT ? OFFSET ?",
                (limit, offset),
            )
        return [
            {
                "id": id_,
                "status": TableStatus(status),
                "players": read_json(config, "players") or {},
                "public": bool(public),
                "created": created,
                "finished": finished,
                "summary": None if summary is None else read_json(summary),
            }
            for id_, status, config, public, created, finished, summary in rows
        ]

    def match_record(self, table_id: str) -> tuple[TableStatus, str | None] | None:
        """The table's status and its record (None unless one was kept), or None for an unknown
        id: what ``GET /api/matches/ID/record`` answers 200, 409 or 404 from."""
        with self._transaction() as run:
            rows = run("SELECT status, record FROM tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        status, record = rows[0]
        return TableStatus(status), record

    def table_config(self, table_id: str) -> tuple[TableStatus, str] | None:
        """The table's status and its config as kept (JSON text, read by whoever needs it), or
        None for an unknown id: what any node tells of a table, wherever it is served."""
        with self._transaction() as run:
            rows = run("SELECT status, config FROM tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        status, config = rows[0]
        return TableStatus(status), str(config)

    # -- analyses of finished hands -----------------------------------------------------

    def analysis(self, table_id: str, hand: int, digest: str) -> dict[str, Any] | None:
        """The analysis kept for hand ``hand`` (from 1) of the table, if it was made of the
        hand that ``digest`` names; else None."""
        with self._transaction() as run:
            rows = run(
                "SELECT body FROM analyses WHERE table_id = ? AND hand = ? AND digest = ?",
                (table_id, hand, digest),
            )
        return None if not rows else dict(json.loads(rows[0][0]))

    def keep_analysis(
        self, table_id: str, hand: int, digest: str, body: dict[str, Any], when: float
    ) -> None:
        """Keep the analysis of hand ``hand`` of the table (made of the hand ``digest``
        names), replacing any kept before."""
        with self._transaction() as run:
            self._known(run, table_id)
            run(
                "INSERT INTO analyses (table_id, hand, digest, body, created)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, hand) DO UPDATE"
                " SET digest = excluded.digest, body = excluded.body, created = excluded.created",
                (table_id, hand, digest, dumps(body), when),
            )

    # -- the connection -----------------------------------------------------------------

    def check(self) -> None:
        """Raise :class:`StorageError` when the database reports itself damaged (SQLite's
        ``quick_check``, run when a store is opened), so that a server refuses it in one line
        instead of failing on its rows later; PostgreSQL keeps its own integrity."""
        if self._postgres:
            return
        with self._transaction() as run:
            problems = [str(row[0]) for row in run("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            raise StorageError(
                f"the {self.where} is damaged ({problems[0][:200]}): restore it from a backup"
            )


def _has_humans(config: str) -> bool:
    """True when a kept config names a human seat (a row that cannot be read has none: it is
    never closed as idle, and stays in storage as it is)."""
    return bool(read_json(config, "humans"))
