"""Command-line options shared by the commands: the rules preset and single flags, seeds."""

from __future__ import annotations

import argparse

from baloot.core.rules import PRESETS, Rules
from baloot.records.record import WHOLE_NUMBERS

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


def seed(text: str) -> int:
    """A ``--seed``: a whole number of 64 bits, as a record's ``x_seed`` keeps it.

    >>> seed("-7"), seed(str(2**63 - 1)) == 2**63 - 1
    (-7, True)
    >>> seed(str(2**63))
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a seed is a whole number from -2**63 to 2**63 - 1
    """
    try:
        value = int(text) if len(text) <= 30 else None
    except ValueError:
        value = None
    if value is None or value not in WHOLE_NUMBERS:
        raise argparse.ArgumentTypeError("a seed is a whole number from -2**63 to 2**63 - 1")
    return value
