"""``baloot arena``: two bots in duplicate games, with a progress bar and a verdict.

Ctrl-C (SIGINT) and SIGTERM stop a run at once: the workers are ended, no record is left half
written, one line goes to stderr and the exit status is 130 or 143.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from baloot.bots import available_bots
from baloot.bots.arena import ArenaConfig, ArenaSummary, run_arena
from baloot.table.players import BotError

from .files import Output, check_writable_dir, silence_stdout, write_atomic
from .options import add_rules_arguments, rules_from_arguments
from .signals import Stopped, stopping_on


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options."""
    parser.add_argument("bot_a", metavar="BOT_A", help="a bot name (see --list)")
    parser.add_argument("bot_b", metavar="BOT_B")
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--matches", type=int, metavar="N", help="duplicate pairs of matches (default 100)"
    )
    size.add_argument("--hands", type=int, metavar="N", help="duplicate pairs of single hands")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole schedule")
    parser.add_argument("--jobs", type=int, default=1, metavar="K", help="processes (cores)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    parser.add_argument(
        "--out", metavar="DIR", help="write every game as a baloot/1 record (atomically)"
    )
    add_rules_arguments(parser, random_per="pair")


def run(args: argparse.Namespace) -> int:
    """Play the schedule and print the verdict; 130 or 143 when interrupted by a signal."""
    try:
        with stopping_on(signal.SIGINT, signal.SIGTERM):
            return _run(args)
    except (Stopped, KeyboardInterrupt) as stop:
        status = stop.status if isinstance(stop, Stopped) else 130
        print("baloot: interrupted", file=sys.stderr)
        return status


def _run(args: argparse.Namespace) -> int:
    bots = available_bots()
    for name in (args.bot_a, args.bot_b):
        if name not in bots:
            print(
                f"baloot: unknown bot {name!r} (available: {', '.join(sorted(bots))})",
                file=sys.stderr,
            )
            return 2
    count = args.hands if args.hands is not None else args.matches
    if count is None:
        count = 100
    if count < 1 or args.jobs < 1:
        print("baloot: --matches, --hands and --jobs must be at least 1", file=sys.stderr)
        return 2
    rules = rules_from_arguments(args)
    if args.out is not None:
        check_writable_dir(Path(args.out))  # before any game is played
    config = ArenaConfig(
        args.bot_a,
        args.bot_b,
        count,
        args.seed,
        args.hands is not None,
        rules,
        args.out,
        write=write_atomic,
    )
    err = Console(stderr=True)
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
            disable=not err.is_terminal,
        ) as progress:
            task = progress.add_task(f"{args.bot_a} vs {args.bot_b}", total=count)
            summary = run_arena(
                config, args.jobs, lambda s: progress.update(task, completed=s.pairs)
            )
    except BotError as error:
        print(f"baloot: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a record that could not be written
        where = f" {error.filename}" if error.filename else ""
        print(f"baloot: cannot write{where}: {error.strerror or error}", file=sys.stderr)
        return 2
    if args.json:
        Output().line(json.dumps(summary.to_json()))
    else:
        try:
            Console().print(render(summary, args.jobs))
        except BrokenPipeError:
            silence_stdout()
    return 0


def render(summary: ArenaSummary, jobs: int) -> Table:
    """The verdict as a table."""
    data = summary.to_json()
    config = summary.config
    kind = "hands" if config.hands else "matches"
    table = Table(
        title=f"{config.bot_a} (A) vs {config.bot_b} (B): {summary.pairs} duplicate pairs of "
        f"{kind}, {summary.hands} hands, rules {data['rules']}, seed {config.seed}",
        title_justify="left",
    )
    table.add_column("")
    table.add_column(f"A: {config.bot_a}", justify="right")
    table.add_column(f"B: {config.bot_b}", justify="right")
    a, b = summary.sides
    if not config.hands:
        rate, low, high = summary.match_win_rate()
        table.add_row(
            "matches won",
            f"{a.match_wins} ({rate:.1%}, 95% {low:.1%}–{high:.1%})",
            f"{b.match_wins}",
        )
    mean, low, high = summary.points_per_hand()
    table.add_row("game points per hand, A − B", f"{mean:+.2f} (95% {low:+.2f} to {high:+.2f})", "")
    played = max(1, summary.played_hands)
    table.add_row("hands bid", *(f"{s.bids} ({s.bids / played:.0%})" for s in (a, b)))
    table.add_row("bids made", *(f"{s.made} ({s.made / max(1, s.bids):.0%})" for s in (a, b)))
    table.add_row("kaboots", *(f"{s.kaboots}" for s in (a, b)))
    table.add_row(
        "ms per decision",
        *(f"{1000 * s.seconds_per_decision:.3f}" for s in (a, b)),
    )
    table.caption = (
        f"{summary.seconds:.1f} s on {jobs} job{'s' if jobs > 1 else ''}: "
        f"{summary.hands / max(summary.seconds, 1e-9):,.0f} hands per second"
    )
    return table
