#!/usr/bin/env python3
"""Time random play through the learning environments: decisions a second on one core.

Four ways of playing the same random game (a legal action drawn uniformly from the mask,
hands of classic rules, one hand an episode): the PettingZoo AEC environment
(``baloot.rl.aec_env``, an observation and a mask per decision, the agent loop of PettingZoo),
and ``baloot.rl.VectorEnv`` at each of ``--sizes`` (n hands stepped in one call), with the
engine alone beside them (``Hand.legal_actions`` and ``Hand.apply``, no observation) as the
floor every environment stands on. Each runs for at least ``--decisions`` decisions; the
vector environment's reset is timed apart. The process is pinned to one core. Exit status 2
for bad arguments.

    PYTHONPATH=src python3 scripts/bench_rl.py --decisions 20000 --sizes 1,64,1024
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

from baloot.core.hand import Hand
from baloot.rl import VectorEnv, aec_env, random_actions


def engine_alone(decisions: int, seed: int) -> float:
    """Decisions a second of random play on the engine, without observations."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < decisions:
        hand = Hand.new(rng=rng)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def aec(decisions: int, seed: int) -> float:
    """Decisions a second of random play through the PettingZoo AEC environment."""
    env = aec_env(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = time.perf_counter()
    while done < decisions:
        env.reset()
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(random_actions(observation["action_mask"][None, :], rng)[0]))
            done += 1
    return done / (time.perf_counter() - start)


def vector(n: int, decisions: int, seed: int) -> tuple[float, float]:
    """Decisions a second of random play through ``VectorEnv(n)``, and its reset in s."""
    env = VectorEnv(n, seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    _, masks, _ = env.reset()
    reset = time.perf_counter() - start
    steps = max(1, -(-decisions // n))
    start = time.perf_counter()
    for _ in range(steps):
        _, masks, _, _, _ = env.step(random_actions(masks, rng))
    return steps * n / (time.perf_counter() - start), reset


def sizes(text: str) -> list[int]:
    """``1,64,1024`` read as sizes of at least 1."""
    try:
        values = [int(word) for word in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are whole numbers, not {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"sizes are at least 1, not {text!r}")
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20_000, help="at least, per row")
    parser.add_argument("--sizes", type=sizes, default=[1, 64, 1024], help="VectorEnv's n")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.decisions < 1:
        parser.error("--decisions is at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    floor = engine_alone(args.decisions, args.seed)
    rows: list[tuple[str, float, float | None]] = [("engine alone, no observation", floor, None)]
    rows.append(("AEC env (PettingZoo)", aec(args.decisions, args.seed), None))
    for n in args.sizes:
        rate, reset = vector(n, args.decisions, args.seed)
        rows.append((f"VectorEnv n={n}", rate, reset))
    base = rows[1][1]
    print(f"{'':32} {'decisions/s':>12} {'× AEC':>7} {'reset s':>8}")
    for name, speed, reset_s in rows:
        reset_text = "" if reset_s is None else f"{reset_s:.3f}"
        print(f"{name:32} {speed:12,.0f} {speed / base:7.2f} {reset_text:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
