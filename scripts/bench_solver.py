#!/usr/bin/env python3
"""Time the double-dummy solver at the first lead of random full deals, beside colver's.

For each deal (Hokum and Sun in turn, the contract reached by N's bid and everyone passing),
it times ``baloot.solver.values(hand)`` (every card at the first lead) in card-point mode and
in score mode, on the compiled search and on the pure Python one (on the first
``--python-deals`` deals only: it is slow), and colver's ``Env.solve_scores()`` on the same four
hands with the same trumps (a suit, or colver's no-trump for a Sun). colver is a Belote Contrée
engine (``pip install colver``, or the ``bench`` extra); without it its column is left out.
The process is pinned to one core. Exit status 2 for bad arguments.

    PYTHONPATH=src python3 scripts/bench_solver.py --deals 60 --seed 1
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from baloot.core.actions import Verb
from baloot.core.hand import Hand
from baloot.core.vocabulary import ContractKind, Phase
from baloot.solver import _api
from baloot.solver._api import Mode, values

#: colver's ranks (7 8 9 J Q K 10 A as 0..7) for pybaloot's (A K Q J 10 9 8 7 as 0..7).
COLVER_RANK = (7, 5, 4, 3, 6, 2, 1, 0)
COLVER_NO_TRUMP = 4


def deal(rng: random.Random, hokum: bool) -> Hand:
    """A random deal in its play phase: N bids (Hokum in the exposed card's suit, or Sun),
    every other call is a pass."""
    hand = Hand.new(rng=rng, dealer="E")
    hand.apply("N hokum" if hokum else "N sun")
    while hand.phase is not Phase.PLAYING:
        passes = [a for a in hand.legal_actions() if a.verb is Verb.PASS]
        hand.apply(passes[0])
    return hand


def colver_solver(hand: Hand) -> Callable[[], object] | None:
    """colver's ``solve_scores`` on the same hands and trumps, N to lead, or None without
    colver."""
    try:
        import colver  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    hands = [[(c.index & ~7) | COLVER_RANK[c.index & 7] for c in hand.hand(s)] for s in "NWSE"]
    leader = int(hand.to_act) if hand.to_act is not None else 0
    env: Any = colver.Env.deal_with_hands((leader + 3) % 4, hands)
    contract = hand.contract
    assert contract is not None
    trump = COLVER_NO_TRUMP if contract.trump is None else int(contract.trump)
    env.set_contract(trump, 80, int(contract.declarer) & 1, 0)
    env.set_phase_playing()
    return env.solve_scores  # type: ignore[no-any-return]


def timed(run: Callable[[], object]) -> float:
    """Seconds that ``run`` takes."""
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def summary(name: str, times: list[float]) -> str:
    """One line: median and 90th percentile in milliseconds."""
    if not times:
        return f"{name:<28} {'-':>9} {'-':>9}      0"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"{name:<28} {statistics.median(ordered) * 1000:9.1f} {p90 * 1000:9.1f} {len(ordered):6d}"
    )


def per_call(run: Callable[[], object], times: int = 20000) -> float:
    """Microseconds per call of ``run``, the best of three batches."""
    best = min(timed(lambda: [run() for _ in range(times)]) for _ in range(3))
    return best / times * 1e6


def position_costs(seed: int) -> str:
    """What a copy, a card played and an undo cost on a Hand and on a Position."""
    hand = deal(random.Random(seed), hokum=True)
    for _ in range(5):
        hand.apply(next(a for a in hand.legal_actions() if a.card is not None))
    action = next(a for a in hand.legal_actions() if a.card is not None)
    assert action.card is not None
    card = action.card.index
    position = hand.position()

    def hand_step() -> None:
        hand.apply(action)
        hand.undo()

    def position_step() -> None:
        position.play(card)
        position.undo()

    def position_legal() -> None:
        position._legal = -1
        position.legal()

    hand_copy, position_copy = per_call(hand.copy), per_call(position.copy)
    hand_both, position_both = per_call(hand_step), per_call(position_step)
    return (
        f"copy: Hand {hand_copy:.2f} µs, Position {position_copy:.2f} µs; "
        f"a card and its undo: Hand {hand_both:.2f} µs, Position {position_both:.2f} µs; "
        f"legal cards: Position {per_call(position_legal):.2f} µs"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60, help="random deals (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    parser.add_argument(
        "--python-deals", type=int, default=4, help="deals for the pure Python search (4)"
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.python_deals < 0:
        parser.error("--deals must be at least 1 and --python-deals not negative")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    columns: dict[str, list[float]] = {
        name: []
        for name in (
            "colver solve_scores",
            "C, card points",
            "C, score",
            "Python, card points",
            "Python, score",
        )
    }
    kinds: dict[str, list[float]] = {
        name: []
        for name in ("colver, Hokum", "colver, Sun", "C, card points, Hokum", "C, card points, Sun")
    }
    compiled = _api.accelerated()
    for i in range(args.deals):
        hand = deal(random.Random(args.seed + i), hokum=i % 2 == 0)
        contract = hand.contract
        kind = "Hokum" if contract is not None and contract.kind is ContractKind.HOKUM else "Sun"
        solver = colver_solver(hand)
        if solver is not None:
            t = timed(solver)
            columns["colver solve_scores"].append(t)
            kinds[f"colver, {kind}"].append(t)
        if compiled:
            t = timed(partial(values, hand, Mode.POINTS))
            columns["C, card points"].append(t)
            kinds[f"C, card points, {kind}"].append(t)
            columns["C, score"].append(timed(partial(values, hand, Mode.SCORE)))
        if i < args.python_deals:
            os.environ[_api.ENVIRONMENT] = "python"
            columns["Python, card points"].append(timed(partial(values, hand, Mode.POINTS)))
            columns["Python, score"].append(timed(partial(values, hand, Mode.SCORE)))
            del os.environ[_api.ENVIRONMENT]
    print(
        f"values() at the first lead: {args.deals} deals (Hokum and Sun in turn), seed "
        f"{args.seed}, one core; compiled search {'in use' if compiled else 'NOT installed'}"
    )
    print(f"{'':<28} {'median ms':>9} {'p90 ms':>9} {'deals':>6}")
    for name, times in (*columns.items(), *kinds.items()):
        print(summary(name, times))
    print(f"the python search ran on the first {min(args.python_deals, args.deals)} deals")
    print(position_costs(args.seed))
    if not columns["colver solve_scores"]:
        print("colver is not installed: pip install colver (or the bench extra)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
