"""CPU milliseconds a decision of the ``neural`` bot, by kind (calls, declarations and cards),
with each way of calling: ``python scripts/bench_neural.py [--hands N] [BOT …]``.

Four bots of the same name play ``N`` hands; each decision's CPU time (``time.thread_time``)
is counted under what it was: a call (bidding, trump, doubling) or a play (a card or a
declaration). Forced decisions (one legal action) count too, as a table asks them as well.
Each bot's line gives the mean, the median, the 99th percentile and the longest decision.
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


def measure(name: str, hands: int, seed: int) -> dict[str, list[float]]:
    """Each decision's CPU seconds by kind, for ``hands`` hands of four ``name`` bots."""
    times: dict[str, list[float]] = {"calls": [], "plays": []}
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
            times[kind].append(time.thread_time() - start)
            hand.apply(hand.announced(action))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("bots", nargs="*", default=["neural", "neural:calls=expert"])
    args = parser.parse_args()
    for name in args.bots:
        found = measure(name, args.hands, args.seed)
        every = sorted(t for kind in found.values() for t in kind)
        n = len(every)
        parts = ", ".join(
            f"{k} {1000 * sum(t) / max(1, len(t)):.3f} ms ({len(t)})" for k, t in found.items()
        )
        print(
            f"{name}: {1000 * sum(every) / n:.3f} CPU ms a decision over {n} ({parts}); "
            f"median {1000 * every[n // 2]:.3f}, p99 {1000 * every[int(n * 0.99)]:.3f}, "
            f"max {1000 * every[-1]:.3f} ms"
        )


if __name__ == "__main__":
    main()
