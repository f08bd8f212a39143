"""CPU milliseconds a decision of the ``neural`` bot, by kind (calls, declarations and cards),
with each way of calling: ``python scripts/bench_neural.py [--hands N]``.

Four bots of the same name play ``N`` hands; each decision's CPU time (``time.thread_time``)
is counted under what it was: a call (bidding, trump, doubling) or a play (a card or a
declaration). Forced decisions (one legal action) count too, as a table asks them as well.
"""

from __future__ import annotations

import argparse
import random
import time

from baloot.bots.base import make_bot
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.view.seat_view import SeatView


def measure(name: str, hands: int, seed: int) -> dict[str, tuple[int, float]]:
    """Decisions and CPU seconds by kind, for ``hands`` hands of four ``name`` bots."""
    counts: dict[str, list[float]] = {"calls": [0, 0.0], "plays": [0, 0.0]}
    rng = random.Random(seed)
    for _ in range(hands):
        hand = Hand.new(rng=rng, dealer=Seat(rng.randrange(4)))
        bots = {seat: make_bot(name, random.Random(rng.randrange(1 << 30))) for seat in Seat}
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            kind = "plays" if hand.phase is Phase.PLAYING else "calls"
            start = time.thread_time()
            action = bots[seat].choose(SeatView.of(hand, seat), hand.legal_actions())
            counts[kind][0] += 1
            counts[kind][1] += time.thread_time() - start
            hand.apply(hand.announced(action))
    return {kind: (int(n), seconds) for kind, (n, seconds) in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("bots", nargs="*", default=["neural", "neural:calls=expert"])
    args = parser.parse_args()
    for name in args.bots:
        found = measure(name, args.hands, args.seed)
        n = sum(c for c, _ in found.values())
        total = sum(s for _, s in found.values())
        parts = ", ".join(f"{k} {1000 * s / max(1, c):.3f} ms ({c})" for k, (c, s) in found.items())
        print(f"{name}: {1000 * total / n:.3f} CPU ms a decision over {n} ({parts})")


if __name__ == "__main__":
    main()
