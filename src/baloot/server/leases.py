"""Which node serves which table: the nodes sharing one database, and their leases on tables.

Several ``baloot serve`` processes (nodes) may share the tables of one PostgreSQL database. A
table lives in one node at a time, the one that holds its **lease**: a row saying which node
serves it until when. A node registers under a name of its own with its public URL
(:meth:`Leases.register_node`), beats its heartbeat with how many tables it serves
(:meth:`Leases.heartbeat`), and renews its leases (:meth:`Leases.renew_leases`), every
:data:`RENEW_SECONDS`; a lease it does not renew ends :data:`LEASE_SECONDS` after the last
renewal. A node takes a lease before it restores or creates a table
(:meth:`Leases.take_lease`): it gets it when nobody holds it, when its holder let it expire,
or when it holds it already; otherwise it learns the holder, to send the connection there. A
node stops serving a table as soon as a renewal no longer lists it (another node took it).
New tables go to the least loaded live node (:meth:`Leases.live_nodes`), and so do the tables
nobody holds (:meth:`Leases.adopt`: their node died).

A lease is also a **fence**. Every take of a table (by any node, its holder included) gives
the lease the table's next **epoch**, a number that only grows; a node writes the table's
journal with its :class:`Fence` (its name and that epoch), and the database lets the write
pass only if the lease row, locked in the same transaction, still holds them (else a
:class:`LeaseLost`). So a node paused past its lease (a long pause of the process, a frozen
VM) and resumed after another node took the table stores nothing: what it was about to
acknowledge is refused, and it learns that it lost the table. The journal's step numbering
(``Store.append(..., first=)``) still refuses a second copy's steps as well.

Time is each node's clock, passed in (``now``, Unix seconds): the nodes' clocks must agree to
well under ``LEASE_SECONDS - RENEW_SECONDS`` (NTP gives milliseconds). Every method is one
transaction; :meth:`Leases.take_lease` is race-free on PostgreSQL (one ``INSERT … ON CONFLICT
… DO UPDATE … WHERE`` locks the row, so of two nodes racing only one gets the lease) and on
SQLite (``BEGIN IMMEDIATE``: one writer at a time), where it is as trivially true as it is
for the one node a SQLite file serves.

>>> from baloot.server.journal import TableConfig
>>> from baloot.server.storage import open_store
>>> store = open_store(":memory:")
>>> store.create(TableConfig("t1", {"N": "bot:heuristic", "E": "bot:heuristic",
...     "S": "Saad", "W": "bot:heuristic"}, ("S",), "classic", 7, None, True, {}, 1000.0))
>>> store.register_node("a", "https://a.example", now=1000.0)
>>> store.register_node("b", "https://b.example", now=1000.0)
>>> first = store.take_lease("t1", "a", now=1000.0, ttl=LEASE_SECONDS)
>>> first.taken, first.fence
(True, Fence(node='a', epoch=1))
>>> lease = store.take_lease("t1", "b", now=1001.0, ttl=LEASE_SECONDS)
>>> lease.taken, lease.holder.name, lease.holder.url, lease.expires
(False, 'a', 'https://a.example', 1006.0)
>>> store.renew_leases("a", now=1002.0, ttl=LEASE_SECONDS)
{'t1'}
>>> store.holder("t1", now=1007.9).name
'a'
>>> store.holder("t1", now=1008.0) is None  # a paused: not renewed for LEASE_SECONDS
True
>>> store.take_lease("t1", "b", now=1008.0, ttl=LEASE_SECONDS).fence
Fence(node='b', epoch=2)
>>> store.append("t1", [], first=0, fence=first.fence)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baloot.server.leases.LeaseLost: table t1: node a no longer holds its lease (epoch 1): ...
>>> store.renew_leases("a", now=1008.5, ttl=LEASE_SECONDS)  # a learns it lost t1
set()
>>> store.heartbeat("a", load=0, now=1008.5)
>>> store.heartbeat("b", load=1, now=1008.5)
>>> [(node.name, node.load) for node in store.live_nodes(now=1009.0, ttl=LEASE_SECONDS)]
[('a', 0), ('b', 1)]
>>> store.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from baloot.server.transactions import Run, StorageError, Transactions

#: How long a lease lasts unrenewed, in seconds: three renewals, so that a node keeps its tables
#: through two missed ones (a slow commit, a pause of the process), while the tables of a node
#: that died wait at most this long before another node may restore them.
LEASE_SECONDS: Final = 6.0

#: How often a node renews its leases and beats its heartbeat, in seconds.
RENEW_SECONDS: Final = 2.0


@dataclass(frozen=True, slots=True)
class Node:
    """A node as the database knows it: its name, its public URL (where a connection to one
    of its tables is sent), how many tables it serves and when it last said so."""

    name: str
    url: str
    load: int
    heartbeat: float


@dataclass(frozen=True, slots=True)
class Fence:
    """A node's hold on a table, as a write of the table's journal gives it: the write
    passes only while the table's lease is still ``node``'s at ``epoch``."""

    node: str
    epoch: int


@dataclass(frozen=True, slots=True)
class Lease:
    """What :meth:`Leases.take_lease` got: the table's lease is ``holder``'s until
    ``expires``, the table's take number ``epoch``; ``taken`` when the holder is the node
    that asked."""

    table_id: str
    holder: Node
    expires: float
    taken: bool
    epoch: int

    @property
    def fence(self) -> Fence:
        """What the holder's writes of the table give, for the database to check."""
        return Fence(self.holder.name, self.epoch)


class LeaseLost(StorageError):
    """A write refused because the writer's lease on the table is gone (another node took
    it, or it was given up): the writer stops serving the table."""


_NODE_COLUMNS: Final = "n.name, n.url, n.load, n.heartbeat"


class Leases(Transactions):
    """The nodes and their leases on tables, kept beside the tables (a part of the Store)."""

    # -- nodes --------------------------------------------------------------------------

    def register_node(self, name: str, public_url: str, now: float) -> None:
        """Make ``name`` a live node at ``public_url``, serving nothing: a node starting under
        the name of an earlier run of its own drops that run's leases, whose tables it does not
        hold in memory."""
        with self._transaction() as run:
            run(
                "INSERT INTO nodes (name, url, load, heartbeat) VALUES (?, ?, 0, ?)"
                " ON CONFLICT (name) DO UPDATE"
                " SET url = excluded.url, load = 0, heartbeat = excluded.heartbeat",
                (name, public_url, now),
            )
            run("DELETE FROM leases WHERE node = ?", (name,))

    def heartbeat(self, name: str, load: int, now: float) -> None:
        """Note that the node ``name`` is alive at ``now`` serving ``load`` tables; refused
        (a :class:`StorageError`) for a node not registered."""
        with self._transaction() as run:
            if not run(
                "UPDATE nodes SET load = ?, heartbeat = ? WHERE name = ? RETURNING name",
                (load, now, name),
            ):
                raise StorageError(f"unknown node {name}: register it first")

    def live_nodes(self, now: float, ttl: float) -> list[Node]:
        """The nodes whose heartbeat is less than ``ttl`` seconds old, the least loaded first
        (then by name): where a new table goes."""
        with self._transaction() as run:
            rows = run(f"SELECT {_NODE_COLUMNS} FROM nodes n WHERE n.heartbeat > ?", (now - ttl,))
        return sorted((_node(row) for row in rows), key=lambda node: (node.load, node.name))

    def forget_node(self, name: str) -> None:
        """Drop the node ``name`` and its leases, at its clean shutdown: its tables may be
        taken at once instead of when their leases expire."""
        with self._transaction() as run:
            run("DELETE FROM leases WHERE node = ?", (name,))
            run("DELETE FROM nodes WHERE name = ?", (name,))

    # -- leases -------------------------------------------------------------------------

    def take_lease(self, table_id: str, node: str, now: float, ttl: float) -> Lease:
        """The lease on the table for ``node`` until ``now + ttl`` (``taken``) if nobody holds
        it, its holder let it expire or ``node`` holds it; else who holds it. Refused for an
        unknown table or a node not registered."""
        with self._transaction() as run:
            self._known(run, table_id)
            if not run("SELECT 1 FROM nodes WHERE name = ?", (node,)):
                raise StorageError(f"unknown node {node}: register it first")
            # One statement: on PostgreSQL the conflicting row is locked and its newest
            # version judged, so that of two nodes racing for an expired lease one gets it.
            taken = run(
                "INSERT INTO leases (table_id, node, expires) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE"
                " SET node = excluded.node, expires = excluded.expires"
                " WHERE leases.expires <= ? OR leases.node = excluded.node"
                " RETURNING node",
                (table_id, node, now + ttl, now),
            )
            if taken:
                self._next_epoch(run, table_id)
            rows = run(
                f"SELECT l.expires, l.epoch, {_NODE_COLUMNS} FROM leases l"
                " JOIN nodes n ON n.name = l.node WHERE l.table_id = ?",
                (table_id,),
            )
        expires, epoch, *holder = rows[0]
        return Lease(table_id, _node(tuple(holder)), float(expires), bool(taken), int(epoch))

    def adopt(self, node: str, now: float, ttl: float, limit: int) -> list[str]:
        """Take for ``node`` until ``now + ttl`` the leases of at most ``limit`` tables in play
        that nobody holds (their node died), the oldest first when there are more; their ids,
        sorted. Race-free as :meth:`take_lease` is: of two nodes adopting at once, each table
        goes to one."""
        with self._transaction() as run:
            rows = run(
                "INSERT INTO leases (table_id, node, expires)"
                " SELECT t.id, ?, ? FROM tables t LEFT JOIN leases l ON l.table_id = t.id"
                " WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires <= ?)"
                " ORDER BY t.created, t.id LIMIT ?"
                " ON CONFLICT (table_id) DO UPDATE"
                " SET node = excluded.node, expires = excluded.expires"
                " WHERE leases.expires <= ? OR leases.node = excluded.node"
                " RETURNING table_id",
                (node, now + ttl, now, limit, now),
            )
            for (table_id,) in rows:
                self._next_epoch(run, str(table_id))
        return sorted(str(table_id) for (table_id,) in rows)

    def renew_leases(self, node: str, now: float, ttl: float) -> set[str]:
        """Renew every lease ``node`` holds until ``now + ttl``; the ids of their tables. A
        table the node serves and that is missing was taken by another node (after its lease
        expired): the node stops serving it."""
        with self._transaction() as run:
            rows = run(
                "UPDATE leases SET expires = ? WHERE node = ? RETURNING table_id", (now + ttl, node)
            )
        return {str(table_id) for (table_id,) in rows}

    def release_lease(self, table_id: str, node: str) -> None:
        """Give up the lease on the table if ``node`` holds it (the table is over, or the node
        stops serving it), so that another node may take it at once."""
        with self._transaction() as run:
            run("DELETE FROM leases WHERE table_id = ? AND node = ?", (table_id, node))

    @staticmethod
    def _next_epoch(run: Run, table_id: str) -> None:
        """Give the lease just taken (its row locked by this transaction) the table's next
        epoch: the count of takes lives with the table, which outlives its lease rows, and its
        row is locked too, so that takes one after another count up, never down."""
        (epoch,) = run(
            "UPDATE tables SET lease_epoch = lease_epoch + 1 WHERE id = ? RETURNING lease_epoch",
            (table_id,),
        )[0]
        run("UPDATE leases SET epoch = ? WHERE table_id = ?", (epoch, table_id))

    def _fenced(self, run: Run, table_id: str, fence: Fence | None) -> None:
        """Refuse (a :class:`LeaseLost`) a write of the table unless its lease is still
        ``fence``'s; on PostgreSQL the lease row stays locked until the write commits, so that
        no node takes it (and reads the journal) halfway."""
        if fence is None:
            return
        lock = " FOR SHARE" if self._postgres else ""  # SQLite: one writer at a time anyway
        if not run(
            f"SELECT 1 FROM leases WHERE table_id = ? AND node = ? AND epoch = ?{lock}",
            (table_id, fence.node, fence.epoch),
        ):
            raise LeaseLost(
                f"table {table_id}: node {fence.node} no longer holds its lease (epoch "
                f"{fence.epoch}): another node took it, or it was given up"
            )

    def holder(self, table_id: str, now: float) -> Node | None:
        """The node whose lease on the table runs at ``now``; None when nobody's does (the
        next node a connection reaches may take it)."""
        with self._transaction() as run:
            rows = run(
                f"SELECT {_NODE_COLUMNS} FROM leases l JOIN nodes n ON n.name = l.node"
                " WHERE l.table_id = ? AND l.expires > ?",
                (table_id, now),
            )
        return _node(rows[0]) if rows else None


def _node(row: tuple[Any, ...]) -> Node:
    """A node from its row (name, url, load, heartbeat)."""
    name, url, load, heartbeat = row
    return Node(str(name), str(url), int(load), float(heartbeat))
