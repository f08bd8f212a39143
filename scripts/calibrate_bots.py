"""Seconds per decision of each bot (level or budget), on one core, by kind of decision.

Each named bot plays seeded hands as North–South against two heuristic bots; every one of its
decisions is timed in CPU seconds (``time.process_time``, so other work on the machine does
not count) and grouped as a call (bidding, trump naming, doubling) or a card by trick.

    PYTHONPATH=src .venv/bin/python scripts/calibrate_bots.py --hands 6 hard medium easy
    PYTHONPATH=src .venv/bin/python scripts/calibrate_bots.py expert:samples=20 ismcts:fast

Prints one table per bot: decisions, mean, 90th percentile and slowest, in milliseconds.
Exit status 2 for an unknown bot or bad options.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence

from baloot.bots import make_bot, play_hand
from baloot.bots.expert.support import accelerated
from baloot.core.actions import Action
from baloot.core.errors import BalootError
from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.core.vocabulary import Phase
from baloot.table.players import Bot
from baloot.view.seat_view import SeatView

DEFAULT_BOTS = ("easy", "medium", "hard", "ismcts", "ismcts:fast")


class Timed:
    """A bot whose decisions are timed in CPU seconds, grouped by kind."""

    def __init__(self, bot: Bot, times: dict[str, list[float]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        start = time.process_time()
        action = self.bot.choose(view, legal)
        seconds = time.process_time() - start
        if len(legal) > 1:
            self.times[_kind(view)].append(seconds)
            self.times["all"].append(seconds)
        return action


def _kind(view: SeatView) -> str:
    if view.phase is Phase.PLAYING:
        return f"trick {view.trick_number + 1}"
    if view.phase is Phase.DOUBLING:
        return "double"
    return "call"


def measure(name: str, hands: int, seed: int) -> dict[str, list[float]]:
    """The decision times of bot ``name`` over ``hands`` seeded hands."""
    times: dict[str, list[float]] = defaultdict(list)
    for number in range(hands):
        deal = random.Random(seed + number)
        bots: dict[Seat, Bot] = {}
        for seat in Seat:
            rng = random.Random(seed * 4 + number * 16 + int(seat))
            if seat.team == 0:
                bots[seat] = Timed(make_bot(name, rng), times)
            else:
                bots[seat] = make_bot("heuristic", rng)
        play_hand(Hand.new(rng=deal, dealer=Seat(number % 4)), bots)
    return times


def report(name: str, times: dict[str, list[float]]) -> None:
    print(f"{name}  (ms per decision, CPU time of one core)")
    print(f"  {'kind':<9} {'count':>6} {'mean':>8} {'p90':>8} {'max':>8}")
    order = ["all", "call", "double", *(f"trick {n}" for n in range(1, 9))]
    for kind in order:
        values = sorted(times.get(kind, []))
        if not values:
            continue
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(
            f"  {kind:<9} {len(values):>6} {1000 * statistics.fmean(values):>8.1f}"
            f" {1000 * p90:>8.1f} {1000 * values[-1]:>8.1f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs="*", default=list(DEFAULT_BOTS), help="bot names")
    parser.add_argument("--hands", type=int, default=4, help="hands per bot (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    args = parser.parse_args(argv)
    print(f"solver accelerated: {accelerated()}")
    for name in args.bots:
        try:
            times = measure(name, args.hands, args.seed)
        except (BalootError, ValueError) as error:
            print(f"calibrate_bots: {name}: {error}", file=sys.stderr)
            return 2
        report(name, times)
    return 0


if __name__ == "__main__":
    sys.exit(main())
