"""``baloot play``: the options of the terminal game, checked, and its start.

The game itself is :mod:`baloot.cli.game`.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from rich.console import Console

from baloot.bots import available_bots
from baloot.errors import BalootError
from baloot.rules import Rules
from baloot.seats import Seat

from .game import TERMINAL_DELAY, Game, Options
from .i18n import LANGUAGES
from .options import add_rules_arguments, first_dealer, rules_from_arguments

USAGE_ERROR = 2
DEFAULT_BOT = "heuristic"


class PlayUsageError(BalootError, ValueError):
    """A command-line value that ``baloot play`` cannot use."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot play``."""
    seats = [s.name for s in Seat]
    parser.add_argument(
        "--seat",
        choices=seats,
        default="S",
        help="your seat (default S); your partner sits opposite",
    )
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOT,
        metavar="SPEC",
        help="the bots: one name for all three (default heuristic), or per seat, "
        "e.g. W=random,E=heuristic (seats left out play heuristic)",
    )
    parser.add_argument(
        "--seed", type=int, help="a seed for a reproducible match (deck, first dealer and bots)"
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--lang", choices=list(LANGUAGES), default="en", help="language: en or ar (Arabic)"
    )
    parser.add_argument("--save", metavar="FILE", help="write the match record (baloot/1) here")
    parser.add_argument("--name", default="you", help="your name in the saved record")
    parser.add_argument("--dealer", choices=seats, help="the first dealer (default: by the seed)")
    parser.add_argument(
        "--no-color", action="store_true", help="no colour (also with NO_COLOR set)"
    )
    parser.add_argument(
        "--auto-declare",
        action="store_true",
        help="declare your projects for you (the strongest allowed declaration)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar="SECONDS",
        help=f"pause after each trick in a terminal (default {TERMINAL_DELAY}; 0 when piped)",
    )


def parse_bots(spec: str, human: Seat) -> dict[Seat, str]:
    """``heuristic`` → that bot at the three other seats; ``W=random,E=heuristic`` → per seat.

    >>> parse_bots("W=random", Seat.S)[Seat.W], parse_bots("random", Seat.S)[Seat.N]
    ('random', 'random')
    """
    others = [s for s in Seat if s != human]
    known = available_bots()
    spec = spec.strip()
    if "=" not in spec:
        names = dict.fromkeys(others, spec)
    else:
        names = dict.fromkeys(others, DEFAULT_BOT)
        for part in spec.split(","):
            seat_text, sep, name = part.partition("=")
            seat_text, name = seat_text.strip().upper(), name.strip()
            if not sep or not name or seat_text not in Seat.__members__:
                raise PlayUsageError(f"--bots takes NAME or SEAT=NAME,SEAT=NAME, not {part!r}")
            seat = Seat[seat_text]
            if seat == human:
                raise PlayUsageError(
                    f"{seat.name} is your seat (--seat {human.name}): name bots for the others"
                )
            names[seat] = name
    for name in names.values():
        if name not in known:
            raise PlayUsageError(f"unknown bot {name!r} (available: {', '.join(sorted(known))})")
    return names


def parse_options(args: argparse.Namespace) -> Options:
    """Check the command line: rules, bots, seat, file; raise :class:`BalootError` if wrong."""
    human = Seat[args.seat]
    rules = rules_from_arguments(args) or Rules.preset(args.rules)
    bots = parse_bots(args.bots, human)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    save = Path(args.save) if args.save else None
    if save is not None and not save.parent.is_dir():
        raise PlayUsageError(f"cannot save to {save}: no folder {save.parent}")
    if args.delay is not None and args.delay < 0:
        raise PlayUsageError("--delay must not be negative")
    name = str(args.name).strip()
    if not name:
        raise PlayUsageError("--name must not be empty")
    dealer = Seat[args.dealer] if args.dealer else first_dealer(seed)
    return Options(
        human=human,
        bots=bots,
        seed=seed,
        rules=rules,
        preset=args.rules,
        lang=args.lang,
        save=save,
        name=name,
        dealer=dealer,
        auto_declare=bool(args.auto_declare),
        delay=args.delay,
        no_color=bool(args.no_color),
    )


def run(args: argparse.Namespace) -> int:
    """Play a match; 0 when it was played to the end, 1 on end of input, 130 on Ctrl-C."""
    try:
        options = parse_options(args)
    except BalootError as error:
        print(f"baloot play: {error}", file=sys.stderr)
        return USAGE_ERROR
    console = Console(
        no_color=True if options.no_color else None, highlight=False, emoji=False, markup=False
    )
    game = Game(options, console)
    return game.run()
