"""A web table's bots deciding away from the table (worker processes, a cluster): the same
game as in the server's threads, the table free while they think, and the stand-in deciding
when a decision does not come back."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from conftest import FAST, Server
from helpers import WAIT
from test_server import Seen, create

from baloot import Seat
from baloot.bots.decisions import Decision, DecisionFailed, DecisionTask, decide
from baloot.bots.expert import ExpertBot
from baloot.bots.workers import WorkerPool
from baloot.server import Room
from baloot.server.storage import open_store
from baloot.table import Player, WaitKind

SEARCHING = {Seat.N: "medium", Seat.E: "expert:fast", Seat.W: "medium"}


class ThreadDeciders:
    """Deciders that decide each task in a thread of their own, once ``gate`` is open."""

    def __init__(self) -> None:
        self.tasks: list[DecisionTask] = []
        self.gate = threading.Event()
        self.gate.set()
        self.asked = threading.Event()

    def submit(self, task: DecisionTask) -> Future[Decision]:
        self.tasks.append(task)
        self.asked.set()
        decision: Future[Decision] = Future()

        def run() -> None:
            self.gate.wait(WAIT)
            decision.set_result(decide(task))

        threading.Thread(target=run, daemon=True).start()
        return decision

    def close(self) -> None:
        self.gate.set()


class FailingDeciders:
    """Deciders whose decisions never come back, as when a worker dies."""

    def __init__(self) -> None:
        self.failed = 0

    def submit(self, task: DecisionTask) -> Future[Decision]:
        self.failed += 1
        decision: Future[Decision] = Future()
        decision.set_exception(DecisionFailed("the bot worker died (exit -9)"))
        return decision

    def close(self) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[Any], Server]]:
    started: list[Server] = []

    def start(deciders: Any) -> Server:
        server = Server(lambda: open_store(str(tmp_path / "tables.db")), dict(FAST))
        server.options["deciders"] = deciders
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def seats(names: dict[Seat, str]) -> dict[str, str]:
    return {"S": "human"} | {seat.name: f"bot:{name}" for seat, name in names.items()}


def test_decisions_made_from_tasks_play_the_game_of_the_bots_in_the_room() -> None:
    players = {Seat.S: Player.bot("heuristic")} | {s: Player.bot(n) for s, n in SEARCHING.items()}
    here, away = Room.create(players, seed=11), Room.create(players, seed=11)
    sent = 0
    while here.table.hand_number == 1 and here.table.waiting().kind is WaitKind.BOT:
        here.step_bot()
        task = away.bot_task(seconds=60)
        if task is None:  # a bot that decides where it is
            away.step_bot()
        else:
            sent += 1
            assert away.still_asks(task)
            away.play_decided(task, decide(task))
    assert sent > 0
    assert away.table.hand.actions == here.table.hand.actions
    for seat in SEARCHING:  # the bots moved on alike
        mine, theirs = (room.table.bots[seat] for room in (here, away))
        assert isinstance(mine, ExpertBot) and isinstance(theirs, ExpertBot)
        assert mine.rng.getstate() == theirs.rng.getstate()


def test_a_quick_bot_and_a_human_seat_are_never_sent_away() -> None:
    room = Room.create({Seat.S: Player.human("Saad")}, seed=3)  # the others: heuristic
    while room.table.waiting().kind is WaitKind.BOT:
        assert room.bot_task(seconds=60) is None
        room.step_bot()
    assert room.table.waiting().kind is WaitKind.HUMAN
    assert room.bot_task(seconds=60) is None


def test_a_table_whose_bots_decide_away_plays_on_and_is_free_while_they_think(
    served: Callable[[Any], Server],
) -> None:
    deciders = ThreadDeciders()
    server = served(deciders)
    client = server.client
    assert client is not None
    deciders.gate.clear()
    created = create(client, seats=seats(SEARCHING))
    table, token = created["table"], created["seats"]["S"]["token"]
    assert deciders.asked.wait(WAIT), "no decision was sent away"
    # While a bot thinks, the table takes a connection and answers it at once.
    with client.websocket_connect(f"/ws/tables/{table}") as watching:
        assert Seen(watching).receive()["type"] == "snapshot"
    deciders.gate.set()
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
        assert Seen(socket).play_to_hand_over()["type"] == "hand-over"
    assert {task.bot for task in deciders.tasks} <= set(SEARCHING.values())
    assert all(task.view.seat in SEARCHING for task in deciders.tasks)


def test_a_decision_that_does_not_come_back_is_the_stand_ins_and_the_seat_says_so(
    served: Callable[[Any], Server], caplog: pytest.LogCaptureFixture
) -> None:
    deciders = FailingDeciders()
    server = served(deciders)
    client = server.client
    assert client is not None
    created = create(client, seats=seats(SEARCHING))
    table, token = created["table"], created["seats"]["S"]["token"]
    url = f"/ws/tables/{table}?token={token}"
    with caplog.at_level(logging.WARNING, "baloot.server"), client.websocket_connect(url) as socket:
        south = Seen(socket)
        assert south.play_to_hand_over()["type"] == "hand-over"
    assert deciders.failed > 0
    said = [(m["seat"], m["connected"]) for m in south.messages if m["type"] == "seat"]
    gone = [seat for seat, connected in said if not connected]
    assert gone and set(gone) <= {seat.name for seat in SEARCHING}
    for seat in set(gone):  # each time it does not answer, then it is back
        flags = [connected for name, connected in said if name == seat]
        assert all(a != b for a, b in itertools.pairwise(flags)), flags
    assert all(m["player"].startswith("bot:") for m in south.messages if m["type"] == "seat")
    lines = [r.getMessage() for r in caplog.records if "the stand-in decided" in r.getMessage()]
    assert lines and "the bot worker died (exit -9)" in lines[0]


def test_bots_on_worker_processes_play_a_web_table(served: Callable[[Any], Server]) -> None:
    with WorkerPool(1) as pool:
        server = served(pool)
        client = server.client
        assert client is not None
        created = create(client, seats=seats(SEARCHING))
        table, token = created["table"], created["seats"]["S"]["token"]
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as socket:
            south = Seen(socket)
            assert south.play_to_hand_over()["type"] == "hand-over"
        assert not [m for m in south.messages if m["type"] == "seat" and not m["connected"]]
