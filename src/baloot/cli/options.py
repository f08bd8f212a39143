"""Command-line options shared by the commands: the rules preset and single flags."""

from __future__ import annotations

import argparse
import random

from baloot.rules import PRESETS, Rules
from baloot.seats import Seat

RANDOM = "random"


def add_rules_arguments(parser: argparse.ArgumentParser, *, random_per: str = "") -> None:
    """Add ``--rules PRESET`` and repeatable ``--rule FLAG=VALUE``.

    With ``random_per`` (e.g. ``"match"``), ``--rules random`` draws the flags anew for each.
    """
    choices = [*PRESETS, RANDOM] if random_per else list(PRESETS)
    parser.add_argument(
        "--rules",
        default="classic",
        choices=choices,
        help=f"a preset{f', or random flags for every {random_per}' if random_per else ''}",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FLAG=VALUE",
        help="change one rule flag (repeatable), e.g. must_undertrump=true",
    )


def rules_from_arguments(args: argparse.Namespace) -> Rules | None:
    """The rules asked for, or None for ``--rules random``; a bad flag is a RulesError."""
    if args.rules == RANDOM:
        return None
    rules = Rules.preset(args.rules)
    for assignment in args.rule:
        rules = rules.with_flag_text(assignment)
    return rules


def first_dealer(seed: int) -> Seat:
    """The first dealer of the match of ``seed`` when none is named.

    ``baloot play --seed N`` deals its first hand with it, and ``baloot deal --seed N`` shows
    that same hand: the dealer comes from its own ``random.Random(seed)``, apart from the
    match's shuffles.

    >>> [first_dealer(seed).name for seed in range(4)]
    ['E', 'W', 'N', 'W']
    """
    return Seat(random.Random(seed).randrange(4))
