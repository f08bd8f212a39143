"""Bot decisions as Ray tasks on a cluster: the same tasks as the worker pool's, elsewhere.

Ray stays an optional extra, imported only when these deciders are made; the cluster is
found as the arena finds it (:func:`~baloot.bots.cluster.join_cluster`: ``ray://HEAD:10001``,
``HEAD:6379``, ``auto``, ``local``), and every node needs pybaloot. A bot's
:class:`~baloot.bots.decisions.Task` (a decision, a hint, a judged position) is one Ray task of
:func:`~baloot.bots.decisions.run_task`; one that takes longer than its clock and a grace
(counted from when it was sent, as Ray does not say when it starts) is cancelled, its worker
ended, and fails with :class:`~baloot.bots.decisions.DecisionFailed`. Once the cluster has
gone away, every decision still to come and every later one fails so, in one line.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from baloot.bots.cluster import import_ray, join_cluster
from baloot.bots.decisions import GRACE, DecisionFailed, Task, fail, give, run_task
from baloot.bots.failure import exception_line
from baloot.core.errors import first_line

__all__ = ["RayDeciders"]

R = TypeVar("R")

#: How often the deciders look for decisions past their time and for the cluster.
WATCH_SECONDS: Final = 0.1


@dataclass(frozen=True, slots=True)
class _Sent:
    """A decision on its way: its future, its bot, and when it is given up."""

    decision: Future[Any]
    bot: str
    deadline: float
    timeout: float


class RayDeciders:
    """Decisions on the Ray cluster at ``address`` (joined unless this process already is;
    ``cpus`` cores for a ``local`` one, ended with :meth:`close`). ``runner`` is what a Ray
    task runs (:func:`~baloot.bots.decisions.run_task`; a test's stand-in)."""

    def __init__(
        self,
        address: str,
        *,
        cpus: int | None = None,
        grace: float = GRACE,
        runner: Callable[[Task[Any]], Any] = run_task,
    ) -> None:
        ray = import_ray()
        self._ray = ray
        self._joined = not ray.is_initialized()
        if self._joined:
            join_cluster(ray, address, cpus)
        self._remote = ray.remote(num_cpus=1, max_retries=0)(runner)
        self.grace = grace
        self._lock = threading.Lock()
        self._pending: dict[Any, _Sent] = {}  # by the task's ObjectRef
        self._gone: str | None = None
        self._closed = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="ray-decisions", daemon=True)
        self._watcher.start()

    def submit(self, task: Task[R]) -> Future[R]:
        """What ``task`` gives, to come from the cluster; it fails only with
        :class:`DecisionFailed`."""
        decision: Future[R] = Future()
        timeout = task.seconds + self.grace
        with self._lock:
            if self._closed.is_set():
                fail(decision, "the Ray deciders are closed")
                return decision
            if self._gone is None and not self._ray.is_initialized():
                self._go("it is no longer joined")
            if self._gone is not None:
                fail(decision, self._gone)
                return decision
            try:
                ref = self._remote.remote(task)
                answer = ref.future()
            except Exception as error:  # the connection to the cluster, whatever Ray says
                fail(decision, self._go(first_line(error)))
                return decision
            self._pending[ref] = _Sent(decision, task.bot, time.monotonic() + timeout, timeout)
        answer.add_done_callback(functools.partial(self._settle, ref))
        return decision

    def close(self) -> None:
        """Cancel the decisions still to come (they fail) and leave the cluster, if these
        deciders joined it. Closing twice is once."""
        with self._lock:
            if self._closed.is_set():
                return
            self._closed.set()
            pending, self._pending = self._pending, {}
        for ref, sent in pending.items():
            self._cancel(ref)
            fail(sent.decision, "the Ray deciders were closed")
        self._watcher.join()
        if self._joined:
            self._ray.shutdown()

    def _settle(self, ref: Any, answer: Future[Any]) -> None:
        """Give the decision of ``ref`` what the cluster answered, any failure as one
        :class:`DecisionFailed`."""
        sent = self._pending.pop(ref, None)
        if sent is None:  # given up already
            return
        exceptions = self._ray.exceptions
        try:
            decision = answer.result()
        except DecisionFailed as error:
            fail(sent.decision, error)
        except exceptions.RayTaskError as error:  # raised by the bot
            cause = error.cause if isinstance(error.cause, BaseException) else error
            fail(sent.decision, f"bot {sent.bot} failed: {exception_line(cause)}")
        except exceptions.WorkerCrashedError:
            fail(sent.decision, "the bot worker died")
        except exceptions.RayError as error:  # a node or an object lost: this task only
            fail(sent.decision, f"the Ray cluster failed: {first_line(error)}")
        except Exception as error:  # the connection to the cluster
            with self._lock:
                fail(sent.decision, self._go(first_line(error)))
        else:
            give(sent.decision, decision)

    def _watch(self) -> None:
        """Give up the decisions past their time, and all of them once the cluster is gone."""
        while not self._closed.wait(WATCH_SECONDS):
            now = time.monotonic()
            for ref, sent in list(self._pending.items()):
                if sent.deadline <= now and self._pending.pop(ref, None) is not None:
                    self._cancel(ref)
                    fail(sent.decision, f"the bot worker took longer than {sent.timeout:g} s")
            if self._gone is None and not self._ray.is_initialized():
                with self._lock:
                    self._go("it is no longer joined")

    def _go(self, why: str) -> str:
        """The cluster is gone (``why``): fail every decision still to come, and say so.
        Called holding the lock."""
        gone = self._gone = f"the Ray cluster went away: {why}"
        pending, self._pending = self._pending, {}
        for sent in pending.values():
            fail(sent.decision, gone)
        return gone

    def _cancel(self, ref: Any) -> None:
        """End the task of ``ref``, and its worker if it is deciding."""
        with contextlib.suppress(Exception):  # finished already, or the cluster is gone
            self._ray.cancel(ref, force=True)
