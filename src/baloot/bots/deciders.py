"""Where a server's bots decide: a Ray cluster, worker processes of this machine, or none.

The one choice :mod:`baloot.server.serve` makes from ``--bots-on`` and ``--bot-workers``; it
stands apart from both kinds of deciders, the Ray ones falling back on the local pool.

>>> open_deciders(None, 0) is None
True
"""

from __future__ import annotations

from baloot.bots.decisions import Deciders
from baloot.bots.workers import WorkerPool

__all__ = ["open_deciders"]


def open_deciders(bots_on: str | None, workers: int) -> Deciders | None:
    """Where a server's bots decide: on the Ray cluster at ``bots_on`` (``ray://HEAD:10001``,
    ``auto``, ``local``; ``workers`` cores for a local one, and the processes of this machine
    that decide while the cluster is gone), else on ``workers`` processes of this machine;
    None for none (0), when the caller decides in its own threads."""
    if bots_on is not None:
        from baloot.bots.ray_workers import RayDeciders

        return RayDeciders(bots_on, cpus=workers or None, local_workers=workers or None)
    return WorkerPool(workers) if workers > 0 else None
