"""Bot decisions on worker processes of this machine, so that a server's bots use every core.

A :class:`WorkerPool` does bots' :class:`~baloot.bots.decisions.Task` s (decisions, hints,
the judging of a finished hand's positions) on processes of its own (``pebble``'s pool). A
worker that dies, or that takes longer than the task's clock and a grace
(:data:`~baloot.bots.decisions.GRACE`), is replaced, and its task fails with one
:class:`~baloot.bots.decisions.DecisionFailed`; so does a bot that raises. The caller then
lets its stand-in decide. The workers ignore Ctrl-C (the parent decides) and end when the
parent does. :func:`baloot.bots.deciders.open_deciders` picks the pool, a Ray cluster's deciders
(:mod:`baloot.bots.ray_workers`) or none (the caller decides in its own threads).

The workers come from ``multiprocessing``'s fork server
(:func:`~baloot.bots.pool.fork_server`), never from a fork of the server, whose event loop,
bot threads and pebble's own threads run meanwhile: a worker starts in milliseconds, and
ignores Ctrl-C almost at once. A worker knows the installed and built-in bots, and those the
pool is given (``bots``).

>>> import random
>>> from baloot.core.hand import Hand
>>> from baloot.bots.base import make_bot
>>> from baloot.view.seat_view import SeatView
>>> hand = Hand.new(rng=random.Random(1))
>>> view, legal = SeatView.of(hand, hand.to_act), hand.legal_actions()
>>> with WorkerPool(1) as pool:
...     bot = make_bot("heuristic", random.Random(3))
...     decision = pool.submit(DecisionTask.of(bot, view, legal, seconds=10)).result()
>>> decision.action == make_bot("heuristic", random.Random(3)).choose(view, legal)
True
"""

from __future__ import annotations

import functools
import os
import signal
import threading
from collections.abc import Mapping
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Self, TypeVar

import pebble

from baloot.bots.base import AnyFactory, register
from baloot.bots.decisions import (
    GRACE,
    Deciders,
    Decision,
    DecisionFailed,
    DecisionTask,
    Task,
    decide,
    fail,
    give,
    warm,
)
from baloot.bots.failure import exception_line
from baloot.bots.levels import LEVELS, ROLES
from baloot.bots.pool import bind_to_parent, fork_server, look_up_bots_quietly
from baloot.core.errors import first_line

__all__ = [
    "DECIDED_HERE",
    "GRACE",
    "WARM_BOTS",
    "Deciders",
    "Decision",
    "DecisionFailed",
    "DecisionTask",
    "Task",
    "WorkerPool",
    "decide",
    "workers_default",
]

#: The bots a worker makes as it starts: the levels, and the stand-in of a web table.
WARM_BOTS: Final = (*LEVELS, ROLES.stand_in)
#: The bots that decide quicker than a task travels (0.1–0.2 ms against 0.8 ms sent to a
#: worker, ``scripts/bench_workers.py``, ``scripts/bench_neural.py``): a server lets them decide
#: where they are. At 200 paced tables of ``neural`` bots (``scripts/load.py``), deciding them
#: here took 0.59 of a core and p99 87 ms from an act to its event; sending them, 1.03 cores
#: and 159 ms.
DECIDED_HERE: Final = frozenset({"random", "heuristic", "easy", "neural"})

R = TypeVar("R")


def workers_default() -> int:
    """Worker processes for this machine: its cores (those this process may use) but one,
    left to the server itself; at least one."""
    cores = getattr(os, "process_cpu_count", os.cpu_count)()  # process_cpu_count: 3.13+
    return max(1, (cores or 1) - 1)


class WorkerPool:
    """``workers`` processes that make decisions; a decision gets its clock and ``grace``
    seconds more before its worker is ended and it fails. ``bots`` are bots the workers know
    besides the installed and built-in ones: their factories travel to each worker, so they
    are classes or functions of a module."""

    def __init__(
        self, workers: int, *, grace: float = GRACE, bots: Mapping[str, AnyFactory] | None = None
    ) -> None:
        if workers < 1:
            raise ValueError(f"a worker pool needs a worker at least, not {workers}")
        self.workers = workers
        self.grace = grace
        self.bots = dict(bots or {})
        self._lock = threading.Lock()
        self._pending: dict[Future[Any], Future[Any]] = {}  # ours: pebble's
        self._closed = False
        self._pool = self._start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def submit(self, task: Task[R]) -> Future[R]:
        """What ``task`` gives, to come from a worker; it fails only with
        :class:`DecisionFailed`."""
        decision: Future[R] = Future()
        timeout = task.seconds + self.grace
        with self._lock:
            if self._closed:
                fail(decision, "the bot workers are closed")
                return decision
            try:
                sent = self._schedule(task, timeout)
            except RuntimeError as error:
                fail(decision, f"the bot workers cannot start: {first_line(error)}")
                return decision
            self._pending[decision] = sent
        sent.add_done_callback(functools.partial(self._settle, decision, timeout))
        decision.add_done_callback(functools.partial(_cancel_with, sent))
        return decision

    def close(self) -> None:
        """Stop the workers; the decisions still to come fail. Closing twice is once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pending, self._pending = self._pending, {}
        for decision, sent in pending.items():
            sent.cancel()
            fail(decision, "the bot workers were closed")
        _stop(self._pool)

    def _start(self) -> pebble.ProcessPool:
        """A pool of workers, started now so that they are warm for the first decision."""
        pool = pebble.ProcessPool(
            self.workers,
            initializer=_start_worker,
            initargs=(os.getpid(), self.bots),
            context=fork_server(),
        )
        if not pool.active:  # also what starts the workers
            raise RuntimeError("the worker pool did not start")
        return pool

    def _schedule(self, task: Task[R], timeout: float) -> Future[R]:
        """``task`` sent to a worker. Pebble gives up its whole pool when a worker dies while
        none is deciding (its next schedule raises): the workers are then started anew."""
        try:
            return self._pool.schedule(_run_in_worker, (task,), timeout=timeout)
        except RuntimeError:
            _stop(self._pool)
            self._pool = self._start()
            return self._pool.schedule(_run_in_worker, (task,), timeout=timeout)

    def _settle(self, decision: Future[R], timeout: float, sent: Future[R]) -> None:
        """Give ``decision`` what its worker answered, any failure as one
        :class:`DecisionFailed`. It runs in a thread of pebble's, which a restart or
        :meth:`close` may be waiting for: it must not wait for the lock."""
        self._pending.pop(decision, None)
        try:
            answer = sent.result()
        except DecisionFailed as error:  # the bot raised, in the worker
            fail(decision, error)
        except TimeoutError:
            fail(decision, f"the bot worker took longer than {timeout:g} s")
        except pebble.ProcessExpired as error:
            fail(decision, f"the bot worker died (exit {error.exitcode})")
        except CancelledError:
            fail(decision, "the bot workers were closed")
        except BrokenProcessPool as error:  # the next decision starts them anew
            fail(decision, f"the bot workers broke: {first_line(error)}")
        except Exception as error:
            fail(decision, f"the bot workers failed: {exception_line(error)}")
        else:
            give(decision, answer)


def _cancel_with(sent: Future[Any], decision: Future[Any]) -> None:
    """A decision its caller cancelled is not made (its worker, if deciding, is replaced)."""
    if decision.cancelled():
        sent.cancel()


def _stop(pool: pebble.ProcessPool) -> None:
    """End ``pool``'s workers at once (what they were deciding is dropped) and wait for it."""
    pool.stop()  # type: ignore[no-untyped-call]  # pebble leaves it unannotated
    pool.join()


def _start_worker(parent_pid: int, bots: Mapping[str, AnyFactory]) -> None:
    """Set up a worker: deaf to Ctrl-C, bound to its parent, told the pool's own ``bots`` (for
    the worker's whole life), its bots made."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bind_to_parent(parent_pid)
    look_up_bots_quietly()
    register(bots)
    warm(WARM_BOTS)


def _run_in_worker(task: Task[R]) -> R:
    """``task``, done in a worker: whatever the bot raises comes back as one line (an
    exception the parent could not unpickle would break the whole pool)."""
    try:
        return task.run()
    except Exception as error:
        raise DecisionFailed(f"bot {task.bot} failed: {exception_line(error)}") from error
