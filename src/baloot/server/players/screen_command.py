"""``baloot screen``: the collusion screen over the stored matches, the pairs far out listed
for an operator's review (``docs/integrity.md``).

The ``baloot`` entry point lists this command beside ``baloot ratings``; it exits 0 once the
screen is printed (whether or not it lists a pair: a listing is for review, not a verdict),
2 when the database cannot be opened or an option is not a number it takes. With ``--keep``
the result is kept in the store too, where the operators' page reads it (the page never runs
the solver): run it so from the server's scheduler, nightly, say.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any, Final

from baloot.analysis.blind import TRICKS, WORLDS, Budget
from baloot.server.players.collusion import (
    ACCURACY_LISTED,
    MIN_HANDS,
    Z_LISTED,
    Screen,
    Thresholds,
    screen,
)
from baloot.server.players.screen_runs import KeptPair
from baloot.server.storage import StorageError, open_store

#: The status when the database cannot be opened or an option is refused.
CANNOT: Final = 2

HELP: Final = "screen the stored matches for collusion: pairs far out listed for review"
EPILOG: Final = """\
examples:
  baloot screen --db baloot.db                      # pairs with 300 hands or more
  baloot screen --db baloot.db --min-hands 100 --json
  baloot screen --db postgresql://baloot@db/baloot --worlds 32
  baloot screen --db baloot.db --keep               # for the page /operator/screen
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot screen`` (numbers read as text, checked in :func:`run`, so
    that a bad one is refused in one line)."""
    parser.add_argument(
        "--db", required=True, metavar="FILE_OR_URL", help="SQLite file or postgresql:// URL"
    )
    parser.add_argument(
        "--min-hands",
        default=str(MIN_HANDS),
        metavar="N",
        help=f"hands with a counted lead before a pair is listed (default {MIN_HANDS})",
    )
    parser.add_argument(
        "--z",
        default=str(Z_LISTED),
        metavar="Z",
        help=f"the z-score against the other pairs that lists a pair (default {Z_LISTED})",
    )
    parser.add_argument(
        "--accuracy",
        default=str(ACCURACY_LISTED),
        metavar="SHARE",
        help=f"the accuracy that lists a pair (default {ACCURACY_LISTED})",
    )
    parser.add_argument(
        "--worlds",
        default=str(WORLDS),
        metavar="N",
        help=f"sampled worlds per lead (default {WORLDS})",
    )
    parser.add_argument(
        "--tricks",
        default=str(TRICKS),
        metavar="N",
        help=f"the leads of the first N tricks are looked at, 1 to 8 (default {TRICKS})",
    )
    parser.add_argument("--seed", default="0", metavar="N", help="the worlds' seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the screen as JSON")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the result in the store too, for the operators' page /operator/screen",
    )


def run(args: argparse.Namespace) -> int:
    """Screen the store at ``--db``; the exit status."""
    try:
        thresholds = Thresholds(
            _whole(args.min_hands, "--min-hands", 1),
            _number(args.z, "--z"),
            _share(args.accuracy),
        )
        budget = Budget(
            _whole(args.worlds, "--worlds", 1),
            _whole(args.tricks, "--tricks", 1, 8),
            _whole(args.seed, "--seed", 0),
        )
    except ValueError as error:
        return _cannot(str(error))
    target: str = args.db
    if not target.startswith(("postgresql://", "postgres://")) and not os.path.isfile(target):
        return _cannot(f"no SQLite database at {target}")
    try:
        store = open_store(target)
    except StorageError as error:
        return _cannot(str(error))
    started = time.time()
    kept: str | None = None
    try:
        found = screen(store, thresholds, budget)
        if args.keep:
            kept = store.keep_screen(started, time.time(), *kept_run(found))
    except StorageError as error:
        return _cannot(str(error))
    finally:
        store.close()
    if args.json:
        print(json.dumps({**found.to_json(), "kept": kept}, indent=2))
    else:
        print(_text(found))
        if kept is not None:
            print(f"kept as run {kept}: operators read it at /operator/screen")
    return 0


def kept_run(found: Screen) -> tuple[dict[str, Any], list[KeptPair]]:
    """What the store keeps of a screen: its population, thresholds and budget (with the
    count of pairs listed), and every pair's figures, the pairs listed first."""
    summary = found.to_json()
    del summary["listed"]
    summary["population"]["listed"] = len(found.listed)
    pairs = [
        KeptPair(
            pair.players,
            len(pair.matches),
            pair.hands,
            pair.decisions,
            pair.hits,
            round(others, 4),
            round(z, 2) if math.isfinite(z) else None,
            listed,
        )
        for pair, others, z, listed in found.standings()
    ]
    return summary, pairs


def _text(found: Screen) -> str:
    """The screen in lines: the population, then each pair listed."""
    summary = found.to_json()["population"]
    lines = [
        f"{found.matches} matches with partners, {summary['pairs']} pairs,"
        f" {found.decisions} blind leads: {100 * found.accuracy:.1f} % found a best card",
    ]
    if found.unreadable:
        lines.append(f"{len(found.unreadable)} records could not be read: {found.unreadable}")
    rule = found.thresholds
    lines.append(
        f"listed for review ({rule.min_hands}+ hands, z >= {rule.z:g}"
        f" or accuracy >= {100 * rule.accuracy:g} %): {len(found.listed) or 'none'}"
    )
    for pair, others, z in found.listed:
        shown = f"{z:.1f}" if math.isfinite(z) else "inf"
        lines.append(
            f"  {pair.players[0]} + {pair.players[1]}: {pair.hits}/{pair.decisions}"
            f" = {100 * pair.accuracy:.1f} % over {pair.hands} hands"
            f" (others {100 * others:.1f} %, z {shown})"
        )
    return "\n".join(lines)


def _whole(text: str, option: str, least: int, most: int | None = None) -> int:
    """``text`` as a whole number from ``least`` (to ``most``), or a ValueError naming it."""
    bound = f"from {least} to {most}" if most is not None else f"of {least} or more"
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least or (most is not None and value > most):
        raise ValueError(f"{option} must be a whole number {bound}, not {text!r}")
    return value


def _number(text: str, option: str) -> float:
    """``text`` as a finite number, or a ValueError naming ``option``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f"{option} must be a number, not {text!r}")
    return value


def _share(text: str) -> float:
    """``text`` as a share from 0 to 1 (``--accuracy``), or a ValueError."""
    value = _number(text, "--accuracy")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"--accuracy must be a share from 0 to 1, not {text!r}")
    return value


def _cannot(message: str) -> int:
    print(f"baloot screen: {message}", file=sys.stderr)
    return CANNOT
