"""Engine benchmark: ``python -m baloot.bench [--hands N] [--seed S]`` (one core).

Prints random full hands per second through the public API (bidding, doubling and the 32
cards, one ``legal_actions()`` and one ``apply()`` per decision, a uniformly random choice),
legal-move generations per second in the play phase, and apply+undo pairs per second.
Like :mod:`timeit`, it pauses the garbage collector while timing: otherwise the figures swing
with how often a collection happens to walk the thousands of positions the benchmark holds.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Sequence

from baloot.core.actions import Action, Verb
from baloot.core.hand import Hand
from baloot.core.vocabulary import ContractKind, Phase

_HOKUM_CALLS = frozenset({Verb.PASS, Verb.HOKUM, Verb.TRUMP})


def random_hands(count: int, seed: int, hokum: bool = False) -> tuple[float, int, int]:
    """Play ``count`` random hands; return (seconds, decisions, Hokum contracts).

    Uniform calls end nearly every hand in Sun (each Sun take-over offer is a coin toss);
    ``hokum`` makes every seat pass or bid Hokum, so that the Hokum rules of play are timed.
    """
    rng = random.Random(seed)
    decisions = hokums = 0
    start = time.perf_counter()
    for _ in range(count):
        hand = Hand.new(rng=rng)
        while not hand.is_over:
            legal: Sequence[Action] = hand.legal_actions()
            if hokum and hand.bidding_length is None:
                legal = [a for a in legal if a.verb in _HOKUM_CALLS] or legal
            hand.apply(rng.choice(legal))
            decisions += 1
        contract = hand.result().contract
        hokums += contract is not None and contract.kind is ContractKind.HOKUM
    return time.perf_counter() - start, decisions, hokums


def play_positions(count: int, seed: int) -> list[Hand]:
    """Play-phase positions whose legal moves have not been generated yet."""
    rng = random.Random(seed)
    positions: list[Hand] = []
    while len(positions) < count:
        hand = Hand.new(rng=rng)
        while not hand.is_over:
            action = rng.choice(hand.legal_actions())
            hand.apply(action)
            if hand.phase is Phase.PLAYING:
                positions.append(hand.copy())
    return positions[:count]


def legal_generations(positions: list[Hand]) -> float:
    """Seconds to generate the legal moves of every position once."""
    start = time.perf_counter()
    for position in positions:
        position.legal_actions()
    return time.perf_counter() - start


def apply_undo(positions: list[Hand]) -> tuple[float, int]:
    """Seconds for one apply and one undo of the first legal move of every position."""
    moves = [(p, p.legal_actions()[0]) for p in positions]
    start = time.perf_counter()
    for position, move in moves:
        position.apply(move)
        position.undo()
    return time.perf_counter() - start, len(moves)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    gc.disable()
    try:
        _report(argv)
    finally:
        gc.enable()


def _report(argv: list[str] | None) -> None:
    parser = argparse.ArgumentParser(prog="python -m baloot.bench", description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000, help="random hands to play")
    parser.add_argument("--positions", type=int, default=100_000, help="play positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    random_hands(200, args.seed + 1)  # warm the caches and the interpreter
    for label, hokum in (("random hands:     ", False), ("random Hokum hands:", True)):
        seconds, decisions, hokums = random_hands(args.hands, args.seed, hokum)
        print(
            f"{label} {args.hands / seconds:10,.0f} hands/s "
            f"({hokums} Hokum, {decisions / args.hands:.1f} decisions a hand, "
            f"{decisions / seconds:,.0f} decisions/s)"
        )
    positions = play_positions(args.positions, args.seed)
    seconds = legal_generations(positions)
    print(f"legal generations: {len(positions) / seconds:10,.0f} per second (play phase)")
    seconds, count = apply_undo(positions)
    print(f"apply + undo:      {count / seconds:10,.0f} pairs per second (play phase)")


if __name__ == "__main__":
    main()
