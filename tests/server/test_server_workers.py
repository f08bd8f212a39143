"""A web table's bots deciding away from the table (worker processes, a cluster): the same
game as in the server's threads, the table free while they think, and the stand-in deciding
when a decision does not come back. The analyses of finished hands go to the same workers,
hints to workers of their own: the same answers as made in the server, and made there when a
task fails."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import FAST, Server
from helpers import WAIT
from test_analysis import FAST as JUDGE_BOT
from test_room import south_to_act
from test_server import Seen, create
from test_server_analysis import THROWN_RECORD, stored_match, wait_done

from baloot import Seat, Verb
from baloot.analysis import SolverAndBot, analyze_record
from baloot.analysis.tasks import JudgeTask
from baloot.bots.best_hints import HintTask
from baloot.bots.decisions import DecisionFailed, DecisionTask, Task, decide
from baloot.bots.expert import ExpertBot
from baloot.bots.workers import WorkerPool
from baloot.records.record import loads
from baloot.server import Room
from baloot.server.messages import AskHint, Refused
from baloot.server.storage import open_store
from baloot.table import Player, WaitKind

#: Searching bots, sent away: a level, and the expert on the least budget that still searches
#: (a web table's bots are the same kind, and a whole hand of them costs a fifth as much).
LEAST = "expert:fast,samples=8,first=2,deals=4,pool=1"
SEARCHING = {Seat.N: "medium", Seat.E: LEAST, Seat.W: LEAST}
R = TypeVar("R")


class ThreadDeciders:
    """Deciders that do each task in a thread of their own, once ``gate`` is open."""

    def __init__(self) -> None:
        self.tasks: list[Task[Any]] = []
        self.gate = threading.Event()
        self.gate.set()
        self.asked = threading.Event()

    def submit(self, task: Task[R]) -> Future[R]:
        self.tasks.append(task)
        self.asked.set()
        decision: Future[R] = Future()

        def run() -> None:
            self.gate.wait(WAIT)
            decision.set_result(task.run())

        threading.Thread(target=run, daemon=True).start()
        return decision

    def close(self) -> None:
        self.gate.set()


class FailingDeciders:
    """Deciders whose decisions never come back, as when a worker dies."""

    def __init__(self) -> None:
        self.failed = 0

    def submit(self, task: Task[R]) -> Future[R]:
        self.failed += 1
        decision: Future[R] = Future()
        decision.set_exception(DecisionFailed("the bot worker died (exit -9)"))
        return decision

    def close(self) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(deciders: Any, hint_deciders: Any = None) -> Server:
        server = Server(lambda: open_store(str(tmp_path / "tables.db")), dict(FAST))
        server.options["deciders"] = deciders
        server.options["hint_deciders"] = hint_deciders
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
    # The first hand's first sixteen decisions: the bidding and the first tricks.
    for _ in range(16):
        if here.table.hand_number != 1 or here.table.waiting().kind is not WaitKind.BOT:
            break
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
    assert any(action.verb is Verb.PLAY for action in here.table.hand.actions)
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
    assert all(
        isinstance(task, DecisionTask) and task.view.seat in SEARCHING for task in deciders.tasks
    )


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


# -------------------------------------------------------------------------- hints


def test_a_hint_made_from_a_task_is_the_rooms_own_and_its_bot_moves_on_alike() -> None:
    """Seed 21: South's first call, where the best bot searches."""
    here, south_here = south_to_act(21)
    away, south_away = south_to_act(21)
    for n in range(2):  # the second hint starts where the first left the generator
        (hint,) = here.send(south_here, {"type": "hint", "id": f"h{n}"})
        task = away.room.hint_task(south_away.connection, AskHint(f"h{n}"), seconds=60)
        assert isinstance(task, HintTask) and task.view.seat is Seat.S
        assert away.deliver(away.room.hinted(south_away.connection, AskHint(f"h{n}"), task.run()))
        assert south_away.messages[-1] == hint
    assert away.room.hint_bot.rng.getstate() == here.room.hint_bot.rng.getstate()  # type: ignore[attr-defined]


def test_a_hint_that_would_be_refused_is_not_sent_away() -> None:
    harness, south = south_to_act()
    spectator = harness.connect(None)
    with pytest.raises(Refused, match="a spectator may not act"):
        harness.room.hint_task(spectator.connection, AskHint("h1"), seconds=60)
    assert harness.room.hint_task(south.connection, AskHint("h1"), seconds=60) is not None


def test_a_hint_at_a_web_table_is_made_on_the_hints_workers_while_the_table_answers(
    served: Callable[..., Server],
) -> None:
    deciders = ThreadDeciders()
    server = served(ThreadDeciders(), deciders)
    client = server.client
    assert client is not None
    created = create(client, seats={"S": "human"})  # the quick heuristic bots
    url = f"/ws/tables/{created['table']}?token={created['seats']['S']['token']}"
    with client.websocket_connect(url) as socket:
        south = Seen(socket)
        south.until(lambda m: (m.get("view") or {}).get("to_act") == "S")
        deciders.gate.clear()
        south.send({"type": "hint", "id": "h1"})
        assert deciders.asked.wait(WAIT), "the hint was not sent away"
        # While the hint is made, the table takes a connection and answers it at once.
        with client.websocket_connect(f"/ws/tables/{created['table']}") as watching:
            assert Seen(watching).receive()["type"] == "snapshot"
        deciders.gate.set()
        hint = south.until(lambda m: m["type"] == "hint")
    assert hint["id"] == "h1" and hint["action"] in south.view["legal"]
    assert [type(task) for task in deciders.tasks] == [HintTask]


def test_a_hint_whose_task_fails_is_made_in_the_server(
    served: Callable[..., Server], caplog: pytest.LogCaptureFixture
) -> None:
    server = served(None, FailingDeciders())
    client = server.client
    assert client is not None
    created = create(client, seats={"S": "human"})
    url = f"/ws/tables/{created['table']}?token={created['seats']['S']['token']}"
    with caplog.at_level(logging.WARNING, "baloot.server"), client.websocket_connect(url) as socket:
        south = Seen(socket)
        south.until(lambda m: (m.get("view") or {}).get("to_act") == "S")
        south.send({"type": "hint", "id": "h1"})
        hint = south.until(lambda m: m["type"] in ("hint", "reject"))
    assert hint["type"] == "hint" and hint["action"] in south.view["legal"]
    assert any("the hint is made in the server" in r.getMessage() for r in caplog.records)


# -------------------------------------------------------------------------- analyses


def analysed_away(served: Callable[[Any], Server], deciders: Any) -> dict[str, Any]:
    server = served(deciders)
    assert server.hall is not None and server.client is not None
    server.hall.analyses.judge = SolverAndBot(JUDGE_BOT)
    server.hall.analyses.bot = JUDGE_BOT
    stored_match(server.hall.store, "old", THROWN_RECORD)
    analysis: dict[str, Any] = wait_done(server.client, "old", 1)["analysis"]
    return analysis


@pytest.fixture(scope="module")
def here() -> dict[str, Any]:
    """The hand's analysis as this process makes it, once for the tests that compare."""
    return analyze_record(loads(THROWN_RECORD), SolverAndBot(JUDGE_BOT), hand=1).to_json()


def test_a_hands_analysis_is_judged_on_the_workers_position_by_position_as_here(
    served: Callable[[Any], Server], here: dict[str, Any]
) -> None:
    deciders = ThreadDeciders()
    analysis = analysed_away(served, deciders)
    assert analysis == here
    judged = [task for task in deciders.tasks if isinstance(task, JudgeTask)]
    assert len(judged) == len(here["hands"][0]["decisions"]) > 1


def test_a_position_whose_worker_fails_is_judged_in_the_server(
    served: Callable[[Any], Server], here: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    deciders = FailingDeciders()
    with caplog.at_level(logging.WARNING, "baloot.server"):
        analysis = analysed_away(served, deciders)
    assert analysis == here
    assert deciders.failed == len(analysis["hands"][0]["decisions"])
    assert any("judged in the server" in r.getMessage() for r in caplog.records)


def test_the_workers_judge_a_position_as_this_process_does() -> None:
    from baloot.analysis.analyze import Plan

    point = Plan.of(loads(THROWN_RECORD), estimated=True, hand=1).points[0]
    task = JudgeTask(point, JUDGE_BOT, 0)
    with WorkerPool(1) as pool:
        assert pool.submit(task).result(timeout=WAIT) == task.run()
