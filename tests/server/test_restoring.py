"""``server.restoring``: a table read back from storage once however many ask, under this
node's lease only; a table another node holds is that node's; kept rows that cannot be read
leave the table unrestorable, said in one line."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from baloot.server.deadlines import Timing
from baloot.server.journal import KeptTable
from baloot.server.leases import LEASE_SECONDS, Node
from baloot.server.live import Live
from baloot.server.requests import read_request
from baloot.server.restoring import Restorer
from baloot.server.room import Room
from baloot.server.storage import Store, open_store
from baloot.server.store_thread import StoreThread


class Hall:
    """What a restore asks of the hall, noted."""

    def __init__(self) -> None:
        self.tables: dict[str, Live] = {}
        self.scheduled: list[str] = []
        self.released: list[str] = []

    def timing(self, timer: float | None) -> Timing:
        return Timing(turn=timer)

    def schedule(self, live: Live) -> None:
        self.scheduled.append(live.room.id)

    async def release_lease(self, table_id: str) -> None:
        self.released.append(table_id)


def made(store: Store) -> str:
    """A new table of a human South and three bots, kept: its id."""
    asked = read_request({"seats": {"S": "human"}})
    secrets = random.Random(7)
    room = Room.create(asked.players, rules=asked.rules, secret_bytes=secrets.randbytes)
    store.create(room.config(timer=None, public=False, created=time.time()))
    return room.id


def restorer(store: Store, hall: Hall, run: StoreThread) -> Restorer:
    store.register_node("a", "https://a.example", time.time())
    return Restorer(
        store, run, hall, node="a", clock=time.time, secret_bytes=random.Random(1).randbytes
    )


def test_a_table_asked_for_at_once_is_restored_once_under_this_nodes_lease(
    tmp_path: Path,
) -> None:
    store, hall, run = open_store(str(tmp_path / "t.db")), Hall(), StoreThread()
    table_id = made(store)

    async def three_at_once() -> list[Live | Node | None]:
        restoring = restorer(store, hall, run)
        return list(await asyncio.gather(*(restoring.revive(table_id) for _ in range(3))))

    try:
        found = asyncio.run(three_at_once())
    finally:
        run.shutdown()
    live = found[0]
    assert isinstance(live, Live) and all(other is live for other in found)
    assert hall.tables == {table_id: live} and hall.scheduled == [table_id]
    holder = store.holder(table_id, time.time())
    assert holder is not None and holder.name == "a"


def test_a_table_another_node_holds_is_that_nodes_and_an_unknown_one_nobodys(
    tmp_path: Path,
) -> None:
    store, hall, run = open_store(str(tmp_path / "t.db")), Hall(), StoreThread()
    table_id = made(store)
    store.register_node("b", "https://b.example", time.time())
    assert store.take_lease(table_id, "b", time.time(), LEASE_SECONDS).taken

    async def both() -> tuple[Live | Node | None, Live | Node | None]:
        restoring = restorer(store, hall, run)
        return await restoring.revive(table_id), await restoring.revive("nosuch")

    try:
        held, unknown = asyncio.run(both())
    finally:
        run.shutdown()
    assert isinstance(held, Node) and held.url == "https://b.example"
    assert unknown is None and hall.tables == {} and hall.released == []


def test_rows_that_cannot_be_read_leave_the_table_unrestorable_in_one_line(
    tmp_path: Path,
) -> None:
    store, hall, run = open_store(str(tmp_path / "t.db")), Hall(), StoreThread()
    table_id = made(store)

    def unreadable(table_id: str) -> KeptTable | None:
        return KeptTable(table_id, "not a config", ())

    store.kept = unreadable  # type: ignore[method-assign]

    async def once() -> tuple[Restorer, Live | Node | None]:
        restoring = restorer(store, hall, run)
        return restoring, await restoring.revive(table_id)

    try:
        restoring, found = asyncio.run(once())
    finally:
        run.shutdown()
    assert found is None and hall.tables == {}
    reason = restoring.unrestorable[table_id]
    assert reason and "\n" not in reason
