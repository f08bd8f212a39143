"""How tables spread over the nodes of one PostgreSQL database (``docs/nodes.md``): a dead
node's tables over the others, one at a time, and a few tables at a time to a node that
joins, with every table played on.

The nodes are halls in this process, each renewing its leases on its own clock, as ``baloot
serve`` does; a node dies by stopping without giving up its leases (as a ``kill -9`` would).
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Awaitable, Callable, Iterator

import psycopg
import pytest
from conftest import FAST, Opener, Server
from helpers import wait_for
from psycopg import sql

from baloot.server import node_duties, restoring
from baloot.server.hall import Hall
from baloot.server.storage import Store, open_store

#: A bot's pause: long enough that a match outlasts the test, short enough that play is seen.
PAUSE = 0.4

#: The nodes' renewals and leases here: half the served ones, in the same ratio (a lease lasts
#: three renewals), so that a dead node's leases run out and tables move in half the time.
RENEW, LEASE = 1.0, 3.0


@pytest.fixture(autouse=True)
def _short_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (node_duties, restoring):
        monkeypatch.setattr(module, "LEASE_SECONDS", LEASE)
    monkeypatch.setattr(node_duties, "RENEW_SECONDS", RENEW)


@pytest.fixture
def postgres(postgres_url: str) -> Iterator[Opener]:
    """Opens stores on this test's own PostgreSQL schema, one per node."""
    schema = f"test_{uuid.uuid4().hex}"
    opened: list[Store] = []

    def open_one() -> Store:
        opened.append(open_store(postgres_url, schema=schema))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        )


@pytest.fixture
def nodes(postgres: Opener) -> Iterator[dict[str, Server]]:
    """Named nodes started on demand (``start_node``), all stopped at the end."""
    started: dict[str, Server] = {}
    yield started
    for server in started.values():
        server.stop()


def start_node(nodes: dict[str, Server], postgres: Opener, name: str) -> Server:
    options = {**FAST, "bot_pause": PAUSE, "node": name, "public_url": f"http://{name}.example"}
    nodes[name] = Server(postgres, options)
    nodes[name].start()
    return nodes[name]


def kill(nodes: dict[str, Server], name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop the node as a kill would: its leases stay until they run out."""
    server = nodes.pop(name)
    assert server.hall is not None
    monkeypatch.setattr(server.hall.store, "forget_node", lambda _: None)
    server.stop()


def hall(server: Server) -> Hall:
    assert server.hall is not None
    return server.hall


def loads(nodes: dict[str, Server]) -> dict[str, int]:
    return {name: hall(server).nodes.load() for name, server in nodes.items()}


def bot_tables(server: Server, count: int) -> list[str]:
    assert server.client is not None
    return [
        server.client.post("/api/tables", json={"seats": {"S": "bot:heuristic"}}).json()["table"]
        for _ in range(count)
    ]


def steps(probe: Store, table_id: str) -> int:
    kept = probe.kept(table_id)
    assert kept is not None, f"table {table_id} is no longer in play"
    return len(kept.read()[1])


def served_once(nodes: dict[str, Server], tables: list[str]) -> bool:
    """Whether every table is in play in exactly one node's memory."""
    return all(
        sum(table_id in hall(server).tables for server in nodes.values()) == 1
        for table_id in tables
    )


def balanced(nodes: dict[str, Server], tables: list[str]) -> bool:
    now = loads(nodes)
    return max(now.values()) - min(now.values()) <= 1 and served_once(nodes, tables)


def slow_restores(server: Server, seconds: float) -> None:
    """Make the node's restores of tables take ``seconds`` (a long journal, a busy
    database), so that loads read meanwhile are stale unless a lease counts at once."""
    restorer = hall(server).restorer
    reload: Callable[[str], Awaitable[object]] = restorer._reload

    async def slowly(table_id: str) -> object:
        await asyncio.sleep(seconds)
        return await reload(table_id)

    restorer._reload = slowly  # type: ignore[assignment,method-assign]


def test_a_dead_nodes_tables_spread_over_the_others_one_at_a_time(
    postgres: Opener, nodes: dict[str, Server], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("a", "b", "c"):
        start_node(nodes, postgres, name)
    made = bot_tables(nodes["c"], 4) + bot_tables(nodes["a"], 4) + bot_tables(nodes["b"], 4)
    assert wait_for(lambda: balanced(nodes, made))  # 4 each
    probe = postgres()
    orphans = list(hall(nodes["c"]).tables)
    for name in ("a", "b"):
        slow_restores(nodes[name], 3 * RENEW)
    kill(nodes, "c", monkeypatch)
    stored = {table_id: steps(probe, table_id) for table_id in orphans}
    peak = [0]

    def spread() -> bool:
        peak[0] = max(peak[0], *loads(nodes).values())
        return balanced(nodes, made)

    assert wait_for(spread)
    assert peak[0] <= 7  # 6 each, one more at most while a heartbeat is on its way
    assert sum(loads(nodes).values()) == len(made)
    # Nothing stored is lost, and every table plays on.
    assert wait_for(lambda: all(steps(probe, table) > stored[table] for table in orphans))


def test_a_node_that_joins_gets_tables_a_few_at_a_time_and_play_goes_on(
    postgres: Opener, nodes: dict[str, Server]
) -> None:
    for name in ("a", "b"):
        start_node(nodes, postgres, name)
    made = bot_tables(nodes["a"], 5) + bot_tables(nodes["b"], 5)
    assert wait_for(lambda: served_once(nodes, made))
    probe = postgres()
    before = {table_id: steps(probe, table_id) for table_id in made}
    start_node(nodes, postgres, "c")
    seen = [0]

    def watched() -> bool:
        seen.append(loads(nodes)["c"])
        return balanced(nodes, made)

    assert wait_for(watched)
    assert sorted(loads(nodes).values()) == [3, 3, 4]
    # A few at a time: at most one from each of a and b at a renewal.
    assert max(later - earlier for earlier, later in itertools.pairwise(seen)) <= 2
    assert wait_for(lambda: all(steps(probe, table) > before[table] for table in made))
    assert served_once(nodes, made)
