"""``baloot deal``: the deck a seed shuffles and the hands it deals, as ``baloot play`` would.

The same shuffle and the same first dealer as ``baloot play --seed N``; with ``--taker`` the
deal completed for that seat (:meth:`~baloot.core.hand.Hand.completed_deal`, R7.2).
"""

from __future__ import annotations

import argparse
import random

from baloot.core.hand import Hand
from baloot.core.seats import Seat
from baloot.table import first_dealer

from .files import Output
from .messages import OK
from .options import seed

HELP = "show the deck of a seed and the hands it gives"
EPILOG = """examples:
  baloot deal --seed 7                 the first deal of baloot play --seed 7
  baloot deal --seed 7 --dealer N --taker S"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot deal``."""
    parser.add_argument("--seed", type=seed, required=True)
    parser.add_argument(
        "--dealer",
        choices=[s.name for s in Seat],
        help="the dealer (default: the first dealer of baloot play --seed N)",
    )
    parser.add_argument(
        "--taker", choices=[s.name for s in Seat], help="who takes the exposed card"
    )


def run(args: argparse.Namespace) -> int:
    """The first deal of ``baloot play --seed N``: same shuffle, same first dealer."""
    dealer = Seat[args.dealer] if args.dealer else first_dealer(args.seed)
    hand = Hand.new(rng=random.Random(args.seed), dealer=dealer)
    deck = hand.deck
    lines = [
        f"seed {args.seed}, dealer {hand.dealer.name}",
        "deck: " + " ".join(c.text for c in deck),
        "first five:",
        *(f"  {seat.name}: {' '.join(c.pretty for c in hand.hand(seat))}" for seat in Seat),
        f"exposed: {hand.exposed.pretty}",
    ]
    if args.taker is None:
        lines.append("still to deal: " + " ".join(c.pretty for c in deck[21:]))
    else:
        taker = Seat.parse(args.taker)
        hands = hand.completed_deal(taker)
        lines.append(f"eight cards each when {taker.name} takes the exposed card:")
        lines.extend(f"  {seat.name}: {' '.join(c.pretty for c in hands[seat])}" for seat in Seat)
    Output().line("\n".join(lines))
    return OK
