#!/usr/bin/env python3
"""Time random play through the learning environments: decisions a second on one core.

Random play (a legal action drawn uniformly, hands of classic rules, one hand an episode)
through the PettingZoo AEC environment (``baloot.rl.aec_env``, an observation and a mask per
decision, the agent loop of PettingZoo) and ``baloot.rl.VectorEnv`` at each of ``--sizes`` (n
hands stepped in one call); below them what they stand on: the engine alone
(``Hand.legal_actions`` and ``Hand.apply``, no observation) and the engine with the knowledge
facts every observation carries (``every_seat``, the engine's own inference, once an action).
Beside them, two other card games played the same way from a Python loop: OpenSpiel's C++
bridge through pyspiel (the cards played out, an observation tensor and a mask per decision)
and colver's Belote Contrée (a Rust engine; ``step`` returns the observation and the legal
actions; the ``bench`` extra), each left out when not installed. Each runs for at least
``--decisions`` decisions (a vector environment at least 120 steps, about three whole hands);
its reset is timed apart. Time is the process's CPU time, pinned to one core, so the load of a
shared machine does not count; a shared core still runs slower at times, so every row is
measured once a round, ``--repeat`` rounds, and keeps its best.
Exit status 2 for bad arguments.

    PYTHONPATH=src python3 scripts/bench_rl.py --decisions 20000 --sizes 1,64,1024 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from baloot.core.hand import Hand
from baloot.core.knowledge import every_seat
from baloot.rl import VectorEnv, aec_env, random_actions

clock = time.process_time


def engine_alone(decisions: int, seed: int) -> float:
    """Decisions a second of random play on the engine, without observations."""
    rng = random.Random(seed)
    done = 0
    start = clock()
    while done < decisions:
        hand = Hand.new(rng=rng)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
            done += 1
    return done / (clock() - start)


def engine_and_knowledge(decisions: int, seed: int) -> float:
    """Decisions a second of random play on the engine, with the knowledge facts after
    every action (what any observation of the view needs)."""
    rng = random.Random(seed)
    done = 0
    start = clock()
    while done < decisions:
        hand = Hand.new(rng=rng)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
            every_seat(hand)
            done += 1
    return done / (clock() - start)


def openspiel_bridge(decisions: int, seed: int) -> float | None:
    """Decisions a second of random play of OpenSpiel's bridge (C++) through pyspiel: the
    auction and the play, an observation tensor and a mask per decision; None without
    pyspiel."""
    try:
        import pyspiel  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})
    rng = random.Random(seed)
    done = 0
    start = clock()
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.observation_tensor()
            state.legal_actions_mask()
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done / (clock() - start)


def colver_loop(decisions: int, seed: int) -> float | None:
    """Decisions a second of random play of colver's Belote Contrée from a Python loop: its
    ``step`` returns the next observation and legal actions; None without colver."""
    try:
        import colver  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    env: Any = colver.Env.deal(seed=seed)
    rng = random.Random(seed)
    done = 0
    start = clock()
    while done < decisions:
        env.reset()
        env.get_observation()
        legal = env.legal_actions()
        finished = False
        while not finished:
            _, _, finished, legal = env.step(rng.choice(legal))
            done += 1
    return done / (clock() - start)


def aec(decisions: int, seed: int) -> float:
    """Decisions a second of random play through the PettingZoo AEC environment."""
    env = aec_env(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    start = clock()
    while done < decisions:
        env.reset()
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(random_actions(observation["action_mask"][None, :], rng)[0]))
            done += 1
    return done / (clock() - start)


#: Steps that every size runs at least: about three hands of some 40 decisions, so that a large
#: ``n`` is timed over whole hands, not over the bidding of its first ones alone.
WHOLE_HANDS = 120


def vector(n: int, decisions: int, seed: int) -> tuple[float, float]:
    """Decisions a second of random play through ``VectorEnv(n)``, and its reset in s."""
    env = VectorEnv(n, seed=seed)
    rng = np.random.default_rng(seed)
    start = clock()
    _, masks, _ = env.reset()
    reset = clock() - start
    steps = max(WHOLE_HANDS, -(-decisions // n))
    start = clock()
    for _ in range(steps):
        _, masks, _, _, _ = env.step(random_actions(masks, rng))
    return steps * n / (clock() - start), reset


def alone(
    rate_of: Callable[[int, int], float | None], decisions: int, seed: int
) -> tuple[float, float | None] | None:
    """A row without a reset time: ``rate_of``'s decisions a second (None: not installed)."""
    rate = rate_of(decisions, seed)
    return None if rate is None else (rate, None)


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
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.repeat < 1:
        parser.error("--decisions and --repeat are at least 1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    # Each round measures every row once, so that all rows meet the same slow and fast spells
    # of a shared core; each row keeps its best round.
    measures: list[tuple[str, Callable[[], tuple[float, float | None] | None]]] = [
        ("AEC env (PettingZoo)", partial(alone, aec, args.decisions, args.seed)),
        *((f"VectorEnv n={n}", partial(vector, n, args.decisions, args.seed)) for n in args.sizes),
    ]
    for name, rate_of in (
        ("engine alone, no observation", engine_alone),
        ("engine + knowledge facts", engine_and_knowledge),
        ("OpenSpiel bridge (C++, pyspiel)", openspiel_bridge),
        ("colver Belote (Rust), Python loop", colver_loop),
    ):
        measures.append((name, partial(alone, rate_of, args.decisions, args.seed)))
    best: dict[str, tuple[float, float | None]] = {}
    for _ in range(args.repeat):
        for name, measure in measures:
            found = measure()
            if found is not None and (name not in best or found[0] > best[name][0]):
                best[name] = found
    base = best["AEC env (PettingZoo)"][0]
    rows = [(name, *best[name]) for name, _ in measures if name in best]
    print(f"{'':32} {'decisions/s':>12} {'× AEC':>7} {'reset s':>8}")
    for name, speed, reset_s in rows:
        reset_text = "" if reset_s is None else f"{reset_s:.3f}"
        print(f"{name:32} {speed:12,.0f} {speed / base:7.2f} {reset_text:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
