"""Bot decisions sent away (``bots.decisions``, ``bots.workers``, ``bots.ray_workers``): a
hand decided through tasks, here, on worker processes or on a local Ray instance, is the hand
the same bots play in-process for the same seed; a worker that dies, hangs or whose bot
raises fails that decision alone, in one line, and the next one is made; the workers ignore
Ctrl-C, go with :meth:`close`, and go when their parent is killed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import psutil
import pytest
from helpers import ENV, WAIT, ignores, needs_ray, read_line, wait_for

import baloot
from baloot.bots import RandomBot, make_bot, play_hand, registered
from baloot.bots.deciders import open_deciders
from baloot.bots.decisions import Deciders, Decision, DecisionFailed, DecisionTask, Task, decide
from baloot.bots.driver import choose
from baloot.bots.guarded import GuardedBot
from baloot.bots.workers import WorkerPool, workers_default
from baloot.core.actions import Action, Verb
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.table.players import Bot, BotError
from baloot.view.seat_view import SeatView


class _TestBot:
    """A bot of these tests: it does what its name says at every decision."""

    name = "test-bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self.act(legal)

    def act(self, legal: Sequence[Action]) -> Action:
        raise NotImplementedError


class _Raises(_TestBot):
    def act(self, legal: Sequence[Action]) -> Action:
        raise KeyError("missing")


class _Dies(_TestBot):
    def act(self, legal: Sequence[Action]) -> Action:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("still alive")


class _Hangs(_TestBot):
    def act(self, legal: Sequence[Action]) -> Action:
        time.sleep(10 * WAIT)
        return legal[0]


class _Illegal(_TestBot):
    def act(self, legal: Sequence[Action]) -> Action:
        return Action.parse("N play 7s")  # no card is played while bidding


TEST_BOTS = {"test-raises": _Raises, "test-dies": _Dies, "test-hangs": _Hangs}
#: The grace of these tests' pools: short, so that a hang is given up soon.
GRACE = 1.0


def _first(seed: int = 1) -> tuple[SeatView, tuple[Action, ...]]:
    hand = Hand.new(rng=random.Random(seed))
    return SeatView.of(hand, hand.to_act), hand.legal_actions()


def _bots(names: Sequence[str], seed: int) -> dict[Seat, Bot]:
    return {
        seat: make_bot(names[int(seat) % len(names)], random.Random(seed * 8 + int(seat)))
        for seat in Seat
    }


#: The decisions of a hand the searching bots' tests play: the bidding and the first tricks,
#: calls and cards both, the generators moved on by each (a whole hand is twice as long).
PART = 16
#: The searching bots on the least budgets that still search: their generators move on as on
#: any budget, at a fifth of the cost of ``medium`` and ``ismcts:fast``.
LEAST_EXPERT = "expert:fast,samples=8,first=2,deals=4,pool=1"
LEAST_ISMCTS = "ismcts:fast,iterations=100,worlds=4"


def _through_tasks(
    names: Sequence[str],
    seed: int,
    send: Callable[[DecisionTask], Decision],
    decisions: int | None = None,
) -> tuple[list[Action], dict[Seat, Bot]]:
    """The hand of ``seed`` (its first ``decisions``, if given) with each decision a task given
    to ``send``, and the bots after."""
    bots = _bots(names, seed)
    hand = Hand.new(rng=random.Random(seed))
    made = 0
    while not hand.is_over and (decisions is None or made < decisions):
        made += 1
        seat = hand.to_act
        assert seat is not None
        bot = bots[seat]
        name = names[int(seat) % len(names)]
        view, legal = SeatView.of(hand, seat), hand.legal_actions()
        decision = send(DecisionTask.of(bot, view, legal, seconds=WAIT, name=name))
        decision.restore(bot)
        hand.apply(hand.announced(decision.action))
    return hand.actions, bots


def _in_process(
    names: Sequence[str], seed: int, decisions: int | None = None
) -> tuple[list[Action], dict[Seat, Bot]]:
    bots = _bots(names, seed)
    hand = Hand.new(rng=random.Random(seed))
    if decisions is None:
        return play_hand(hand, bots).actions, bots
    for _ in range(decisions):
        if hand.is_over:
            break
        hand.apply(choose(hand, bots))
    return hand.actions, bots


def _states(bots: dict[Seat, Bot]) -> dict[Seat, object]:
    return {seat: vars(bot)["rng"].getstate() for seat, bot in bots.items()}


def _assert_same_hand(
    names: Sequence[str], seed: int, send: Callable[..., Decision], decisions: int | None = None
) -> None:
    actions, bots = _through_tasks(names, seed, send, decisions)
    expected, alone = _in_process(names, seed, decisions)
    assert [str(a) for a in actions] == [str(a) for a in expected]
    if decisions is not None:
        assert any(a.verb is Verb.PLAY for a in actions), "the part of the hand played no card"
    assert _states(bots) == _states(alone), "the generators did not move on as in-process"


def _workers(pid: int | None = None) -> set[int]:
    """The worker processes of this process (or of ``pid``): the children of its fork server
    (Ray's are not)."""
    workers: set[int] = set()
    for child in psutil.Process(pid).children():
        try:
            if any("forkserver" in word for word in child.cmdline()):
                workers.update(worker.pid for worker in child.children())
        except psutil.Error:  # gone, or a zombie, since the list was read
            pass
    return workers


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _fails(future: Future[Decision], *words: str) -> str:
    with pytest.raises(DecisionFailed) as failed:
        future.result(timeout=WAIT)
    message = str(failed.value)
    assert "\n" not in message and all(word in message for word in words), message
    return message


# ------------------------------------------------------------------- a task, in this process


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("bot", ["random", "heuristic", "easy"])
def test_a_hand_decided_by_tasks_is_the_hand_of_the_bots_in_process(bot: str, seed: int) -> None:
    _assert_same_hand([bot], seed, decide)


@pytest.mark.parametrize(
    "names", [[LEAST_EXPERT], [LEAST_ISMCTS], ["random", "medium", "heuristic"]]
)
def test_the_searching_bots_decide_by_tasks_as_in_process(names: list[str]) -> None:
    _assert_same_hand(names, 4, decide, PART)


def test_a_task_names_the_bot_as_it_was_made() -> None:
    view, legal = _first()
    bot = make_bot("expert:fast", random.Random(1))
    with pytest.raises(ValueError, match="give the name it was made by"):
        DecisionTask.of(bot, view, legal, seconds=1)
    assert DecisionTask.of(bot, view, legal, seconds=1, name="expert:fast").bot == "expert:fast"
    assert DecisionTask.of(make_bot("hard", random.Random(1)), view, legal, 1).bot == "hard"


def test_a_bot_with_a_process_of_its_own_or_no_generator_is_not_sent() -> None:
    view, legal = _first()
    guarded = GuardedBot(RandomBot(), RandomBot(), lambda failure: None)
    with pytest.raises(ValueError, match="process of its own"):
        DecisionTask.of(guarded, view, legal, seconds=1)
    with pytest.raises(ValueError, match="is a program"):
        DecisionTask.of(RandomBot(), view, legal, seconds=1, name="cmd:python3 bot.py")

    class Plain:
        name = "random"

        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            return legal[0]

    with pytest.raises(ValueError, match="no random generator"):
        DecisionTask.of(Plain(), view, legal, seconds=1)


def test_an_illegal_action_is_a_bot_error() -> None:
    view, legal = _first()
    with registered({"test-illegal": _Illegal}):
        task = DecisionTask("test-illegal", view, legal, random.Random(1).getstate(), 1)
        with pytest.raises(BotError, match="chose an illegal action"):
            decide(task)


# -------------------------------------------------------------------------- the worker pool


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """Two workers that know the bots of these tests."""
    with WorkerPool(2, grace=GRACE, bots=TEST_BOTS) as workers:
        yield workers


def _task(bot: str, seconds: float = WAIT) -> DecisionTask:
    view, legal = _first()
    return DecisionTask(bot, view, legal, random.Random(1).getstate(), seconds)


def _works(deciders: Deciders) -> None:
    """The deciders still decide, as this process would."""
    task = _task("heuristic")
    assert deciders.submit(task).result(timeout=WAIT) == decide(task)


def test_the_workers_decide_a_hand_as_in_process(pool: WorkerPool) -> None:
    def send(task: DecisionTask) -> Decision:
        return pool.submit(task).result(timeout=WAIT)

    _assert_same_hand([LEAST_EXPERT, "random", "heuristic", LEAST_ISMCTS], 5, send, PART)


def test_a_bot_that_raises_fails_its_decision_alone(pool: WorkerPool) -> None:
    _fails(pool.submit(_task("test-raises")), "bot test-raises failed", "KeyError")
    _works(pool)


def test_a_worker_killed_while_deciding_fails_its_decision_and_is_replaced(
    pool: WorkerPool,
) -> None:
    assert _fails(pool.submit(_task("test-dies"))) == "the bot worker died (exit -9)"
    _works(pool)
    assert wait_for(lambda: len(_workers()) == 2), _workers()


def test_a_worker_killed_while_none_decides_is_replaced(pool: WorkerPool) -> None:
    """Pebble gives up its pool then: the workers are started anew. A decision sent in the
    moment it takes pebble to see it may fail; the next one is made."""
    _works(pool)
    killed = min(_workers())
    os.kill(killed, signal.SIGKILL)
    assert wait_for(lambda: not psutil.pid_exists(killed))
    try:
        _works(pool)
    except DecisionFailed as failed:
        assert str(failed).startswith("the bot workers broke: "), failed
        _works(pool)
    assert wait_for(lambda: len(_workers()) == 2), _workers()


def test_a_hang_fails_once_past_its_clock_and_grace(pool: WorkerPool) -> None:
    start = time.monotonic()
    message = _fails(pool.submit(_task("test-hangs", seconds=0.5)))
    assert message == "the bot worker took longer than 1.5 s"
    assert time.monotonic() - start >= 1.5
    _works(pool)


def test_the_workers_ignore_ctrl_c(pool: WorkerPool) -> None:
    _works(pool)
    workers = _workers()
    assert wait_for(lambda: all(ignores(pid, signal.SIGINT) for pid in workers)), "not set up"
    for pid in workers:
        os.kill(pid, signal.SIGINT)
    _works(pool)
    assert _workers() == workers


def test_close_fails_what_is_to_come_and_leaves_no_process() -> None:
    before = _workers()
    workers = WorkerPool(1, grace=GRACE, bots={"test-hangs-long": _Hangs})
    assert len(_workers() - before) == 1
    hanging = workers.submit(_task("test-hangs-long"))
    waiting = workers.submit(_task("heuristic"))
    workers.close()
    for future in (hanging, waiting):
        assert _fails(future) == "the bot workers were closed"
    assert _workers() == before
    workers.close()
    assert _fails(workers.submit(_task("heuristic"))) == "the bot workers are closed"


def test_a_pool_made_in_a_thread_outlives_the_thread() -> None:
    """Linux ends a worker with the thread that forked it (PR_SET_PDEATHSIG): that is the fork
    server's, not the thread that made the pool, which may end first."""
    before = _workers()
    made: list[WorkerPool] = []

    def make() -> None:
        made.append(WorkerPool(1))
        _works(made[0])  # its worker has started and bound itself

    maker = threading.Thread(target=make)
    maker.start()
    maker.join()
    with made[0] as workers:
        (worker,) = _workers() - before
        assert not wait_for(lambda: not _alive(worker), seconds=1), "the worker went"
        _works(workers)
        assert _workers() - before == {worker}


#: A program (a file: its workers import it to find ``Hangs``) whose two workers hang.
_ORPHAN = """\
import os, random, sys, threading, time
from baloot.bots.decisions import DecisionTask
from baloot.bots.workers import WorkerPool
from baloot.core.hand import Hand
from baloot.view.seat_view import SeatView

class Hangs:
    name = "hangs"
    def __init__(self, rng):
        self.rng = rng
    def choose(self, view, legal):
        os.write(1, b"deciding\\n")  # one write: the processes share the pipe
        time.sleep(10 * 60)

if __name__ == "__main__":
    made = []
    if sys.argv[1] == "thread":
        maker = threading.Thread(target=lambda: made.append(WorkerPool(2, bots={"hangs": Hangs})))
        maker.start()
        maker.join()
    else:
        made.append(WorkerPool(2, bots={"hangs": Hangs}))
    hand = Hand.new(rng=random.Random(1))
    task = DecisionTask("hangs", SeatView.of(hand, hand.to_act), hand.legal_actions(),
                        random.Random(1).getstate(), 10 * 60)
    decisions = [made[0].submit(task) for _ in range(2)]
    os.write(1, b"ready\\n")
    time.sleep(10 * 60)
"""


@pytest.mark.parametrize("made_in", ["main", "thread"])
def test_the_workers_go_when_their_parent_is_killed_mid_decision(
    made_in: str, tmp_path: Path
) -> None:
    """Each worker is deciding (an idle one would go anyway: its pipe closes)."""
    program = tmp_path / "orphan.py"
    program.write_text(_ORPHAN)
    parent = subprocess.Popen(
        [sys.executable, str(program), made_in], stdout=subprocess.PIPE, env=ENV
    )
    try:
        assert parent.stdout is not None
        lines = sorted(read_line(parent.stdout) for _ in range(3))
        assert lines == [b"deciding\n", b"deciding\n", b"ready\n"]
        workers = _workers(parent.pid)
        assert len(workers) == 2
        parent.kill()
        parent.wait(WAIT)
        assert wait_for(lambda: not any(map(_alive, workers))), "a worker lives on"
    finally:
        parent.kill()
        parent.wait(WAIT)


@pytest.mark.parametrize(("cores", "workers"), [(None, 1), (1, 1), (2, 1), (8, 7)])
def test_workers_default_leaves_a_core_to_the_server(
    cores: int | None, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "process_cpu_count", lambda: cores, raising=False)
    assert workers_default() == workers


def test_no_workers_is_deciding_in_process() -> None:
    assert open_deciders(None, 0) is None
    deciders = open_deciders(None, 1)
    assert isinstance(deciders, WorkerPool)
    deciders.close()


# ------------------------------------------------------------------------------------- Ray


@pytest.fixture(scope="module")
def ray_deciders() -> Iterator[Deciders]:
    """Deciders on a local Ray instance of 2 CPUs, ended with them."""
    from baloot.bots.ray_workers import RayDeciders

    deciders = open_deciders("local", 2)
    assert isinstance(deciders, RayDeciders)
    yield deciders
    deciders.close()


@needs_ray
def test_a_ray_cluster_decides_a_hand_as_in_process(ray_deciders: Deciders) -> None:
    def send(task: DecisionTask) -> Decision:
        return ray_deciders.submit(task).result(timeout=WAIT)

    _assert_same_hand([LEAST_EXPERT, "random", "heuristic", "easy"], 6, send, PART)


@needs_ray
def test_a_bot_that_fails_on_the_cluster_fails_its_decision_alone(
    ray_deciders: Deciders,
) -> None:
    _fails(ray_deciders.submit(_task("no-such-bot")), "bot no-such-bot failed", "unknown bot")
    _works(ray_deciders)


@needs_ray
def test_a_hang_on_the_cluster_is_cancelled(ray_deciders: Deciders) -> None:
    from baloot.bots.ray_workers import RayDeciders

    def hangs(task: Task[Any]) -> Any:
        time.sleep(10 * 60)
        raise AssertionError("not cancelled")

    hanging = RayDeciders("auto", grace=GRACE, runner=hangs)
    start = time.monotonic()
    assert _fails(hanging.submit(_task("x", 0.5))) == "the bot worker took longer than 1.5 s"
    assert time.monotonic() - start >= 1.5
    _works(ray_deciders)
    hanging.close()


#: A cluster that goes away, in a process of its own: Ray may end the process whose cluster
#: it shut down while it had tasks, which must not be the test run's. The decision on it fails
#: at once; the next one is made by a local worker. The deciders did not join the cluster
#: (this process did), so they do not join another (``test_ray_deciders.py`` rejoins one).
CLUSTER_GONE = """
import random, time
import ray
from baloot import Hand, SeatView
from baloot.bots.decisions import DecisionFailed, DecisionTask
from baloot.bots.ray_workers import RayDeciders

def hangs(task):
    time.sleep(600)

hand = Hand.new(rng=random.Random(1))
view, legal = SeatView.of(hand, hand.to_act), tuple(hand.legal_actions())
def task(name):
    return DecisionTask(name, view, legal, random.Random(1).getstate(), 30.0)
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
deciders = RayDeciders("auto", local_workers=1)
hanging = RayDeciders("auto", runner=hangs, local_workers=1)
pending = hanging.submit(task("x"))
ray.shutdown()
for decision in (pending, deciders.submit(task("heuristic"))):
    try:
        decision.result(timeout=60)
        print("decided")
    except DecisionFailed as error:
        print(error)
hanging.close()
deciders.close()
"""


@needs_ray
def test_a_cluster_gone_fails_the_decisions_on_it_and_later_ones_are_made_here() -> None:
    source = str(Path(baloot.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", CLUSTER_GONE],
        capture_output=True,
        text=True,
        timeout=5 * WAIT,
        env={**os.environ, "PYTHONPATH": source},
        check=False,
    )
    gone = "the Ray cluster went away: it is no longer joined"
    assert done.stdout.splitlines() == [gone, "decided"], done.stdout + done.stderr[-2000:]
    said = [line for line in done.stderr.splitlines() if "went away" in line]
    line = (
        "bots: the Ray cluster at auto went away (it is no longer joined): deciding on 1 local "
        "worker until it is back"
    )
    assert said == [line, line], done.stderr[-2000:]  # once for each of the two deciders
