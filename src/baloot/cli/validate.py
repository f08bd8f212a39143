"""``baloot validate``: records checked, one line each; a bulk file (JSON lines) line by line.

The exit status is the worst of them: 0 when every record replays cleanly, 1 when one has an
illegal action or a hand without the ``fair`` proof its other hands hold, 2 when a file is not
a record. A closed pipe does not stop the checks.
"""

from __future__ import annotations

import argparse

from baloot.core.errors import RecordError
from baloot.records.record import Record, UnprovenHandError, loads_all
from baloot.records.replay import ReplayError, replay

from .files import LIMIT_NOTE, Output, read_record_text, shown_path
from .messages import ILLEGAL, NOT_A_RECORD, OK, error_line, illegal_line

HELP = "check records: one line per file"
EPILOG = f"""{LIMIT_NOTE}

examples:
  baloot validate game.baloot
  baloot validate records/*.baloot     one line per file; exit 1 or 2 if any fails
  baloot random --seed 1 --count 50 --json > bulk.jsonl
  baloot validate bulk.jsonl            a bulk file: one JSON record a line"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The files ``baloot validate`` checks."""
    parser.add_argument("files", nargs="+", metavar="FILE")


def run(args: argparse.Namespace) -> int:
    """Check every record of every file, a line each; the worst exit status."""
    out = Output()  # a closed pipe does not stop the checks: the status tells the worst
    worst = OK
    for path in args.files:
        shown_name = shown_path(path)
        try:
            records = loads_all(read_record_text(path))
        except UnprovenHandError as error:  # a proof stripped from a hand (docs/records.md)
            out.line(f"{shown_name}: not fair: {error_line(error)}")
            worst = max(worst, ILLEGAL)
            continue
        except RecordError as error:
            out.line(f"{shown_name}: not a record: {error_line(error)}")
            worst = max(worst, NOT_A_RECORD)
            continue
        for line, record in enumerate(records, 1):
            where = shown_name if len(records) == 1 else f"{shown_name}:{line}"
            worst = max(worst, _validate_one(out, where, record))
    return worst


def _validate_one(out: Output, where: str, record: Record) -> int:
    try:
        result = replay(record)
    except RecordError as error:
        out.line(f"{where}: not a record: {error_line(error)}")
        return NOT_A_RECORD
    except ReplayError as error:
        out.line(f"{where}: illegal: {illegal_line(error)}")
        return ILLEGAL
    state = "in progress" if not result.hands[-1].is_over else "complete"
    count = len(result.hands)
    out.line(
        f"{where}: ok ({count} hand{'s' if count != 1 else ''}, {state}, "
        f"NS {result.totals[0]} EW {result.totals[1]})"
    )
    return OK
