"""``server.idle``: a human's presence noted once a minute at most; a table whose humans
stayed away longer than the idle time is closed with its record, dropped from memory and its
lease given up."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from baloot.server.idle import SEEN_EVERY, IdleClock
from baloot.server.leases import LEASE_SECONDS
from baloot.server.live import Live
from baloot.server.requests import read_request
from baloot.server.room import Room
from baloot.server.storage import Store, TableStatus, open_store
from baloot.server.store_thread import StoreThread

DAY = 24 * 3600.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def served(store: Store, clock: Clock, *, dealt: bool = True) -> Live:
    """A new table of a human South, its first hand dealt unless not ``dealt`` (it then waits
    for South's entropy), kept and leased by node ``a``, in memory."""
    asked = read_request({"seats": {"S": "human"}})
    room = Room.create(asked.players, rules=asked.rules, secret_bytes=random.Random(3).randbytes)
    if dealt:
        room.deal()
    config = room.config(timer=None, public=False, created=clock())
    store.create(config)
    store.register_node("a", "https://a.example", clock())
    lease = store.take_lease(room.id, "a", clock(), LEASE_SECONDS)
    return Live(room, config, lease.fence, lease_until=lease.expires)


def test_a_presence_is_noted_once_a_minute_at_most(tmp_path: Path) -> None:
    store, clock, run = open_store(str(tmp_path / "t.db")), Clock(1000.0), StoreThread()
    live = served(store, clock)
    noted: list[float] = []
    seen = store.seen

    def note(table_id: str, when: float) -> None:
        noted.append(when)
        seen(table_id, when)

    def drop(_: Live, code: int) -> None:
        raise AssertionError("nothing is dropped")

    async def give_up(_: Live) -> None:
        raise AssertionError("nothing is given up")

    store.seen = note  # type: ignore[method-assign]
    idle = IdleClock(store, run, {}, idle=DAY, clock=clock, drop=drop, give_up=give_up)

    async def three() -> None:
        await idle.seen(live)
        clock.now += SEEN_EVERY - 1
        await idle.seen(live)
        clock.now += 1
        await idle.seen(live)

    try:
        asyncio.run(three())
    finally:
        run.shutdown()
    assert noted == [1000.0, 1000.0 + SEEN_EVERY]


@pytest.mark.parametrize("dealt", [True, False], ids=["dealt", "never-dealt"])
def test_a_table_nobody_came_back_to_is_closed_dropped_and_its_lease_given_up(
    tmp_path: Path, dealt: bool
) -> None:
    store, clock, run = open_store(str(tmp_path / "t.db")), Clock(1000.0), StoreThread()
    live = served(store, clock, dealt=dealt)
    table_id = live.room.id
    tables = {table_id: live}
    dropped: list[tuple[str, int]] = []
    given_up: list[str] = []

    def drop(gone: Live, code: int) -> None:
        dropped.append((gone.room.id, code))
        del tables[gone.room.id]

    async def give_up(gone: Live) -> None:
        given_up.append(gone.room.id)

    idle = IdleClock(store, run, tables, idle=DAY, clock=clock, drop=drop, give_up=give_up)

    async def twice() -> None:
        await idle.close_idle()  # a day has not passed: nothing is closed
        clock.now += DAY + 1
        await idle.close_idle()

    try:
        asyncio.run(twice())
    finally:
        run.shutdown()
    assert dropped == [(table_id, 1001)] and given_up == [table_id] and tables == {}
    found = store.match_record(table_id)
    assert found is not None and found[0] is TableStatus.CLOSED
    assert bool(found[1]) is dealt  # a table never dealt has no hand to record
