"""Nodes, their leases on tables, and the lobby across nodes (``server.leases``,
``server.lobby``), the same tests on SQLite and on PostgreSQL.

Time is passed in, so the leases' expiry is exact; the races run real threads, each with a
store (a connection) of its own, as two nodes would.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from conftest import Opener
from helpers import WAIT
from psycopg import sql

from baloot.core.seats import Seat
from baloot.server import storage
from baloot.server.journal import Step, StepKind, TableConfig
from baloot.server.leases import LEASE_SECONDS, RENEW_SECONDS, LeaseLost, Node
from baloot.server.lobby import LOBBY_CHANNEL, LobbyListener
from baloot.server.storage import StorageError, Store, open_store

BOT = "bot:heuristic"
TTL = LEASE_SECONDS


@pytest.fixture
def store(opener: Opener) -> Store:
    return opener()


def config(table_id: str, created: float = 1000.0, public: bool = True) -> TableConfig:
    players = {"N": BOT, "E": BOT, "S": "Saad", "W": BOT}
    return TableConfig(table_id, players, ("S",), "classic", 7, None, public, {}, created)


def two_nodes(store: Store, now: float = 1000.0) -> None:
    store.register_node("a", "https://a.example", now)
    store.register_node("b", "https://b.example", now)


def test_a_lease_outlives_two_missed_renewals() -> None:
    assert LEASE_SECONDS >= 3 * RENEW_SECONDS


# -- nodes ------------------------------------------------------------------------------


def test_live_nodes_are_the_recent_heartbeats_least_loaded_first(store: Store) -> None:
    store.register_node("c", "https://c.example", now=1000.0)
    two_nodes(store)
    store.heartbeat("a", load=3, now=1004.0)
    store.heartbeat("b", load=1, now=1004.0)
    assert store.live_nodes(now=1005.0, ttl=TTL) == [
        Node("c", "https://c.example", 0, 1000.0),
        Node("b", "https://b.example", 1, 1004.0),
        Node("a", "https://a.example", 3, 1004.0),
    ]
    store.heartbeat("b", load=3, now=1006.0)
    # c's heartbeat is TTL old: not live; a and b tie on load, by name
    assert [node.name for node in store.live_nodes(now=1006.0, ttl=TTL)] == ["a", "b"]


def test_a_heartbeat_of_an_unknown_node_is_refused(store: Store) -> None:
    with pytest.raises(StorageError, match="unknown node z: register it first"):
        store.heartbeat("z", load=0, now=1.0)


def test_registering_again_moves_the_node_and_drops_its_earlier_leases(store: Store) -> None:
    store.create(config("t1"))
    two_nodes(store)
    store.heartbeat("a", load=1, now=1001.0)
    assert store.take_lease("t1", "a", now=1001.0, ttl=TTL).taken
    store.register_node("a", "https://a2.example", now=1002.0)
    assert store.holder("t1", now=1002.0) is None
    assert store.live_nodes(now=1002.0, ttl=TTL)[0] == Node("a", "https://a2.example", 0, 1002.0)
    assert store.renew_leases("a", now=1002.0, ttl=TTL) == set()


def test_a_forgotten_node_frees_its_tables_at_once(store: Store) -> None:
    store.create(config("t1"))
    two_nodes(store)
    store.take_lease("t1", "a", now=1000.0, ttl=TTL)
    store.forget_node("a")
    assert [node.name for node in store.live_nodes(now=1000.0, ttl=TTL)] == ["b"]
    assert store.holder("t1", now=1000.0) is None
    assert store.take_lease("t1", "b", now=1000.0, ttl=TTL).taken
    with pytest.raises(StorageError, match="unknown node a"):
        store.heartbeat("a", load=0, now=1001.0)


# -- leases -----------------------------------------------------------------------------


def test_a_held_lease_names_its_holder_until_it_expires(store: Store) -> None:
    store.create(config("t1"))
    two_nodes(store)
    mine = store.take_lease("t1", "a", now=1000.0, ttl=TTL)
    assert mine.taken and mine.holder.name == "a" and mine.expires == 1006.0
    theirs = store.take_lease("t1", "b", now=1005.9, ttl=TTL)
    assert not theirs.taken
    assert (theirs.table_id, theirs.holder.name, theirs.holder.url, theirs.expires) == (
        "t1",
        "a",
        "https://a.example",
        1006.0,
    )
    assert store.holder("t1", now=1005.9) == Node("a", "https://a.example", 0, 1000.0)
    assert store.holder("t1", now=1006.0) is None  # expired at its end
    taken = store.take_lease("t1", "b", now=1006.0, ttl=TTL)
    assert taken.taken and taken.holder.name == "b" and taken.expires == 1012.0
    assert store.take_lease("t1", "a", now=1007.0, ttl=TTL).holder.name == "b"


def test_the_holder_takes_its_own_lease_again_for_longer(store: Store) -> None:
    store.create(config("t1"))
    two_nodes(store)
    store.take_lease("t1", "a", now=1000.0, ttl=TTL)
    again = store.take_lease("t1", "a", now=1003.0, ttl=TTL)
    assert again.taken and again.expires == 1009.0


def test_a_lease_needs_a_kept_table_and_a_registered_node(store: Store) -> None:
    two_nodes(store)
    with pytest.raises(StorageError, match="unknown table nope"):
        store.take_lease("nope", "a", now=1000.0, ttl=TTL)
    store.create(config("t1"))
    with pytest.raises(StorageError, match="unknown node z: register it first"):
        store.take_lease("t1", "z", now=1000.0, ttl=TTL)
    assert store.holder("t1", now=1000.0) is None


def test_renewing_extends_the_nodes_leases_and_tells_which_it_lost(store: Store) -> None:
    for table_id in ("t1", "t2", "t3"):
        store.create(config(table_id))
    two_nodes(store)
    store.take_lease("t1", "a", now=1000.0, ttl=TTL)
    store.take_lease("t2", "a", now=1000.0, ttl=TTL)
    store.take_lease("t3", "b", now=1000.0, ttl=TTL)
    assert store.renew_leases("a", now=1002.0, ttl=TTL) == {"t1", "t2"}
    assert store.holder("t1", now=1007.0) is not None  # renewed until 1008
    assert store.take_lease("t2", "b", now=1007.0, ttl=TTL).holder.name == "a"
    # a misses its renewals; b takes t2 once it expired
    assert store.take_lease("t2", "b", now=1008.0, ttl=TTL).taken
    assert store.renew_leases("a", now=1009.0, ttl=TTL) == {"t1"}
    assert store.renew_leases("b", now=1009.0, ttl=TTL) == {"t2", "t3"}
    assert store.renew_leases("z", now=1009.0, ttl=TTL) == set()


def test_only_the_holder_releases_a_lease(store: Store) -> None:
    store.create(config("t1"))
    two_nodes(store)
    store.take_lease("t1", "a", now=1000.0, ttl=TTL)
    store.release_lease("t1", "b")
    assert store.take_lease("t1", "b", now=1001.0, ttl=TTL).holder.name == "a"
    store.release_lease("t1", "a")
    assert store.holder("t1", now=1001.0) is None
    assert store.take_lease("t1", "b", now=1001.0, ttl=TTL).taken
    store.release_lease("nope", "a")  # nothing to release: nothing done


def race(opener: Opener, count: int, act: Callable[[Store, str, int], object]) -> None:
    """Two threads, each with a store of its own, as nodes ``a`` and ``b``: ``act(store,
    node, i)`` for ``i`` in ``range(count)``, both at once each time."""
    stores = {"a": opener(), "b": opener()}
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def node(name: str) -> None:
        try:
            for i in range(count):
                start.wait(timeout=WAIT)
                act(stores[name], name, i)
        except BaseException as error:  # pragma: no cover - reported below
            start.abort()
            errors.append(error)

    threads = [threading.Thread(target=node, args=(name,)) for name in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


@pytest.mark.parametrize("earlier", ["none", "expired"])
def test_of_two_nodes_racing_for_a_lease_exactly_one_gets_it(
    store: Store, opener: Opener, earlier: str
) -> None:
    """Many times over, two nodes take the lease on a table nobody holds (or whose holder
    let it expire) at the same instant: one gets it, the other is told it is the first's."""
    count = 150
    two_nodes(store)
    store.register_node("c", "https://c.example", now=0.0)
    for i in range(count):
        store.create(config(f"t{i}"))
        if earlier == "expired":
            store.take_lease(f"t{i}", "c", now=0.0, ttl=TTL)
    got: dict[str, list[tuple[bool, str]]] = {"a": [], "b": []}

    def take(node_store: Store, node: str, i: int) -> None:
        lease = node_store.take_lease(f"t{i}", node, now=1000.0, ttl=TTL)
        got[node].append((lease.taken, lease.holder.name))

    race(opener, count, take)
    for i, (a, b) in enumerate(zip(got["a"], got["b"], strict=True)):
        assert a[0] != b[0], f"t{i}: a {a}, b {b}"
        assert a[1] == b[1] == ("a" if a[0] else "b")
        assert store.holder(f"t{i}", now=1000.0) == Node(a[1], f"https://{a[1]}.example", 0, 1000.0)


def test_a_late_renewal_racing_a_take_leaves_one_holder(store: Store, opener: Opener) -> None:
    """Node a's lease expired; a renews while b takes the table: either a renewed it (and b is
    told a holds it) or b took it (and a's renewal does not list it), never both."""
    count = 150
    two_nodes(store)
    for i in range(count):
        store.create(config(f"t{i}"))
        store.take_lease(f"t{i}", "a", now=0.0, ttl=TTL)
    renewed: dict[int, bool] = {}
    taken: dict[int, bool] = {}

    def act(node_store: Store, node: str, i: int) -> None:
        now = 1000.0 + 10 * i  # past every lease on the tables still to race for
        if node == "a":
            renewed[i] = f"t{i}" in node_store.renew_leases("a", now=now, ttl=TTL)
        else:
            taken[i] = node_store.take_lease(f"t{i}", "b", now=now, ttl=TTL).taken

    race(opener, count, act)
    for i in range(count):
        assert renewed[i] != taken[i], f"t{i}: a renewed {renewed[i]}, b took {taken[i]}"


# -- the fence --------------------------------------------------------------------------


def step(v: int) -> Step:
    return Step(StepKind.SEAT, v=v, seat=Seat.S)


def test_every_take_of_a_table_raises_its_epoch_even_after_its_lease_is_given_up(
    store: Store,
) -> None:
    two_nodes(store)
    store.create(config("t1"))
    store.create(config("t2"))
    epochs = [store.take_lease("t1", "a", now=1000.0, ttl=TTL).epoch]
    epochs.append(store.take_lease("t1", "a", now=1001.0, ttl=TTL).epoch)  # its holder again
    assert store.take_lease("t1", "b", now=1002.0, ttl=TTL).epoch == epochs[-1]  # not taken
    store.release_lease("t1", "a")
    epochs.append(store.take_lease("t1", "b", now=1002.0, ttl=TTL).epoch)
    store.forget_node("b")
    assert store.adopt("a", now=1003.0, ttl=TTL, limit=5) == ["t1", "t2"]
    epochs.append(store.take_lease("t1", "a", now=1003.0, ttl=TTL).epoch - 1)  # adopted
    assert epochs == [1, 2, 3, 4]
    assert store.take_lease("t2", "a", now=1003.0, ttl=TTL).epoch == 2


def test_a_write_under_a_lease_another_node_took_is_refused_and_nothing_of_it_is_kept(
    store: Store,
) -> None:
    """A node paused past its lease, resumed after another took the table: its steps, its
    match's end and its closing of the table are all refused by the database."""
    two_nodes(store)
    store.create(config("t1"))
    store.create(config("t2"))
    a = store.take_lease("t1", "a", now=1000.0, ttl=TTL).fence
    store.append("t1", [step(1)], first=0, fence=a)
    b = store.take_lease("t1", "b", now=1000.0 + TTL, ttl=TTL).fence  # a's lease ran out
    assert (a.node, b.node, b.epoch) == ("a", "b", a.epoch + 1)
    with pytest.raises(LeaseLost, match="t1: node a no longer holds its lease"):
        store.append("t1", [step(2)], first=1, fence=a)
    with pytest.raises(LeaseLost):
        store.finish("t1", "record", {}, when=1010.0, fence=a)
    with pytest.raises(LeaseLost):
        store.close_table("t1", when=1010.0, fence=a)
    mine = store.take_lease("t2", "a", now=1010.0, ttl=TTL).fence
    with pytest.raises(LeaseLost):  # all or none: t2's steps are not kept either
        store.append_batch([("t2", 0, [step(1)], mine), ("t1", 1, [step(2)], a)])
    kept = {table.id: table.steps_read() for table in store.playing()}
    assert kept == {"t1": [step(1)], "t2": []}
    store.append("t1", [step(2)], first=1, fence=b)
    store.release_lease("t1", "b")
    with pytest.raises(LeaseLost):  # given up: nobody's writes pass until it is taken again
        store.append("t1", [step(3)], first=2, fence=b)


def test_a_write_racing_a_take_is_kept_before_the_take_or_refused(
    store: Store, opener: Opener
) -> None:
    """Node a's lease expired; a writes a step while b takes the table and reads its
    journal: either the step was kept before b's take (and b reads it) or it is refused,
    never kept behind b's back (the lease row is locked while the write commits)."""
    count = 150
    two_nodes(store)
    fences = {}
    for i in range(count):
        store.create(config(f"t{i}"))
        fences[i] = store.take_lease(f"t{i}", "a", now=0.0, ttl=TTL).fence
    written: dict[int, bool] = {}
    read: dict[int, int] = {}

    def act(node_store: Store, node: str, i: int) -> None:
        if node == "a":
            try:
                node_store.append(f"t{i}", [step(1)], first=0, fence=fences[i])
            except LeaseLost:
                written[i] = False
            else:
                written[i] = True
        else:
            assert node_store.take_lease(f"t{i}", "b", now=1000.0, ttl=TTL).taken
            kept = node_store.kept(f"t{i}")
            assert kept is not None
            read[i] = len(kept.steps)

    race(opener, count, act)
    for i in range(count):
        assert read[i] == written[i], f"t{i}: a wrote {written[i]}, b read {read[i]} steps"


def holder_name(store: Store, table_id: str, now: float) -> str | None:
    holder = store.holder(table_id, now=now)
    return None if holder is None else holder.name


def test_adopting_takes_the_tables_in_play_nobody_holds_the_oldest_first(store: Store) -> None:
    two_nodes(store)
    store.register_node("c", "https://c.example", now=1000.0)
    for number, table_id in enumerate(["held", "expired", "free", "later", "done"]):
        store.create(config(table_id, created=float(number)))
    store.take_lease("held", "a", now=1000.0, ttl=TTL)
    store.take_lease("expired", "b", now=990.0, ttl=TTL)
    store.finish("done", "record", {}, when=1000.0)
    assert store.adopt("c", now=1000.0, ttl=TTL, limit=2) == ["expired", "free"]
    assert store.adopt("c", now=1000.0, ttl=TTL, limit=10) == ["later"]
    assert store.adopt("b", now=1001.0, ttl=TTL, limit=10) == []
    assert {holder_name(store, t, 1001.0) for t in ("expired", "free", "later")} == {"c"}
    assert store.holder("held", now=1001.0) == Node("a", "https://a.example", 0, 1000.0)
    assert store.holder("done", now=1001.0) is None
    with pytest.raises(StorageError):
        store.adopt("nobody", now=1010.0, ttl=TTL, limit=1)


def test_of_two_nodes_adopting_at_once_each_table_goes_to_one(store: Store, opener: Opener) -> None:
    """Round after round, two nodes adopt the oldest tables nobody holds at the same instant:
    no table is taken by both, and each adopted one is its adopter's."""
    two_nodes(store)
    for number in range(100):
        store.create(config(f"t{number:03}", created=float(number)))
    adopted: dict[str, list[str]] = {"a": [], "b": []}

    def adopt(node_store: Store, node: str, _: int) -> None:
        adopted[node] += node_store.adopt(node, now=1000.0, ttl=TTL, limit=5)

    race(opener, 25, adopt)  # 5 a round at least: all adopted by the 20th
    assert not set(adopted["a"]) & set(adopted["b"])
    assert len(adopted["a"]) + len(adopted["b"]) == 100
    for node, tables in adopted.items():
        assert {holder_name(store, t, 1000.0) for t in tables} <= {node}


# -- the lobby: public tables -----------------------------------------------------------


def test_the_public_tables_in_play_with_their_hand_and_totals(store: Store) -> None:
    store.create(config("t2", created=2.0))
    store.create(config("t1", created=1.0))
    store.create(config("secret", created=3.0, public=False))
    store.create(config("done", created=4.0))
    store.finish("done", "record", {}, when=5.0)
    store.keep_score("t2", 3, (88, 121))
    assert store.public_playing() == [
        {
            "table": "t1",
            "players": config("t1").players,
            "hand": 1,
            "totals": {"NS": 0, "EW": 0},
            "rules": "classic",
            "created": 1.0,
        },
        {
            "table": "t2",
            "players": config("t2").players,
            "hand": 3,
            "totals": {"NS": 88, "EW": 121},
            "rules": "classic",
            "created": 2.0,
        },
    ]
    with pytest.raises(StorageError, match="unknown table nope"):
        store.keep_score("nope", 2, (0, 0))


def test_a_version_2_database_gets_the_nodes_leases_and_scores(
    opener: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = storage.MIGRATIONS
    monkeypatch.setattr(storage, "MIGRATIONS", full[:2])
    opener().create(config("t1"))
    monkeypatch.setattr(storage, "MIGRATIONS", full)
    store = opener()
    assert store.migrated == list(range(3, len(full) + 1))
    assert [
        (entry["table"], entry["hand"], entry["totals"]) for entry in store.public_playing()
    ] == [("t1", 1, {"NS": 0, "EW": 0})]
    two_nodes(store)
    assert store.take_lease("t1", "a", now=1000.0, ttl=TTL).taken


# -- the lobby: notifications -----------------------------------------------------------


async def next_payload(listener: LobbyListener) -> str:
    return await asyncio.wait_for(anext(listener), WAIT)


def test_a_notification_from_one_store_reaches_a_listener_of_another(opener: Opener) -> None:
    """As from one node to another: the notification is made in another thread (a node's
    writer thread), the listener hears it in its event loop, in order."""
    notifier, listening = opener(), opener()

    async def main() -> list[str]:
        async with await listening.listen_lobby() as listener:
            await asyncio.to_thread(notifier.notify_lobby, "t1 created")
            await asyncio.to_thread(notifier.notify_lobby, "t2 scored")
            return [await next_payload(listener), await next_payload(listener)]

    assert asyncio.run(main()) == ["t1 created", "t2 scored"]


def test_a_closed_listener_ends_its_iteration_and_hears_no_more(store: Store) -> None:
    async def main() -> list[str]:
        listener = await store.listen_lobby()
        store.notify_lobby("before")
        heard = await next_payload(listener)
        await listener.close()
        await listener.close()  # again: nothing
        store.notify_lobby("after")  # nobody listens: nothing fails
        return [heard, *[payload async for payload in listener]]

    assert asyncio.run(main()) == ["before"]


def test_a_listener_closed_while_it_is_awaited_ends_the_wait(store: Store) -> None:
    async def main() -> list[str]:
        listener = await store.listen_lobby()

        async def first() -> str:
            return await anext(listener, "ended")

        waiting = asyncio.create_task(first())
        await asyncio.sleep(0.05)
        await listener.close()
        return [await asyncio.wait_for(waiting, WAIT)]

    assert asyncio.run(main()) == ["ended"]


def test_a_sqlite_memory_store_hears_only_itself() -> None:
    first, second = open_store(":memory:"), open_store(":memory:")

    async def main() -> str:
        async with await first.listen_lobby() as listener:
            second.notify_lobby("other")
            first.notify_lobby("mine")
            return await next_payload(listener)

    assert asyncio.run(main()) == "mine"


@pytest.fixture
def schema_store(postgres_url: str) -> Iterator[Callable[[], Store]]:
    """Opens a PostgreSQL store in a schema of its own each time (all dropped after)."""
    schemas: list[str] = []
    opened: list[Store] = []

    def open_one() -> Store:
        schemas.append(f"test_{uuid.uuid4().hex}")
        opened.append(open_store(postgres_url, schema=schemas[-1]))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        for schema in schemas:
            connection.execute(
                sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
            )


def test_postgresql_schemas_have_lobby_channels_of_their_own(
    schema_store: Callable[[], Store],
) -> None:
    """Two deployments in two schemas of one database: each hears its own lobby alone."""
    mine, other = schema_store(), schema_store()
    assert mine._lobby_channel.startswith(f"{LOBBY_CHANNEL}.test_")
    assert mine._lobby_channel != other._lobby_channel

    async def main() -> str:
        async with await mine.listen_lobby() as listener:
            other.notify_lobby("other")
            mine.notify_lobby("mine")
            return await next_payload(listener)

    assert asyncio.run(main()) == "mine"


def test_a_postgresql_listener_that_cannot_connect_is_a_storage_error(
    schema_store: Callable[[], Store],
) -> None:
    store = schema_store()
    nowhere = urlsplit(store._target)._replace(netloc="baloot@127.0.0.1:1")  # nobody there
    store._target = urlunsplit(nowhere)
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL"):
        asyncio.run(store.listen_lobby())
