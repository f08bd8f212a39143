"""The arena's pairs as Ray tasks on every core of a cluster (``baloot arena --ray ADDRESS``).

Ray is an optional extra (``pip install -e '.[ray]'``), imported here only, and only when
asked for. ``ADDRESS`` is a running cluster's address (``ray://head:10001``, ``head:6379``),
``auto`` for the cluster this machine has joined (``ray start``, or ``RAY_ADDRESS``), or
``local`` for a new instance on this machine, ended with the run. Every node needs pybaloot
(and any external bot's program, at the same path). A pair is one task; the results come
back in their order, and since a pair's result depends on its seed alone, a run on a cluster
gives the same verdict as a run on one process for the same seed, as long as the bots'
budgets are samples or nodes rather than time.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import socket
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Final, TypeVar

from baloot.bots.pairs import PairResult, play_pair
from baloot.bots.pool import Task
from baloot.core.errors import BalootError, first_line

#: How to install the extra that ``--ray`` needs.
RAY_EXTRA: Final = "pip install -e '.[ray]'"
#: Pairs handed to the cluster ahead of the results, per core.
IN_FLIGHT_PER_CPU: Final = 2
R = TypeVar("R")


class ClusterError(BalootError):
    """Ray is missing, or its cluster cannot be reached: one line saying so."""


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`ClusterError` that names the extra to install."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(f"--ray needs Ray, an optional extra: {RAY_EXTRA}") from None


def cluster_pairs(
    tasks: Iterator[Task], address: str, cpus: int | None = None
) -> Generator[PairResult, None, None]:
    """Play ``tasks`` on the Ray cluster at ``address`` (joined unless this process already
    is; ``cpus`` cores for a ``local`` one), yielding the results in order. When the iteration
    ends early, the tasks not finished are cancelled (their bots' processes are ended)."""
    return cluster_map(play_pair, tasks, address, cpus)


def cluster_map(
    work: Callable[..., R], tasks: Iterator[Iterable[Any]], address: str, cpus: int | None = None
) -> Generator[R, None, None]:
    """``work(*task)`` for each of ``tasks`` as Ray tasks, as :func:`cluster_pairs` plays the
    arena's pairs (self-play shards too): the results in order, the tasks not finished
    cancelled when the iteration ends early."""
    ray = import_ray()
    joined = not ray.is_initialized()
    if joined:
        join_cluster(ray, address, cpus)
    pending: deque[Any] = deque()
    try:
        play = ray.remote(num_cpus=1, max_retries=0)(_play_task)
        cores = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending.extend(
            play.remote(work, tuple(task))
            for task in itertools.islice(tasks, IN_FLIGHT_PER_CPU * cores)
        )
        while pending:
            try:
                result: R = ray.get(pending[0])
            except ray.exceptions.RayTaskError as error:  # raised by the pair: as it was
                raise error.as_instanceof_cause() from None
            except ray.exceptions.RayError as error:  # a node or worker lost
                raise ClusterError(f"the Ray cluster failed: {first_line(error)}") from None
            pending.popleft()
            for task in itertools.islice(tasks, 1):
                pending.append(play.remote(work, tuple(task)))
            yield result
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    finally:
        if joined:
            ray.shutdown()


def join_cluster(ray: Any, address: str, cpus: int | None = None) -> None:
    """Join the Ray cluster at ``address`` (``cpus`` cores for a ``local`` one), quietly; a
    :class:`ClusterError` in one line when it cannot be (the bots' Ray deciders join so
    too)."""
    quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
    _reachable(address)
    try:
        if address == "local":  # a new instance, whatever RAY_ADDRESS says
            ray.init(address="local", num_cpus=cpus, include_dashboard=False, **quiet)
        else:
            ray.init(address=address, **quiet)
    except Exception as error:  # Ray's own errors, whatever they are
        raise ClusterError(
            f"cannot join the Ray cluster at {address}: {first_line(error)}"
        ) from None


def _reachable(address: str) -> None:
    """Refuse at once an address of the form ``[ray://]host:port`` that nothing answers on
    (Ray itself would retry for minutes)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return  # "auto", "local", or a form Ray reads itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ClusterError(f"cannot join the Ray cluster at {address}: {reason}") from None


def _play_task(work: Callable[..., R], task: tuple[Any, ...]) -> R:
    """One task, in a Ray worker."""
    return work(*task)
