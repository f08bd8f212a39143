"""``baloot arena``: two bots in duplicate games, with a progress bar and a verdict.

A bot is any bot name (``docs/bots.md``): a registered bot, or an external program that speaks
``baloot-bot/1``. A bot that fails loses that game; the verdict reports it and the run goes on.
Ctrl-C (SIGINT) and SIGTERM stop a run at once: the workers and the bots' processes are ended,
no file is left half written, one line goes to stderr and the exit status is 130 or 143. With
``--out DIR`` every finished pair is kept, and the same command run again goes on from there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from baloot.bots.arena import ArenaConfig, ArenaSummary, run_arena
from baloot.bots.base import check_bot_name
from baloot.bots.names import UnknownBotError

from .files import Output, check_writable_dir, printable, silence_stdout
from .options import add_rules_arguments, rules_from_arguments, seed
from .runs import RUN_ERRORS, progress_bar, run_failed
from .signals import until_interrupted

HELP = "pit two bots against each other in duplicate games"
EPILOG = """examples:
  baloot arena heuristic random --matches 200 --jobs 2
  baloot arena heuristic random --hands 1000 --seed 3 --json
  baloot arena heuristic heuristic --matches 20 --out records/"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arena's options."""
    parser.add_argument(
        "bot_a",
        metavar="BOT_A",
        help="a bot: NAME[:OPTIONS] (e.g. heuristic), cmd:COMMAND, or a program's path",
    )
    parser.add_argument("bot_b", metavar="BOT_B", help="the other bot, named the same way")
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--matches", type=int, metavar="N", help="duplicate pairs of matches (default 100)"
    )
    size.add_argument("--hands", type=int, metavar="N", help="duplicate pairs of single hands")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the whole schedule")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="K", help="processes (cores) of this machine"
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the pairs on a Ray cluster: its address, auto (the one this machine joined) "
        "or local (a new one here; --jobs cores); needs pip install -e '.[ray]'",
    )
    parser.add_argument(
        "--cpu-ms",
        type=int,
        metavar="N",
        help="each decision's CPU-time budget in milliseconds (default: none; "
        "an external bot is told 1000 ms)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="keep every game's baloot/1 record and every pair's results in DIR, atomically; "
        "the same command run again goes on where it stopped",
    )
    add_rules_arguments(parser, random_per="pair")


def run(args: argparse.Namespace) -> int:
    """Play the schedule and print the verdict; 130 or 143 when interrupted by a signal."""
    return until_interrupted(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    for name in (args.bot_a, args.bot_b):
        try:
            check_bot_name(name)
        except UnknownBotError as error:
            return _usage(str(error))
    count = args.hands if args.hands is not None else args.matches
    if count is None:
        count = 100
    if count < 1 or args.jobs < 1:
        return _usage("--matches, --hands and --jobs must be at least 1")
    if args.cpu_ms is not None and args.cpu_ms < 1:
        return _usage("--cpu-ms must be at least 1")
    if args.ray is not None and args.ray != "local" and args.jobs != 1:
        return _usage("--jobs is for one machine: a Ray cluster runs on all its cores")
    rules = rules_from_arguments(args)
    if args.out is not None:
        check_writable_dir(Path(args.out))  # before any game is played
    config = ArenaConfig(
        args.bot_a,
        args.bot_b,
        count,
        seed=args.seed,
        hands=args.hands is not None,
        rules=rules,
        out=args.out,
        cpu_ms=args.cpu_ms,
    )
    try:
        with progress_bar(escape(printable(f"{args.bot_a} vs {args.bot_b}")), count) as done:
            summary = run_arena(config, args.jobs, lambda s: done(s.pairs), cluster=args.ray)
    except RUN_ERRORS as error:
        return run_failed(error)
    if args.json:
        Output().line(json.dumps(summary.to_json()))
    else:
        try:
            console = Console()
            console.print(render(summary, args.jobs, args.ray))
            for line in failure_lines(summary):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
        except BrokenPipeError:
            silence_stdout()
    return 0


def _usage(message: str) -> int:
    print(f"baloot: {message}", file=sys.stderr)
    return 2


#: How many failures the text verdict lists (``--json`` lists them all).
SHOWN_FAILURES = 10


def failure_lines(summary: ArenaSummary) -> list[str]:
    """The failures of the run, one line each (the first few), for the text verdict."""
    failures = summary.failures
    if not failures:
        return []
    lines = [f"{len(failures)} game{'s' if len(failures) > 1 else ''} lost by a bot's failure:"]
    lines += [printable(f"  {failure.line()}") for failure in failures[:SHOWN_FAILURES]]
    if len(failures) > SHOWN_FAILURES:
        lines.append(f"  … and {len(failures) - SHOWN_FAILURES} more (--json lists them all)")
    return lines


def render(summary: ArenaSummary, jobs: int, cluster: str | None = None) -> Table:
    """The verdict as a table; ``jobs`` and ``cluster`` say where it was played."""
    data = summary.to_json()
    config = summary.config
    kind = "hands" if config.hands else "matches"
    bot_a, bot_b = (escape(printable(name)) for name in (config.bot_a, config.bot_b))
    budget = f", {config.cpu_ms} CPU ms a decision" if config.cpu_ms is not None else ""
    table = Table(
        title=f"{bot_a} (A) vs {bot_b} (B): {summary.pairs} duplicate pairs of "
        f"{kind}, {summary.hands} hands, rules {data['rules']}, seed {config.seed}{budget}",
        title_justify="left",
    )
    table.add_column("")
    table.add_column(f"A: {bot_a}", justify="right")
    table.add_column(f"B: {bot_b}", justify="right")
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
    if a.failures or b.failures:
        table.add_row("games lost by failing", *(f"{s.failures}" for s in (a, b)))
    table.add_row(
        "ms per decision",
        *(f"{1000 * s.seconds_per_decision:.3f}" for s in (a, b)),
    )
    if config.cpu_ms is not None:
        table.add_row(
            "CPU ms per decision",
            *(f"{1000 * s.cpu_seconds_per_decision:.3f}" for s in (a, b)),
        )
    resumed = f"; {summary.resumed} pairs were finished before" if summary.resumed else ""
    if cluster is None:
        where = f"on {jobs} job{'s' if jobs > 1 else ''}"
    else:
        where = "on a local Ray instance" if cluster == "local" else f"on the Ray cluster {cluster}"
    table.caption = (
        f"{summary.seconds:.1f} s {where}: "
        f"{summary.hands_per_second:,.0f} hands per second{resumed}"
    )
    return table
