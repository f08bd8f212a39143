#!/usr/bin/env python3
"""Decisions per second of bots in this process (one thread) and on worker processes.

The positions are the decisions of seeded hands played by the heuristic bot (only those with
a choice to make); each bot decides every one of them as a task
(:class:`~baloot.bots.decisions.DecisionTask`): one after the other here, then all sent at once
to a :class:`~baloot.bots.workers.WorkerPool` of 1 and of 2 workers (started and warm before
the clock starts). The actions are checked to be those decided here. A table is printed.

    PYTHONPATH=src python3 scripts/bench_workers.py --positions 60 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from baloot.bots import make_bot
from baloot.bots.decisions import Decision, DecisionTask, decide
from baloot.bots.workers import WorkerPool
from baloot.core.actions import Action
from baloot.core.hand import Hand
from baloot.view.seat_view import SeatView

#: The bots measured, and how many positions each decides for every ``--positions``.
BOTS = {"medium": 1, "heuristic": 10}
#: The clock of each decision: the budgets are in samples, this is only a ceiling.
SECONDS = 30.0


def positions(count: int, seed: int) -> list[tuple[SeatView, tuple[Action, ...]]]:
    """``count`` positions with a choice to make, from hands dealt from ``seed`` on."""
    found: list[tuple[SeatView, tuple[Action, ...]]] = []
    rng = random.Random(seed)
    bot = make_bot("heuristic", random.Random(seed))
    while len(found) < count:
        hand = Hand.new(rng=random.Random(rng.randrange(2**32)))
        while not hand.is_over and len(found) < count:
            seat = hand.to_act
            assert seat is not None
            view, legal = SeatView.of(hand, seat), hand.legal_actions()
            if len(legal) > 1:
                found.append((view, legal))
            hand.apply(hand.announced(bot.choose(view, legal)))
    return found


def tasks(bot: str, count: int, seed: int) -> list[DecisionTask]:
    """The tasks of ``bot`` for ``count`` positions, each with a generator of its own."""
    return [
        DecisionTask(bot, view, legal, random.Random(seed + i).getstate(), SECONDS)
        for i, (view, legal) in enumerate(positions(count, seed))
    ]


def here(work: Sequence[DecisionTask]) -> tuple[float, list[Decision]]:
    """Decisions per second deciding ``work`` one after the other in this thread."""
    decide(work[0])  # the bot is made, as a worker's is before its first decision
    start = time.perf_counter()
    answers = [decide(task) for task in work]
    return len(work) / (time.perf_counter() - start), answers


def on_workers(work: Sequence[DecisionTask], workers: int) -> tuple[float, list[Decision]]:
    """Decisions per second deciding ``work`` on ``workers`` processes, all sent at once."""
    with WorkerPool(workers) as pool:
        for future in [pool.submit(work[0]) for _ in range(workers)]:
            future.result()  # every worker up and its bot made
        start = time.perf_counter()
        futures = [pool.submit(task) for task in work]
        answers = [future.result() for future in futures]
        return len(work) / (time.perf_counter() - start), answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60, help="positions of medium")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'bot':<10} {'positions':>9} {'in-process':>11} {'1 worker':>9} {'2 workers':>10}")
    for bot, times in BOTS.items():
        work = tasks(bot, args.positions * times, args.seed)
        rate, expected = here(work)
        rates = [rate]
        for workers in (1, 2):
            rate, answers = on_workers(work, workers)
            if [a.action for a in answers] != [a.action for a in expected]:
                raise SystemExit(f"{bot} on {workers} workers decided otherwise than here")
            rates.append(rate)
        print(
            f"{bot:<10} {len(work):>9} {rates[0]:>11.1f} {rates[1]:>9.1f} {rates[2]:>10.1f}"
            "  decisions/s"
        )


if __name__ == "__main__":
    main()
