"""``baloot replay``: a record replayed, as a readable score sheet or as the JSON summary.

The sheet is :mod:`baloot.cli.replay_text`, the summary ``docs/records.md``'s; exit status 0,
1 for a record with an illegal action or a hand without the ``fair`` proof its other hands hold
(its line on stdout), 2 for a file that is not a record.
"""

from __future__ import annotations

import argparse

from baloot.core.errors import RecordError
from baloot.records.record import UnprovenHandError, loads
from baloot.records.replay import ReplayError, replay
from baloot.words.strings import LANGUAGES, strings

from .files import LIMIT_NOTE, Output, printable, read_record_text
from .messages import ILLEGAL, NOT_A_RECORD, OK, complain, error_line, illegal_line, json_text
from .replay_text import render_replay

HELP = "replay a record: the hands as a score sheet, or the JSON summary"
EPILOG = f"""{LIMIT_NOTE}

examples:
  baloot replay game.baloot            the hands as a readable score sheet
  baloot replay game.baloot --lang ar  the score sheet in Arabic
  baloot replay game.baloot --json     the summary of docs/records.md
  baloot random --seed 1 | baloot replay -"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``baloot replay``."""
    parser.add_argument("file", help="a .baloot (TOML) or JSON record; - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the JSON of docs/records.md")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the language of the sheet (default en)"
    )


def run(args: argparse.Namespace) -> int:
    """Replay the record and print its sheet or summary; the exit status."""
    out = Output()
    try:
        record = loads(read_record_text(args.file))
        result = replay(record)
    except UnprovenHandError as error:  # a proof stripped from a hand (docs/records.md)
        said = {"error": {"hand": error.hand, "reason": error.reason}}
        out.line(json_text(said) if args.json else error_line(error))
        return ILLEGAL
    except RecordError as error:
        complain(error_line(error))
        return NOT_A_RECORD
    except ReplayError as error:
        out.line(json_text(error.to_json()) if args.json else illegal_line(error))
        return ILLEGAL
    if args.json:
        out.line(json_text(result.to_json()))
    else:
        text = render_replay(result, strings(args.lang))
        out.line("\n".join(printable(line) for line in text.split("\n")))
    return OK
