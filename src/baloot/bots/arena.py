"""Duplicate games between two bots: every deal is played twice with the teams swapped.

Luck in Baloot is mostly the cards. Playing each deck sequence once with bot A as NS and once
with A as EW gives both sides the same cards, so what remains is skill (and the bots' own
randomness). A *pair* is those two games (:mod:`baloot.bots.pairs`): two matches
(``hands=False``) or two hands; the verdict sums them up (:mod:`baloot.bots.verdict`).

>>> summary = run_arena(ArenaConfig("random", "random", pairs=2, seed=1))
>>> summary.games, summary.a_match_wins + summary.b_match_wins
(4, 4)

The pairs are drawn and handed out lazily, so a run of any length needs little memory. They
are played on this process, on ``jobs`` processes of this machine (:mod:`baloot.bots.pool`),
or as tasks of a Ray cluster (:mod:`baloot.bots.cluster`); each way gives the same verdict
for the same seed. With an output folder (``out``) every finished pair is kept as it comes,
and a run stopped at any moment goes on where it stopped when run again
(:mod:`baloot.bots.folder`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Generator, Iterator

from baloot.bots.cluster import cluster_pairs
from baloot.bots.folder import RunFolder
from baloot.bots.pairs import (
    ArenaConfig,
    Failure,
    PairResult,
    SideStats,
    iter_pair_seeds,
    pair_seeds,
    play_pair,
)
from baloot.bots.pool import Task, pool_pairs
from baloot.bots.verdict import ArenaSummary, ratio_interval, wilson

__all__ = [
    "ArenaConfig",
    "ArenaSummary",
    "Failure",
    "PairResult",
    "SideStats",
    "iter_pair_seeds",
    "iter_pairs",
    "pair_seeds",
    "play_pair",
    "ratio_interval",
    "run_arena",
    "wilson",
]


def _tasks(config: ArenaConfig, skip: Collection[int]) -> Iterator[Task]:
    """The pairs to play (those not in ``skip``), drawn as they are needed."""
    seeds = iter_pair_seeds(config.seed)
    for index in range(1, config.pairs + 1):
        seed = next(seeds)
        if index not in skip:
            yield config, index, seed


def iter_pairs(
    config: ArenaConfig,
    jobs: int = 1,
    cluster: str | None = None,
    skip: Collection[int] = (),
) -> Generator[PairResult, None, None]:
    """Play the pairs of ``config`` but those numbered in ``skip``, yielding results in order:
    here, on ``jobs`` processes, or on the Ray cluster at ``cluster`` (``jobs`` is then the
    number of cores of a ``local`` one). Nothing is written: :func:`run_arena` keeps them."""
    tasks = _tasks(config, skip)
    if cluster is not None:
        yield from cluster_pairs(tasks, cluster, jobs if jobs > 1 else None)
    elif jobs <= 1:
        for task in tasks:
            yield play_pair(*task)
    else:
        yield from pool_pairs(tasks, jobs)


def run_arena(
    config: ArenaConfig,
    jobs: int = 1,
    progress: Callable[[ArenaSummary], None] | None = None,
    cluster: str | None = None,
) -> ArenaSummary:
    """Play every pair and sum them up; ``progress`` is called after each pair. With
    ``config.out``, each pair is kept there as it finishes, and the pairs found finished
    there are counted, not played again."""
    summary = ArenaSummary(config)
    folder = RunFolder(config) if config.out is not None else None
    finished = folder.open() if folder is not None else {}
    for pair in finished.values():
        summary.add(pair)
    summary.resumed = len(finished)
    summary.resumed_hands = summary.hands
    if progress is not None and finished:
        progress(summary)
    start = time.perf_counter()
    pairs = iter_pairs(config, jobs, cluster, skip=finished.keys())
    try:
        for pair in pairs:
            if folder is not None:
                folder.keep(pair)
            summary.add(pair)
            summary.seconds = time.perf_counter() - start
            if progress is not None:
                progress(summary)
    finally:
        pairs.close()  # at once, not when the traceback goes: it stops the workers
    summary.seconds = time.perf_counter() - start
    return summary
