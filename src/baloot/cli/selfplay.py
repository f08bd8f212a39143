"""``baloot selfplay``: bots play hands, and every decision goes into Parquet shards with the
double-dummy value of each legal play (:mod:`baloot.rl.selfplay`, ``docs/rl.md``).

The run is kept in its folder as it goes (:mod:`baloot.rl.dataset`): the same command run again
goes on from there. Ctrl-C (SIGINT) and SIGTERM stop it at once: the workers are ended, no file
is left half written, one line goes to stderr and the exit status is 130 or 143. A bad argument
is one line on stderr and status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from baloot.bots.base import check_bot_name
from baloot.bots.names import UnknownBotError

from .files import Output, check_writable_dir
from .options import add_rules_arguments, rules_from_arguments, seed
from .runs import RUN_ERRORS, progress_bar, run_failed
from .signals import until_interrupted

HELP = "bots play hands; every decision is kept with its exact values, for learning"
EPILOG = """examples:
  baloot selfplay --bots heuristic --hands 10000 --out data/ --jobs 2
  baloot selfplay --bots heuristic --hands 1000000 --out data/ --ray auto
needs pip install -e '.[data]' (pyarrow and NumPy)"""

#: The most hands a run takes, and the most a shard holds.
MAX_HANDS: Final = 10**9
MAX_SHARD_HANDS: Final = 100_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot selfplay``."""
    parser.add_argument(
        "--bots", required=True, metavar="NAME", help="the registered bot in every seat"
    )
    parser.add_argument("--hands", type=int, required=True, metavar="N", help="hands to play")
    parser.add_argument(
        "--out", required=True, metavar="DIR", help="the run's folder: shards and card"
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the whole run")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="K", help="processes (cores) of this machine"
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play the shards on a Ray cluster: its address, auto or local (as baloot arena)",
    )
    parser.add_argument(
        "--shard-hands",
        type=int,
        default=200,
        metavar="N",
        help="hands in a shard (default 200)",
    )
    add_rules_arguments(parser, random_per="hand")


def run(args: argparse.Namespace) -> int:
    """Play the run into its folder; 130 or 143 when interrupted by a signal."""
    return until_interrupted(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    try:
        from baloot.rl.dataset import run_selfplay
        from baloot.rl.selfplay import SelfplayConfig, import_arrow

        import_arrow()
    except ImportError as error:
        ours = "pip install -e" in str(error)  # says the extra to install already
        return _usage(str(error) if ours else f"selfplay needs NumPy: {error}")
    try:
        check_bot_name(args.bots, programs=False)
    except UnknownBotError as error:
        return _usage(str(error))
    if not 1 <= args.hands <= MAX_HANDS:
        return _usage(f"--hands is from 1 to {MAX_HANDS:,}")
    if not 1 <= args.shard_hands <= MAX_SHARD_HANDS:
        return _usage(f"--shard-hands is from 1 to {MAX_SHARD_HANDS:,}")
    if args.jobs < 1:
        return _usage("--jobs must be at least 1")
    if args.ray is not None and args.ray != "local" and args.jobs != 1:
        return _usage("--jobs is for one machine: a Ray cluster runs on all its cores")
    config = SelfplayConfig(
        args.bots, args.hands, args.seed, rules_from_arguments(args), args.shard_hands
    )
    check_writable_dir(Path(args.out))
    try:
        with progress_bar("selfplay", config.shards) as done:
            folder = run_selfplay(
                config, args.out, args.jobs, args.ray, lambda f: done(len(f.finished))
            )
    except RUN_ERRORS as error:
        return run_failed(error)
    card = folder.card()
    Output().line(
        f"{card['hands']:,} hands, {card['decisions']:,} decisions "
        f"({card['labelled']:,} with values) in {args.out}"
    )
    return 0


def _usage(message: str) -> int:
    print(f"baloot: {message}", file=sys.stderr)
    return 2
