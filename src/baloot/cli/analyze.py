"""``baloot analyze``: every decision of a record judged, as a report or JSON (``--json``).

For each play and declaration, the exact value of every option in the real deal, what a bot
would have chosen from the seat's view alone, the loss of the choice made and its mark (``?!``
``?`` ``??``); for calls, the bot's estimates. ``--hand N --position K`` lists every option of
one decision. The computation is :mod:`baloot.analysis`; the report's tables are
:mod:`baloot.cli.analysis_report`, its words :mod:`baloot.words.analysis`.

A progress bar goes to standard error when it is a terminal, so ``--json`` output stays clean.
Exit status: 0, 1 for a record with an illegal action, 2 for a file that is not a record or a
bad option (one line on standard error), 130 on Ctrl-C and 143 on SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console, RenderableType

from baloot.analysis import (
    DEFAULT_BOT,
    FORMAT,
    THRESHOLDS,
    Decision,
    Mark,
    SolverAndBot,
    analyze_position,
    analyze_record,
)
from baloot.records.record import loads
from baloot.records.replay import ReplayError
from baloot.words.strings import LANGUAGES, strings

from .analysis_report import position_report, report
from .files import LIMIT_NOTE, Output, printable, read_record_text, silence_stdout
from .options import seed
from .runs import progress_bar
from .signals import until_interrupted

HELP = "judge every decision of a record: exact values in hindsight, a bot's choice without"
EPILOG = f"""{LIMIT_NOTE}

Position K is the decision that a hand's action K made: K counts the hand's actions
in the record from 1, as baloot replay numbers them in its messages ("action 13").
Plays and declarations are judged by exact values (the solver, all four hands known): the
hand's written score, the deciding team's minus the other's. Calls (bids, the trump,
doubles) are judged by the bot's sampled estimates. A loss of 2 is one game point handed to
the other team. Marks: ?! inaccuracy (loss >= {THRESHOLDS[Mark.INACCURACY]}), ? mistake
(>= {THRESHOLDS[Mark.MISTAKE]}), ?? blunder (>= {THRESHOLDS[Mark.BLUNDER]}); in a Gahwa hand
the values are the match (+1, -1) and any loss is a blunder.

examples:
  baloot analyze match.baloot                 every finished hand, as a report
  baloot analyze match.baloot --json          the JSON object of docs/analysis.md
  baloot analyze match.baloot --hand 2        one hand (finished or not)
  baloot analyze match.baloot --hand 2 --position 14   every option of one decision
  baloot analyze match.baloot --bot expert:fast        a quicker, rougher bot
  baloot analyze match.baloot --bot none      exact values only: quick, calls not judged

exit status: 0 done, 1 an illegal action in the record, 2 not a record or a bad option,
130 interrupted (Ctrl-C), 143 terminated."""

OK, ILLEGAL, BAD = 0, 1, 2
NO_BOT = "none"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot analyze``."""
    parser.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")
    parser.add_argument("--hand", type=int, metavar="N", help="only hand N (from 1)")
    parser.add_argument(
        "--position",
        type=int,
        metavar="K",
        help="every option of the decision of the hand's action K (from 1); needs --hand "
        "unless the record has one hand",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--bot",
        default=DEFAULT_BOT,
        metavar="NAME",
        help=f"the bot that estimates without hindsight, with its budget as options (default "
        f"{DEFAULT_BOT}; expert:fast is about ten times quicker; expert:samples=20,deals=20; "
        f"{NO_BOT}: exact values only)",
    )
    parser.add_argument(
        "--seed", type=seed, default=0, help="seed of the bot's estimates (default 0)"
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the report (default en)"
    )


def run(args: argparse.Namespace) -> int:
    """Analyse and print; 130 or 143 when interrupted by a signal."""
    return until_interrupted(lambda: _run(args))


def bot_name(args: argparse.Namespace) -> str | None:
    """The bot asked for; None for ``--bot none``."""
    name: str = args.bot
    return None if name == NO_BOT else name


def _run(args: argparse.Namespace) -> int:
    for option in ("hand", "position"):
        value = getattr(args, option)
        if value is not None and value < 1:
            return _bad(f"--{option} must be at least 1")
    record = loads(read_record_text(args.file))  # a RecordError: exit 2, said by main
    judge = SolverAndBot(bot_name(args), args.seed)
    s = strings(args.lang)
    hand = args.hand
    try:
        if args.position is not None:
            if hand is None:
                if len(record.hands) != 1:
                    return _bad("--position needs --hand: the record has several hands")
                hand = 1
            point, decision = analyze_position(record, judge, hand, args.position)
            if args.json:
                return _print_json(_position_json(decision, judge))
            return _print(position_report(decision, point.hand, judge, s))
        with progress_bar("analysing", None) as progress:
            analysis = analyze_record(record, judge, hand=hand, progress=progress)
    except ReplayError as error:
        text = printable(str(error))
        Output().line(json.dumps(error.to_json()) if args.json else text)
        return ILLEGAL
    if args.json:
        return _print_json(analysis.to_json())
    return _print(report(analysis, s))


def _bad(message: str) -> int:
    print(f"baloot: {message}", file=sys.stderr)
    return BAD


def _print_json(data: object) -> int:
    # ASCII escapes: what a record holds (player names) cannot reach the terminal raw.
    Output().line(json.dumps(data, ensure_ascii=True))
    return OK


def _print(renderable: RenderableType) -> int:
    try:
        Console().print(renderable)
    except BrokenPipeError:
        silence_stdout()
    return OK


def _position_json(decision: Decision, judge: SolverAndBot) -> dict[str, object]:
    """``--position --json``: the decision's object with what judged it."""
    return {
        "format": FORMAT,
        "bot": judge.bot,
        "seed": judge.seed,
        "thresholds": {mark.value: value for mark, value in THRESHOLDS.items()},
        "hand": decision.hand,
        "decision": decision.to_json(),
    }


# --------------------------------------------------------------------------- the report
