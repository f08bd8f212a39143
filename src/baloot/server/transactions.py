"""One transaction at a time on a SQLite or PostgreSQL connection, with SQL written once for both.

:class:`Transactions` is what every part of the store shares: the connection, the lock that
lets one store be used from several threads, and :meth:`Transactions._transaction`, which
commits a block or rolls it back and turns the database's own failures into a one-line
:class:`StorageError`. SQL is written with ``?`` placeholders; :class:`Run` puts it in
PostgreSQL's ``%s`` style when the connection is PostgreSQL's.

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
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, Self

import psycopg
from psycopg import sql

from baloot.core.errors import BalootError, first_line


class StorageError(BalootError):
    """The store cannot do what was asked: an unknown table, a database too new, a bad target."""


class Transactions:
    """A SQLite or PostgreSQL connection used one transaction at a time, from any thread."""

    def __init__(
        self, connection: sqlite3.Connection | psycopg.Connection[Any], where: str, target: str
    ) -> None:
        """Wrap an open connection; ``where`` names it for messages (no password) and
        ``target`` is what it was opened from (a PostgreSQL URL, password included, or a
        SQLite path), for opening another connection to the same database."""
        self._connection = connection
        self._postgres = isinstance(connection, psycopg.Connection)
        self._lock = threading.RLock()
        self._target = target
        self.where = where
        """What the store is, for messages (no password)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection; the store is unusable after."""
        with self._lock:
            self._connection.close()

    @contextmanager
    def _transaction(self) -> Iterator[Run]:
        """One transaction under the lock: committed when the block ends, rolled back when
        it raises."""
        with self._lock:
            connection = self._connection
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
                raise StorageError(f"the {self.where} failed: {first_line(error)}") from error

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
