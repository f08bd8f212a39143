"""The arena's pairs on several processes of one machine (``--jobs``).

The pairs are handed out lazily, a few per worker ahead of the results, and come back in
their order. The workers are bound to the process that started them: they ignore Ctrl-C (the
parent decides), stop cleanly on SIGTERM (their external bots ended with them), and end by
themselves when the parent dies. Like the server's bot workers, they come from the fork
server (:func:`fork_server`), never from a fork of the command, whose progress bar runs in a
thread of its own.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from types import FrameType
from typing import Any, TypeVar

from baloot.bots.base import available_bots
from baloot.bots.external import end_all
from baloot.bots.pairs import ArenaConfig, PairResult, play_pair

IN_FLIGHT_PER_JOB = 4
"""Pairs handed to the workers ahead of the results, per job."""
PARENT_CHECK_SECONDS = 0.5
"""How often a worker checks that the process that started it is still there."""

#: One pair to play: the run, the pair's number and its seed.
Task = tuple[ArenaConfig, int, int]
R = TypeVar("R")


def pool_pairs(tasks: Iterator[Task], jobs: int) -> Generator[PairResult, None, None]:
    """Play ``tasks`` on ``jobs`` worker processes, yielding the results in order; when the
    iteration ends early (an error, Ctrl-C, or the caller stops), the workers are stopped."""
    return pool_map(play_pair, tasks, jobs)


def pool_map(
    work: Callable[..., R], tasks: Iterator[Iterable[Any]], jobs: int
) -> Generator[R, None, None]:
    """``work(*task)`` for each of ``tasks`` on ``jobs`` worker processes, as the arena's pairs
    (self-play shards too): the results in order, the workers stopped when the iteration ends
    early. ``work`` is a module's function, so that a worker can find it."""
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=fork_server(),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    try:
        pending: deque[Future[R]] = deque(
            pool.submit(_play_task, work, tuple(task))
            for task in itertools.islice(tasks, IN_FLIGHT_PER_JOB * jobs)
        )
        while pending:
            result = pending.popleft().result()
            for task in itertools.islice(tasks, 1):
                pending.append(pool.submit(_play_task, work, tuple(task)))
            yield result
    except BaseException:
        _stop_workers(pool, before)
        raise
    pool.shutdown()


def fork_server() -> multiprocessing.context.ForkServerContext:
    """Where worker processes come from: ``multiprocessing``'s fork server, a process of one
    thread started once (it ends with this process), with the bots' worker modules imported.

    A plain fork of a process whose other threads run (a server's event loop and bot
    threads, a progress bar's) copies the locks they hold at that moment, held for ever in the
    child: a worker could wait on one at its start and never take its work.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["baloot.bots.workers"])  # this module too
    return context


def _stop_workers(
    pool: ProcessPoolExecutor, before: set[multiprocessing.process.BaseProcess]
) -> None:
    """End the workers now (they clean up on SIGTERM) and drop the pairs not started.

    The pool is shut down last, waiting for its manager thread: with its workers gone that
    thread ends at once, and once it has, the interpreter's exit has nothing left to wake up
    (CPython 3.11 can otherwise write to the pipe that thread is closing, and print an error).
    """
    workers = [p for p in multiprocessing.active_children() if p not in before]
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + 5
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join(1)
    pool.shutdown(wait=True, cancel_futures=True)


class _Stopped(SystemExit):
    """Raised in a worker by SIGTERM during a pair: unwinds (its bots' processes are ended)
    and exits."""


_playing = False
"""Whether this worker is playing a pair now (SIGTERM then unwinds it) rather than starting
or waiting for one (SIGTERM then ends it at once: there is nothing to unwind, and an
exception there would be printed by the pool)."""


def _start_worker(parent_pid: int) -> None:
    """Set up a worker process: bound to its parent, deaf to Ctrl-C, stopped by SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    bind_to_parent(parent_pid)
    look_up_bots_quietly()


def look_up_bots_quietly() -> None:
    """Look up the installed bots now, saying nothing: the process that started this worker
    has said which could not be loaded, and the user needs to read that once."""
    with contextlib.redirect_stderr(io.StringIO()):
        available_bots()


def bind_to_parent(parent_pid: int) -> None:
    """End this worker process (by SIGTERM to itself) once its parent, or ``parent_pid`` (the
    process that started the run), has gone: the worker pools of the bots
    (:mod:`baloot.bots.workers` too) are bound this way.

    The parent is the fork server (:func:`fork_server`), which ends when ``parent_pid`` does:
    Linux sends the signal when it ends (the kernel counts the thread that forked as the
    parent, and the fork server's one thread lives as long as it does), and a watcher thread
    checks both as well.
    """
    parent = os.getppid()
    _die_with_parent()
    if parent != parent_pid and not _exists(parent_pid):  # the parent died before this
        os._exit(1)
    watcher = threading.Thread(
        target=_watch_parent, args=(parent, parent_pid), name="parent-watch", daemon=True
    )
    watcher.start()


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once is enough
    if not _playing:
        end_all()
        os._exit(128 + signum)
    raise _Stopped(128 + signum)


def _die_with_parent() -> None:
    """On Linux, have the kernel send SIGTERM to this process when its parent ends."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return  # the watcher thread still ends the worker


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watch_parent(parent: int, parent_pid: int) -> None:
    """End this worker once its parent (or the run's main process) has gone."""
    while os.getppid() == parent and _exists(parent_pid):
        time.sleep(PARENT_CHECK_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # lets the main thread clean up …
    time.sleep(5)
    end_all()
    os._exit(1)  # … unless it is stuck


def _play_task(work: Callable[..., R], task: tuple[Any, ...]) -> R:
    """One task, in a worker; SIGTERM ends the worker here, after its cleanup."""
    global _playing
    try:
        _playing = True
        return work(*task)
    except _Stopped as stop:
        end_all()
        os._exit(stop.code if isinstance(stop.code, int) else 1)
    finally:
        _playing = False
