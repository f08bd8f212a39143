"""One transaction at a time on a SQLite or PostgreSQL connection, with SQL written once for both.

:class:`Transactions` is what every part of the store shares: the connection, the lock that
lets one store be used from several threads, and :meth:`Transactions._transaction`, which
commits a block or rolls it back and turns the database's own failures into a one-line
:class:`StorageError`. SQL is written with ``?`` placeholders; :class:`Run` puts it in
PostgreSQL's ``%s`` style when the connection is PostgreSQL's.

A PostgreSQL connection that is lost (the server restarted, the network failed) is opened
again: the transaction under way fails with :class:`StorageAway` (whether its commit reached
the database is unknown, so nothing of it may be acknowledged), and the next one opens a new
connection first. While that fails, every call fails at once with :class:`StorageAway`, and a
new connection is tried again after a pause that doubles from :data:`FIRST_RETRY` to
:data:`LAST_RETRY`; the first one that works ends the outage (logged once each way).

>>> import sqlite3
>>> lite = sqlite3.connect(":memory:", isolation_level=None)
>>> kept = Transactions(lite, "SQLite database :memory:", ":memory:")
>>> with kept._transaction() as run:
...     _ = run("CREATE TABLE t (x INTEGER)")
...     _ = run("INSERT INTO t VALUES (?)", (7,))
>>> with kept._transaction() as run:
...     run("SELECT x FROM t")
[(7,)]
>>> with kept._transaction() as run:
...     run("SELECT y FROM t")
Traceback (most recent call last):
...
baloot.server.transactions.StorageError: the SQLite database :memory: failed: no such column: y
>>> kept.close()
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, Final, Self

import psycopg
from psycopg import sql

from baloot.core.errors import BalootError, first_line

log = logging.getLogger("baloot.server")

#: The pause, in seconds, before a lost PostgreSQL connection is tried again after a first
#: failure to open it; it doubles at each failure, up to :data:`LAST_RETRY`.
FIRST_RETRY: Final = 0.25
#: The longest pause between two tries to open a lost PostgreSQL connection, in seconds.
LAST_RETRY: Final = 2.0

#: Opens a new PostgreSQL connection to the store's database, set up as the first one was.
Reopen = Callable[[], "psycopg.Connection[Any]"]


class StorageError(BalootError):
    """The store cannot do what was asked: an unknown table, a database too new, a bad target."""


class StorageAway(StorageError):
    """The database cannot be reached now (lost, restarting): the store opens its connection
    again, and what failed may be tried again once it is back."""


class Transactions:
    """A SQLite or PostgreSQL connection used one transaction at a time, from any thread."""

    def __init__(
        self,
        connection: sqlite3.Connection | psycopg.Connection[Any],
        where: str,
        target: str,
        reopen: Reopen | None = None,
    ) -> None:
        """Wrap an open connection; ``where`` names it for messages (no password) and
        ``target`` is what it was opened from (a PostgreSQL URL, password included, or a
        SQLite path), for opening another connection to the same database. ``reopen``
        opens a PostgreSQL connection again once it is lost (without it, a lost connection
        stays lost)."""
        self._connection = connection
        self._postgres = isinstance(connection, psycopg.Connection)
        self._lock = threading.RLock()
        self._target = target
        self._reopen = reopen
        self._closed = False
        self._retry_at = 0.0
        self._pause = 0.0
        """The pause before the next try to open a lost connection (0: none failed yet)."""
        self.where = where
        """What the store is, for messages (no password)."""
        self.outages = 0
        """How many times the connection was lost and opened again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; the store is unusable after."""
        with self._lock:
            self._closed = True
            self._connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[Run]:
        """One transaction under the lock: committed when the block ends, rolled back when
        it raises. On a lost connection it raises :class:`StorageAway`."""
        with self._lock:
            connection = self._connected()
            try:
                if isinstance(connection, sqlite3.Connection):
                    connection.execute("BEGIN IMMEDIATE")
                try:
                    yield Run(connection)
                    connection.commit()
                except BaseException:
                    with suppress(sqlite3.Error, psycopg.Error):
                        connection.rollback()
                    raise
            except (sqlite3.Error, psycopg.Error, OSError) as error:
                if self._lost(connection):
                    log.warning("the %s is unreachable: %s", self.where, first_line(error))
                    raise StorageAway(
                        f"the {self.where} is unreachable: {first_line(error)}"
                    ) from error
                raise StorageError(f"the {self.where} failed: {first_line(error)}") from error

    def _lost(self, connection: sqlite3.Connection | psycopg.Connection[Any]) -> bool:
        """Whether a failure lost the PostgreSQL connection (it is opened again next time)."""
        return (
            isinstance(connection, psycopg.Connection)
            and connection.broken
            and self._reopen is not None
        )

    def _connected(self) -> sqlite3.Connection | psycopg.Connection[Any]:
        """The connection, opened again if it was lost and the pause since the last try is
        over; a :class:`StorageAway` while it cannot be."""
        connection = self._connection
        if not self._lost(connection) or self._closed:
            return connection
        assert self._reopen is not None
        now = time.monotonic()
        if now < self._retry_at:
            raise StorageAway(f"the {self.where} is unreachable; trying again")
        try:
            self._connection = self._reopen()
        except (psycopg.Error, OSError) as error:
            self._pause = min(LAST_RETRY, max(FIRST_RETRY, 2 * self._pause))
            self._retry_at = now + self._pause
            raise StorageAway(f"the {self.where} is unreachable: {first_line(error)}") from error
        self._pause = self._retry_at = 0.0
        self.outages += 1
        log.warning("the %s is reachable again", self.where)
        return self._connection

    @staticmethod
    def _known(run: Run, table_id: str) -> None:
        """Raise :class:`StorageError` unless the table is kept."""
        if not run("SELECT 1 FROM tables WHERE id = ?", (table_id,)):
            raise StorageError(f"unknown table {table_id}")


class Run:
    """Runs SQL written with ``?`` placeholders on either connection; the dialect lives here."""

    def __init__(self, connection: sqlite3.Connection | psycopg.Connection[Any]) -> None:
        self._connection = connection

    def __call__(self, statement: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement and return its rows (none for a statement without a result)."""
        if isinstance(self._connection, sqlite3.Connection):
            return self._connection.execute(statement, parameters).fetchall()
        with self._connection.cursor() as cursor:
            cursor.execute(_postgres(statement), parameters)
            return cursor.fetchall() if cursor.description is not None else []

    def many(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each row."""
        if isinstance(self._connection, sqlite3.Connection):
            self._connection.executemany(statement, rows)
            return
        with self._connection.cursor() as cursor:
            cursor.executemany(_postgres(statement), rows)


def _postgres(statement: str) -> sql.SQL:
    """A statement with ``?`` placeholders in PostgreSQL's ``%s`` style."""
    return sql.SQL(statement.replace("?", "%s"))


def read_json(text: str, key: str | None = None) -> Any:
    """A kept JSON object (or its ``key``), None when the row cannot be read: a damaged row
    of one table never stops a listing of all of them."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return data if key is None else data.get(key)


def dumps(value: Any) -> str:
    """Compact JSON text, as it is stored."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
