"""The lobby across nodes: the public tables in play, as the database knows them, and the
notifications that tell every node the lobby changed.

A node serves only its own tables, so a lobby listing every node's reads the public tables in
play from the database (:meth:`Lobby.public_playing`), with the hand and the totals that their
nodes note at the end of each hand (:meth:`Lobby.keep_score`). A node that changes the lobby
(a public table made, finished or scored) says so with :meth:`Lobby.notify_lobby` after the
change is committed; every node hears it through a :class:`LobbyListener`
(:meth:`Lobby.listen_lobby`) and reads the lobby again.

On PostgreSQL a notification is ``pg_notify`` on the channel :data:`LOBBY_CHANNEL` (with the
schema's name after a dot for a schema other than ``public``: deployments that share a
database in schemas of their own do not hear each other), and a listener is a connection of
its own (``psycopg.AsyncConnection``, autocommit, ``LISTEN``). On SQLite, whose file one node
serves, both are in process: a notification reaches the listeners of every store of this
process on the same file (a store of ``:memory:`` has its own), from any thread.

>>> import asyncio
>>> from baloot.server.storage import open_store
>>> store = open_store(":memory:")
>>> async def hear_one() -> str:
...     async with await store.listen_lobby() as listener:
...         store.notify_lobby("t1 created")
...         return await anext(listener)
>>> asyncio.run(hear_one())
't1 created'
>>> store.close()
"""

from __future__ import annotations

import asyncio
import os
import threading
from contextlib import suppress
from typing import Any, Final, Self

import psycopg
from psycopg import sql

from baloot.core.errors import first_line
from baloot.records.summary import teams_json
from baloot.server.transactions import StorageError, Transactions, read_json

#: The PostgreSQL channel of the lobby's notifications (in the ``public`` schema).
LOBBY_CHANNEL: Final = "baloot_lobby"

#: PostgreSQL's longest identifier, in bytes: a channel name longer than that is cut.
_NAME_BYTES: Final = 63


class Lobby(Transactions):
    """The public tables in play and the lobby's notifications (a part of the Store)."""

    _lobby_channel: str
    """The PostgreSQL channel; on SQLite, the key of this database's in-process listeners."""

    def _find_lobby_channel(self) -> str:
        """The channel of this store's schema (PostgreSQL) or the key of its file (SQLite)."""
        if not self._postgres:
            if self._target in ("", ":memory:"):
                return f"memory:{id(self)}"
            return os.path.realpath(self._target)
        with self._transaction() as run:
            schema = str(run("SELECT current_schema()")[0][0])
        name = LOBBY_CHANNEL if schema == "public" else f"{LOBBY_CHANNEL}.{schema}"
        return name.encode()[:_NAME_BYTES].decode(errors="ignore")

    # -- the public tables --------------------------------------------------------------

    def keep_score(self, table_id: str, hand: int, totals: tuple[int, int]) -> None:
        """Note the table's hand in play (from 1) and its match totals (us, them: NS, EW),
        for the lobby of every node; a new table is at hand 1, 0 to 0."""
        with self._transaction() as run:
            self._known(run, table_id)
            run(
                "UPDATE tables SET hand = ?, score_ns = ?, score_ew = ? WHERE id = ?",
                (hand, totals[0], totals[1], table_id),
            )

    def public_playing(self) -> list[dict[str, Any]]:
        """The public tables in play on any node, the oldest first: each one's ``table`` (its
        id), ``players`` (seat letter to label), ``hand``, ``totals`` (``{"NS": …, "EW": …}``),
        ``rules`` and ``created``, as the lobby lists them (its spectator link is the hall's)."""
        with self._transaction() as run:
            rows = run(
                "SELECT id, config, hand, score_ns, score_ew, created FROM tables"
                " WHERE status = 'playing' AND public = 1 ORDER BY created, id"
            )
        return [
            {
                "table": id_,
                "players": read_json(config, "players") or {},
                "hand": hand,
                "totals": teams_json((score_ns, score_ew)),
                "rules": read_json(config, "rules"),
                "created": created,
            }
            for id_, config, hand, score_ns, score_ew, created in rows
        ]

    # -- notifications ------------------------------------------------------------------

    def notify_lobby(self, payload: str) -> None:
        """Tell every node's listener that the lobby changed (``payload``, a few words such as
        a table's id, at most 8000 bytes on PostgreSQL); call it once the change is committed,
        so that a node reading the lobby on hearing it sees the change."""
        if self._postgres:
            with self._transaction() as run:
                run("SELECT pg_notify(?, ?)", (self._lobby_channel, payload))
            return
        _local.deliver(self._lobby_channel, payload)

    async def listen_lobby(self) -> LobbyListener:
        """A listener hearing every notification made after this returns, until it is closed;
        on PostgreSQL on a connection of its own (a :class:`StorageError` if it cannot be
        opened)."""
        listener = LobbyListener(self._lobby_channel)
        if not self._postgres:
            _local.add(listener)
            return listener
        try:
            connection = await psycopg.AsyncConnection.connect(
                self._target, autocommit=True, connect_timeout=10
            )
        except psycopg.Error as error:
            raise StorageError(f"cannot connect to PostgreSQL: {first_line(error)}") from error
        try:
            await connection.execute(
                sql.SQL("LISTEN {}").format(sql.Identifier(self._lobby_channel))
            )
        except psycopg.Error as error:
            await connection.close()
            raise StorageError(f"the {self.where} failed: {first_line(error)}") from error
        listener._read_from(connection, self.where)
        return listener


class LobbyListener:
    """The lobby's notifications as they come: ``async for payload in listener``, until
    :meth:`close` ends the iteration. A listener whose connection is lost raises a
    :class:`StorageError` from then on; its owner opens another and reads the lobby again,
    since notifications may have been missed."""

    def __init__(self, channel: str) -> None:
        """A listener of ``channel`` (made by :meth:`Lobby.listen_lobby`)."""
        self.channel = channel
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[str | StorageError | None] = asyncio.Queue()
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closed = False

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> str:
        """The next notification's payload, waited for."""
        item = await self._queue.get()
        if isinstance(item, str):
            return item
        self._queue.put_nowait(item)  # the end, or the failure, stays for every later call
        if item is None:
            raise StopAsyncIteration
        raise item

    async def close(self) -> None:
        """Stop listening (closing the connection, if any) and end the iteration; again is
        nothing."""
        if self._closed:
            return
        self._closed = True
        _local.discard(self)
        if self._reader is not None:
            self._reader.cancel()
            with suppress(asyncio.CancelledError):
                await self._reader
        if self._connection is not None:
            await self._connection.close()
        self._queue.put_nowait(None)

    def _hear(self, payload: str) -> None:
        """Take a payload, from any thread."""
        with suppress(RuntimeError):  # the listener's event loop is closed: nobody listens
            self._loop.call_soon_threadsafe(self._queue.put_nowait, payload)

    def _read_from(self, connection: psycopg.AsyncConnection[Any], where: str) -> None:
        """Hear the notifications ``connection`` receives, in a task of this event loop."""
        self._connection = connection

        async def read() -> None:
            try:
                async for notify in connection.notifies():
                    self._queue.put_nowait(notify.payload)
            except psycopg.Error as error:
                lost = f"the lobby's listener on the {where} failed: {first_line(error)}"
                self._queue.put_nowait(StorageError(lost))

        self._reader = asyncio.create_task(read(), name=f"listen {self.channel}")


class _LocalListeners:
    """The in-process listeners of every SQLite database, by its key."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[LobbyListener]] = {}

    def add(self, listener: LobbyListener) -> None:
        with self._lock:
            self._listeners.setdefault(listener.channel, set()).add(listener)

    def discard(self, listener: LobbyListener) -> None:
        with self._lock:
            listeners = self._listeners.get(listener.channel, set())
            listeners.discard(listener)
            if not listeners:
                self._listeners.pop(listener.channel, None)

    def deliver(self, channel: str, payload: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(channel, ()))
        for listener in listeners:
            listener._hear(payload)


_local = _LocalListeners()
