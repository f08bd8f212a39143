"""What a client's pressure cannot do to a table it does not own, over the web server:
pings, resyncs and a spectator's messages leave the table's clock alone and store nothing;
a seat that connects and closes in a loop grows no journal and floods nobody; one seat's
hints are made one at a time in a lane of their own, which never delays another table's
bots (issue 25, items 9, 12 and 13)."""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import FAST, Server
from helpers import WAIT, wait_for
from test_room import south_to_act
from test_server import Seen, create, my_turn

from baloot import Seat
from baloot.bots.best_hints import HintTask
from baloot.bots.decisions import Task, give
from baloot.server.hint_lane import HintBusy, HintLane
from baloot.server.messages import AskHint
from baloot.server.storage import open_store

R = TypeVar("R")


def stored_steps(server: Server, table: str) -> int:
    """How many steps storage keeps for ``table``, read through a store of the test's own."""
    store = server.open()
    try:
        kept = store.kept(table)
        assert kept is not None
        return len(kept.steps)
    finally:
        store.close()


# -------------------------------------------------------------------------- the table's clock


def test_a_spectators_pings_never_touch_the_tables_clock(server: Server) -> None:
    """A spectator pinging faster than the bots' pause does not hold a table of bots: the
    pause is not started again by each ping."""
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    hall.bot_pause = 0.3
    created = create(client, seats={"S": "bot:heuristic"})
    with client.websocket_connect(f"/ws/tables/{created['table']}") as socket:
        watcher = Seen(socket)
        watcher.receive()
        played, deadline = 0, time.monotonic() + WAIT
        while played < 4:
            assert time.monotonic() < deadline, "the table stood still while a spectator pinged"
            socket.send_text('{"type": "ping"}')
            while (message := watcher.receive())["type"] != "pong":
                played += message["type"] == "event"
            time.sleep(0.05)


def test_pings_and_resyncs_store_nothing_and_leave_the_turn_timer_running(
    server: Server,
) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    created = create(client, timer=60)
    table, token = created["table"], created["seats"]["S"]["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as seat_socket,
        client.websocket_connect(f"/ws/tables/{table}") as spectator_socket,
    ):
        south, watcher = Seen(seat_socket), Seen(spectator_socket)
        south.until(my_turn("S"))
        live = hall.tables[table]
        assert wait_for(lambda: live.timer is not None)
        timer, steps = live.timer, stored_steps(server, table)
        for seen in (south, watcher) * 10:
            seen.send({"type": "ping"})
            seen.send({"type": "resync", "since": 1})
            seen.send({"type": "act", "id": "x", "action": "S play As"})  # refused
            seen.until(lambda m: m["type"] == "pong")
        assert live.timer is timer and stored_steps(server, table) == steps


# -------------------------------------------------------------------------- presence


def test_a_seat_that_connects_and_closes_in_a_loop_grows_no_journal_and_floods_nobody(
    server: Server,
) -> None:
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    created = create(client)
    table, token = created["table"], created["seats"]["S"]["token"]
    seat_url = f"/ws/tables/{table}?token={token}"
    with client.websocket_connect(seat_url) as socket:
        Seen(socket).until(my_turn("S"))
    live = hall.tables[table]
    live.room.timing = replace(live.room.timing, absent=3600.0)  # no stand-in plays meanwhile
    with client.websocket_connect(f"/ws/tables/{table}") as spectator:
        watcher = Seen(spectator)
        watcher.receive()
        steps = stored_steps(server, table)
        for _ in range(100):
            with client.websocket_connect(seat_url) as looping:
                looping.receive_json()
        spectator.send_text('{"type": "ping"}')
        watcher.until(lambda m: m["type"] == "pong")
        told = [m for m in watcher.messages if m["type"] == "seat"]
        assert len(told) <= 2 and stored_steps(server, table) <= steps + 2
        # What holds at the end (the seat is gone) is told, once its interval is over.
        assert wait_for(lambda: live.room.presence_due() is None)
        assert not live.room.presence.shown(Seat.S)
    assert stored_steps(server, table) <= steps + 3


# -------------------------------------------------------------------------- hints


class HeldDeciders:
    """Deciders that make each task in a thread of its own once ``gate`` is open, counting
    how many are in flight at once."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.asked = threading.Event()
        self.tasks: list[Task[Any]] = []
        self.flying = self.most = 0
        self._lock = threading.Lock()

    def submit(self, task: Task[R]) -> Future[R]:
        with self._lock:
            self.tasks.append(task)
            self.flying += 1
            self.most = max(self.most, self.flying)
        self.asked.set()
        made: Future[R] = Future()

        def run() -> None:
            self.gate.wait(WAIT)
            with self._lock:
                self.flying -= 1
            give(made, task.run())  # unless the server stopped waiting for it

        threading.Thread(target=run, daemon=True).start()
        return made

    def close(self) -> None:
        self.gate.set()


class OneWorker:
    """Deciders with one worker: tasks are made one after the other, in the order sent (a
    pool whose only worker is busy queues the next task)."""

    def __init__(self) -> None:
        self.decided = 0
        self._queue: queue.Queue[tuple[Task[Any], Future[Any]] | None] = queue.Queue()
        threading.Thread(target=self._work, daemon=True).start()

    def submit(self, task: Task[R]) -> Future[R]:
        made: Future[R] = Future()
        self._queue.put((task, made))
        return made

    def close(self) -> None:
        self._queue.put(None)

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            task, made = item
            decision = task.run()
            self.decided += 1  # counted before it is given: the table may publish it at once
            give(made, decision)  # unless the server stopped waiting for it


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(**options: Any) -> Server:
        server = Server(lambda: open_store(str(tmp_path / "tables.db")), FAST | options)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def test_a_seat_has_one_hint_in_flight_however_many_it_asks(
    served: Callable[..., Server],
) -> None:
    """Hints asked by one seat from several connections while one is being made get that
    one, under their own ids: one task, never a queue of them."""
    hints = HeldDeciders()
    server = served(hint_deciders=hints)
    client, hall = server.client, server.hall
    assert client is not None and hall is not None
    asked: list[HintTask] = []
    ask = hall.hints.ask

    def counted(table_id: str, task: HintTask) -> asyncio.Future[Any]:
        asked.append(task)
        return ask(table_id, task)

    hall.hints.ask = counted  # type: ignore[method-assign]
    created = create(client)
    url = f"/ws/tables/{created['table']}?token={created['seats']['S']['token']}"
    with (
        client.websocket_connect(url) as first,
        client.websocket_connect(url) as second,
        client.websocket_connect(url) as third,
    ):
        tabs = [Seen(first), Seen(second), Seen(third)]
        for number, tab in enumerate(tabs):
            tab.until(my_turn("S"))
            tab.send({"type": "hint", "id": f"h{number}"})
        assert wait_for(lambda: len(asked) == 3), "the hints were not all asked"
        hints.gate.set()
        answers = [tab.until(lambda m: m["type"] in ("hint", "reject")) for tab in tabs]
    assert [answer["id"] for answer in answers] == ["h0", "h1", "h2"]
    assert {answer["type"] for answer in answers} == {"hint"}
    assert len({answer["action"] for answer in answers}) == 1
    assert len(hints.tasks) == 1 and hints.most == 1


def test_hints_never_delay_another_tables_bot_decisions(served: Callable[..., Server]) -> None:
    """While a hint is being made (held), another table's bots, which decide away, play on:
    hints have a lane of their own."""
    hints, bots = HeldDeciders(), OneWorker()
    server = served(deciders=bots, hint_deciders=hints)
    client = server.client
    assert client is not None
    asking = create(client)
    url = f"/ws/tables/{asking['table']}?token={asking['seats']['S']['token']}"
    with client.websocket_connect(url) as socket:
        south = Seen(socket)
        south.until(my_turn("S"))
        south.send({"type": "hint", "id": "h1"})
        assert hints.asked.wait(WAIT), "the hint was not asked"
        searching = create(client, seats={seat: "bot:medium" for seat in "NESW"})
        with client.websocket_connect(f"/ws/tables/{searching['table']}") as spectator:
            watcher = Seen(spectator)
            for _ in range(4):
                watcher.until(lambda m: m["type"] == "event")
        assert bots.decided >= 4 and not hints.gate.is_set()
        hints.gate.set()
        assert south.until(lambda m: m["type"] in ("hint", "reject"))["type"] == "hint"


def test_the_hints_lane_refuses_a_second_position_of_a_seat_and_a_hint_beyond_its_limit() -> None:
    harness, south = south_to_act()
    task = harness.room.hint_task(south.connection, AskHint("h1"), seconds=60)
    assert task is not None
    us, them = task.view.score_before
    moved = replace(task, view=replace(task.view, score_before=(us + 16, them)))

    async def main() -> None:
        held = HeldDeciders()
        lane = HintLane(held, limit=1)
        made = lane.ask("t1", task)
        assert lane.ask("t1", task) is made  # the same position: coalesced
        with pytest.raises(HintBusy, match="a hint is being made for this seat"):
            lane.ask("t1", moved)
        with pytest.raises(HintBusy, match="as many hints as it can"):
            lane.ask("t2", task)
        held.gate.set()
        assert (await made).hint.action in task.legal
        assert lane.ask("t2", task) is not made  # the lane is free again
        lane.close()

    asyncio.run(main())
