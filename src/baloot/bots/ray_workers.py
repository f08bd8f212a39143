"""Bot decisions as Ray tasks on a cluster: the same tasks as the worker pool's, elsewhere.

Ray stays an optional extra, imported only when these deciders are made; the cluster is
found as the arena finds it (:func:`~baloot.bots.cluster.join_cluster`: ``ray://HEAD:10001``,
``HEAD:6379``, ``auto``, ``local``), and every node needs pybaloot. A bot's
:class:`~baloot.bots.decisions.Task` (a decision, a hint, a judged position) is one Ray task of
:func:`~baloot.bots.decisions.run_task`; one that takes longer than its clock and a grace
(counted from when it was sent, as Ray does not say when it starts) is cancelled, its worker
ended, and fails with :class:`~baloot.bots.decisions.DecisionFailed`.

A cluster that goes away is noticed within seconds: a small actor of the deciders' own, on
the head node, is probed while decisions wait without an answer (and every few seconds when
none waits), and a probe unanswered for :data:`PROBE_SECONDS`, or failed, is a cluster gone,
as is any sign from Ray. One
log line says so; the decisions still on the cluster fail at once (their stand-ins decide),
and every later one goes to worker processes of this machine (a
:class:`~baloot.bots.workers.WorkerPool`, made the first time it is needed) while a thread
rejoins the cluster, waiting longer each time; once the rejoined cluster answers a probe,
another line says so and decisions go to it again (``docs/workers.md``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from baloot.bots.cluster import ClusterError, import_ray, join_cluster
from baloot.bots.decisions import GRACE, DecisionFailed, Task, fail, give, run_task
from baloot.bots.failure import exception_line
from baloot.bots.workers import WorkerPool, workers_default
from baloot.core.errors import first_line

__all__ = ["RayDeciders"]

R = TypeVar("R")

log = logging.getLogger(__name__)

#: How often the deciders look for decisions past their time and for the cluster.
WATCH_SECONDS: Final = 0.1
#: Seconds without any answer from the cluster, while a decision waits on it, before the
#: cluster is probed: a decision thinks for its whole clock, the probe answers at once.
QUIET_SECONDS: Final = 0.5
#: Seconds between probes while no decision waits, so that a cluster that goes meanwhile is
#: found before the next decision is sent to it.
IDLE_PROBE_SECONDS: Final = 5.0
#: Seconds a probe may go unanswered before the cluster is taken for gone (a live one answers
#: in milliseconds: the probe is a call to an actor that needs no core and never queues).
PROBE_SECONDS: Final = 2.0
#: Where the probe lives: on the head node (its resource, as Ray Serve pins its controller),
#: whose control store the cluster cannot do without; elsewhere, it could outlive the head.
ON_THE_HEAD: Final = {"node:__internal_head__": 0.001}
#: Seconds the first probe of a cluster just joined may take (its actor's process starts).
JOIN_PROBE_SECONDS: Final = 30.0
#: The waits between attempts to rejoin a cluster gone: doubled each time, up to the last.
REJOIN_FIRST_SECONDS: Final = 0.5
REJOIN_MOST_SECONDS: Final = 8.0
#: Seconds :meth:`RayDeciders.close` waits for the thread that may be talking to Ray.
CLOSE_SECONDS: Final = 10.0
#: Ray ends a driver process whose cluster's control store (the GCS) has been unreachable for
#: a minute, which would end the server: the deciders leave a cluster gone within seconds,
#: and raise this to a day, unless the operator set it.
GCS_PATIENCE: Final = ("RAY_gcs_rpc_server_reconnect_timeout_s", str(24 * 3600))
#: Ray's own handler of SIGTERM and of crashes, which a driver installs as it joins (a rejoin
#: too, in the deciders' thread, where the server's handler could not be put back): the
#: process keeps its own, unless the operator asked for Ray's. Read as Ray is imported.
NO_SIGNAL_HANDLER: Final = ("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", "1")


@dataclass(frozen=True, slots=True)
class _Sent:
    """A decision on its way: its future, its bot, and when it is given up."""

    decision: Future[Any]
    bot: str
    deadline: float
    timeout: float


class _Probe:
    """The deciders' actor on the cluster: its answer says that the cluster is there."""

    def ping(self) -> bool:
        """Answer at once."""
        return True


class RayDeciders:
    """Decisions on the Ray cluster at ``address`` (joined unless this process already is;
    ``cpus`` cores for a ``local`` one, ended with :meth:`close`); while it is gone, on
    ``local_workers`` processes of this machine (:func:`workers_default` by default).
    ``runner`` is what a Ray task runs (:func:`~baloot.bots.decisions.run_task`; a test's
    stand-in)."""

    def __init__(
        self,
        address: str,
        *,
        cpus: int | None = None,
        local_workers: int | None = None,
        grace: float = GRACE,
        runner: Callable[[Task[Any]], Any] = run_task,
    ) -> None:
        for name, value in (GCS_PATIENCE, NO_SIGNAL_HANDLER):  # read by Ray, from its import
            os.environ.setdefault(name, value)
        ray = import_ray()
        self._ray = ray
        self.address = address
        self._cpus = cpus
        self.local_workers = local_workers or workers_default()
        self.grace = grace
        self._joined = not ray.is_initialized()
        if self._joined:
            _join_keeping_sigterm(ray, address, cpus)
        self._remote = ray.remote(num_cpus=1, max_retries=0)(runner)
        self._probe_class = ray.remote(num_cpus=0, max_restarts=0, resources=ON_THE_HEAD)(_Probe)
        self._closed = threading.Event()
        try:
            self._prober = self._answering_prober(JOIN_PROBE_SECONDS)
        except Exception as error:  # whatever Ray says
            if self._joined:
                ray.shutdown()
            raise ClusterError(
                f"cannot join the Ray cluster at {address}: {_why(error, JOIN_PROBE_SECONDS)}"
            ) from None
        self._lock = threading.Lock()
        self._pending: dict[Any, _Sent] = {}  # by the task's ObjectRef
        self._heard = time.monotonic()  # when the cluster last answered anything
        self._probing: tuple[Future[Any], float] | None = None  # a probe's answer, sent when
        self._gone: str | None = None  # why the cluster is gone, while it is
        self._local: Future[WorkerPool] | None = None  # the local workers, once needed
        self._watcher = threading.Thread(target=self._watch, name="ray-decisions", daemon=True)
        self._watcher.start()

    def submit(self, task: Task[R]) -> Future[R]:
        """What ``task`` gives, to come from the cluster, or from the local workers while it
        is gone; it fails only with :class:`DecisionFailed`."""
        decision: Future[R] = Future()
        with self._lock:
            if self._closed.is_set():
                fail(decision, "the Ray deciders are closed")
                return decision
            if self._gone is None and not self._ray.is_initialized():
                self._go("it is no longer joined")
            sent = None if self._gone is not None else self._send(task, decision)
            local = self._local
        if sent is not None:
            ref, answer = sent
            answer.add_done_callback(functools.partial(self._settle, ref))
        elif local is not None:
            local.add_done_callback(functools.partial(_decide_on, task, decision))
        return decision

    def close(self) -> None:
        """Cancel the decisions still to come (they fail), stop the local workers, and leave
        the cluster, if these deciders joined it. Closing twice is once."""
        with self._lock:
            if self._closed.is_set():
                return
            self._closed.set()
            pending, self._pending = self._pending, {}
            local = self._local
        for ref, sent in pending.items():
            self._cancel(ref)
            fail(sent.decision, "the Ray deciders were closed")
        self._watcher.join(CLOSE_SECONDS)
        if local is not None:
            fail(local, "the Ray deciders were closed")  # unless they started
            if local.exception() is None:
                local.result().close()
        if self._watcher.is_alive():  # still waiting on Ray: the process ends without it
            return
        if self._joined:
            self._ray.shutdown()
        elif self._gone is None:
            with contextlib.suppress(Exception):
                self._ray.kill(self._prober)

    def _send(self, task: Task[R], decision: Future[R]) -> tuple[Any, Future[Any]] | None:
        """``task`` sent to the cluster: its ObjectRef and its answer to come; None when it
        cannot be, the cluster then gone. Called holding the lock."""
        try:
            ref = self._remote.remote(task)
            answer = ref.future()
        except Exception as error:  # the connection to the cluster, whatever Ray says
            self._go(first_line(error))
            return None
        timeout = task.seconds + self.grace
        self._pending[ref] = _Sent(decision, task.bot, time.monotonic() + timeout, timeout)
        return ref, answer

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
            return
        else:
            give(sent.decision, decision)
        self._heard = time.monotonic()

    def _watch(self) -> None:
        """Watch the cluster while it is there, rejoin it while it is gone."""
        while not self._closed.wait(WATCH_SECONDS):
            if self._gone is None:
                self._look()
            else:
                self._start_local()
                self._rejoin()

    def _look(self) -> None:
        """Give up the decisions past their time, and all of them once the cluster is gone."""
        now = time.monotonic()
        for ref, sent in list(self._pending.items()):
            if sent.deadline <= now and self._pending.pop(ref, None) is not None:
                self._cancel(ref)
                fail(sent.decision, f"the bot worker took longer than {sent.timeout:g} s")
        why = "it is no longer joined" if not self._ray.is_initialized() else self._probe(now)
        if why is not None:
            with self._lock:
                self._go(why)

    def _probe(self, now: float) -> str | None:
        """Probe the cluster when nothing was heard from it for a while: why it is gone,
        when it is."""
        if self._probing is not None:
            answer, sent = self._probing
            if answer.done():
                self._probing = None
                error = answer.exception()
                if error is not None:
                    return _why(error, PROBE_SECONDS)
                self._heard = now
            elif now - sent > PROBE_SECONDS:
                return _why(TimeoutError(), PROBE_SECONDS)
            return None
        quiet = now - self._heard
        if (self._pending and quiet > QUIET_SECONDS) or quiet > IDLE_PROBE_SECONDS:
            try:
                self._probing = (self._prober.ping.remote().future(), now)
            except Exception as error:  # whatever Ray says
                return _why(error, PROBE_SECONDS)
        return None

    def _go(self, why: str) -> str:
        """The cluster is gone (``why``): fail every decision still on it, say so once, and
        have later ones made by the local workers. Called holding the lock."""
        if self._gone is not None:
            return self._gone
        workers = f"{self.local_workers} local worker{'s' if self.local_workers != 1 else ''}"
        log.warning(
            "bots: the Ray cluster at %s went away (%s): deciding on %s until it is back",
            self.address,
            why,
            workers,
        )
        gone = self._gone = f"the Ray cluster went away: {why}"
        self._probing = None
        if self._local is None or (self._local.done() and self._local.exception() is not None):
            self._local = Future()  # made by the watcher: the caller may be an event loop
        pending, self._pending = self._pending, {}
        for sent in pending.values():
            fail(sent.decision, gone)
        return gone

    def _start_local(self) -> None:
        """Start the local workers, the first time the cluster is gone."""
        local = self._local
        if local is None or local.done():
            return
        try:
            pool = WorkerPool(self.local_workers)
        except Exception as error:  # the next time the cluster goes, they are tried again
            fail(local, f"{self._gone}, and the local workers cannot start: {first_line(error)}")
            return
        try:
            local.set_result(pool)
        except InvalidStateError:  # closed meanwhile
            pool.close()

    def _rejoin(self) -> None:
        """Try to rejoin the cluster, waiting longer each time, until it answers a probe (then
        decisions go to it again) or the deciders are closed."""
        wait = REJOIN_FIRST_SECONDS
        while not self._closed.wait(wait):
            prober = self._rejoined()
            if prober is not None:
                with self._lock:
                    self._prober, self._heard, self._gone = prober, time.monotonic(), None
                log.info("bots: the Ray cluster at %s is back: deciding on it again", self.address)
                return
            wait = min(2 * wait, REJOIN_MOST_SECONDS)

    def _rejoined(self) -> Any:
        """A probe actor on the cluster rejoined (left and joined again, if these deciders
        joined it), or None while it is still gone."""
        try:
            if self._joined:
                self._ray.shutdown()
                _join_keeping_sigterm(self._ray, self.address, self._cpus)
            elif not self._ray.is_initialized():  # another's connection: it joins again
                return None
            return self._answering_prober(JOIN_PROBE_SECONDS)
        except Exception:  # not back yet, whatever Ray says
            return None

    def _answering_prober(self, seconds: float) -> Any:
        """A new probe actor, once it has answered (within ``seconds``, or the exception; at
        once when the deciders are closed meanwhile)."""
        prober = self._probe_class.remote()
        answer = prober.ping.remote().future()
        deadline = time.monotonic() + seconds
        while not answer.done() and time.monotonic() < deadline:
            if self._closed.wait(WATCH_SECONDS):
                raise DecisionFailed("the Ray deciders were closed")
        answer.result(timeout=0)
        return prober

    def _cancel(self, ref: Any) -> None:
        """End the task of ``ref``, and its worker if it is deciding."""
        with contextlib.suppress(Exception):  # finished already, or the cluster is gone
            self._ray.cancel(ref, force=True)


def _decide_on(task: Task[R], decision: Future[R], local: Future[WorkerPool]) -> None:
    """Have the local workers, once started, make ``decision``: their answer is its answer."""
    error = local.exception()
    if error is not None:
        fail(decision, error if isinstance(error, DecisionFailed) else first_line(error))
        return
    sent = local.result().submit(task)
    sent.add_done_callback(functools.partial(_pass_on, decision))
    decision.add_done_callback(functools.partial(_cancel_with, sent))


def _pass_on(decision: Future[R], sent: Future[R]) -> None:
    """Give ``decision`` what the local workers answered."""
    if sent.cancelled():
        return  # the caller cancelled the decision itself
    error = sent.exception()
    if error is None:
        give(decision, sent.result())
    else:
        fail(decision, error if isinstance(error, DecisionFailed) else first_line(error))


def _cancel_with(sent: Future[Any], decision: Future[Any]) -> None:
    """A decision its caller cancelled is not made by the local workers either."""
    if decision.cancelled():
        sent.cancel()


def _join_keeping_sigterm(ray: Any, address: str, cpus: int | None) -> None:
    """Join the cluster, the process's SIGTERM handler kept: joining in the main thread, Ray
    puts its own (an exit at once), which would cut a server's clean stop short."""
    kept = signal.getsignal(signal.SIGTERM)
    try:
        join_cluster(ray, address, cpus)
    finally:
        if kept is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, kept)


def _why(error: BaseException | None, seconds: float) -> str:
    """Why a probe of the cluster failed, in a few words."""
    if error is None or isinstance(error, TimeoutError):
        return f"it did not answer in {seconds:g} s"
    return f"its probe failed: {type(error).__name__}"  # Ray's own line is a paragraph
