"""``baloot play``: the options of the terminal game, checked, and its start.

The game itself is :mod:`baloot.cli.game`.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys
from pathlib import Path

from baloot.bots.base import check_bot_name
from baloot.bots.names import UnknownBotError
from baloot.core.errors import BalootError, IllegalActionError, RecordError
from baloot.core.rules import Rules
from baloot.core.seats import Seat
from baloot.records.record import loads
from baloot.table import PlayerKind, Table, first_dealer
from baloot.words.strings import LANGUAGES

from .files import read_record_text
from .game import DEFAULT_BOT, TERMINAL_DELAY, Game, Options, seat_bots
from .keeping import COMMAND_VARIABLE, PLAY_COMMAND
from .options import add_rules_arguments, rules_from_arguments, seed
from .saving import SaveError, save_path
from .terminal import GameConsole

HELP = "play a match to 152 in the terminal against bots"
EPILOG = """examples:
  baloot play                          you sit South against three bots of the medium level
  baloot play --seed 7 --lang ar       a reproducible match, in Arabic
  baloot play --seat N --bots W=random,S=heuristic,E=random --save match.baloot
  baloot play --rules federation --rule must_undertrump=true
  baloot play --auto --save friday.baloot   a forced card plays itself; keep the match
  baloot play --resume friday.baloot        go on with a saved or interrupted match

while playing, type ? for the commands: l (last tricks), s (score sheet), u (undo),
h (hint), c (claim the rest, Sawa)"""

USAGE_ERROR = 2
#: The longest pause after a trick that ``--delay`` takes, in seconds.
MAX_DELAY = 10.0


class PlayUsageError(BalootError, ValueError):
    """A command-line value that ``baloot play`` cannot use."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot play``."""
    seats = [s.name for s in Seat]
    parser.add_argument(
        "--seat",
        choices=seats,
        help="your seat (default S); your partner sits opposite",
    )
    parser.add_argument(
        "--bots",
        metavar="SPEC",
        help=f"the bots: one name for all three (default {DEFAULT_BOT}), or per seat, "
        f"e.g. W=random,E=heuristic (seats left out play {DEFAULT_BOT}); a name may carry options "
        "(expert:hard) or be a program (cmd:COMMAND, or a path)",
    )
    parser.add_argument(
        "--seed", type=seed, help="a seed for a reproducible match (deck, first dealer and bots)"
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--lang", choices=list(LANGUAGES), default="en", help="language: en or ar (Arabic)"
    )
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write the match record (baloot/1) here, at the end or when the game is stopped",
    )
    parser.add_argument("--force", action="store_true", help="let --save replace an existing file")
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="continue a saved or interrupted match (seats, bots, rules and seed come from "
        "the record; it is saved back to FILE unless --save names another file)",
    )
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
        "--auto",
        action="store_true",
        help="play a forced single card by itself (when the rules leave only one)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar="SECONDS",
        help=f"pause after each trick in a terminal, 0 to {MAX_DELAY:g} "
        f"(default {TERMINAL_DELAY}; 0 when piped)",
    )


def parse_bots(spec: str, human: Seat) -> dict[Seat, str]:
    """``heuristic`` → that bot at the three other seats; ``W=random,E=heuristic`` → per seat.

    A bot is any bot name (``docs/bots.md``): ``expert:samples=20,hard``, ``cmd:python3
    bot.py``, ``./mybot``; in the per-seat form a part that does not begin with ``SEAT=``
    belongs to the name before it (its options).

    >>> parse_bots("W=random", Seat.S)[Seat.W], parse_bots("random", Seat.S)[Seat.N]
    ('random', 'random')
    >>> parse_bots("W=heuristic,E=random:x,y", Seat.S)
    Traceback (most recent call last):
    ...
    baloot.cli.play.PlayUsageError: bot 'random' has no option 'x' (it takes no options)
    """
    others = [s for s in Seat if s != human]
    spec = spec.strip()
    if _SEAT_PART.match(spec) is None:
        names = dict.fromkeys(others, spec)
    else:
        names = dict.fromkeys(others, DEFAULT_BOT)
        parts: list[str] = []
        for part in spec.split(","):
            if parts and _SEAT_PART.match(part) is None:
                parts[-1] += "," + part
            else:
                parts.append(part)
        for part in parts:
            seat_text, _, name = part.partition("=")
            seat_text, name = seat_text.strip().upper(), name.strip()
            if not name or seat_text not in Seat.__members__:
                raise PlayUsageError(f"--bots takes NAME or SEAT=NAME,SEAT=NAME, not {part!r}")
            seat = Seat[seat_text]
            if seat == human:
                raise PlayUsageError(
                    f"{seat.name} is your seat (--seat {human.name}): name bots for the others"
                )
            names[seat] = name
    for name in set(names.values()):
        _check_bot(name)
    return names


#: The beginning of a per-seat part of ``--bots``: ``W=``.
_SEAT_PART = re.compile(r"\s*[NESWnesw]\s*=")


def _check_bot(name: str, where: str = "") -> None:
    """A usage error, in one line, unless ``name`` names a bot."""
    try:
        check_bot_name(name)
    except UnknownBotError as error:
        raise PlayUsageError(f"{where}{error}") from None


def parse_options(args: argparse.Namespace) -> Options:
    """Check the command line: rules, bots, seat, file; raise :class:`BalootError` if wrong."""
    human = Seat[args.seat or "S"]
    rules = rules_from_arguments(args) or Rules.preset(args.rules)
    bots = parse_bots(args.bots or DEFAULT_BOT, human)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    resume = Path(args.resume) if args.resume else None
    save = _checked_save(args.save, bool(args.force), resume)
    if args.delay is not None and not (math.isfinite(args.delay) and 0 <= args.delay <= MAX_DELAY):
        raise PlayUsageError(f"--delay takes 0 to {MAX_DELAY:g} seconds")
    name = str(args.name).strip()
    if not name or name.startswith("bot:"):
        raise PlayUsageError("--name must not be empty or start with bot:")
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
        auto=bool(args.auto),
        force=bool(args.force),
        resume=resume,
        command=started_as(),
    )


def started_as() -> tuple[str, ...]:
    """The command the person started the game with: ``baloot play``, unless a script that
    starts it names itself in :data:`~baloot.cli.keeping.COMMAND_VARIABLE` (``scripts/play``
    does, as it was typed: ``./scripts/play``)."""
    given = os.environ.get(COMMAND_VARIABLE, "")
    return (given,) if given.strip() and given.isprintable() else PLAY_COMMAND


def _checked_save(text: str | None, force: bool, resume: Path | None) -> Path | None:
    """``--save``, checked before the match begins (a folder, a missing folder, or a file
    that exists without ``--force`` is refused at once); with ``--resume`` alone, the resumed
    file itself."""
    if not text:
        return resume
    try:
        path = save_path(text)
    except SaveError as error:
        raise PlayUsageError(str(error)) from None
    if path.exists() and not force and path != resume:
        raise PlayUsageError(f"{text} exists: give --force to replace it, or another name")
    return path


def resume_table(options: Options) -> tuple[Table, Options]:
    """The table of the match in ``options.resume``, and the options it implies."""
    assert options.resume is not None
    record = loads(read_record_text(str(options.resume)))
    if not record.is_match:
        raise PlayUsageError(f"{options.resume} holds one hand, not a match to resume")
    players = record.metadata.get("players")
    if not isinstance(players, dict):
        raise PlayUsageError(f"{options.resume} does not name its players")
    seed = record.metadata.get("x_seed")
    seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else options.seed
    names = {}
    for seat in Seat:
        label = str(players.get(seat.name, "bot:" + DEFAULT_BOT))
        name = label[4:] if label.startswith("bot:") else DEFAULT_BOT
        _check_bot(name, f"{options.resume}, {seat.name}: ")
        names[seat] = name
    table = Table.resume(record, seat_bots(names, seed), seed)
    humans = table.humans
    if len(humans) != 1:
        raise PlayUsageError(f"{options.resume} has {len(humans)} human players, not one")
    if table.match.is_over:
        raise PlayUsageError(f"the match in {options.resume} is already over")
    human = humans[0]
    resumed = Options(
        **{
            **options.__dict__,
            "human": human,
            "name": table.players[human].name,
            "bots": {
                s: table.players[s].name for s in Seat if table.players[s].kind is PlayerKind.BOT
            },
            "seed": seed,
            "rules": record.rules,
            "preset": record.preset,
            "dealer": table.match.first_dealer,
        }
    )
    return table, resumed


def run(args: argparse.Namespace) -> int:
    """Play a match; 0 when it was played to the end, 1 on end of input, 130 on Ctrl-C."""
    table = None
    try:
        options = parse_options(args)
        if options.resume is not None:
            table, options = resume_table(options)
    except (BalootError, IllegalActionError, RecordError) as error:
        print(f"baloot play: {error}", file=sys.stderr)
        return USAGE_ERROR
    console = GameConsole(
        no_color=True if options.no_color else None, highlight=False, emoji=False, markup=False
    )
    game = Game(options, console, table=table)
    return game.run()
